/* blas_cpu: amp_blas_gemm on a CPU accelerator goes to OpenBLAS in host memory (ampcl/blas.h).
 *
 * Proves, on POCL's CPU device:
 *   - the results are right for float and double (where the device has double precision;
 *     elsewhere a double GEMM is refused, naming it), the four transpose combinations, beta 0 and
 *     not 0, dense views and sections of larger views (the rest of C's parent untouched),
 *     checked against a host triple loop in double;
 *   - data already on the host moves nowhere (no copy in either direction), which is how the
 *     route is told from CLBlast's;
 *   - it joins the data model: A written by a kernel on the device comes back first (one copy to
 *     the host), and a kernel that reads C afterwards gets the new C (one copy in);
 *   - AMP_BLAS_CPU=opencl sends the same GEMM through CLBlast (copies in), with the same result;
 *   - a device array operand keeps the OpenCL path. */
#include <stdlib.h>

#include "gemm_case.h"

enum { M = 9, N = 7, K = 5, BIG = 16 };

/* |C - (alpha op(A) op(B) + beta C0)| small everywhere; A, B, C at the given offsets and lds. */
static int gemm_ok(int dbl, int ta, int tb, double alpha, const void *a, int lda, const void *b,
                   int ldb, double beta, const void *c0, const void *c, int ldc) {
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < K; k++)
        s += gemm_get(a, dbl, ta ? (size_t)(k * lda + i) : (size_t)(i * lda + k)) *
             gemm_get(b, dbl, tb ? (size_t)(j * ldb + k) : (size_t)(k * ldb + j));
      double want = alpha * s + beta * gemm_get(c0, dbl, (size_t)(i * ldc + j));
      double got = gemm_get(c, dbl, (size_t)(i * ldc + j));
      if (fabs(got - want) > (dbl ? 1e-12 : 1e-4) * (1 + fabs(want)) && bad++ < 3)
        fprintf(stderr, "%s ta=%d tb=%d: C(%d,%d) = %g, want %g\n", dbl ? "double" : "float", ta,
                tb, i, j, got, want);
    }
  return bad == 0;
}

/* One GEMM on dense views or on sections of BIG x BIG parents, on data that is on the host. */
static void gemm_case(amp_accelerator_view *av, int dbl, int ta, int tb, int sections,
                      double beta) {
  static double abuf[BIG * BIG], bbuf[BIG * BIG], cbuf[BIG * BIG], c0[BIG * BIG];
  size_t es = dbl ? sizeof(double) : sizeof(float);
  int lda = sections ? BIG
            : ta     ? M
                     : K,
      ldb = sections ? BIG
            : tb     ? K
                     : N,
      ldc = sections ? BIG : N;
  size_t oa = sections ? 2 * BIG + 3 : 0, ob = sections ? BIG + 4 : 0,
         oc = sections ? 3 * BIG + 2 : 0;
  gemm_fill(abuf, dbl, BIG * BIG, 1);
  gemm_fill(bbuf, dbl, BIG * BIG, 2);
  gemm_fill(cbuf, dbl, BIG * BIG, 3);
  memcpy(c0, cbuf, sizeof c0);
  gemm_operands g = gemm_operands_make(dbl, ta, tb, M, N, K, BIG, sections, abuf, bbuf, cbuf);
  CHECK_OK(amp_transfer_stats_reset());
  amp_future *done = NULL;
  CHECK_OK(amp_blas_gemm(av, ta ? AMP_TRANS : AMP_NO_TRANS, tb ? AMP_TRANS : AMP_NO_TRANS, 1.5, g.a,
                         g.b, beta, g.c, &done));
  uint64_t ns = 0;
  CHECK_OK(amp_future_elapsed_ns(done, &ns));
  CHECK(ns > 0);
  amp_future_release(done);
  CHECK_OK(amp_array_view_synchronize(sections ? g.pc : g.c));
  CHECK_COUNTS(NULL, 0, 0, 0); /* OpenBLAS worked in place */
  CHECK(gemm_ok(dbl, ta, tb, 1.5, (const char *)abuf + oa * es, lda, (const char *)bbuf + ob * es,
                ldb, beta, (const char *)c0 + oc * es, (const char *)cbuf + oc * es, ldc));
  if (sections)
    CHECK_EQ_INT(gemm_outside_changed(cbuf, c0, dbl, BIG, M, N), 0);
  gemm_operands_release(&g);
}

