/* bench/omp/omp_nbody.c: one all-pairs n-body step in OpenMP + SIMD, the math of
 * kernels_cl/examples/nbody.cl: d = p_j - p_i, r2 = |d|^2 + softening^2, a += d * mass / r2^1.5,
 * then v += a dt, p += v dt. The positions are first copied into three arrays (x, y, z) so that the
 * inner loop over j reads them with unit stride, one body per SIMD lane; the bodies i are dealt to
 * the threads 16 at a time as they come free (dynamic: on a shared machine a thread that lost its
 * core does not hold the step back, as a static split would). Built with -ffast-math, as the kernel
 * is with -cl-fast-relaxed-math (1 / sqrt becomes the reciprocal square root estimate and a Newton
 * step). */
#include <math.h>

#include "omp_bench.h"

void omp_bench_nbody_step(long n, const float *prev, float *next, float *scratch, float dt,
                          float mass, float softening2) {
  float *x = scratch, *y = scratch + n, *z = scratch + 2 * n;
#pragma omp parallel
  {
#pragma omp for simd schedule(static)
    for (long j = 0; j < n; j++) {
      x[j] = prev[8 * j];
      y[j] = prev[8 * j + 1];
      z[j] = prev[8 * j + 2];
    }
#pragma omp for schedule(dynamic, 16)
    for (long i = 0; i < n; i++) {
      const float xi = x[i], yi = y[i], zi = z[i];
      float ax = 0, ay = 0, az = 0;
#pragma omp simd reduction(+ : ax, ay, az)
      for (long j = 0; j < n; j++) {
        float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
        float inv = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz + softening2);
        float s = mass * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
      }
      const float *p = prev + 8 * i;
      float *q = next + 8 * i;
      float v[3] = {p[4] + ax * dt, p[5] + ay * dt, p[6] + az * dt};
      for (int d = 0; d < 3; d++) {
        q[4 + d] = v[d];
        q[d] = p[d] + v[d] * dt;
      }
      q[3] = p[3];
      q[7] = p[7];
    }
  }
}
