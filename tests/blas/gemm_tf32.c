/* gemm_tf32: amp_blas_gemm_ex and its one flag, AMP_GEMM_ALLOW_TF32 (include/ampcl/blas.h).
 *
 * Run twice: as is (on a CPU accelerator the GEMM goes to OpenBLAS on host memory) and with
 * AMP_BLAS_CPU=opencl (POCL keeps it on OpenCL). Against a double-precision host product:
 *   - an unknown flag bit fails, naming the value, with C's host memory untouched;
 *   - float with TF32 allowed, on a device without TF32 tensor cores (POCL, CI): exactly what
 *     amp_blas_gemm does, within float's tolerance; on an NVIDIA GPU of compute capability 8.0+:
 *     matmul_tf32 ran (the internal record of the last kernel) in the shape for its size (the
 *     128 x 64 one; the large one when the device is made to look like one compute unit), the
 *     result is within TF32's tolerance, and it is not float's (some element differs from
 *     amp_blas_gemm's result);
 *   - AMP_BLAS_GEMM=clblast keeps float even when TF32 is allowed;
 *   - double, a transposed A and beta != 0 are unchanged by the flag;
 *   - (AMP_BLAS_CPU=opencl, a device without TF32) told it had compute capability 9.0, the device
 *     refuses to build matmul_tf32: the GEMM still gives float's result, and the refusal is
 *     remembered for the accelerator.
 * Sizes no tile divides (67 x 129 x 45) and a section of C whose surroundings must stay as
 * they were. Cases that need CLBlast (AMP_BLAS_GEMM=clblast, the transposed A and beta != 0 on
 * OpenCL) are skipped when ampcl was built without it. */
#include "blas/gemm_choice.h"
#include "blas/gemm_kernels.h"
#include "check.h"

#include <float.h>

enum { M = 67, K = 129, N = 45, PAD = 4 };

static double frand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (double)((*s >> 8) & 0xffff) / 32768.0 - 1.0;
}

typedef struct {
  int dbl, trans_a;
  double beta;
  void *a, *b, *c, *c0;               /* A (K x M when transposed), B, C's parent, C's start */
  amp_array_view *va, *vb, *vcp, *vc; /* vc: the M x N section of vcp at (PAD, PAD) */
} gemm;

static size_t es(const gemm *g) {
  return g->dbl ? sizeof(double) : sizeof(float);
}

static double at(const gemm *g, const void *p, size_t i) {
  return g->dbl ? ((const double *)p)[i] : ((const float *)p)[i];
}

static void put(const gemm *g, void *p, size_t i, double x) {
  if (g->dbl)
    ((double *)p)[i] = x;
  else
    ((float *)p)[i] = (float)x;
}

static void setup(gemm *g, int dbl, int trans_a, double beta) {
  memset(g, 0, sizeof *g);
  g->dbl = dbl;
  g->trans_a = trans_a;
  g->beta = beta;
  const amp_elem_type t = dbl ? AMP_DOUBLE : AMP_FLOAT;
  const size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)(M + 2 * PAD) * (N + 2 * PAD);
  g->a = malloc(na * es(g));
  g->b = malloc(nb * es(g));
  g->c = malloc(nc * es(g));
  g->c0 = malloc(nc * es(g));
  unsigned seed = 7u + (unsigned)dbl;
  for (size_t i = 0; i < na; i++)
    put(g, g->a, i, frand(&seed));
  for (size_t i = 0; i < nb; i++)
    put(g, g->b, i, frand(&seed));
  for (size_t i = 0; i < nc; i++)
    put(g, g->c, i, (double)(i % 7) - 3.0);
  memcpy(g->c0, g->c, nc * es(g));
  CHECK_OK(amp_array_view_create_const(trans_a ? amp_extent2(K, M) : amp_extent2(M, K), t, g->a,
                                       &g->va));
  CHECK_OK(amp_array_view_create_const(amp_extent2(K, N), t, g->b, &g->vb));
  CHECK_OK(amp_array_view_create(amp_extent2(M + 2 * PAD, N + 2 * PAD), t, g->c, &g->vcp));
  CHECK_OK(amp_array_view_section(g->vcp, amp_index2(PAD, PAD), amp_extent2(M, N), &g->vc));
}

static void teardown(gemm *g) {
  amp_array_view_release(g->vc);
  amp_array_view_release(g->vcp);
  amp_array_view_release(g->va);
  amp_array_view_release(g->vb);
  free(g->a);
  free(g->b);
  free(g->c);
  free(g->c0);
}

