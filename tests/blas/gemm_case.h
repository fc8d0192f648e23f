/* tests/blas/gemm_case.h: what the GEMM tests share: the kernels that write A and read C around a
 * GEMM, the operands' values, and A, B and C as whole views over host buffers or as sections of
 * larger parents. */
#ifndef AMPCL_TESTS_GEMM_CASE_H
#define AMPCL_TESTS_GEMM_CASE_H

#include "check.h"

/* fill_a writes A on the device; plus_one reads C there (d = c + 1). */
static const char gemm_kernels_src[] =
    "__kernel void fill_a(AMP_VIEW(float, a)) {\n"
    "  AMP_INDEX2(i);\n"
    "  amp_at(a, i[0], i[1]) = (float)((i[0] * 3 + i[1]) % 7) - 3.0f;\n"
    "}\n"
    "__kernel void plus_one(AMP_CONST_VIEW(float, c), AMP_VIEW(float, d)) {\n"
    "  AMP_INDEX2(i);\n"
    "  amp_at(d, i[0], i[1]) = amp_at(c, i[0], i[1]) + 1.0f;\n"
    "}\n";

/* Element i of a float (dbl 0) or double array. */
static inline double gemm_get(const void *p, int dbl, size_t i) {
  return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* Fills n elements with small distinct values, exact in float. */
static inline void gemm_fill(void *p, int dbl, int n, int seed) {
  for (int i = 0; i < n; i++) {
    double x = (double)((i * 7 + seed * 13) % 11) * 0.25 - 1.0;
    if (dbl)
      ((double *)p)[i] = x;
    else
      ((float *)p)[i] = (float)x;
  }
}

/* The operands of one GEMM: A (m x k, k x m when transposed), B (k x n, n x k) and C (m x n). With
 * `sections`, each is a section of a big x big parent (pa, pb, pc) over the buffer, at (2, 3),
 * (1, 4) and (3, 2); otherwise a whole view over the start of the buffer. */
typedef struct gemm_operands {
  amp_array_view *a, *b, *c, *pa, *pb, *pc;
} gemm_operands;

static inline gemm_operands gemm_operands_make(int dbl, int ta, int tb, int m, int n, int k,
                                               int big, int sections, void *abuf, void *bbuf,
                                               void *cbuf) {
  gemm_operands g = {NULL, NULL, NULL, NULL, NULL, NULL};
  amp_elem_type t = dbl ? AMP_DOUBLE : AMP_FLOAT;
  int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  if (sections) {
    CHECK_OK(amp_array_view_create(amp_extent2(big, big), t, abuf, &g.pa));
    CHECK_OK(amp_array_view_create(amp_extent2(big, big), t, bbuf, &g.pb));
    CHECK_OK(amp_array_view_create(amp_extent2(big, big), t, cbuf, &g.pc));
    CHECK_OK(amp_array_view_section(g.pa, amp_index2(2, 3), amp_extent2(ar, ac), &g.a));
    CHECK_OK(amp_array_view_section(g.pb, amp_index2(1, 4), amp_extent2(br, bc), &g.b));
    CHECK_OK(amp_array_view_section(g.pc, amp_index2(3, 2), amp_extent2(m, n), &g.c));
  } else {
    CHECK_OK(amp_array_view_create(amp_extent2(ar, ac), t, abuf, &g.a));
    CHECK_OK(amp_array_view_create(amp_extent2(br, bc), t, bbuf, &g.b));
    CHECK_OK(amp_array_view_create(amp_extent2(m, n), t, cbuf, &g.c));
  }
  return g;
}

static inline void gemm_operands_release(gemm_operands *g) {
  amp_array_view *all[] = {g->a, g->b, g->c, g->pa, g->pb, g->pc};
  for (size_t i = 0; i < 6; i++)
    CHECK_OK(amp_array_view_release(all[i]));
}

/* Views over host arrays for C (m x n) = A (m x k) B (k x n), of element type t; A's and B's
 * read-only where ab_const. */
static inline void gemm_abc_views(amp_elem_type t, int m, int n, int k, int ab_const, void *a,
                                  void *b, void *c, amp_array_view **va, amp_array_view **vb,
                                  amp_array_view **vc) {
  if (ab_const) {
    CHECK_OK(amp_array_view_create_const(amp_extent2(m, k), t, a, va));
    CHECK_OK(amp_array_view_create_const(amp_extent2(k, n), t, b, vb));
  } else {
    CHECK_OK(amp_array_view_create(amp_extent2(m, k), t, a, va));
    CHECK_OK(amp_array_view_create(amp_extent2(k, n), t, b, vb));
  }
  CHECK_OK(amp_array_view_create(amp_extent2(m, n), t, c, vc));
}

/* Releases the views of A, B and C; C's release is checked, as the last view of C copies it
 * home. */
static inline void gemm_abc_release(amp_array_view *va, amp_array_view *vb, amp_array_view *vc) {
  amp_array_view_release(va);
  amp_array_view_release(vb);
  CHECK_OK(amp_array_view_release(vc));
}

/* Float views over host arrays for the cases that mix kernels with a GEMM: A (m x k), B (k x n,
 * read-only when b_const), C and D (m x n). */
static inline void gemm_float_views(int m, int n, int k, int b_const, float *a, float *b, float *c,
                                    float *d, amp_array_view **va, amp_array_view **vb,
                                    amp_array_view **vc, amp_array_view **vd) {
  CHECK_OK(amp_array_view_create(amp_extent2(m, k), AMP_FLOAT, a, va));
  if (b_const)
    CHECK_OK(amp_array_view_create_const(amp_extent2(k, n), AMP_FLOAT, b, vb));
  else
    CHECK_OK(amp_array_view_create(amp_extent2(k, n), AMP_FLOAT, b, vb));
  CHECK_OK(amp_array_view_create(amp_extent2(m, n), AMP_FLOAT, c, vc));
  CHECK_OK(amp_array_view_create(amp_extent2(m, n), AMP_FLOAT, d, vd));
}

/* Elements of C's big x big parent outside the m x n section at (3, 2) that differ from c0. */
static inline int gemm_outside_changed(const void *c, const void *c0, int dbl, int big, int m,
                                       int n) {
  int changed = 0;
  for (int i = 0; i < big; i++)
    for (int j = 0; j < big; j++)
      if (!(i >= 3 && i < 3 + m && j >= 2 && j < 2 + n))
        changed +=
            gemm_get(c, dbl, (size_t)(i * big + j)) != gemm_get(c0, dbl, (size_t)(i * big + j));
  return changed;
}

#endif /* AMPCL_TESTS_GEMM_CASE_H */
