/* runtime/blas/gemm_split_write.c: amp_blas_gemm_multi's writes into the caller's C, on the host:
 * each panel's result as alpha * P + beta * C by a part's thread and the writers it starts, and
 * C = beta * C where alpha is 0. */
#include <pthread.h>
#include <string.h>

#include "blas/gemm_split.h"

/* d[0..n) = alpha * p[..] + beta * d[..] in type T over the bytes at dst and src (beta 0: C is
 * not read, so NaNs there do not carry). */
#define SCALE_ROW(T, dst, src, n, alpha, beta)                                                     \
  do {                                                                                             \
    T *d_ = (T *)(void *)(dst);                                                                    \
    const T *p_ = (const T *)(const void *)(src), al_ = (T)(alpha), be_ = (T)(beta);               \
    if (be_ == (T)0)                                                                               \
      for (size_t c_ = 0; c_ < (n); c_++)                                                          \
        d_[c_] = al_ * p_[c_];                                                                     \
    else                                                                                           \
      for (size_t c_ = 0; c_ < (n); c_++)                                                          \
        d_[c_] = al_ * p_[c_] + be_ * d_[c_];                                                      \
  } while (0)

/* C[r0 + i0.., c0..] = alpha * P + beta * C for rows [i0, i1) of the part's and the panel's wp
 * columns. */
static void write_rows(const job *j, const part *pt, const unsigned char *res, size_t c0, size_t wp,
                       size_t i0, size_t i1) {
  const size_t es = j->es;
  for (size_t i = i0; i < i1; i++) {
    unsigned char *dst = j->chost + ((pt->r0 + i) * j->ldc + c0) * es;
    const unsigned char *src = res + i * j->w * es;
    if (j->alpha == 1.0 && j->beta == 0.0) {
      memcpy(dst, src, wp * es);
    } else if (j->dbl) {
      SCALE_ROW(double, dst, src, wp, j->alpha, j->beta);
    } else {
      SCALE_ROW(float, dst, src, wp, j->alpha, j->beta);
    }
  }
}

struct writer {
  const job *j;
  const part *pt;
  const unsigned char *res;
  size_t c0, wp, i0, i1;
  pthread_t thread;
};

static void *writer_main(void *arg) {
  const struct writer *w = arg;
  write_rows(w->j, w->pt, w->res, w->c0, w->wp, w->i0, w->i1);
  return NULL;
}

/* By nwriters threads (this one and nwriters - 1 started for it): one host thread writing the
 * rows moved 3.5-3.8 GB/s on a four-GPU host, which made the write-back as long as the GEMMs
 * (lab/NOTEBOOK.md, 2026-11-27). A thread that cannot be started leaves its rows to this one. */
void amp__gemm_split_write_back(const job *j, const part *pt, const unsigned char *res, size_t c0,
                                size_t wp) {
  struct writer w[MAX_WRITERS];
  size_t n = j->nwriters < pt->rows ? j->nwriters : pt->rows;
  int started[MAX_WRITERS] = {0};
  for (size_t t = 1; t < n; t++) {
    w[t] = (struct writer){.j = j,
                           .pt = pt,
                           .res = res,
                           .c0 = c0,
                           .wp = wp,
                           .i0 = pt->rows * t / n,
                           .i1 = pt->rows * (t + 1) / n};
    started[t] = pthread_create(&w[t].thread, NULL, writer_main, &w[t]) == 0;
  }
  write_rows(j, pt, res, c0, wp, 0, pt->rows / n); /* the share of writer 0 */
  for (size_t t = 1; t < n; t++) {
    if (started[t])
      pthread_join(w[t].thread, NULL);
    else
      write_rows(j, pt, res, c0, wp, w[t].i0, w[t].i1);
  }
}

void amp__gemm_split_scale_c(const job *j) {
  for (size_t i = 0; i < j->m; i++) {
    unsigned char *row = j->chost + i * j->ldc * j->es;
    for (size_t x = 0; x < j->n; x++) {
      if (j->dbl) {
        double *d = (double *)(void *)row + x;
        *d = j->beta == 0.0 ? 0.0 : j->beta * *d;
      } else {
        float *d = (float *)(void *)row + x;
        *d = j->beta == 0.0 ? 0.0f : (float)j->beta * *d;
      }
    }
  }
}
