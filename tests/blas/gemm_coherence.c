/* gemm_coherence: GEMM through CLBlast on array views joins the data model (docs/MODEL.md, data
 * movement rules 2, 3, 5 and 10).
 *
 * Proves that amp_blas_gemm
 *   - computes C = alpha op(A) op(B) + beta C for float and double, row-major, all four transpose
 *     combinations, with beta != 0 using C's old contents, checked against a host triple loop in
 *     double;
 *   - works on sections (sub-matrices of larger views, whose row stride is the parent's width)
 *     and leaves the rest of C's parent untouched;
 *   - mixes with user kernels with no host round trip (rules 2, 3, 5): a kernel writes A on the
 *     device, GEMM reads it there (A is not copied in again), and a kernel then reads C there
 *     (C is not copied anywhere);
 *   - refuses mismatched sizes (AMP_ERROR_EXTENT_MISMATCH) and a read-only C
 *     (AMP_ERROR_ACCESS_DENIED), moving nothing.
 * Skips (77) when ampcl was built without CLBlast. Run as `test_gemm_coherence float` (GEMMs in
 * float, the mixing and the misuse) and `test_gemm_coherence double`, two ctest tests, because
 * CLBlast builds its kernels for each precision (some 20 s on POCL when its cache is cold). */
#include "gemm_case.h"

enum { M = 5, NN = 7, K = 6, BIG = 12 };

/* Element (i, j) of a row-major matrix stored with leading dimension ld. */
static double at(const void *p, int dbl, int ld, int i, int j) {
  return dbl ? ((const double *)p)[i * ld + j] : (double)((const float *)p)[i * ld + j];
}

/* Host reference: ref = alpha op(A) op(B) + beta C0, all m x n, row-major, dense. */
static void reference(int dbl, int ta, int tb, double alpha, const void *a, int lda, const void *b,
                      int ldb, double beta, const void *c0, int ldc, double *ref) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < NN; j++) {
      double s = 0;
      for (int k = 0; k < K; k++)
        s += (ta ? at(a, dbl, lda, k, i) : at(a, dbl, lda, i, k)) *
             (tb ? at(b, dbl, ldb, j, k) : at(b, dbl, ldb, k, j));
      ref[i * NN + j] = alpha * s + beta * at(c0, dbl, ldc, i, j);
    }
}

/* GEMM on whole views (dense) or on sections of BIG x BIG parents; checks the result and that
 * elements outside C's section are untouched. */
static void gemm_case(amp_accelerator_view *av, int dbl, int ta, int tb, int sections) {
  static double abuf[BIG * BIG], bbuf[BIG * BIG], cbuf[BIG * BIG], c0[BIG * BIG];
  int ar = ta ? K : M, ac = ta ? M : K, br = tb ? NN : K, bc = tb ? K : NN;
  int lda = sections ? BIG : ac, ldb = sections ? BIG : bc, ldc = sections ? BIG : NN;
  int oa = sections ? 2 * BIG + 3 : 0, ob = sections ? 1 * BIG + 4 : 0,
      oc = sections ? 3 * BIG + 2 : 0;
  size_t es = dbl ? sizeof(double) : sizeof(float);
  gemm_fill(abuf, dbl, BIG * BIG, 1);
  gemm_fill(bbuf, dbl, BIG * BIG, 2);
  gemm_fill(cbuf, dbl, BIG * BIG, 3);
  memcpy(c0, cbuf, sizeof c0);
  gemm_operands g = gemm_operands_make(dbl, ta, tb, M, NN, K, BIG, sections, abuf, bbuf, cbuf);
  const double alpha = 1.5, beta = 0.5;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_blas_gemm(av, ta ? AMP_TRANS : AMP_NO_TRANS, tb ? AMP_TRANS : AMP_NO_TRANS, alpha,
                         g.a, g.b, beta, g.c, NULL));
  /* Only the parts the three views cover go in. */
  CHECK_EQ_INT(test_stats(NULL).to_device_bytes, (size_t)(ar * ac + br * bc + M * NN) * es);
  CHECK_OK(amp_array_view_synchronize(sections ? g.pc : g.c));
  CHECK_EQ_INT(test_stats(NULL).to_host_bytes, (size_t)M * NN * es);
  double ref[M * NN];
  const char *pabuf = (const char *)abuf + (size_t)oa * es,
             *pbbuf = (const char *)bbuf + (size_t)ob * es;
  reference(dbl, ta, tb, alpha, pabuf, lda, pbbuf, ldb, beta, (const char *)c0 + (size_t)oc * es,
            ldc, ref);
  int bad = 0;
  double tol = dbl ? 1e-12 : 1e-4;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < NN; j++) {
      double got = at((const char *)cbuf + (size_t)oc * es, dbl, ldc, i, j);
      if (fabs(got - ref[i * NN + j]) > tol * (1 + fabs(ref[i * NN + j]))) {
        if (bad++ < 3)
          fprintf(stderr, "gemm %s ta=%d tb=%d sections=%d: C(%d,%d) = %g, expected %g\n",
                  dbl ? "double" : "float", ta, tb, sections, i, j, got, ref[i * NN + j]);
      }
    }
  CHECK_EQ_INT(bad, 0);
  if (sections) /* the rest of C's parent is untouched */
    CHECK_EQ_INT(gemm_outside_changed(cbuf, c0, dbl, BIG, M, NN), 0);
  gemm_operands_release(&g);
}

