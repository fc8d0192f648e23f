/* gemm_multi: amp_blas_gemm_multi, one GEMM over several accelerators from host memory, against a
 * host reference computed here in double (a plain triple loop, independent of every engine).
 * Run with POCL_DEVICES="pthread pthread"; skips (77) with fewer than two accelerators.
 *
 * Sizes divide by nothing in particular (m = 37, n = 53, k = 29 and the like) and the panel width
 * is forced small (AMP_GEMM_MULTI_PANEL) so that every call has several panels, a narrower last
 * one, more panels than the ring holds, and both accelerators at work. The values are small
 * multiples of 0.25, so every product and sum is exact in float and the only rounding is in alpha
 * and beta. Covered: float and double, every transpose, alpha and beta not 1 and 0, alpha 0 (A and
 * B not read: NaN there must not reach C), beta 0 (NaN in C must not survive), sections with row
 * strides, one accelerator, more accelerators than rows, several threads writing C (also more
 * than a part has rows: 3 for 1 row), a ring per accelerator
 * (AMP_GEMM_MULTI_SHARED=0), and the bad inputs, each with C's host memory unchanged. */
#include <stdint.h>

#include "check.h"
#include "gemm_case.h"

static amp_accelerator *acc[2];
static amp_accelerator_view *av[2];

static double val(int i, int seed) {
  return (double)((i * 7 + seed * 13) % 11) * 0.25 - 1.25;
}

static void fill(void *p, int dbl, size_t n, int seed) {
  for (size_t i = 0; i < n; i++) {
    if (dbl)
      ((double *)p)[i] = val((int)i, seed);
    else
      ((float *)p)[i] = (float)val((int)i, seed);
  }
}

static double get(const void *p, int dbl, size_t i) {
  return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* One GEMM on `nv` accelerators. A, B and C are views of ld-wide parents (ld >= their widths: a
 * section when wider), checked element by element against the reference; the parent's bytes
 * outside C must be untouched. */
static void one_case(int dbl, int ta, int tb, int m, int n, int k, double alpha, double beta,
                     int nv, int ld) {
  const amp_elem_type t = dbl ? AMP_DOUBLE : AMP_FLOAT;
  const size_t es = dbl ? sizeof(double) : sizeof(float);
  const int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  const int lda = ld > ac ? ld : ac, ldb = ld > bc ? ld : bc, ldc = ld > n ? ld : n;
  void *ha = malloc((size_t)ar * (size_t)lda * es), *hb = malloc((size_t)br * (size_t)ldb * es),
       *hc = malloc((size_t)m * (size_t)ldc * es), *c0 = malloc((size_t)m * (size_t)ldc * es);
  double *ref = malloc((size_t)m * (size_t)n * sizeof(double));
  if (!ha || !hb || !hc || !c0 || !ref) {
    CHECK(!"out of memory");
    goto done;
  }
  fill(ha, dbl, (size_t)ar * (size_t)lda, 1);
  fill(hb, dbl, (size_t)br * (size_t)ldb, 2);
  fill(hc, dbl, (size_t)m * (size_t)ldc, 3);
  memcpy(c0, hc, (size_t)m * (size_t)ldc * es);
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int p = 0; p < k; p++) {
        double x = ta ? get(ha, dbl, (size_t)p * (size_t)lda + (size_t)i)
                      : get(ha, dbl, (size_t)i * (size_t)lda + (size_t)p);
        double y = tb ? get(hb, dbl, (size_t)j * (size_t)ldb + (size_t)p)
                      : get(hb, dbl, (size_t)p * (size_t)ldb + (size_t)j);
        s += x * y;
      }
      ref[(size_t)i * (size_t)n + (size_t)j] =
          alpha * s + beta * get(c0, dbl, (size_t)i * (size_t)ldc + (size_t)j);
    }
  amp_array_view *pa = NULL, *pb = NULL, *pc = NULL, *a = NULL, *b = NULL, *c = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent2(ar, lda), t, ha, &pa));
  CHECK_OK(amp_array_view_create_const(amp_extent2(br, ldb), t, hb, &pb));
  CHECK_OK(amp_array_view_create(amp_extent2(m, ldc), t, hc, &pc));
  CHECK_OK(amp_array_view_section(pa, amp_index2(0, 0), amp_extent2(ar, ac), &a));
  CHECK_OK(amp_array_view_section(pb, amp_index2(0, 0), amp_extent2(br, bc), &b));
  CHECK_OK(amp_array_view_section(pc, amp_index2(0, 0), amp_extent2(m, n), &c));
  CHECK_OK(amp_blas_gemm_multi(av, nv, ta ? AMP_TRANS : AMP_NO_TRANS, tb ? AMP_TRANS : AMP_NO_TRANS,
                               alpha, a, b, beta, c));
  CHECK_OK(amp_array_view_synchronize(pc));
  size_t bad = 0, outside = 0;
  double worst = 0;
  const double tol = dbl ? 1e-12 : 1e-5;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < ldc; j++) {
      size_t h = (size_t)i * (size_t)ldc + (size_t)j;
      if (j >= n) {
        outside += get(hc, dbl, h) != get(c0, dbl, h);
        continue;
      }
      double r = ref[(size_t)i * (size_t)n + (size_t)j], d = fabs(get(hc, dbl, h) - r);
      if (!(d <= tol * (1.0 + fabs(r)))) {
        bad++;
        worst = d > worst || d != d ? d : worst;
      }
    }
  if (bad || outside)
    fprintf(stderr,
            "%s ta %d tb %d %d x %d x %d alpha %g beta %g on %d, ld %d: %zu wrong (worst %g), "
            "%zu changed outside C\n",
            dbl ? "double" : "float", ta, tb, m, n, k, alpha, beta, nv, ld, bad, worst, outside);
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(outside, 0);
  amp_array_view_release(a);
  amp_array_view_release(b);
  amp_array_view_release(c);
  amp_array_view_release(pa);
  amp_array_view_release(pb);
  CHECK_OK(amp_array_view_release(pc));
