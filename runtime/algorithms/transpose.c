/* runtime/algorithms/transpose.c: amp_transpose_view (kernels_cl/algorithms/transpose.cl): one
 * tiled launch of 8 x 32 threads per 32 x 32 block. On a CPU device (algo_cpu.c)
 * kernels_cl/algorithms/transpose_cpu.cl instead: one untiled thread per 32 x 32 block, moved in
 * 8 x 8 pieces through registers. */
#include <stdio.h>

#include "algorithms/algo.h"

/* transpose_cpu.cl's blocks: 32 x 32 (its TRC_B) */
#define TR_DIM 32

amp_status amp_transpose_view(amp_accelerator_view *view, amp_array_view *src,
                              amp_array_view *dst) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_transpose_view";
  amp_kernel *k = NULL;
  AMP__TRY(amp__algo_check_view(view, src, 2, 0, 0, "src", fn));
  AMP__TRY(amp__algo_check_view(view, dst, 2, 0, 1, "dst", fn));
  if (dst->type.kind != src->type.kind)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: dst holds another element type than src", fn);
  int R = src->extent.dim[0], C = src->extent.dim[1];
  if (dst->extent.dim[0] != C || dst->extent.dim[1] != R)
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH,
              "%s: src is %d x %d, so dst must be %d x %d; it is %d x %d", fn, R, C, C, R,
              dst->extent.dim[0], dst->extent.dim[1]);
  if (dst->src == src->src)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: src and dst are views of the same data; transpose into other memory", fn);
  int cpu = 0;
  AMP__TRY(amp__algo_cpu_kernels(view, &cpu, fn));
  if (cpu) {
    char opts[64];
    const char *t = amp__algo_type_name(src->type.kind, 0);
    snprintf(opts, sizeof opts, "-DT=%s -DT8=%s8", t, t);
    AMP__TRY(amp__algo_kernel_opts("transpose_cpu", opts, "amp_transpose_cpu", &k));
    amp_arg args[] = {amp_arg_view(src), amp_arg_view(dst)};
    amp_launch l = {
        amp_extent2((R + TR_DIM - 1) / TR_DIM, (C + TR_DIM - 1) / TR_DIM), 0, {0}, k, args, 2};
    AMP__TRY(amp_parallel_for_each_ex(view, &l, NULL));
    goto fail; /* done: release the kernel */
  }
  /* The tuned shape: blocks of 32 x 32 elements moved by tiles of 8 x 32 threads. Where the
   * device allows fewer threads per tile, fewer rows of threads (4, 2, 1); where its tile_static
   * memory holds no 32 x 33 block (8.25 KB of doubles), blocks of 16 or 8 elements a side. */
  const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_TRANSPOSE);
  int dim = s->across;
  size_t size = src->type.size;
  while (dim > s->least &&
         ((size_t)dim * (size_t)(dim + 1) * size > view->acc->props.local_memory ||
          (size_t)dim > view->acc->props.max_tile_extent[2]))
    dim /= 2;
  if (dim < s->across && amp__debug_enabled())
    fprintf(stderr,
            "[ampcl] debug: %s: blocks of %d x %d elements (tile_static memory %llu bytes, tiles "
            "%zu threads wide; the tuned block is %d x %d)\n",
            fn, dim, dim, (unsigned long long)view->acc->props.local_memory,
            view->acc->props.max_tile_extent[2], s->across, s->across);
  if ((size_t)dim > view->acc->props.max_tile_extent[2])
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "%s: tiles %d threads wide in dimension 1; %s allows %zu there", fn, dim,
              view->acc->props.device_path, view->acc->props.max_tile_extent[2]);
  int tuned = s->tile < dim * dim ? s->tile : dim * dim, tile = tuned;
  AMP__TRY(
      amp__algo_tile(view, tuned, dim, 0, (size_t)dim * (size_t)(dim + 1) * size, fn, fn, &tile));
  int trows = tile / dim;
  char opts[80];
  snprintf(opts, sizeof opts, "-DT=%s -DT4=%s -DTR_DIM=%d -DTR_ROWS=%d",
           amp__algo_type_name(src->type.kind, 0), amp__algo_type_name(src->type.kind, 1), dim,
           trows);
  AMP__TRY(amp__algo_kernel_opts("transpose", opts, "amp_transpose_tiles", &k));
  long rows = ((long)R + dim - 1) / dim * trows, cols = ((long)C + dim - 1) / dim * dim;
  if (cols > INT32_MAX)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%s: %d columns are too many to launch", fn, C);
  amp_arg args[] = {amp_arg_view(src), amp_arg_view(dst)};
  amp_launch l = {amp_extent2((int)rows, (int)cols), 1, {trows, dim, 1}, k, args, 2};
  AMP__TRY(amp_parallel_for_each_ex(view, &l, NULL));
fail:
  amp_kernel_release(k);
  return status;
}
