/* bench/omp/omp_addexp.c: add-exp in OpenMP + SIMD. Built with -ffast-math (bench/CMakeLists.txt)
 * so expf becomes glibc's vector expf (libmvec), the host's counterpart of the kernel's
 * native_exp (fast_math_exp); the threads split the array in equal blocks. */
#include <math.h>

#include "omp_bench.h"

void omp_bench_add_exp(long n, const float *a, const float *b, float *r) {
#pragma omp parallel for simd schedule(static)
  for (long i = 0; i < n; i++)
    r[i] = a[i] + expf(b[i]);
}
