/* tests/kernels/elements.h: what the matmul tests (kernels/matmul.c, lessons/lessons.c) share: host
 * access to an element of any numeric type, a sentinel no result equals, small random operands
 * whose products are exact, a kernel that fills a rank-2 view, and the operands as sections. */
#ifndef AMPCL_TESTS_ELEMENTS_H
#define AMPCL_TESTS_ELEMENTS_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "ampcl.h"
#include "check.h"

/* fill(AMP_VIEW(T, v), T value): every element of a rank-2 view; built with -DT=<type>. */
static const char *const fill2d_src = "__kernel void fill(AMP_VIEW(T, v), T value) {\n"
                                      "  AMP_INDEX2(i);\n"
                                      "  amp_at(v, i[0], i[1]) = value;\n"
                                      "}\n";

/* -8 .. 8 from a linear congruential generator with its state in *rng. */
static inline int next_small_int(uint32_t *rng) {
  *rng = *rng * 1664525u + 1013904223u;
  return (int)((*rng >> 8) % 17u) - 8;
}

/* Element i of an int32, float or double array, as a double. */
static inline double elem_get(amp_elem_type t, const void *p, size_t i) {
  switch (t.kind) {
  case AMP_ELEM_INT32:
    return ((const int32_t *)p)[i];
  case AMP_ELEM_FLOAT:
    return ((const float *)p)[i];
  default:
    return ((const double *)p)[i];
  }
}

static inline void elem_put(amp_elem_type t, void *p, size_t i, double v) {
  switch (t.kind) {
  case AMP_ELEM_INT32:
    ((int32_t *)p)[i] = (int32_t)v;
    break;
  case AMP_ELEM_FLOAT:
    ((float *)p)[i] = (float)v;
    break;
  default:
    ((double *)p)[i] = v;
  }
}

/* A value no product here can equal: NaN for floating types, INT32_MIN for int. */
static inline double elem_sentinel(amp_elem_type t) {
  return t.kind == AMP_ELEM_INT32 ? (double)INT32_MIN : (double)NAN;
}

/* The sentinel as fill2d_src's `value` argument. */
static inline amp_arg elem_sentinel_arg(amp_elem_type t) {
  return t.kind == AMP_ELEM_INT32   ? amp_arg_int(INT32_MIN)
         : t.kind == AMP_ELEM_FLOAT ? amp_arg_float(NAN)
                                    : amp_arg_double(NAN);
}

/* ref and mag (m x n) = the product of the m x w block of A and the w x n block of B at rows r0..,
 * columns c0.. of each (row-major, leading dimensions lda and ldb), and the sums of the products'
 * magnitudes (the error bound's scale). */
static inline void matmul_reference(amp_elem_type t, const void *A, int lda, const void *B, int ldb,
                                    int r0, int c0, int m, int n, int w, double *ref, double *mag) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0, s_abs = 0;
      for (int k = 0; k < w; k++) {
        const double p = elem_get(t, A, (size_t)(r0 + i) * lda + c0 + k) *
                         elem_get(t, B, (size_t)(r0 + k) * ldb + c0 + j);
        s += p;
        s_abs += fabs(p);
      }
      ref[(size_t)i * n + j] = s;
      mag[(size_t)i * n + j] = s_abs;
    }
}

/* The full views of a matmul test: A (ra x lda) and B (rb x ldb) read-only, C (rc x ldc). The
 * first failure, or AMP_SUCCESS. */
static inline amp_status matmul_full_views(amp_elem_type t, int ra, int lda, const void *A, int rb,
                                           int ldb, const void *B, int rc, int ldc, void *C,
                                           amp_array_view **fa, amp_array_view **fb,
                                           amp_array_view **fc) {
  amp_status st;
  if ((st = amp_array_view_create_const(amp_extent2(ra, lda), t, A, fa)) ||
      (st = amp_array_view_create_const(amp_extent2(rb, ldb), t, B, fb)))
    return st;
  return amp_array_view_create(amp_extent2(rc, ldc), t, C, fc);
}

/* The operands a matmul test launches on: with `section`, the sections at (r0, c0) of the full
 * views *fa (m x w), *fb (w x n) and *fc (m x n) into *va, *vb, *vc; without, the full views
 * themselves, moved there (*fa, *fb, *fc become NULL). The first failure, or AMP_SUCCESS. */
