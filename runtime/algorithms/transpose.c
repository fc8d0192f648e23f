/* runtime/algorithms/transpose.c: amp_transpose_view (kernels_cl/algorithms/transpose.cl): one
 * tiled launch of 8 x 32 threads per 32 x 32 block. On a CPU device (algo_cpu.c)
 * kernels_cl/algorithms/transpose_cpu.cl instead: one untiled thread per 32 x 32 block, moved in
 * 8 x 8 pieces through registers. */
#include <stdio.h>

#include "algorithms/algo.h"

#define TR_DIM  32
#define TR_ROWS 8

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
  AMP__TRY(amp__algo_kernel("transpose", NULL, src->type.kind, "amp_transpose_tiles", &k));
  long rows = ((long)R + TR_DIM - 1) / TR_DIM * TR_ROWS,
       cols = ((long)C + TR_DIM - 1) / TR_DIM * TR_DIM;
  if (cols > INT32_MAX)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%s: %d columns are too many to launch", fn, C);
  amp_arg args[] = {amp_arg_view(src), amp_arg_view(dst)};
  amp_launch l = {amp_extent2((int)rows, (int)cols), 1, {TR_ROWS, TR_DIM, 1}, k, args, 2};
  AMP__TRY(amp_parallel_for_each_ex(view, &l, NULL));
fail:
  amp_kernel_release(k);
  return status;
}
