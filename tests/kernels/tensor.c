/* kernels_tensor: the tensor-core kernels against a host reference: kernels_cl/gemm/matmul_dmma.cl
 * (double on NVIDIA's FP64 tensor cores, inline PTX; compute capability 9.0+) and
 * kernels_cl/gemm/matmul_tf32.cl (float with TF32 inputs; 8.0+), at sizes no tile divides, through
 * whole views (the cp.async path), through sections whose rows start on 16-byte boundaries
 * (cp.async with offsets) and through sections whose rows do not (the plain-load path), with C a
 * section too. C starts as NaN, so an element the kernel forgets to write fails; the buffer around
 * a section of C is checked unchanged.
 *
 * Tolerances, per element of C, with S = sum over q of |a_iq * b_qj| (the reference is computed
 * in double): double, 4 * w * DBL_EPSILON (inputs in [-1, 1]); TF32, S * 2^-10 + w * S *
 * FLT_EPSILON: each input is rounded to 10 mantissa bits (relative error 2^-11 each, so 2^-10 for
 * a product, with room), and the sums are in float; 2^-9 with -DTF_ROUND=0 (truncation, 2^-10
 * each). One that skipped a term would miss by far.
 *
 * Needs an accelerator of NVIDIA compute capability 8.0 or more (amp_accelerator_properties;
 * matmul_dmma's shapes only from 9.0): skipped (77) everywhere else, which is CI. It runs in the
 * GPU runs (lab/gpu_check.sh; raw outputs in lab/runs/). */
#include "check.h"

#include <float.h>

typedef struct {
  const char *file, *label, *options;
  int bm, bn, warps;
  unsigned min_cc; /* the f64 shape needs 9.0; tiles past 99 KB of tile_static memory too */
} shape;

