/* tests/blas/gemm_padded.h: what gemm_choice.c and gemm_general.c share: one GEMM's operands over
 * host buffers as parents padded by `pad` elements each way and, for sections, their sections at
 * (pad, pad) (the parents themselves otherwise), released together; and the worst relative error
 * of C against the host's; the host buffers themselves, A and B filled; the check of a GEMM's
 * device time; and the start of their main. */
#ifndef AMPCL_TESTS_GEMM_PADDED_H
#define AMPCL_TESTS_GEMM_PADDED_H

#include <math.h>
#include <stdlib.h>

#include "ampcl.h"

/* The start of a GEMM test's main: `av`, `acc` and `props` of the default accelerator; a double
 * run (`dbl`) on a device without fp64 is skipped. */
#define REQUIRE_GEMM_DEVICE(av, acc, props, dbl)                                                   \
  amp_accelerator_view *av;                                                                        \
  REQUIRE_OK(amp_default_view(&av));                                                               \
  amp_accelerator *acc;                                                                            \
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));                                      \
  amp_accelerator_properties props;                                                                \
  REQUIRE_OK(amp_accelerator_get_properties(acc, &props));                                         \
  if ((dbl) && !props.supports_double_precision)                                                   \
  return SKIP

typedef struct gemm_padded {
  amp_array_view *pa, *pb, *pc; /* the parents */
  amp_array_view *va, *vb, *vc; /* the operands: A (ar x ac), B (br x bc), C (m x n) */
  int section;
} gemm_padded;

/* The parents of A, B and C over a, b and c (element type t) and the operands; the first failure,
 * or AMP_SUCCESS. *g is ready for gemm_padded_release either way. */
static inline amp_status gemm_padded_make(gemm_padded *g, amp_elem_type t, int pad, int section,
                                          int ar, int ac, int br, int bc, int m, int n, void *a,
                                          void *b, void *c) {
  amp_status st;
  *g = (gemm_padded){NULL, NULL, NULL, NULL, NULL, NULL, section};
  if ((st = amp_array_view_create(amp_extent2(ar + 2 * pad, ac + 2 * pad), t, a, &g->pa)) ||
      (st = amp_array_view_create(amp_extent2(br + 2 * pad, bc + 2 * pad), t, b, &g->pb)) ||
      (st = amp_array_view_create(amp_extent2(m + 2 * pad, n + 2 * pad), t, c, &g->pc)))
    return st;
  if (!section) {
    g->va = g->pa, g->vb = g->pb, g->vc = g->pc;
    return AMP_SUCCESS;
  }
  if ((st = amp_array_view_section(g->pa, amp_index2(pad, pad), amp_extent2(ar, ac), &g->va)) ||
      (st = amp_array_view_section(g->pb, amp_index2(pad, pad), amp_extent2(br, bc), &g->vb)))
    return st;
  return amp_array_view_section(g->pc, amp_index2(pad, pad), amp_extent2(m, n), &g->vc);
}

/* Releases the sections (where they are not the parents) and the parents. */
static inline void gemm_padded_release(gemm_padded *g) {
  amp_array_view *all[] = {g->section ? g->va : NULL,
                           g->section ? g->vb : NULL,
                           g->section ? g->vc : NULL,
                           g->pa,
                           g->pb,
                           g->pc};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    amp_array_view_release(all[i]);
}

/* Element i of a float (dbl 0) or double array, read as a double and written from one. */
static inline double gemm_elem_get(const void *p, int dbl, size_t i) {
  return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}
static inline void gemm_elem_put(void *p, int dbl, size_t i, double x) {
  if (dbl)
    ((double *)p)[i] = x;
  else
    ((float *)p)[i] = (float)x;
}

/* The largest |c[i] - want[i]| / (1 + |want[i]|) over nc elements of a float (dbl 0) or double
 * array; infinity where one is NaN. */
static inline double gemm_worst_error(const void *c, int dbl, const double *want, size_t nc) {
  double worst = 0;
  for (size_t i = 0; i < nc; i++) {
    double e = fabs(gemm_elem_get(c, dbl, i) - want[i]) / (1.0 + fabs(want[i]));
    if (!(e <= worst))
      worst = isnan(e) ? INFINITY : e;
  }
  return worst;
}

/* The host buffers of one case: A (ar x ac), B (br x bc) and C (m x n) of float (dbl 0) or double
 * elements, each inside a border of pad elements (leading dimensions lda, ldb, ldc; na, nb, nc
 * elements in all), and room for C's expected contents (want). */
typedef struct gemm_host {
  int lda, ldb, ldc;
  size_t na, nb, nc;
  void *a, *b, *c;
  double *want;
} gemm_host;

/* Allocates h's buffers and fills A and B, border included, with values whose products are exact
 * (C and want are the case's to fill). 0 where every buffer was allocated; gemm_host_free either
 * way. */
static inline int gemm_host_make(gemm_host *h, int dbl, int pad, int ar, int ac, int br, int bc,
                                 int m, int n) {
  const size_t es = dbl ? sizeof(double) : sizeof(float);
  h->lda = ac + 2 * pad, h->ldb = bc + 2 * pad, h->ldc = n + 2 * pad;
  h->na = (size_t)(ar + 2 * pad) * h->lda, h->nb = (size_t)(br + 2 * pad) * h->ldb,
  h->nc = (size_t)(m + 2 * pad) * h->ldc;
  h->a = malloc(h->na * es), h->b = malloc(h->nb * es), h->c = malloc(h->nc * es);
  h->want = malloc(h->nc * sizeof *h->want);
  if (!h->a || !h->b || !h->c || !h->want)
    return 1;
  for (size_t i = 0; i < h->na; i++)
    gemm_elem_put(h->a, dbl, i, (double)((i * 7) % 13) * 0.125 - 0.75);
  for (size_t i = 0; i < h->nb; i++)
    gemm_elem_put(h->b, dbl, i, (double)((i * 5) % 11) * 0.25 - 1.25);
  return 0;
}

/* want, holding C as it was, becomes what the GEMM must leave there: alpha op(A) op(B) + beta C
 * (m x n, inner dimension k; A and B transposed where ta, tb) inside the border, C outside it.
 * Where beta is 0, C is not read (it may hold NaNs then). */
static inline void gemm_host_expect(gemm_host *h, int dbl, int pad, int m, int n, int k, int ta,
                                    int tb, double alpha, double beta) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int q = 0; q < k; q++) {
        int ai = ta ? q : i, aj = ta ? i : q, bi = tb ? j : q, bj = tb ? q : j;
        s += gemm_elem_get(h->a, dbl, (size_t)(ai + pad) * h->lda + aj + pad) *
             gemm_elem_get(h->b, dbl, (size_t)(bi + pad) * h->ldb + bj + pad);
      }
      double *w = &h->want[(size_t)(i + pad) * h->ldc + j + pad];
      *w = beta == 0.0 ? alpha * s : alpha * s + beta * *w;
    }
}

static inline void gemm_host_free(gemm_host *h) {
  free(h->a);
  free(h->b);
  free(h->c);
  free(h->want);
}

#endif /* AMPCL_TESTS_GEMM_PADDED_H */
