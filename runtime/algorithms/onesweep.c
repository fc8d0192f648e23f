/* runtime/algorithms/onesweep.c: the one-pass-per-digit radix sort behind amp_sort and
 * amp_sort_by_key on GPUs (kernels_cl/algorithms/onesweep.cl): a launch that zeroes the state, one
 * histogram pass over the keys, and four passes of 8-bit digits with decoupled look-back. Passes
 * alternate between the caller's views and temporaries, so after the fourth the result is back in
 * the caller's views. Moves 4 reads and 4 writes of every key (and value), plus one read for the
 * histogram; the multi-pass sort (sort.c) moves 8 of each and scans between passes.
 *
 * Why only on GPUs by default: a tile waits on tiles with smaller numbers (onesweep.cl explains
 * why that ends on every device that keeps running a started work-group); on a CPU device the
 * spinning holds a worker thread and the multi-pass sort is as fast, so CPU devices keep it.
 * AMP_SORT_ONESWEEP=1 takes this path on any device (tests run it on POCL), 0 never; another
 * value is an error naming it. n >= 2^30 always takes the multi-pass sort (30-bit status values),
 * and so do 64-bit keys or values (onesweep.cl is written for 32-bit ones; sort.c decides). */
#include <stdio.h>
#include <stdlib.h>

#include "algorithms/algo.h"
#include "core/knobs.h"

#define OS_TILE   256
#define OS_RADIX  256
#define OS_STATUS (4 + 4 * OS_RADIX)
#define OS_LIMIT  (1L << 30)

/* The portable pass's tile_static bytes per thread and besides, at `per` keys per thread with
 * values of `vs` bytes (0: none): its padded keys and values, 16 ushort ranks and a scan entry;
 * hist, offs, the scan's 16 extra words and the tile number. */
#define OS_LOCAL(per, vs) (((size_t)(per)*33 * (4 + (vs)) + 31) / 32 + 32 + 4)
#define OS_FIXED          (2048 + 64 + 4)

amp_status amp__sort_onesweep_wanted(const amp_accelerator_view *view, size_t n, size_t vs,
                                     int *out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  int want = !view->acc->props.is_emulated;
  AMP__TRY(amp__algo_knob_either(AMP_KNOB_SORT_ONESWEEP, "0", 0, "1", 1, &want, fn));
  /* where even its smallest tiles (32 threads) do not fit tile_static memory (6.3 KB with values),
   * the multi-pass sort */
  const amp__algo_shape *s =
      amp__algo_shape_of(view, vs ? AMP__SHAPE_ONESWEEP_PAIRS : AMP__SHAPE_ONESWEEP_KEYS);
  *out = want && n < (size_t)OS_LIMIT &&
         amp__algo_tile_fits(view, s->least, OS_LOCAL(s->per, vs), OS_FIXED);
fail:
  return status;
}

