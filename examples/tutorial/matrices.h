/* examples/tutorial/matrices.h: what steps 3 and 5 of docs/TUTORIAL.md share: filling the
 * matrices, the host reference C = A * B, and comparing a result with it. */
#ifndef AMPCL_TUTORIAL_MATRICES_H
#define AMPCL_TUTORIAL_MATRICES_H

#include <math.h>

/* Small integers, so every partial sum is exact in float and the device must match exactly. */
static inline void fill(float *p, int count, int salt) {
  for (int i = 0; i < count; i++)
    p[i] = (float)((i * 7 + salt) % 5) - 2.0f;
}

/* C = A * B on the host: A is m x w, B is w x n, all row-major. */
static inline void matmul_host(const float *a, const float *b, float *c, int m, int w, int n) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float sum = 0.0f;
      for (int k = 0; k < w; k++)
        sum += a[i * w + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
}

/* How many elements of got differ from expect. */
static inline int count_wrong(const float *got, const float *expect, int count) {
  int wrong = 0;
  for (int i = 0; i < count; i++)
    wrong += got[i] != expect[i];
  return wrong;
}

#endif
