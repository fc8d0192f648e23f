/* kernels_tensor: kernels_cl/matmul_dmma.cl (double GEMM on NVIDIA's FP64 tensor cores, inline
 * PTX) against a host reference, at sizes no tile divides, through whole views (the cp.async
 * path), through sections whose rows start on 16-byte boundaries (cp.async with offsets) and
 * through sections whose rows do not (the plain-load path), with C a section too. C starts as
 * NaN, so an element the kernel forgets to write fails; the buffer around a section of C is
 * checked unchanged.
 *
 * Needs an accelerator of compute capability 9.0 or more (amp_accelerator_properties): skipped
 * (77) everywhere else, which is CI. It runs in the GPU runs (docs/perf/). */
#include "check.h"

#include <float.h>

typedef struct {
  const char *label, *options;
  int bm, bn, warps;
} shape;

static const shape shapes[] = {
    {"defaults", "", 128, 64, 4},
    {"128x128, 8 warps, 2 stages", "-DBM=128 -DBN=128 -DWM=64 -DWN=32 -DSTAGES=2", 128, 128, 8},
    {"64x128, 4 warps of 32x64", "-DBM=64 -DBN=128 -DWM=32 -DWN=64", 64, 128, 4},
    {"64x64, 4 warps of 32x32, 2 stages", "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DSTAGES=2", 64, 64, 4},
    {"64x64, 4 warps of 32x32, 4 stages", "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DSTAGES=4", 64, 64, 4},
};

/* m x w times w x n: single elements, every edge, more block rows than GROUP_M, K not a
 * multiple of 8, K of 1. */
static const int sizes[][3] = {{1, 1, 1},      {17, 13, 29},   {61, 67, 59},
                               {128, 64, 128}, {130, 33, 131}, {300, 9, 257},
                               {1100, 20, 70}, {200, 1, 200},  {257, 515, 129}};

static double frand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (double)((*s >> 8) & 0xffff) / 32768.0 - 1.0;
}

static int even(int x) {
  return x + (x & 1);
}

/* One product through sections at (off, off) of buffers whose rows are `pad` elements longer
 * than the section's, or (pad < 0) rounded up to an even length plus 2. */
static void run_case(amp_accelerator_view *av, amp_kernel *k, const shape *sh, int m, int w, int n,
                     int off, int pad) {
  const int lda = pad < 0 ? even(w) + 2 : w + pad, ldb = pad < 0 ? even(n) + 2 : n + pad;
  const int ldc = ldb;
  const int rows_a = m + off, rows_b = w + off, rows_c = m + off;
  double *a = malloc(sizeof(double) * (size_t)rows_a * lda);
  double *b = malloc(sizeof(double) * (size_t)rows_b * ldb);
  double *c = malloc(sizeof(double) * (size_t)rows_c * ldc);
  unsigned seed = (unsigned)(m * 131 + w * 7 + n);
  for (int i = 0; i < rows_a * lda; i++)
    a[i] = frand(&seed);
  for (int i = 0; i < rows_b * ldb; i++)
    b[i] = frand(&seed);
  for (int i = 0; i < rows_c * ldc; i++)
    c[i] = NAN;
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL, *sa = NULL, *sb = NULL, *sc = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent2(rows_a, lda), AMP_DOUBLE, a, &va));
  CHECK_OK(amp_array_view_create_const(amp_extent2(rows_b, ldb), AMP_DOUBLE, b, &vb));
  CHECK_OK(amp_array_view_create(amp_extent2(rows_c, ldc), AMP_DOUBLE, c, &vc));
  CHECK_OK(amp_array_view_section(va, amp_index2(off, off), amp_extent2(m, w), &sa));
  CHECK_OK(amp_array_view_section(vb, amp_index2(off, off), amp_extent2(w, n), &sb));
  CHECK_OK(amp_array_view_section(vc, amp_index2(off, off), amp_extent2(m, n), &sc));
  amp_tiled_extent dom =
      amp_tile2(amp_extent2((m + sh->bm - 1) / sh->bm * sh->warps, (n + sh->bn - 1) / sh->bn * 32),
                sh->warps, 32);
  amp_arg args[] = {amp_arg_view(sa), amp_arg_view(sb), amp_arg_view(sc)};
  CHECK_OK(amp_parallel_for_each_tiled(av, dom, k, args, AMP_NARGS(args)));
  CHECK_OK(amp_array_view_synchronize(vc));
  int bad = 0, outside = 0;
  for (int i = 0; i < rows_c; i++)
    for (int j = 0; j < ldc; j++) {
      double got = c[(size_t)i * ldc + j];
      if (i < off || j < off || i >= off + m || j >= off + n) {
        outside += !isnan(got);
        continue;
      }
      double ref = 0;
      for (int q = 0; q < w; q++)
        ref += a[(size_t)(i)*lda + off + q] * b[(size_t)(off + q) * ldb + j];
      if (!(fabs(got - ref) <= 4.0 * w * DBL_EPSILON) && bad++ < 3)
        fprintf(stderr, "  %s, %dx%dx%d off %d pad %d: C[%d][%d] = %.17g, expected %.17g\n",
                sh->label, m, w, n, off, pad, i - off, j - off, got, ref);
    }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(outside, 0);
  amp_array_view_release(sa);
  amp_array_view_release(sb);
  amp_array_view_release(sc);
  amp_array_view_release(va);
  amp_array_view_release(vb);
  amp_array_view_release(vc);
  free(a);
  free(b);
  free(c);
}