done:
  free(ha);
  free(hb);
  free(hc);
  free(c0);
  free(ref);
}

/* alpha 0: C = beta C, A and B (full of NaN) not read; beta 0: C's NaN do not survive. */
static void special_scalars(void) {
  enum { M = 9, N = 7, K = 5 };
  float ha[M * K], hb[K * N], hc[M * N];
  for (int i = 0; i < M * K; i++)
    ha[i] = NAN;
  for (int i = 0; i < K * N; i++)
    hb[i] = NAN;
  for (int i = 0; i < M * N; i++)
    hc[i] = (float)i;
  amp_array_view *a = NULL, *b = NULL, *c = NULL;
  gemm_abc_views(AMP_FLOAT, M, N, K, 1, ha, hb, hc, &a, &b, &c);
  CHECK_OK(amp_blas_gemm_multi(av, 2, AMP_NO_TRANS, AMP_NO_TRANS, 0.0, a, b, 2.0, c));
  CHECK_OK(amp_array_view_synchronize(c));
  int bad = 0;
  for (int i = 0; i < M * N; i++)
    bad += hc[i] != 2.0f * (float)i;
  CHECK_EQ_INT(bad, 0);
  /* beta 0 with NaN in C: C = A B exactly */
  for (int i = 0; i < M * K; i++)
    ha[i] = (float)(i % 3);
  for (int i = 0; i < K * N; i++)
    hb[i] = (float)(i % 4) - 1.0f;
  for (int i = 0; i < M * N; i++)
    hc[i] = NAN;
  CHECK_OK(amp_array_view_refresh(a));
  CHECK_OK(amp_array_view_refresh(b));
  CHECK_OK(amp_array_view_refresh(c));
  CHECK_OK(amp_blas_gemm_multi(av, 2, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, a, b, 0.0, c));
  CHECK_OK(amp_array_view_synchronize(c));
  CHECK_EQ_INT(test_wrong_products(hc, ha, hb, M, N, K), 0);
  gemm_abc_release(a, b, c);
}

