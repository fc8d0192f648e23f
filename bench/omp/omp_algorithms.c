/* bench/omp/omp_algorithms.c: reduce, scan, transpose and the 2-D stencil in OpenMP + SIMD, each
 * doing what its ampcl call does (ampcl/algorithms.h) on host arrays. */
#include <omp.h>

#include "omp_bench.h"

int omp_bench_threads(void) {
  return omp_get_max_threads();
}

float omp_bench_reduce_sum(long n, const float *x) {
  float sum = 0;
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
  for (long i = 0; i < n; i++)
    sum += x[i];
  return sum;
}

/* Two passes over equal blocks, one per thread: each block's sum, then each block scanned from
 * the sum of the blocks before it (the scan itself through omp simd's inscan reduction). */
void omp_bench_scan_inclusive(long n, const int32_t *x, int32_t *out) {
  enum { MAX_BLOCKS = 1024 };
  int32_t part[MAX_BLOCKS + 1];
#pragma omp parallel
  {
    int nt = omp_get_num_threads(), t = omp_get_thread_num();
    if (nt > MAX_BLOCKS)
      nt = MAX_BLOCKS;
    long lo = n * t / nt, hi = t < nt ? n * (t + 1) / nt : lo;
    int32_t s = 0;
#pragma omp simd reduction(+ : s)
    for (long i = lo; i < hi; i++)
      s += x[i];
    if (t < nt)
      part[t + 1] = s;
#pragma omp barrier
#pragma omp single
    {
      part[0] = 0;
      for (int b = 1; b <= nt; b++)
        part[b] += part[b - 1];
    }
    int32_t acc = t < nt ? part[t] : 0;
#pragma omp simd reduction(inscan, + : acc)
    for (long i = lo; i < hi; i++) {
      acc += x[i];
#pragma omp scan inclusive(acc)
      out[i] = acc;
    }
  }
}

/* 32 x 32 blocks: one block's rows are read and its columns written within L1. */
void omp_bench_transpose(long rows, long cols, const float *in, float *out) {
  enum { TB = 32 };
#pragma omp parallel for collapse(2) schedule(static)
  for (long ib = 0; ib < rows; ib += TB)
    for (long jb = 0; jb < cols; jb += TB) {
      long ie = ib + TB < rows ? ib + TB : rows, je = jb + TB < cols ? jb + TB : cols;
      for (long j = jb; j < je; j++)
#pragma omp simd
        for (long i = ib; i < ie; i++)
          out[j * rows + i] = in[i * cols + j];
    }
}

/* One output pixel with its columns clamped at the edges. */
static float stencil_at(const float *const *src, long cols, long j, const float *w, int r) {
  const int k = 2 * r + 1;
  float s = 0;
  for (int a = 0; a < k; a++)
    for (int b = 0; b < k; b++) {
      long x = j + b - r;
      s += w[a * k + b] * src[a][x < 0 ? 0 : x >= cols ? cols - 1 : x];
    }
  return s;
}

/* Each output row from the 2r + 1 input rows around it (clamped at the top and bottom); the
 * columns at least r from both edges in SIMD lanes, the r at each edge with clamped columns.
 * r is at most 17 (AMP_STENCIL_MAX_RADIUS); a larger r does nothing. */
void omp_bench_stencil(long rows, long cols, const float *in, float *out, const float *w, int r) {
  enum { MAX_R = 17 };
  const int k = 2 * r + 1;
  if (r < 0 || r > MAX_R)
    return;
#pragma omp parallel for schedule(dynamic, 8) /* rows dealt as threads come free */
  for (long i = 0; i < rows; i++) {
    const float *src[2 * MAX_R + 1];
    for (int a = 0; a < k; a++) {
      long y = i + a - r;
      src[a] = in + (y < 0 ? 0 : y >= rows ? rows - 1 : y) * cols;
    }
    float *o = out + i * cols;
    long lo = r < cols ? r : cols, hi = cols - r > lo ? cols - r : lo;
#pragma omp simd
    for (long j = lo; j < hi; j++) {
      float s = 0;
      for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++)
          s += w[a * k + b] * src[a][j + b - r];
      o[j] = s;
    }
    for (long j = 0; j < lo; j++)
      o[j] = stencil_at(src, cols, j, w, r);
    for (long j = hi; j < cols; j++)
      o[j] = stencil_at(src, cols, j, w, r);
  }
}
