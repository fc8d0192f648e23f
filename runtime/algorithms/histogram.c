/* runtime/algorithms/histogram.c: amp_histogram (kernels_cl/algorithms/histogram.cl): zero the
 * bins, then count with a tile_static copy of the bins per tile when they fit there, with global
 * atomics when not.
 */
#include <stdio.h>

#include "algorithms/algo.h"

amp_status amp_histogram(amp_accelerator_view *view, amp_array_view *src, amp_array_view *bins) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_histogram";
  AMP__TRY(amp__algo_check_view(view, src, 1, AMP__ALGO_INT32, 0, "src", fn));
  AMP__TRY(amp__algo_check_view(view, bins, 1, AMP__ALGO_INT32, 1, "bins", fn));
  if (bins->type.kind != AMP_ELEM_UINT32)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: bins must be a view of AMP_UINT32", fn);
  size_t nb = (size_t)bins->extent.dim[0], n = (size_t)src->extent.dim[0];
  /* Half the tile_static memory at most, so that a tile's copy leaves room for occupancy. */
  int local = nb * sizeof(cl_uint) <= view->acc->props.local_memory / 2;
  /* the tuned tile (algo_shapes.c), or fewer threads where the device allows less; the tile's copy
   * of the bins is not per thread: only the count varies */
  const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_HISTOGRAM);
  int tile = s->tile;
  AMP__TRY(amp__algo_tile(view, s->tile, s->least, 0, 0, fn, fn, &tile));
  char opts[64];
  snprintf(opts, sizeof opts, "-DT=%s -DT4=%s -DHIST_TILE=%d",
           amp__algo_type_name(src->type.kind, 0), amp__algo_type_name(src->type.kind, 1), tile);
  size_t tiles = amp__algo_tiles(view, n, (size_t)tile * (size_t)s->per, (size_t)s->most);
  /* the last, the tile's copy of the bins, only where they fit tile_static memory */
  amp_arg a[] = {amp_arg_view(src), amp_arg_view(bins), amp_arg_local(nb * sizeof(cl_uint))};
  AMP__TRY(amp__algo_histogram_count(view, "histogram", opts, "amp_histogram_zero",
                                     local ? "amp_histogram_local" : "amp_histogram_global", bins,
                                     tiles, tile, a, local ? AMP_NARGS(a) : AMP_NARGS(a) - 1));
fail:
  return status;
}

amp_status amp__algo_histogram_count(amp_accelerator_view *view, const char *file, const char *opts,
                                     const char *zero, const char *count, amp_array_view *bins,
                                     size_t tiles, int tile, const amp_arg *args, size_t nargs) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *kz = NULL, *kc = NULL;
  AMP__TRY(amp__algo_kernel_opts(file, opts, zero, &kz));
  AMP__TRY(amp__algo_kernel_opts(file, opts, count, &kc));
  amp_arg z[] = {amp_arg_view(bins)};
  AMP__TRY(amp_parallel_for_each(view, amp_extent1(bins->extent.dim[0]), kz, z, 1));
  AMP__TRY(amp__algo_launch1(view, kc, tiles, tile, args, nargs));
  AMP__TRY(amp_array_view_wait(bins));
fail:
  amp_kernel_release(kz);
  amp_kernel_release(kc);
  return status;
}
