/* gemm_general: C = alpha op(A) B + beta C on the fast engine (runtime/blas/gemm_general.c).
 *
 * Run as `test_gemm_general float` and `... double` with AMP_BLAS_CPU=opencl (so POCL keeps the
 * GEMM on OpenCL instead of OpenBLAS) and AMP_BLAS_GEMM=fast. Against a host triple loop it proves:
 *   - A transposed or not, alpha 1, 2 or -0.5, beta 0, 1, 0.5 or -1, on whole views and on sections
 *     of larger parents (the parents' rest untouched), in one block of rows and, with the scratch
 *     bound lowered, in several (a shorter last one; one row per block);
 *   - beta 0 does not read C: C full of NaNs gives the product;
 *   - the products ran on the fast engine (its counter) and CLBlast not at all;
 *   - the future spans the GEMM: waiting for it is enough to read C, and its device time is > 0;
 *   - the scratch views leave nothing of the user's: the live buffers after the GEMMs are as
 *     before, and the scratch buffers kept for later calls are reused, not piled up;
 *   - B transposed still goes to CLBlast (where ampcl has it), and bad operands fail before
 *     anything runs, C untouched. */
#include "blas/gemm_general.h"
#include "blas/gemm_choice.h"
#include "check.h"
#include "gemm_padded.h"

enum { PAD = 2 };

static int dbl;
static int times = 1; /* whether ampcl gives device times here (test_device_times) */

/* Element i of a buffer of this run's type (float, or double with dbl). */
#define get(p, i)    gemm_elem_get(p, dbl, i)
#define put(p, i, x) gemm_elem_put(p, dbl, i, x)

/* One GEMM, checked element by element (the parent's border included); nan_c fills C with NaNs
 * (beta must be 0 then). */
static void gemm_case(amp_accelerator_view *av, int m, int n, int k, int ta, double alpha,
                      double beta, int section, int nan_c) {
  int ar = ta ? k : m, ac = ta ? m : k;
  int pad = section ? PAD : 0;
  gemm_host h;
  amp_elem_type t = dbl ? AMP_DOUBLE : AMP_FLOAT;
  gemm_padded g = {NULL, NULL, NULL, NULL, NULL, NULL, section};
  amp_future *f = NULL;
  if (gemm_host_make(&h, dbl, pad, ar, ac, k, n, m, n)) {
    CHECK(0 && "out of memory");
    goto out;
  }
  for (size_t i = 0; i < h.nc; i++) {
    int row = (int)(i / h.ldc), col = (int)(i % h.ldc);
    int inside = row >= pad && row < m + pad && col >= pad && col < n + pad;
    put(h.c, i, nan_c && inside ? NAN : (double)(i % 5) - 2.0);
    h.want[i] = get(h.c, i);
  }
  gemm_host_expect(&h, dbl, pad, m, n, k, ta, 0, alpha, beta);
  CHECK_OK(gemm_padded_make(&g, t, pad, section, ar, ac, k, n, m, n, h.a, h.b, h.c));
  if (!g.va || !g.vb || !g.vc)
    goto out;
  amp_array_view *va = g.va, *vb = g.vb, *vc = g.vc, *pc = g.pc;
  amp__gemm_counts c0 = amp__gemm_counts_get();
  amp_status st =
      amp_blas_gemm(av, ta ? AMP_TRANS : AMP_NO_TRANS, AMP_NO_TRANS, alpha, va, vb, beta, vc, &f);
  CHECK_OK(st);
  if (st == AMP_SUCCESS) {
    amp__gemm_counts c1 = amp__gemm_counts_get();
    CHECK(c1.fast > c0.fast);
    CHECK_EQ_INT(c1.clblast, c0.clblast);
    CHECK_OK(amp_future_wait(f));
    test_check_elapsed(f, times);
    CHECK_OK(amp_array_view_synchronize(pc));
    double tol = (dbl ? 1e-12 : 2e-5) * (k + 1), worst = gemm_worst_error(h.c, dbl, h.want, h.nc);
    if (!(worst <= tol))
      fprintf(stderr, "  %d x %d x %d ta %d alpha %g beta %g section %d nan %d: error %g > %g\n", m,
              n, k, ta, alpha, beta, section, nan_c, worst, tol);
    CHECK(worst <= tol);
  }
  amp_future_release(f);
out:
  gemm_padded_release(&g);
  gemm_host_free(&h);
}

static long long live_buffers(void) {
  long long user = -1, process = -1;
  CHECK_OK(amp_cl_objects_live(AMP_CL_MEM, &user, &process));
  return user;
}

/* Every combination at one size, in the scratch bound set by the caller. */
static void all_cases(amp_accelerator_view *av, int m, int n, int k) {
  static const double ab[][2] = {{1.0, 1.0}, {2.0, 0.5}, {-0.5, -1.0}, {2.0, 0.0}};
  for (int ta = 0; ta < 2; ta++)
    for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++)
      gemm_case(av, m, n, k, ta, ab[i][0], ab[i][1], (int)(i + (size_t)ta) % 2, 0);
  gemm_case(av, m, n, k, 1, 1.0, 0.0, 1, 1); /* beta 0: C's NaNs are not read */
  gemm_case(av, m, n, k, 0, 3.0, 0.0, 0, 1);
}

