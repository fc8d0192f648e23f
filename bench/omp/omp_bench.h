/* bench/omp/omp_bench.h: the OpenMP + SIMD C versions of amp-bench's CPU workloads (amp-bench
 * --cpu, and the `openmp` column of --workload matmul/addexp/nbody). Plain C over host arrays,
 * compiled -O3 -march=native -fopenmp (bench/CMakeLists.txt); each does what the ampcl call or
 * kernel it is compared with does, on the same inputs, so the two results can be checked against
 * the same host reference and against each other. None of this is part of the library. */
#ifndef AMPCL_BENCH_OMP_H
#define AMPCL_BENCH_OMP_H

#include <stdint.h>

/* The threads an OpenMP parallel region uses here (omp_get_max_threads). */
int omp_bench_threads(void);

/* r[i] = a[i] + exp(b[i]), i < n (add-exp; built with -ffast-math, as the kernel uses native_exp).
 */
void omp_bench_add_exp(long n, const float *a, const float *b, float *r);

/* One all-pairs n-body step of kernels_cl/examples/nbody.cl's math. prev and next hold n bodies of
 * 8 floats each (position x y z w, velocity x y z w); scratch holds 3n floats. */
void omp_bench_nbody_step(long n, const float *prev, float *next, float *scratch, float dt,
                          float mass, float softening2);

/* C = A B, row-major n x n (C is overwritten). */
void omp_bench_sgemm(int n, const float *a, const float *b, float *c);
void omp_bench_dgemm(int n, const double *a, const double *b, double *c);

/* The sum of x[0..n-1] (float lanes, as amp_reduce's AMP_REDUCE_SUM). */
float omp_bench_reduce_sum(long n, const float *x);

/* out[i] = x[0] + ... + x[i] (amp_scan's AMP_SCAN_INCLUSIVE on ints). */
void omp_bench_scan_inclusive(long n, const int32_t *x, int32_t *out);

/* out (cols x rows) = the transpose of in (rows x cols). */
void omp_bench_transpose(long rows, long cols, const float *in, float *out);

/* out = in convolved with the (2r + 1) x (2r + 1) weights w, the edges clamped (amp_stencil_2d). */
void omp_bench_stencil(long rows, long cols, const float *in, float *out, const float *w, int r);

#endif /* AMPCL_BENCH_OMP_H */