/* A written on the device by a kernel, GEMM on the host, C read by a kernel on the device. */
static void mixing(amp_accelerator_view *av) {
  static float a[M * K], b[K * N], c[M * N], d[M * N], c0[M * N];
  gemm_fill(b, 0, K * N, 2);
  memset(a, 0, sizeof a);
  memset(c0, 0, sizeof c0);
  amp_kernel *fill_a = test_kernel(gemm_kernels_src, NULL, "fill_a"),
             *plus = test_kernel(gemm_kernels_src, NULL, "plus_one");
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL, *vd = NULL;
  gemm_float_views(M, N, K, 0, a, b, c, d, &va, &vb, &vc, &vd);
  CHECK_OK(amp_array_view_discard_data(va));
  CHECK_OK(TEST_RUN(av, amp_extent2(M, K), fill_a, amp_arg_view(va)));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, va, vb, 0.0, vc, NULL));
  CHECK_COUNTS(NULL, 0, 1, 0); /* A came back from the device; nothing went in */
  CHECK_OK(amp_array_view_discard_data(vd));
  CHECK_OK(TEST_RUN(av, amp_extent2(M, N), plus, amp_arg_view(vc), amp_arg_view(vd)));
  CHECK_OK(amp_array_view_synchronize(vd));
  CHECK_EQ_INT(test_stats(NULL).to_device_count, 1); /* the new C went in for the kernel */
  float a_ref[M * K];
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      a_ref[i * K + k] = (float)((i * 3 + k) % 7) - 3.0f;
  CHECK(gemm_ok(0, 0, 0, 1.0, a_ref, K, b, N, 0.0, c0, c, N));
  int bad = 0;
  for (int i = 0; i < M * N; i++)
    bad += d[i] != c[i] + 1.0f;
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(va);
  amp_array_view_release(vb);
  amp_array_view_release(vc);
  amp_array_view_release(vd);
  amp_kernel_release(fill_a);
  amp_kernel_release(plus);
}

/* AMP_BLAS_CPU=opencl: CLBlast, which copies in; a device array keeps the OpenCL path too. */
static void opencl_paths(amp_accelerator_view *av) {
  static float a[M * K], b[K * N], c[M * N], c0[M * N];
  gemm_fill(a, 0, M * K, 1);
  gemm_fill(b, 0, K * N, 2);
  gemm_fill(c, 0, M * N, 3);
  memcpy(c0, c, sizeof c);
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL;
  gemm_abc_views(AMP_FLOAT, M, N, K, 0, a, b, c, &va, &vb, &vc);
  setenv("AMP_BLAS_CPU", "opencl", 1);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, va, vb, 0.5, vc, NULL));
  CHECK_OK(amp_array_view_synchronize(vc));
  CHECK_COUNTS(NULL, 3, 1, 0);
  CHECK(gemm_ok(0, 0, 0, 1.0, a, K, b, N, 0.5, c0, c, N));
  unsetenv("AMP_BLAS_CPU");

  /* B in a device array: CLBlast on the device's buffers */
  amp_array *arr = NULL;
  amp_array_view *vbarr = NULL;
  CHECK_OK(amp_array_create_from(av, amp_extent2(K, N), AMP_FLOAT, b, &arr));
  CHECK_OK(amp_array_view_of(arr, &vbarr));
  memcpy(c, c0, sizeof c);
  CHECK_OK(amp_array_view_refresh(vc));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, va, vbarr, 0.5, vc, NULL));
  CHECK_OK(amp_array_view_synchronize(vc));
  CHECK(test_stats(NULL).to_device_count >= 1);
  CHECK(gemm_ok(0, 0, 0, 1.0, a, K, b, N, 0.5, c0, c, N));
  amp_array_view_release(vbarr);
  amp_array_release(arr);
  amp_array_view_release(va);
  amp_array_view_release(vb);
  amp_array_view_release(vc);
}

/* On a device without double precision: a double GEMM is refused with a message naming it. */
static void gemm_case_refused_double(amp_accelerator_view *av) {
  static double a[4], b[4], c[4];
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL;
  gemm_abc_views(AMP_DOUBLE, 2, 2, 2, 1, a, b, c, &va, &vb, &vc);
  CHECK_STATUS(amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, va, vb, 0.0, vc, NULL),
               AMP_ERROR_UNSUPPORTED_FEATURE);
  CHECK_MSG("double precision");
  amp_array_view_release(va);
  amp_array_view_release(vb);
  amp_array_view_release(vc);
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_accelerator_properties p;
  REQUIRE_OK(amp_accelerator_get_properties(test_acc_of(av), &p));
  if (!p.is_emulated) {
    printf("the default accelerator %s is not a CPU device: nothing to test\n", p.device_path);
    return SKIP;
  }
  /* double only where the device reports it (Mesa's rusticl 22.3 on llvmpipe does not): there
   * amp_blas_gemm refuses it, naming the device, before routing anywhere */
  if (!p.supports_double_precision) {
    gemm_case_refused_double(av);
    printf("double: skipped: %s has no double precision (refused as it should be)\n",
           p.device_path);
  }
  for (int dbl = 0; dbl < (p.supports_double_precision ? 2 : 1); dbl++)
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++)
        for (int sec = 0; sec < 2; sec++) {
          gemm_case(av, dbl, ta, tb, sec, 0.5);
          gemm_case(av, dbl, ta, tb, sec, 0.0);
        }
  mixing(av);
  opencl_paths(av);
  return check_done();
}