amp_status amp__sort_onesweep(amp_accelerator_view *view, amp_array_view *keys,
                              amp_array_view *values, const char *opts, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *ki = NULL, *kh = NULL, *kp = NULL;
  amp__algo_sort_views v = {0};
  /* The warp pass (onesweep.cl) where the device has one; AMP_ONESWEEP_WARP=0 keeps the portable
   * pass there too, for measuring one against the other. Keys per thread: the warp pass 20 for keys
   * alone and 16 with values, in tiles of 256 threads (the fastest of 13 shapes on an H200: tiles
   * of 256 and 512, 8 to 24 keys; lab/NOTEBOOK.md, 2026-11-27, "warp-ranked sort"); the portable
   * pass 16 and 12 (the fastest of 8, 12 and 16 on an H100). For measuring, AMP_ONESWEEP_PER (4 ..
   * 24, 16 with values: their tile_static memory) and, for the warp pass, AMP_ONESWEEP_TILE (256 or
   * 512) set them. The shapes are the table's (algo_shapes.c). */
  int warp_pass = 0, tile = OS_TILE, per = 0;
  const char *warp = "";
  const amp__algo_shape *portable =
      amp__algo_shape_of(view, values ? AMP__SHAPE_ONESWEEP_PAIRS : AMP__SHAPE_ONESWEEP_KEYS);
  const amp__algo_shape *wide = amp__algo_shape_of(view, values ? AMP__SHAPE_ONESWEEP_WARP_PAIRS
                                                                : AMP__SHAPE_ONESWEEP_WARP_KEYS);
  AMP__TRY(amp__algo_warp_path(view, AMP_KNOB_ONESWEEP_WARP, &warp_pass, &warp, fn));
  AMP__TRY(amp__knob_int_in(AMP_KNOB_ONESWEEP_PER, 4, values ? 16 : 24,
                            warp_pass ? wide->per : portable->per, &per, fn));
  if (warp_pass)
    AMP__TRY(amp__knob_int_in(AMP_KNOB_ONESWEEP_TILE, OS_TILE, 2 * OS_TILE, wide->tile, &tile, fn));
  if (tile != OS_TILE && tile != 2 * OS_TILE)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: AMP_ONESWEEP_TILE=%d: expected 256 or 512", fn,
              tile);
  /* The tile the device allows: the warp pass takes 256 or 512 threads (a digit per thread), and
   * gives way to the portable pass where neither fits; the portable pass halves its 256 down to
   * 32 (each thread then handles 256 / tile digits). tile_static memory: onesweep.cl's keys (and
   * values) of the tile, the portable pass's padded and its 16-row ushort table, the warp pass's
   * per-warp histograms; both: sh[], hist/first and offs of 256 words. */
  size_t vs = values ? values->type.size : 0;
  if (warp_pass) {
    int fits = tile;
    if (amp__algo_tile_fits(view, wide->least, (size_t)per * (4 + vs) + 33, 2052 + 64)) {
      AMP__TRY(amp__algo_tile(view, tile, wide->least, (size_t)per * (4 + vs) + 33, 2052 + 64,
                              "amp_sort (onesweep, warp pass)", fn, &fits));
      tile = fits;
    } else {
      warp_pass = 0;
      warp = " -DAMPCL_WARP_OFF";
      tile = portable->tile;
      AMP__TRY(
          amp__knob_int_in(AMP_KNOB_ONESWEEP_PER, 4, values ? 16 : 24, portable->per, &per, fn));
      if (amp__debug_enabled())
        fprintf(stderr,
                "[ampcl] debug: amp_sort (onesweep): the portable pass (the warp pass's tiles of "
                "256 threads do not fit the device)\n");
    }
  }
  if (!warp_pass)
    AMP__TRY(amp__algo_tile(view, portable->tile, portable->least, OS_LOCAL(per, vs), OS_FIXED,
                            "amp_sort (onesweep)", fn, &tile));
  int small = tile < OS_TILE ? tile : OS_TILE; /* the histogram's tiles */
  char o[240];
  snprintf(o, sizeof o, "%s -DOS_PER=%d -DOS_TILE=%d%s", opts, per, tile, warp);
  AMP__TRY(amp__algo_kernel_opts("onesweep", o, "amp_onesweep_init", &ki));
  AMP__TRY(amp__algo_kernel_opts("onesweep", o, "amp_onesweep_hist", &kh));
  AMP__TRY(amp__algo_kernel_opts("onesweep", o, "amp_onesweep_pass", &kp));
  size_t items = (size_t)per * (size_t)tile;
  size_t n = (size_t)keys->extent.dim[0]; /* < 2^30 (amp__sort_onesweep_wanted) */
  size_t tiles = n / items + (n % items != 0);
  size_t words = OS_STATUS + 4 * tiles * OS_RADIX; /* < 2^30 + 1028 */
  AMP__TRY(amp__algo_sort_views_begin(&v, keys, values, fn));
  AMP__TRY(amp__array_view_create_empty(amp_extent1((int)words), AMP_UINT32, fn, &v.counts));
  amp_arg a0[] = {amp_arg_view(v.counts)};
  AMP__TRY(amp__algo_launch1(view, ki, amp__algo_tiles(view, words, (size_t)small * 16, 4096),
                             small, a0, AMP_NARGS(a0)));
  amp_arg a1[] = {amp_arg_view(keys), amp_arg_view(v.counts)};
  AMP__TRY(amp__algo_launch1(view, kh, amp__algo_tiles(view, n, (size_t)small * 16, 1024), small,
                             a1, AMP_NARGS(a1)));
  for (int pass = 0; pass < 4; pass++) {
    amp_arg rest[] = {amp_arg_view(v.counts), amp_arg_int(pass), amp_arg_int((int)tiles)};
    AMP__TRY(amp__algo_sort_pass(view, kp, tiles, tile, &v, rest, AMP_NARGS(rest)));
  }
fail:
  amp__algo_sort_views_end(&v); /* waits for the passes */
  amp_kernel_release(ki);
  amp_kernel_release(kh);
  amp_kernel_release(kp);
  return status;
}