/* C written by a kernel-free path before: the newest C on an accelerator is what beta scales. */
static void c_newer_on_device(void) {
  enum { M = 6, N = 5, K = 4 };
  float ha[M * K], hb[K * N], hc[M * N], hd[M * N];
  for (int i = 0; i < M * K; i++)
    ha[i] = 1.0f;
  for (int i = 0; i < K * N; i++)
    hb[i] = 1.0f;
  for (int i = 0; i < M * N; i++)
    hd[i] = 5.0f;
  amp_array_view *a = NULL, *b = NULL, *c = NULL;
  gemm_abc_views(AMP_FLOAT, M, N, K, 1, ha, hb, hc, &a, &b, &c);
  /* C = 5 everywhere, copied in through an explicit copy on accelerator 1 */
  CHECK_OK(amp_copy_to_view(hd, sizeof hd, c));
  CHECK_OK(amp_array_view_synchronize_to(c, av[1]));
  CHECK_OK(amp_blas_gemm_multi(av, 2, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, a, b, 1.0, c));
  CHECK_OK(amp_array_view_synchronize(c));
  int bad = 0;
  for (int i = 0; i < M * N; i++)
    bad += hc[i] != 5.0f + (float)K;
  CHECK_EQ_INT(bad, 0);
  gemm_abc_release(a, b, c);
}

/* A transposed, and A a section with a row stride: each accelerator's part of A goes through a
 * view of the call's own (no lock shared with the other accelerators, as with one view on all of
 * them), and the call leaves no device buffer behind on the caller's A (the old code left one of
 * A's whole memory on every accelerator, held until A was released). Counted with the live
 * OpenCL buffers around a second call on a new A (the first made the call's cached pinned
 * regions). */
static void a_leaves_nothing(int ta, int ld) {
  enum { M = 24, N = 20, K = 12 };
  const int ar = ta ? K : M, ac = ta ? M : K, lda = ld > ac ? ld : ac;
  float *ha = malloc((size_t)ar * (size_t)lda * sizeof(float)), hb[K * N], hc[M * N];
  if (!ha) {
    CHECK(!"out of memory");
    return;
  }
  fill(ha, 0, (size_t)ar * (size_t)lda, 1);
  fill(hb, 0, K * N, 2);
  long long before = 0, after = 0;
  for (int round = 0; round < 2; round++) {
    amp_array_view *pa = NULL, *a = NULL, *b = NULL, *c = NULL;
    CHECK_OK(amp_array_view_create_const(amp_extent2(ar, lda), AMP_FLOAT, ha, &pa));
    CHECK_OK(amp_array_view_section(pa, amp_index2(0, 0), amp_extent2(ar, ac), &a));
    CHECK_OK(amp_array_view_create_const(amp_extent2(K, N), AMP_FLOAT, hb, &b));
    CHECK_OK(amp_array_view_create(amp_extent2(M, N), AMP_FLOAT, hc, &c));
    CHECK_OK(amp_cl_objects_live(AMP_CL_MEM, &before, NULL));
    CHECK_OK(
        amp_blas_gemm_multi(av, 2, ta ? AMP_TRANS : AMP_NO_TRANS, AMP_NO_TRANS, 1.0, a, b, 0.0, c));
    CHECK_OK(amp_cl_objects_live(AMP_CL_MEM, &after, NULL));
    int bad = 0;
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        float sum = 0;
        for (int p = 0; p < K; p++)
          sum += (ta ? ha[p * lda + i] : ha[i * lda + p]) * hb[p * N + j];
        bad += hc[i * N + j] != sum;
      }
    CHECK_EQ_INT(bad, 0);
    amp_array_view_release(a);
    amp_array_view_release(pa);
    amp_array_view_release(b);
    CHECK_OK(amp_array_view_release(c));
  }
  if (after != before)
    fprintf(stderr, "A %s, ld %d: %lld OpenCL buffers live before the call, %lld after\n",
            ta ? "transposed" : "whole", ld, before, after);
  CHECK_EQ_INT(after, before);
  free(ha);
}

