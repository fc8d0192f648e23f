/* runtime/algorithms/prepare.c: amp_algorithms_prepare: the algorithms' kernels built for a view's
 * device ahead of their first call. Each algorithm asked for runs once on a small device array of
 * the type (its contents whatever the device's memory held: the results are thrown away), so the
 * kernels built are exactly the ones its calls choose on this device (CPU or GPU kernels, tile
 * shapes, passes), with no second copy of those choices here. The kernels stay built for the life
 * of the process (algo.c keeps them), and the call's own time is that of the builds. */
#include <stdio.h>

#include "algorithms/algo.h"

#define PREPARE_N    4096 /* elements: several tiles of every kernel's tuned shape */
#define PREPARE_SIDE 64   /* the transpose's square */

/* The bits amp_algorithms_prepare knows. */
#define PREPARE_KNOWN                                                                              \
  (AMP_PREPARE_REDUCE | AMP_PREPARE_SCAN | AMP_PREPARE_HISTOGRAM | AMP_PREPARE_SORT |              \
   AMP_PREPARE_TRANSPOSE)

static amp_status check_request(amp_accelerator_view *view, unsigned which, amp_elem_type type,
                                const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(view, AMP__MAGIC_VIEW, "accelerator view", fn));
  if (which & ~(unsigned)PREPARE_KNOWN)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: which is 0x%x, with bits 0x%x that name no algorithm (AMP_PREPARE_ALL is 0x%x)",
              fn, which, which & ~(unsigned)PREPARE_KNOWN, (unsigned)PREPARE_KNOWN);
  amp_elem_kind k = type.kind;
  if (k != AMP_ELEM_INT32 && k != AMP_ELEM_UINT32 && k != AMP_ELEM_FLOAT && k != AMP_ELEM_DOUBLE)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: type has kind %d; it takes AMP_INT32, AMP_UINT32, AMP_FLOAT or AMP_DOUBLE", fn,
              (int)k);
  if ((which & AMP_PREPARE_HISTOGRAM) && k != AMP_ELEM_INT32 && k != AMP_ELEM_UINT32)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: AMP_PREPARE_HISTOGRAM is asked for with type kind %d; amp_histogram counts "
              "AMP_INT32 or AMP_UINT32 only",
              fn, (int)k);
  if (k == AMP_ELEM_DOUBLE && !view->acc->props.supports_double_precision)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE, "%s: type is AMP_DOUBLE, but %s has no doubles", fn,
              view->acc->props.device_path);
fail:
  return status;
}

/* A view of a new device array of `extent` elements of `type` on the view. */
static amp_status scratch(amp_accelerator_view *view, amp_extent extent, amp_elem_type type,
                          amp_array_view **out) {
  amp_status status = AMP_SUCCESS;
  amp_array *a = NULL;
  AMP__TRY(amp_array_create(view, extent, type, &a));
  AMP__TRY(amp_array_view_of(a, out));
fail:
  amp_array_release(a); /* the view holds the array */
  return status;
}

static amp_status run_reduce_scan(amp_accelerator_view *view, unsigned which, amp_array_view *v,
                                  amp_array_view *w) {
  amp_status status = AMP_SUCCESS;
  double result[1];
  if (which & AMP_PREPARE_REDUCE) {
    AMP__TRY(amp_reduce(view, v, AMP_REDUCE_SUM, result));
    AMP__TRY(amp_reduce(view, v, AMP_REDUCE_MIN, result));
    AMP__TRY(amp_reduce(view, v, AMP_REDUCE_MAX, result));
  }
  if (which & AMP_PREPARE_SCAN)
    AMP__TRY(amp_scan(view, v, w, AMP_SCAN_INCLUSIVE));
fail:
  return status;
}

static amp_status run_histogram(amp_accelerator_view *view, amp_array_view *v) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *bins = NULL;
  AMP__TRY(scratch(view, amp_extent1(256), AMP_UINT32, &bins));
  AMP__TRY(amp_histogram(view, v, bins));
fail:
  amp_array_view_release(bins);
  return status;
}

static amp_status run_transpose(amp_accelerator_view *view, amp_elem_type type) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *sq = NULL, *sqt = NULL;
  AMP__TRY(scratch(view, amp_extent2(PREPARE_SIDE, PREPARE_SIDE), type, &sq));
  AMP__TRY(scratch(view, amp_extent2(PREPARE_SIDE, PREPARE_SIDE), type, &sqt));
  AMP__TRY(amp_transpose_view(view, sq, sqt));
  AMP__TRY(amp_array_view_wait(sqt));
fail:
  amp_array_view_release(sq);
  amp_array_view_release(sqt);
  return status;
}

static amp_status run_others(amp_accelerator_view *view, unsigned which, amp_elem_type type,
                             amp_array_view *v) {
  amp_status status = AMP_SUCCESS;
  if (which & AMP_PREPARE_HISTOGRAM)
    AMP__TRY(run_histogram(view, v));
  if (which & AMP_PREPARE_SORT)
    AMP__TRY(amp_sort(view, v));
  if (which & AMP_PREPARE_TRANSPOSE)
    AMP__TRY(run_transpose(view, type));
fail:
  return status;
}

amp_status amp_algorithms_prepare(amp_accelerator_view *view, unsigned which, amp_elem_type type) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_algorithms_prepare";
  amp_array_view *v = NULL, *w = NULL;
  AMP__TRY(check_request(view, which, type, fn));
  if (!which)
    return AMP_SUCCESS;
  AMP__TRY(scratch(view, amp_extent1(PREPARE_N), type, &v));
  AMP__TRY(scratch(view, amp_extent1(PREPARE_N), type, &w));
  AMP__TRY(run_reduce_scan(view, which, v, w));
  AMP__TRY(run_others(view, which, type, v));
fail:
  if (status != AMP_SUCCESS)
    amp__append_error(" (while amp_algorithms_prepare built the kernels)");
  amp_array_view_release(v);
  amp_array_view_release(w);
  return status;
}