int main(void) {
  size_t count = 0;
  CHECK_OK(amp_accelerator_count(&count));
  amp_accelerator *acc = NULL;
  for (size_t i = 0; i < count && !acc; i++) {
    amp_accelerator *a = NULL;
    amp_accelerator_properties p;
    if (amp_accelerator_get(i, &a) == AMP_SUCCESS &&
        amp_accelerator_get_properties(a, &p) == AMP_SUCCESS && p.compute_capability >= 90)
      acc = a;
  }
  if (!acc) {
    printf("no accelerator of NVIDIA compute capability 9.0 or more: skipped\n");
    return SKIP;
  }
  amp_accelerator_view *av = NULL;
  CHECK_OK(amp_accelerator_default_view(acc, &av));
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    amp_program *prog = NULL;
    amp_kernel *k = NULL;
    CHECK_OK(amp_program_create_builtin("matmul_dmma", shapes[s].options, &prog));
    CHECK_OK(amp_kernel_create(prog, "matmul_dmma", &k));
    if (!k) /* already counted as a failure */
      continue;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
      const int m = sizes[z][0], w = sizes[z][1], n = sizes[z][2];
      run_case(av, k, &shapes[s], m, w, n, 0, 0);  /* whole views, rows as aligned as w, n */
      run_case(av, k, &shapes[s], m, w, n, 2, -1); /* even offsets and strides: cp.async */
      run_case(av, k, &shapes[s], m, w, n, 1, 1);  /* odd offsets: the plain loads */
    }
    /* the tile must be (warps, 32): another one is refused before anything runs */
    amp_array_view *v1 = NULL;
    double one = 1.0;
    CHECK_OK(amp_array_view_create(amp_extent2(1, 1), AMP_DOUBLE, &one, &v1));
    amp_arg wrong[] = {amp_arg_view(v1), amp_arg_view(v1), amp_arg_view(v1)};
    CHECK_STATUS(amp_parallel_for_each_tiled(
                     av, amp_tile2(amp_extent2(32, shapes[s].warps), 32, shapes[s].warps), k, wrong,
                     AMP_NARGS(wrong)),
                 AMP_ERROR_INVALID_ARGUMENT);
    amp_array_view_release(v1);
    amp_kernel_release(k);
    amp_program_release(prog);
  }
  return check_done();
}