/* Every bad input: a clear status, and C's host memory as it was. */
static void bad_inputs(void) {
  enum { M = 8, N = 6, K = 4 };
  float ha[M * K], hb[K * N], hc[M * N], keep[M * N];
  int hi[M * N];
  fill(ha, 0, M * K, 1);
  fill(hb, 0, K * N, 2);
  fill(hc, 0, M * N, 3);
  memcpy(keep, hc, sizeof hc);
  memset(hi, 0, sizeof hi);
  amp_array_view *a = NULL, *b = NULL, *c = NULL, *cr = NULL, *wrong = NULL, *ints = NULL,
                 *alias = NULL, *v1 = NULL, *arrv = NULL;
  amp_array *arr = NULL;
  amp_accelerator_view *extra = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent2(M, K), AMP_FLOAT, ha, &a));
  CHECK_OK(amp_array_view_create_const(amp_extent2(K, N), AMP_FLOAT, hb, &b));
  CHECK_OK(amp_array_view_create(amp_extent2(M, N), AMP_FLOAT, hc, &c));
  CHECK_OK(amp_array_view_create_const(amp_extent2(M, N), AMP_FLOAT, hc, &cr));
  CHECK_OK(amp_array_view_create_const(amp_extent2(K + 1, N), AMP_FLOAT, hb, &wrong));
  CHECK_OK(amp_array_view_create(amp_extent2(M, N), AMP_INT32, hi, &ints));
  CHECK_OK(amp_array_view_create(amp_extent1(M * N), AMP_FLOAT, hc, &v1));
  CHECK_OK(amp_array_view_section(c, amp_index2(0, 0), amp_extent2(K, N), &alias));
  CHECK_OK(amp_accelerator_create_view(acc[0], AMP_QUEUING_MODE_AUTOMATIC, &extra));
  CHECK_OK(amp_array_create(av[0], amp_extent2(M, N), AMP_FLOAT, &arr));
  CHECK_OK(amp_array_view_of(arr, &arrv));
  amp_accelerator_view *twice[2] = {av[0], extra};
  amp_accelerator_view *with_null[2] = {av[0], NULL};
  const amp_transpose N_ = AMP_NO_TRANS;
  struct {
    const char *what;
    amp_status st;
  } cases[] = {
      {"views NULL", amp_blas_gemm_multi(NULL, 2, N_, N_, 1, a, b, 0, c)},
      {"nviews 0", amp_blas_gemm_multi(av, 0, N_, N_, 1, a, b, 0, c)},
      {"nviews -1", amp_blas_gemm_multi(av, -1, N_, N_, 1, a, b, 0, c)},
      {"nviews 65", amp_blas_gemm_multi(av, 65, N_, N_, 1, a, b, 0, c)},
      {"views[1] NULL", amp_blas_gemm_multi(with_null, 2, N_, N_, 1, a, b, 0, c)},
      {"one accelerator twice", amp_blas_gemm_multi(twice, 2, N_, N_, 1, a, b, 0, c)},
      {"trans_a 7", amp_blas_gemm_multi(av, 2, (amp_transpose)7, N_, 1, a, b, 0, c)},
      {"A NULL", amp_blas_gemm_multi(av, 2, N_, N_, 1, NULL, b, 0, c)},
      {"C NULL", amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, NULL)},
      {"B of K + 1 rows", amp_blas_gemm_multi(av, 2, N_, N_, 1, a, wrong, 0, c)},
      {"A transposed (shapes)", amp_blas_gemm_multi(av, 2, AMP_TRANS, N_, 1, a, b, 0, c)},
      {"C read-only", amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, cr)},
      {"C of ints", amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, ints)},
      {"C of rank 1", amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, v1)},
      {"B is C", amp_blas_gemm_multi(av, 2, N_, N_, 1, a, alias, 0, c)},
      {"C of a device array", amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, arrv)},
  };
  const amp_status want[] = {
      AMP_ERROR_INVALID_ARGUMENT,   AMP_ERROR_INVALID_ARGUMENT, AMP_ERROR_INVALID_ARGUMENT,
      AMP_ERROR_INVALID_ARGUMENT,   AMP_ERROR_INVALID_ARGUMENT, AMP_ERROR_INVALID_ARGUMENT,
      AMP_ERROR_INVALID_ARGUMENT,   AMP_ERROR_INVALID_HANDLE,   AMP_ERROR_INVALID_HANDLE,
      AMP_ERROR_EXTENT_MISMATCH,    AMP_ERROR_EXTENT_MISMATCH,  AMP_ERROR_ACCESS_DENIED,
      AMP_ERROR_INVALID_ARGUMENT,   AMP_ERROR_RANK_MISMATCH,    AMP_ERROR_INVALID_ARGUMENT,
      AMP_ERROR_UNSUPPORTED_FEATURE};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cases[i].st != want[i])
      fprintf(stderr, "bad input \"%s\": %s, expected %s\n", cases[i].what,
              amp_status_name(cases[i].st), amp_status_name(want[i]));
    CHECK_EQ_INT(cases[i].st, want[i]);
  }
  /* the reasons name the value and the limit */
  CHECK_STATUS(amp_blas_gemm_multi(av, 65, N_, N_, 1, a, b, 0, c), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(amp_last_error(), "65") && strstr(amp_last_error(), "64"));
  CHECK_STATUS(amp_blas_gemm_multi(av, 2, N_, N_, 1, a, wrong, 0, c), AMP_ERROR_EXTENT_MISMATCH);
  CHECK(strstr(amp_last_error(), "5 x 6"));
  CHECK_STATUS(amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, ints), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(amp_last_error(), "int32") && strstr(amp_last_error(), "float"));
  CHECK_STATUS(amp_blas_gemm_multi(av, 2, N_, N_, 1, ints, b, 0, c), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(amp_last_error(), "int32"));
  /* bad settings, read at every call */
  setenv("AMP_GEMM_MULTI_PANEL", "wide", 1);
  CHECK_STATUS(amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, c), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(amp_last_error(), "AMP_GEMM_MULTI_PANEL") && strstr(amp_last_error(), "wide"));
  setenv("AMP_GEMM_MULTI_PANEL", "0", 1);
  CHECK_STATUS(amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, c), AMP_ERROR_INVALID_ARGUMENT);
  setenv("AMP_GEMM_MULTI_PANEL", "3", 1);
  setenv("AMP_GEMM_MULTI_RING", "1", 1);
  CHECK_STATUS(amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, c), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(amp_last_error(), "AMP_GEMM_MULTI_RING"));
  setenv("AMP_GEMM_MULTI_RING", "2", 1);
  setenv("AMP_GEMM_MULTI_THREADS", "65", 1);
  CHECK_STATUS(amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, c), AMP_ERROR_INVALID_ARGUMENT);
  setenv("AMP_GEMM_MULTI_THREADS", "2", 1);
  setenv("AMP_GEMM_MULTI_A_PARTS", "17", 1);
  CHECK_STATUS(amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, c), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(amp_last_error(), "AMP_GEMM_MULTI_A_PARTS") && strstr(amp_last_error(), "16"));
  setenv("AMP_GEMM_MULTI_A_PARTS", "2", 1);
  setenv("AMP_GEMM_MULTI_WRITERS", "0", 1);
  CHECK_STATUS(amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, c), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(amp_last_error(), "AMP_GEMM_MULTI_WRITERS") && strstr(amp_last_error(), "16"));
  unsetenv("AMP_GEMM_MULTI_WRITERS");
  setenv("AMP_GEMM_MULTI_SHARED", "2", 1);
  CHECK_STATUS(amp_blas_gemm_multi(av, 2, N_, N_, 1, a, b, 0, c), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(amp_last_error(), "AMP_GEMM_MULTI_SHARED"));
  unsetenv("AMP_GEMM_MULTI_SHARED");
  CHECK_OK(amp_array_view_synchronize(c));
  CHECK(memcmp(hc, keep, sizeof hc) == 0);
  CHECK(memcmp(hi, (int[M * N]){0}, sizeof hi) == 0);
  amp_array_view_release(arrv);
  amp_array_release(arr);
  amp_accelerator_view_release(extra);
  amp_array_view_release(alias);
  amp_array_view_release(v1);
  amp_array_view_release(ints);
  amp_array_view_release(wrong);
  amp_array_view_release(cr);
  gemm_abc_release(a, b, c);
}