static inline amp_status matmul_operands(int section, int r0, int c0, int m, int w, int n,
                                         amp_array_view **fa, amp_array_view **fb,
                                         amp_array_view **fc, amp_array_view **va,
                                         amp_array_view **vb, amp_array_view **vc) {
  amp_status st = AMP_SUCCESS;
  if (!section) {
    *va = *fa, *vb = *fb, *vc = *fc;
    *fa = *fb = *fc = NULL;
    return AMP_SUCCESS;
  }
  if ((st = amp_array_view_section(*fa, amp_index2(r0, c0), amp_extent2(m, w), va)) ||
      (st = amp_array_view_section(*fb, amp_index2(r0, c0), amp_extent2(w, n), vb)))
    return st;
  return amp_array_view_section(*fc, amp_index2(r0, c0), amp_extent2(m, n), vc);
}

/* The views of one matmul test: the full views of A, B and C, and the operands a kernel runs on
 * (see matmul_operands). */
typedef struct matmul_views {
  amp_array_view *fa, *fb, *fc, *va, *vb, *vc;
} matmul_views;

/* *v's views of A (ra x lda), B (rb x ldb) and C (rc x ldc), then the operands (matmul_operands).
 * With `section`, C's whole buffer is filled with the sentinel on the device first (fill, built
 * from fill2d_src): the device holds all of C, newer than the host, so synchronizing fc brings
 * all of it back and a write outside the section shows. Says what failed; the first failure, or
 * AMP_SUCCESS. *v is ready for matmul_views_release either way. */
static inline amp_status matmul_views_make(amp_accelerator_view *av, amp_kernel *fill,
                                           amp_elem_type t, int section, int r0, int c0, int m,
                                           int w, int n, int ra, int lda, const void *A, int rb,
                                           int ldb, const void *B, int rc, int ldc, void *C,
                                           matmul_views *v) {
  *v = (matmul_views){NULL, NULL, NULL, NULL, NULL, NULL};
  amp_status st;
  if ((st = matmul_full_views(t, ra, lda, A, rb, ldb, B, rc, ldc, C, &v->fa, &v->fb, &v->fc))) {
    fprintf(stderr, "creating views: %s\n", amp_last_error());
    return st;
  }
  if (section) {
    amp_arg fargs[] = {amp_arg_view(v->fc), elem_sentinel_arg(t)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent2(rc, ldc), fill, fargs, AMP_NARGS(fargs)));
  }
  if ((st = matmul_operands(section, r0, c0, m, w, n, &v->fa, &v->fb, &v->fc, &v->va, &v->vb,
                            &v->vc)))
    fprintf(stderr, "creating sections: %s\n", amp_last_error());
  return st;
}

static inline void matmul_views_release(matmul_views *v) {
  amp_array_view *all[] = {v->va, v->vb, v->vc, v->fa, v->fb, v->fc};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    amp_array_view_release(all[i]);
}

/* Where C (an rc x ldc row-major buffer) holds the product at rows r0.., columns c0.. (m x n, inner
 * dimension w): how many elements differ from ref (beyond 2 w eps |a||b|, the bound ampcl's GEMM
 * tests use, from mag) inside, or from the sentinel outside. The first three are printed after
 * `what` (the test's case). */
static inline int check_product(amp_elem_type t, const void *C, int rc, int ldc, int r0, int c0,
                                int m, int n, int w, const double *ref, const double *mag,
                                const char *what) {
  const double eps = t.kind == AMP_ELEM_FLOAT    ? FLT_EPSILON
                     : t.kind == AMP_ELEM_DOUBLE ? DBL_EPSILON
                                                 : 0;
  int bad = 0;
  for (int i = 0; i < rc; i++)
    for (int j = 0; j < ldc; j++) {
      const double got = elem_get(t, C, (size_t)i * ldc + j);
      const int inside = i >= r0 && i < r0 + m && j >= c0 && j < c0 + n;
      double want = elem_sentinel(t), tol = 0;
      if (inside) {
        want = ref[(size_t)(i - r0) * n + (j - c0)];
        tol = 2.0 * w * eps * mag[(size_t)(i - r0) * n + (j - c0)];
      }
      const int ok = isnan(want) ? isnan(got) : fabs(got - want) <= tol;
      if (!ok && bad++ < 3)
        fprintf(stderr, "  %s: C(%d,%d)%s = %.9g, expected %.9g\n", what, i - r0, j - c0,
                inside ? "" : " (outside C)", got, want);
    }
  return bad;
}

#endif /* AMPCL_TESTS_ELEMENTS_H */
