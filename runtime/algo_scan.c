/* runtime/algo_scan.c: amp_scan, prefix sums as reduce-then-scan (kernels_cl/scan.cl).
 *
 * G tiles each own a chunk of the view (a multiple of 4096 elements): amp_scan_sums writes each
 * chunk's sum to a temporary view of G elements, amp_scan_carry turns those into each chunk's
 * starting value (one tile), and amp_scan_apply scans every chunk from its start. */
#include <stdio.h>

#include "algo.h"

#define SCAN_TILE      256
#define SCAN_ITEMS     (4 * SCAN_TILE)
#define SCAN_MAX_TILES 1024 /* amp_scan_carry scans the G sums with one tile, 4 per thread */

amp_status amp_scan(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                    amp_scan_kind kind) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_scan";
  amp_kernel *ks = NULL, *kc = NULL, *ka = NULL;
  amp_array_view *sums = NULL;
  AMP__TRY(amp__algo_check_view(view, src, 1, 0, 0, "src", fn));
  AMP__TRY(amp__algo_check_view(view, dst, 1, 0, 1, "dst", fn));
  if (kind != AMP_SCAN_EXCLUSIVE && kind != AMP_SCAN_INCLUSIVE)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: kind is %d, which is not AMP_SCAN_EXCLUSIVE or AMP_SCAN_INCLUSIVE", fn,
              (int)kind);
  if (dst->type.kind != src->type.kind)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: dst holds another element type than src", fn);
  if (dst->extent.dim[0] != src->extent.dim[0])
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH, "%s: src has %d elements and dst %d; they must be equal",
              fn, src->extent.dim[0], dst->extent.dim[0]);
  amp_elem_kind t = src->type.kind;
  AMP__TRY(amp__algo_kernel("scan", NULL, t, "amp_scan_sums", &ks));
  AMP__TRY(amp__algo_kernel("scan", NULL, t, "amp_scan_carry", &kc));
  AMP__TRY(amp__algo_kernel("scan", NULL, t, "amp_scan_apply", &ka));

  size_t n = (size_t)src->extent.dim[0];
  size_t tiles = amp__algo_tiles(view, n, SCAN_ITEMS, SCAN_MAX_TILES);
  size_t steps = n / SCAN_ITEMS + (n % SCAN_ITEMS != 0); /* tile steps in all */
  size_t per = steps / tiles + (steps % tiles != 0);
  size_t chunk = per * SCAN_ITEMS;
  if (chunk > INT32_MAX) /* only with one tile per 2^31 elements: not on a real device */
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%s: chunks of %zu elements do not fit an int", fn, chunk);
  tiles = n / chunk + (n % chunk != 0);
  AMP__TRY(amp__array_view_create_empty(amp_extent1((int)tiles), src->type, fn, &sums));
  amp_arg a1[] = {amp_arg_view(src), amp_arg_view(sums), amp_arg_int((int)chunk)};
  AMP__TRY(amp__algo_launch1(view, ks, tiles, SCAN_TILE, a1, AMP_NARGS(a1)));
  amp_arg a2[] = {amp_arg_view(sums)};
  AMP__TRY(amp__algo_launch1(view, kc, 1, SCAN_TILE, a2, AMP_NARGS(a2)));
  amp_arg a3[] = {amp_arg_view(src), amp_arg_view(dst), amp_arg_view(sums), amp_arg_int((int)chunk),
                  amp_arg_int(kind == AMP_SCAN_INCLUSIVE)};
  AMP__TRY(amp__algo_launch1(view, ka, tiles, SCAN_TILE, a3, AMP_NARGS(a3)));
fail:
  amp_array_view_release(sums); /* waits for the scan */
  amp_kernel_release(ks);
  amp_kernel_release(kc);
  amp_kernel_release(ka);
  return status;
}