/* A device's copy failing during the run (AMP_STAGING_FAIL_AFTER=0: every staged copy fails, and
 * only A's rows are staged): the call fails naming the accelerator, no thread is left waiting,
 * C is as it was (no GEMM ran), and the next call works. Only where A's copies are staged: the
 * OpenCL path with AMP_STAGING=force. */
static void device_failure(void) {
  enum { M = 40, N = 24, K = 16 };
  float ha[M * K], hb[K * N], hc[M * N], keep[M * N];
  fill(ha, 0, M * K, 1);
  fill(hb, 0, K * N, 2);
  fill(hc, 0, M * N, 3);
  memcpy(keep, hc, sizeof hc);
  amp_array_view *a = NULL, *b = NULL, *c = NULL;
  gemm_abc_views(AMP_FLOAT, M, N, K, 1, ha, hb, hc, &a, &b, &c);
  setenv("AMP_STAGING_FAIL_AFTER", "0", 1);
  amp_status st = amp_blas_gemm_multi(av, 2, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, a, b, 0.0, c);
  unsetenv("AMP_STAGING_FAIL_AFTER");
  CHECK(st != AMP_SUCCESS);
  CHECK(strstr(amp_last_error(), "amp_blas_gemm_multi: on ") != NULL);
  CHECK_OK(amp_array_view_synchronize(c));
  CHECK(memcmp(hc, keep, sizeof hc) == 0);
  CHECK_OK(amp_blas_gemm_multi(av, 2, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, a, b, 0.0, c));
  CHECK_OK(amp_array_view_synchronize(c));
  CHECK_EQ_INT(test_wrong_products(hc, ha, hb, M, N, K), 0);
  gemm_abc_release(a, b, c);
}

