/* runtime/algorithms/histogram_weighted.c: amp_histogram_weighted
 * (kernels_cl/algorithms/histogram_weighted.cl): zero the bins, then sum each element's weight
 * into its bin, through a tile_static copy of the bins per tile when they fit there (half the
 * device's tile_static memory at most), through global atomics when not. The tile adapts to the
 * device as the other algorithms' do (amp__algo_tile, AMP_ALGO_TILE). */
#include <stdio.h>

#include "algorithms/algo.h"

static amp_status check_args(amp_accelerator_view *view, amp_array_view *src,
                             amp_array_view *weights, amp_array_view *bins, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__algo_check_indexed(view, src, "src", weights, "weights",
                                   "the bins sum with 32-bit atomics", fn));
  AMP__TRY(amp__algo_check_view(view, bins, 1, AMP__ALGO_NUMBERS, 1, "bins", fn));
  if (bins->type.kind != weights->type.kind)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: bins must have the element type of weights", fn);
fail:
  return status;
}

amp_status amp_histogram_weighted(amp_accelerator_view *view, amp_array_view *src,
                                  amp_array_view *weights, amp_array_view *bins) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_histogram_weighted";
  AMP__TRY(check_args(view, src, weights, bins, fn));
  size_t nb = (size_t)bins->extent.dim[0], n = (size_t)src->extent.dim[0];
  int local = nb * 4 <= view->acc->props.local_memory / 2;
  /* the tuned tile, or 128, 64, 32 where the device allows less (amp__algo_tile) */
  const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_HISTOGRAM_WEIGHTED);
  int tile = s->tile;
  AMP__TRY(amp__algo_tile(view, s->tile, s->least, 0, local ? nb * 4 : 0, fn, fn, &tile));
  char opts[96];
  snprintf(opts, sizeof opts, "-DT=%s -DW=%s -DWH_TILE=%d", amp__algo_type_name(src->type.kind, 0),
           amp__algo_type_name(weights->type.kind, 0), tile);
  size_t tiles = amp__algo_tiles(view, n, (size_t)tile * (size_t)s->per, (size_t)s->most);
  /* the last, the tile's copy of the bins, only where they fit tile_static memory */
  amp_arg a[] = {amp_arg_view(src), amp_arg_view(weights), amp_arg_view(bins),
                 amp_arg_local(nb * 4)};
  AMP__TRY(amp__algo_histogram_count(view, "histogram_weighted", opts, "amp_whist_zero",
                                     local ? "amp_whist_local" : "amp_whist_global", bins, tiles,
                                     tile, a, local ? AMP_NARGS(a) : AMP_NARGS(a) - 1));
fail:
  return status;
}
