/* bench/omp/omp_matmul.c: C = A B (row-major, n x n) in OpenMP + SIMD, float and double: blocks of
 * 48 rows of C are split over the threads; within one, for each 256-deep slice of k, a strip of B
 * 256 deep and 2 vectors wide (16 KiB of float, in L1) is reused by every 6-row block of the rows,
 * whose 6 x (2 vectors) sums stay in 12 of AVX2's 16 registers (the micro-kernel below, vectorised
 * through omp simd). Edges that do not fill a 6 x W block take the plain loop. No packing, no
 * prefetching: OpenBLAS, measured beside it, is the tuned library; this is what a careful OpenMP
 * programmer writes in a page. */
#include <stddef.h>
#include <string.h>

#include "omp_bench.h"

enum { MR = 6, MB = 48, KC = 256 };

/* GEMM_FOR(T, W, NAME): the kernel for element type T with W elements a strip (two AVX2 vectors).
 */
#define GEMM_FOR(T, W, NAME)                                                                       \
  static void NAME##_block(int kc, const T *a, int lda, const T *b, int ldb, T *c, int ldc) {      \
    T acc[MR][W];                                                                                  \
    memset(acc, 0, sizeof acc);                                                                    \
    for (int k = 0; k < kc; k++) {                                                                 \
      const T *bk = b + (size_t)k * (size_t)ldb;                                                   \
      for (int r = 0; r < MR; r++) {                                                               \
        const T ark = a[(size_t)r * (size_t)lda + (size_t)k];                                      \
        _Pragma("omp simd") for (int j = 0; j < W; j++) acc[r][j] += ark * bk[j];                  \
      }                                                                                            \
    }                                                                                              \
    for (int r = 0; r < MR; r++)                                                                   \
      _Pragma("omp simd") for (int j = 0; j < W; j++) c[(size_t)r * (size_t)ldc + j] += acc[r][j]; \
  }                                                                                                \
  /* rows [i0, i1) x columns [j0, j1) of C += A[.., k0..k1) B[k0..k1, ..], the plain way */        \
  static void NAME##_edge(int n, int i0, int i1, int j0, int j1, int k0, int k1, const T *a,       \
                          const T *b, T *c) {                                                      \
    for (int i = i0; i < i1; i++)                                                                  \
      for (int k = k0; k < k1; k++) {                                                              \
        const T aik = a[(size_t)i * (size_t)n + (size_t)k];                                        \
        _Pragma("omp simd") for (int j = j0; j < j1; j++) c[(size_t)i * (size_t)n + j] +=          \
            aik * b[(size_t)k * (size_t)n + j];                                                    \
      }                                                                                            \
  }                                                                                                \
  void NAME(int n, const T *a, const T *b, T *c) {                                                 \
    _Pragma("omp parallel for schedule(dynamic, 1)") for (int ib = 0; ib < n; ib += MB) {          \
      const int ie = ib + MB < n ? ib + MB : n, i4 = ib + (ie - ib) / MR * MR, jw = n / W * W;     \
      memset(c + (size_t)ib * (size_t)n, 0, (size_t)(ie - ib) * (size_t)n * sizeof(T));            \
      for (int kb = 0; kb < n; kb += KC) {                                                         \
        const int kc = kb + KC < n ? KC : n - kb;                                                  \
        for (int j = 0; j < jw; j += W)                                                            \
          for (int i = ib; i < i4; i += MR)                                                        \
            NAME##_block(kc, a + (size_t)i * (size_t)n + (size_t)kb, n,                            \
                         b + (size_t)kb * (size_t)n + (size_t)j, n, c + (size_t)i * (size_t)n + j, \
                         n);                                                                       \
        NAME##_edge(n, i4, ie, 0, jw, kb, kb + kc, a, b, c); /* rows below the 4-row blocks */     \
        NAME##_edge(n, ib, ie, jw, n, kb, kb + kc, a, b, c); /* columns right of the strips */     \
      }                                                                                            \
    }                                                                                              \
  }

GEMM_FOR(float, 16, omp_bench_sgemm)
GEMM_FOR(double, 8, omp_bench_dgemm)