/* A GEMM that needs CLBlast, in a build without it. */
static int no_clblast(amp_status st) {
  return st == AMP_ERROR_UNSUPPORTED_FEATURE && strstr(amp_last_error(), "without CLBlast");
}

static amp_status run(amp_accelerator_view *av, gemm *g, unsigned flags) {
  amp_status st = amp_blas_gemm_ex(av, flags, g->trans_a ? AMP_TRANS : AMP_NO_TRANS, AMP_NO_TRANS,
                                   1.0, g->va, g->vb, g->beta, g->vc, NULL);
  if (st == AMP_SUCCESS)
    st = amp_array_view_synchronize(g->vcp);
  return st;
}

/* Elements of C's section off by more than the tolerance (tf32: TF32's, else the type's), plus
 * elements of the parent outside the section that changed. */
static int wrong(const gemm *g, int tf32) {
  const int ldc = N + 2 * PAD;
  int bad = 0;
  for (int i = 0; i < M + 2 * PAD; i++)
    for (int j = 0; j < ldc; j++) {
      const size_t ci = (size_t)i * ldc + j;
      const double got = at(g, g->c, ci), old = at(g, g->c0, ci);
      if (i < PAD || j < PAD || i >= PAD + M || j >= PAD + N) {
        bad += got != old;
        continue;
      }
      double ref = g->beta * old, mag = fabs(ref);
      for (int q = 0; q < K; q++) {
        const size_t ai = g->trans_a ? (size_t)q * M + (i - PAD) : (size_t)(i - PAD) * K + q;
        const double x = at(g, g->a, ai) * at(g, g->b, (size_t)q * N + (j - PAD));
        ref += x;
        mag += fabs(x);
      }
      const double eps = g->dbl ? DBL_EPSILON : FLT_EPSILON;
      const double tol = mag * ((tf32 ? 0x1p-10 : 0.0) + 4.0 * (K + 1) * eps);
      if (!(fabs(got - ref) <= tol) && bad++ < 3)
        fprintf(stderr, "  C[%d][%d] = %.9g, expected %.9g (tolerance %.3g)\n", i - PAD, j - PAD,
                got, ref, tol);
    }
  return bad;
}