/* A kernel writes A, GEMM reads it and writes C, a kernel reads C: no host round trips. */
static void mixing(amp_accelerator_view *av) {
  static float a[M * K], b[K * NN], c[M * NN], d[M * NN];
  gemm_fill(b, 0, K * NN, 5);
  for (int i = 0; i < M * NN; i++)
    c[i] = 1000.0f; /* beta = 0 and discarded: never read */
  amp_kernel *k_fill = test_kernel(gemm_kernels_src, NULL, "fill_a"),
             *k_copy = test_kernel(gemm_kernels_src, NULL, "plus_one");
  if (!k_fill || !k_copy)
    return;
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL, *vd = NULL;
  gemm_float_views(M, NN, K, 1, a, b, c, d, &va, &vb, &vc, &vd);
  CHECK_OK(amp_array_view_discard_data(va));
  CHECK_OK(amp_array_view_discard_data(vc));
  CHECK_OK(amp_array_view_discard_data(vd));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent2(M, K), k_fill, amp_arg_view(va)));
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_OK(amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, va, vb, 0.0, vc, NULL));
  /* Only B went in: A is already there (written by the kernel), C was discarded. */
  CHECK_COUNTS(NULL, 1, 0, 0);
  CHECK_EQ_INT(test_stats(NULL).to_device_bytes, sizeof b);
  CHECK_OK(TEST_RUN(av, amp_extent2(M, NN), k_copy, amp_arg_view(vc), amp_arg_view(vd)));
  CHECK_COUNTS(NULL, 1, 0, 0);
  CHECK_OK(amp_array_view_synchronize(vd));
  CHECK_COUNTS(NULL, 1, 1, 0);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < K; j++)
      a[i * K + j] =
          (float)((i * 3 + j) % 7) - 3.0f; /* what fill_a wrote; A's host copy is stale */
  double ref[M * NN];
  static float zero[M * NN];
  reference(0, 0, 0, 1.0, a, K, b, NN, 0.0, zero, NN, ref);
  int bad = 0;
  for (int i = 0; i < M * NN; i++)
    bad += fabs((double)d[i] - (ref[i] + 1.0)) > 1e-4 * (1 + fabs(ref[i]));
  CHECK_EQ_INT(bad, 0);

  /* Misuse: nothing moves, C keeps its contents. */
  amp_array_view *wrong = NULL, *cc = NULL;
  static float w[M * M];
  CHECK_OK(amp_array_view_create(amp_extent2(M, M), AMP_FLOAT, w, &wrong));
  CHECK_OK(amp_array_view_as_const(vc, &cc));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_STATUS(amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, va, wrong, 0.0, vc, NULL),
               AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("m x k");
  CHECK_STATUS(amp_blas_gemm(av, AMP_TRANS, AMP_NO_TRANS, 1.0, va, vb, 0.0, vc, NULL),
               AMP_ERROR_EXTENT_MISMATCH);
  CHECK_STATUS(amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, va, vb, 0.0, cc, NULL),
               AMP_ERROR_ACCESS_DENIED);
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_OK(TEST_RUN(av, amp_extent2(M, NN), k_copy, amp_arg_view(vc), amp_arg_view(vd)));
  CHECK_OK(amp_array_view_synchronize(vd));
  bad = 0;
  for (int i = 0; i < M * NN; i++)
    bad += fabs((double)d[i] - (ref[i] + 1.0)) > 1e-4 * (1 + fabs(ref[i]));
  CHECK_EQ_INT(bad, 0);
  amp_array_view *all[] = {va, vb, vc, vd, wrong, cc};
  for (size_t i = 0; i < 6; i++)
    CHECK_OK(amp_array_view_release(all[i]));
  amp_kernel_release(k_fill);
  amp_kernel_release(k_copy);
}

int main(int argc, char **argv) {
  int want_dbl = argc > 1 && strcmp(argv[1], "double") == 0;
  REQUIRE_VIEW(av);
  amp_accelerator_properties props;
  REQUIRE_OK(amp_accelerator_get_properties(test_acc_of(av), &props));
  if (want_dbl && !props.supports_double_precision) {
    printf("SKIP: no fp64 on %s\n", props.device_path);
    return SKIP;
  }
  /* Built without CLBlast? A 1x1 GEMM in the precision under test tells. */
  double one = 1.0, out = 0.0;
  float onef = 1.0f, outf = 0.0f;
  amp_elem_type t = want_dbl ? AMP_DOUBLE : AMP_FLOAT;
  amp_array_view *x = NULL, *y = NULL;
  REQUIRE_OK(
      amp_array_view_create(amp_extent2(1, 1), t, want_dbl ? (void *)&one : (void *)&onef, &x));
  REQUIRE_OK(
      amp_array_view_create(amp_extent2(1, 1), t, want_dbl ? (void *)&out : (void *)&outf, &y));
  amp_status st = amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 2.0, x, x, 0.0, y, NULL);
  if (st == AMP_ERROR_UNSUPPORTED_FEATURE) {
    printf("SKIP: %s\n", amp_last_error());
    amp_array_view_release(x);
    amp_array_view_release(y);
    return SKIP;
  }
  CHECK_OK(st);
  CHECK_OK(amp_array_view_synchronize(y));
  CHECK(want_dbl ? out == 2.0 : outf == 2.0f);
  CHECK_OK(amp_array_view_release(x));
  CHECK_OK(amp_array_view_release(y));

  for (int ta = 0; ta < 2; ta++)
    for (int tb = 0; tb < 2; tb++)
      for (int sections = 0; sections < 2; sections++)
        gemm_case(av, want_dbl, ta, tb, sections);
  if (!want_dbl)
    mixing(av);
  return check_done();
}