static const shape shapes[] = {
    {"matmul_dmma", "defaults", "", 128, 64, 4, 90},
    {"matmul_dmma", "128x128, 8 warps, 2 stages", "-DBM=128 -DBN=128 -DWM=64 -DWN=32 -DSTAGES=2",
     128, 128, 8, 90},
    {"matmul_dmma", "64x128, 4 warps of 32x64", "-DBM=64 -DBN=128 -DWM=32 -DWN=64", 64, 128, 4, 90},
    {"matmul_dmma", "64x64, 4 warps of 32x32, 2 stages",
     "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DSTAGES=2", 64, 64, 4, 90},
    {"matmul_dmma", "64x64, 4 warps of 32x32, 4 stages",
     "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DSTAGES=4", 64, 64, 4, 90},
    {"matmul_dmma_bulk", "defaults (K 16, 3 stages, 8 consumer warps, 4 producers)", "", 128, 128,
     12, 90},
    {"matmul_dmma_bulk", "K 32, 2 stages, rows padded by 2", "-DBK=32 -DSTAGES=2 -DAPAD=2 -DBPAD=2",
     128, 128, 12, 90},
    {"matmul_dmma_bulk", "K 16, 3 stages, 2 producers", "-DBK=16 -DSTAGES=3 -DPRODUCERS=2", 128,
     128, 10, 90},
    {"matmul_dmma_bulk", "K 16, 4 stages, 1 producer", "-DBK=16 -DSTAGES=4 -DPRODUCERS=1", 128, 128,
     9, 90},
    {"matmul_dmma_bulk", "64x128, 8 consumer warps of 32x32 (amp_blas_gemm for few blocks)",
     "-DBM=64 -DWM=32", 64, 128, 12, 90},
    {"matmul_dmma_bulk", "128x128, every column past B's edge zeroed (-DPAD_EDGES)",
     "-DPAD_EDGES=1", 128, 128, 12, 90},
    {"matmul_dmma_bulk", "64x64, 4 consumer warps of 32x32, K 8, 2 stages, 4 producers",
     "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DBK=8 -DSTAGES=2 -DPRODUCERS=4", 64, 64, 8, 90},
    {"matmul_tf32", "defaults", "", 128, 128, 8, 80},
    {"matmul_tf32", "128x256, warps of 64x64, K 32 (amp_blas_gemm_ex on 9.x)",
     "-DBN=256 -DWN=64 -DBK=32 -DSTAGES=3", 128, 256, 8, 90},
    {"matmul_tf32", "128x64, K 32, 4 stages (9.x, small)", "-DBN=64 -DBK=32 -DSTAGES=4", 128, 64, 4,
     90},
    {"matmul_tf32", "128x64 (other devices, small)", "-DBN=64", 128, 64, 4, 80},
    {"matmul_tf32", "64x64, 4 warps of 32x32, 2 stages, truncation",
     "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DSTAGES=2 -DTF_ROUND=0", 64, 64, 4, 80},
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

/* A row length rounded up to a multiple of `align` elements (16 bytes), plus one more such step. */
static int aligned_len(int x, int align) {
  return (x + align - 1) / align * align + align;
}

/* Element i of a buffer of doubles (fl 0) or floats (fl 1). */
static double get(const void *p, int fl, size_t i) {
  return fl ? ((const float *)p)[i] : ((const double *)p)[i];
}

static void set(void *p, int fl, size_t i, double v) {
  if (fl)
    ((float *)p)[i] = (float)v;
  else
    ((double *)p)[i] = v;
}

/* One product through sections at (off, off) of buffers whose rows are `pad` elements longer
 * than the section's, or (pad < 0) rounded up to 16 bytes plus 16 more (with off a multiple of
 * 16 bytes too: the cp.async path with offsets). */
static void run_case(amp_accelerator_view *av, amp_kernel *k, const shape *sh, int m, int w, int n,
                     int off, int pad) {
  const int fl = strcmp(sh->file, "matmul_tf32") == 0, align = fl ? 4 : 2;
  const size_t esz = fl ? sizeof(float) : sizeof(double);
  const amp_elem_type type = fl ? AMP_FLOAT : AMP_DOUBLE;
  const int lda = pad < 0 ? aligned_len(w, align) : w + pad;
  const int ldb = pad < 0 ? aligned_len(n, align) : n + pad;
  const int ldc = ldb;
  const int rows_a = m + off, rows_b = w + off, rows_c = m + off;
  void *a = malloc(esz * (size_t)rows_a * lda);
  void *b = malloc(esz * (size_t)rows_b * ldb);
  void *c = malloc(esz * (size_t)rows_c * ldc);
  unsigned seed = (unsigned)(m * 131 + w * 7 + n);
  for (size_t i = 0; i < (size_t)rows_a * lda; i++)
    set(a, fl, i, frand(&seed));
  for (size_t i = 0; i < (size_t)rows_b * ldb; i++)
    set(b, fl, i, frand(&seed));
  for (size_t i = 0; i < (size_t)rows_c * ldc; i++)
    set(c, fl, i, NAN);
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL, *sa = NULL, *sb = NULL, *sc = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent2(rows_a, lda), type, a, &va));
  CHECK_OK(amp_array_view_create_const(amp_extent2(rows_b, ldb), type, b, &vb));
  CHECK_OK(amp_array_view_create(amp_extent2(rows_c, ldc), type, c, &vc));
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
      double got = get(c, fl, (size_t)i * ldc + j);
      if (i < off || j < off || i >= off + m || j >= off + n) {
        outside += !isnan(got);
        continue;
      }
      double ref = 0, mag = 0;
      for (int q = 0; q < w; q++) {
        const double x =
            get(a, fl, (size_t)i * lda + off + q) * get(b, fl, (size_t)(off + q) * ldb + j);
        ref += x;
        mag += fabs(x);
      }
      const double unit = strstr(sh->options, "TF_ROUND=0") ? 0x1p-9 : 0x1p-10; /* truncation */
      const double tol = fl ? mag * (unit + w * (double)FLT_EPSILON) : 4.0 * w * DBL_EPSILON;
      if (!(fabs(got - ref) <= tol) && bad++ < 3)
        fprintf(stderr, "  %s %s, %dx%dx%d off %d pad %d: C[%d][%d] = %.17g, expected %.17g\n",
                sh->file, sh->label, m, w, n, off, pad, i - off, j - off, got, ref);
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
        amp_accelerator_get_properties(a, &p) == AMP_SUCCESS && p.compute_capability >= 80)
      acc = a;
  }
  if (!acc) {
    printf("no accelerator of NVIDIA compute capability 8.0 or more: skipped\n");
    return SKIP;
  }
  amp_accelerator_properties props;
  CHECK_OK(amp_accelerator_get_properties(acc, &props));
  amp_accelerator_view *av = NULL;
  CHECK_OK(amp_accelerator_default_view(acc, &av));
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    if (props.compute_capability < shapes[s].min_cc)
      continue;
    if ((size_t)shapes[s].warps * 32 > props.max_tile_size) { /* AMP_DEVICE_LIMITS=tile=... */
      printf("%s %s: skipped, it needs %d threads per tile and %s allows %zu\n", shapes[s].file,
             shapes[s].label, shapes[s].warps * 32, props.device_path, props.max_tile_size);
      continue;
    }
    amp_program *prog = NULL;
    amp_kernel *k = NULL;
    CHECK_OK(amp_program_create_builtin(shapes[s].file, shapes[s].options, &prog));
    CHECK_OK(amp_kernel_create(prog, shapes[s].file, &k));
    if (!k) /* already counted as a failure */
      continue;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
      const int m = sizes[z][0], w = sizes[z][1], n = sizes[z][2];
      run_case(av, k, &shapes[s], m, w, n, 0, 0); /* whole views, rows as aligned as w, n */
      /* offsets and strides of 16 bytes: cp.async */
      run_case(av, k, &shapes[s], m, w, n, strcmp(shapes[s].file, "matmul_tf32") ? 2 : 4, -1);
      run_case(av, k, &shapes[s], m, w, n, 1, 1); /* odd offsets: the plain loads */
    }
    /* the tile must be (warps, 32): another one is refused before anything runs */
    amp_array_view *v1 = NULL;
    double one = 1.0;
    float onef = 1.0f;
    if (strcmp(shapes[s].file, "matmul_tf32") == 0)
      CHECK_OK(amp_array_view_create(amp_extent2(1, 1), AMP_FLOAT, &onef, &v1));
    else
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