int main(int argc, char **argv) {
  /* "float": float cases only (the OpenCL run: double's kernels take long to build on POCL, and
   * the library's code is the same for both types; the OpenBLAS run covers double) */
  int ndbl = argc > 1 && strcmp(argv[1], "float") == 0 ? 1 : 2;
  if (test_devices(acc, 2) < 2) { /* a split over one device would prove nothing: skip */
    printf("SKIP: the split needs two accelerators; POCL makes two with "
           "POCL_DEVICES=\"pthread pthread\"\n");
    return SKIP;
  }
  for (int i = 0; i < 2 && ndbl == 2; i++) { /* double only where both devices have it */
    amp_accelerator_properties p;
    REQUIRE_OK(amp_accelerator_get_properties(acc[i], &p));
    if (!p.supports_double_precision) {
      printf("double cases skipped: %s has no fp64\n", p.device_path);
      ndbl = 1;
    }
  }
  for (int i = 0; i < 2; i++)
    REQUIRE_OK(amp_accelerator_default_view(acc[i], &av[i]));
  /* several panels, a narrow last one, more panels than the ring holds */
  setenv("AMP_GEMM_MULTI_PANEL", "8", 1);
  setenv("AMP_GEMM_MULTI_RING", "2", 1);
  setenv("AMP_GEMM_MULTI_THREADS", "3", 1);
  setenv("AMP_GEMM_MULTI_A_PARTS", "3", 1); /* on the OpenCL path: the first panel by chunks of A */
  setenv("AMP_GEMM_MULTI_WRITERS", "3", 1); /* each part's rows of C written by 3 threads */
  for (int dbl = 0; dbl < ndbl; dbl++)
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++)
        one_case(dbl, ta, tb, 37, 53, 29, ta || tb ? -1.5 : 1.0, ta || tb ? 0.5 : 0.0, 2, 0);
  one_case(0, 0, 0, 37, 53, 29, 2.0, -0.75, 2, 61); /* sections with row strides */
  one_case(ndbl - 1, 1, 0, 23, 41, 19, 0.5, 1.0, 2, 47);
  one_case(0, 0, 0, 37, 53, 29, 1.0, 0.0, 1, 0);        /* one accelerator */
  one_case(ndbl - 1, 0, 0, 1, 19, 13, 1.0, 0.25, 2, 0); /* more accelerators than rows */
  setenv("AMP_GEMM_MULTI_RING", "3", 1);
  setenv("AMP_GEMM_MULTI_THREADS", "1", 1);
  setenv("AMP_GEMM_MULTI_WRITERS", "16", 1); /* the most writers (16; 18 and 19 rows a part) */
  one_case(0, 0, 0, 37, 53, 29, 1.0, 0.0, 2, 0);
  unsetenv("AMP_GEMM_MULTI_WRITERS");
  setenv("AMP_GEMM_MULTI_A_PARTS", "1", 1); /* A whole, two result buffers */
  one_case(0, 0, 0, 37, 53, 29, 1.0, 0.0, 2, 0);
  one_case(0, 1, 1, 37, 53, 29, 0.5, 2.0, 2, 0);
  setenv("AMP_GEMM_MULTI_RING", "2", 1);
  one_case(0, 0, 0, 37, 53, 29, 1.0, 0.0, 2, 0);
  setenv("AMP_GEMM_MULTI_RING", "3", 1);
  setenv("AMP_GEMM_MULTI_A_PARTS", "2", 1);
  setenv("AMP_GEMM_MULTI_SHARED", "0", 1); /* a ring per accelerator */
  one_case(0, 0, 1, 37, 53, 29, 1.0, 0.0, 2, 0);
  one_case(0, 0, 0, 37, 53, 29, 1.0, 0.5, 2, 59);
  unsetenv("AMP_GEMM_MULTI_SHARED");
  unsetenv("AMP_GEMM_MULTI_PANEL"); /* the default width: one panel at these sizes */
  one_case(0, 0, 0, 37, 53, 29, 1.0, 0.0, 2, 0);
  setenv("AMP_GEMM_MULTI_PANEL", "5", 1);
  setenv("AMP_GEMM_MULTI_THREADS", "2", 1);
  special_scalars();
  c_newer_on_device();
  a_leaves_nothing(1, 0);
  a_leaves_nothing(1, 31);
  a_leaves_nothing(0, 17);
  bad_inputs();
  if (argc > 2 && strcmp(argv[2], "staged") == 0)
    device_failure();
  /* every view is released: no buffer counts as the user's (amp_cl_objects_live); the pinned
   * regions the call keeps are the process's */
  long long mine = -1, process = -1;
  CHECK_OK(amp_cl_objects_live(AMP_CL_MEM, &mine, &process));
  if (mine != 0)
    fprintf(stderr, "%lld OpenCL buffers counted as the user's after every view was released\n",
            mine);
  CHECK_EQ_INT(mine, 0);
  return check_done();
}