int main(void) {
  amp_accelerator_view *av = NULL;
  amp_accelerator *acc = NULL;
  amp_accelerator_properties props;
  REQUIRE_OK(amp_default_view(&av));
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  CHECK_OK(amp_accelerator_get_properties(acc, &props));
  /* TF32's kernels need 128 to 256 threads per tile and more tile_static memory than a device
   * seen through AMP_DEVICE_LIMITS (.ci/faults.sh) may have: there amp_blas_gemm picks what fits,
   * and the test holds the result to the tolerance of the kernel that ran */
  const char *limits = getenv("AMP_DEVICE_LIMITS");
  const int limited = limits && *limits;
  const int has_tf32 = props.compute_capability >= 80;
  const char *cpu_env = getenv("AMP_BLAS_CPU");
  const int opencl_path = !props.is_emulated || (cpu_env && strcmp(cpu_env, "opencl") == 0);
  printf("%s, compute capability %u: TF32 %s\n", props.device_path, props.compute_capability,
         has_tf32 ? "expected" : "not expected");
  gemm g, f;

  /* an unknown flag: refused before anything moves, C as it was */
  setup(&g, 0, 0, 0.0);
  CHECK_STATUS(
      amp_blas_gemm_ex(av, 0x6u, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, g.va, g.vb, 0.0, g.vc, NULL),
      AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("0x6");
  CHECK_MSG("AMP_GEMM_ALLOW_TF32");
  CHECK(memcmp(g.c, g.c0, (size_t)(M + 2 * PAD) * (N + 2 * PAD) * sizeof(float)) == 0);
  teardown(&g);

  /* float, TF32 allowed: TF32 where the device has it, float elsewhere */
  setup(&g, 0, 0, 0.0);
  CHECK_OK(run(av, &g, AMP_GEMM_ALLOW_TF32));
  const int ran_tf32 = strcmp(amp__gemm_last_fast_file(), "matmul_tf32") == 0;
  CHECK_EQ_INT(wrong(&g, ran_tf32), 0);
  if (!limited)
    CHECK_EQ_INT(ran_tf32, has_tf32);
  if (ran_tf32 && !limited) /* 67 x 45: too few blocks for the large shape, the 128 x 64 one */
    CHECK(strstr(amp__gemm_last_fast_options(), "-DBN=64") != NULL);
  printf("TF32 allowed: %s ran\n", ran_tf32 ? "matmul_tf32" : "a float kernel");
  setup(&f, 0, 0, 0.0); /* the same GEMM in float, as amp_blas_gemm runs it */
  CHECK_OK(run(av, &f, 0));
  CHECK_EQ_INT(wrong(&f, 0), 0);
  int differ = 0;
  for (size_t i = 0; i < (size_t)(M + 2 * PAD) * (N + 2 * PAD); i++)
    differ += ((float *)g.c)[i] != ((float *)f.c)[i];
  printf("TF32 allowed: %d of %d elements differ from amp_blas_gemm's\n", differ, M * N);
  if (ran_tf32)
    CHECK(differ > 0); /* TF32's rounding shows in a product of 129 terms */
  teardown(&f);
  teardown(&g);

  /* the large shape, as if the device had one compute unit (67 x 45 is one block then) */
  if (has_tf32 && !limited) {
    amp__gemm_test_gpu_kernel(1, 1);
    setup(&g, 0, 0, 0.0);
    CHECK_OK(run(av, &g, AMP_GEMM_ALLOW_TF32));
    CHECK_EQ_INT(wrong(&g, 1), 0);
    CHECK_EQ_INT(strcmp(amp__gemm_last_fast_file(), "matmul_tf32"), 0);
    printf("TF32, one compute unit: %s\n", amp__gemm_last_fast_options());
    const int cc9 = props.compute_capability / 10 == 9; /* blas_choice.c's shapes */
    CHECK_EQ_INT(
        strcmp(amp__gemm_last_fast_options(), cc9 ? "-DBN=256 -DWN=64 -DBK=32 -DSTAGES=3" : ""), 0);
    teardown(&g);
    amp__gemm_test_gpu_kernel(0, 0);
  }

  /* AMP_BLAS_GEMM=clblast: float, even with TF32 allowed */
  if (opencl_path) {
    setenv("AMP_BLAS_GEMM", "clblast", 1);
    const amp__gemm_counts before = amp__gemm_counts_get();
    setup(&g, 0, 0, 0.0);
    amp_status st = run(av, &g, AMP_GEMM_ALLOW_TF32);
    if (!no_clblast(st)) {
      CHECK_OK(st);
      CHECK_EQ_INT(wrong(&g, 0), 0);
      CHECK(amp__gemm_counts_get().clblast == before.clblast + 1);
    }
    teardown(&g);
    unsetenv("AMP_BLAS_GEMM");
  }

  /* double, a transposed A, beta != 0: the flag changes nothing */
  if (props.supports_double_precision) {
    setup(&g, 1, 0, 0.0);
    CHECK_OK(run(av, &g, AMP_GEMM_ALLOW_TF32));
    CHECK_EQ_INT(wrong(&g, 0), 0);
    teardown(&g);
  }
  for (int c = 0; c < 2; c++) {
    setup(&g, 0, c == 0, c == 0 ? 0.0 : 0.5);
    amp_status st = run(av, &g, AMP_GEMM_ALLOW_TF32);
    if (!no_clblast(st)) {
      CHECK_OK(st);
      CHECK_EQ_INT(wrong(&g, 0), 0);
    }
    teardown(&g);
  }

  /* a device that refuses matmul_tf32 while claiming compute capability 9.0: float's result, and
   * the refusal remembered */
  if (!has_tf32 && opencl_path) {
    amp__gemm_test_compute_capability(90);
    CHECK_EQ_INT(amp__gemm_tf32_fell_back(acc), 0);
    setup(&g, 0, 0, 0.0);
    CHECK_OK(run(av, &g, AMP_GEMM_ALLOW_TF32));
    CHECK_EQ_INT(wrong(&g, 0), 0);
    CHECK_EQ_INT(amp__gemm_tf32_fell_back(acc), 1);
    teardown(&g);
    setup(&g, 0, 0, 0.0); /* again: no second try */
    CHECK_OK(run(av, &g, AMP_GEMM_ALLOW_TF32));
    CHECK_EQ_INT(wrong(&g, 0), 0);
    teardown(&g);
    amp__gemm_test_compute_capability(0);
  }
  return check_done();
}