int main(int argc, char **argv) {
  dbl = argc > 1 && strcmp(argv[1], "double") == 0;
  REQUIRE_GEMM_DEVICE(av, acc, props, dbl);
  times = test_device_times(acc);
  setenv("AMP_BLAS_GEMM", "fast", 1);
  const size_t es = dbl ? sizeof(double) : sizeof(float);
  const long long before = live_buffers();
  long long p0 = -1, p1 = -1; /* the buffers the process keeps, before any GEMM and at the end */
  CHECK_OK(amp_cl_objects_live(AMP_CL_MEM, NULL, &p0));

  /* One block of rows (the default bound), then blocks of 16 rows for m = 37 (16, 16, 5), then
   * one row per block. */
  all_cases(av, 37, 53, 29);
  amp__gemm_general_test_scratch(16 * 53 * es);
  all_cases(av, 37, 53, 29);
  amp__gemm_general_test_scratch(1);
  gemm_case(av, 5, 7, 3, 1, 2.0, 0.5, 1, 0);
  gemm_case(av, 1, 1, 1, 0, -1.0, 1.0, 0, 0);
  amp__gemm_general_test_scratch(0);
  CHECK_EQ_INT(live_buffers(), before);

  /* The scratch of calls that do not wait is kept for the next calls (runtime/data/retire.c),
   * not released while commands may still run: 41 GEMMs C += A^T B (two scratch buffers each,
   * taken over from the calls before) sum exactly (small integers), and the process keeps no more
   * buffers at the end than before any GEMM, retire.c's 8 and the reuse pool's 8 (scratch.c). */
  {
    float ha[29 * 37], hb[29 * 53], hc[37 * 53] = {0};
    for (int i = 0; i < 29 * 37; i++)
      ha[i] = (float)(i % 3 - 1);
    for (int i = 0; i < 29 * 53; i++)
      hb[i] = (float)(i % 5 - 2);
    amp_array_view *ra, *rb, *rc;
    REQUIRE_OK(amp_array_view_create(amp_extent2(29, 37), AMP_FLOAT, ha, &ra));
    REQUIRE_OK(amp_array_view_create(amp_extent2(29, 53), AMP_FLOAT, hb, &rb));
    REQUIRE_OK(amp_array_view_create(amp_extent2(37, 53), AMP_FLOAT, hc, &rc));
    for (int i = 0; i < 41; i++) {
      if (i == 40)
        CHECK_OK(amp_accelerator_view_wait(av));
      CHECK_OK(amp_blas_gemm(av, AMP_TRANS, AMP_NO_TRANS, 1.0, ra, rb, 1.0, rc, NULL));
    }
    CHECK_OK(amp_cl_objects_live(AMP_CL_MEM, NULL, &p1));
    if (!(p1 - p0 <= 16))
      fprintf(stderr, "  retired scratch: %lld buffers kept before, %lld after\n", p0, p1);
    CHECK(p1 - p0 <= 16);
    CHECK_OK(amp_array_view_synchronize(rc));
    int wrong = 0;
    for (int i = 0; i < 37; i++)
      for (int j = 0; j < 53; j++) {
        float want = 0;
        for (int q = 0; q < 29; q++)
          want += ha[q * 37 + i] * hb[q * 53 + j];
        wrong += hc[i * 53 + j] != 41.0f * want;
      }
    CHECK_EQ_INT(wrong, 0);
    amp_array_view_release(ra);
    amp_array_view_release(rb);
    amp_array_view_release(rc);
  }

  /* Bad operands: refused by name before anything runs; C as it was. */
  {
    float x[6] = {1, 2, 3, 4, 5, 6}, z[4] = {7, 7, 7, 7};
    amp_array_view *vx, *vz;
    REQUIRE_OK(amp_array_view_create(amp_extent2(2, 3), AMP_FLOAT, x, &vx));
    REQUIRE_OK(amp_array_view_create(amp_extent2(2, 2), AMP_FLOAT, z, &vz));
    if (!dbl) { /* A^T is 3 x 2 and C 2 x 2: the shapes do not agree */
      CHECK_STATUS(amp_blas_gemm(av, AMP_TRANS, AMP_NO_TRANS, 1.0, vx, vx, 1.0, vz, NULL),
                   AMP_ERROR_EXTENT_MISMATCH);
      CHECK_MSG("op(A) is 3 x 2");
      CHECK_OK(amp_array_view_synchronize(vz));
      CHECK(z[0] == 7.0f && z[3] == 7.0f);
    }
    amp_array_view_release(vx);
    amp_array_view_release(vz);
  }
  unsetenv("AMP_BLAS_GEMM");
  return check_done();
}
