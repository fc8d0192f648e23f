/* examples/tutorial/matrices.h: what steps 3 and 5 of docs/TUTORIAL.md share: filling the
 * matrices, the host reference C = A * B, comparing a result with it, and releasing the views and
 * freeing the matrices at the end. */
#ifndef AMPCL_TUTORIAL_MATRICES_H
#define AMPCL_TUTORIAL_MATRICES_H

#include <ampcl.h>
#include <math.h>
#include <stdlib.h>

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

/* Frees the four host matrices of a step: A, B, C and the host's reference. */
static inline void free_matrices(float *a, float *b, float *c, float *expect) {
  free(a);
  free(b);
  free(c);
  free(expect);
}

/* The four host matrices of a step, A (m x w) and B (w x n) filled and the reference A * B
 * computed, C (m x n) left to the device; 0 where memory ran out (nothing is then held). */
static inline int new_matrices(int m, int w, int n, float **a, float **b, float **c,
                               float **expect) {
  *a = malloc(sizeof(float) * m * w);
  *b = malloc(sizeof(float) * w * n);
  *c = malloc(sizeof(float) * m * n);
  *expect = malloc(sizeof(float) * m * n);
  if (!*a || !*b || !*c || !*expect) {
    free_matrices(*a, *b, *c, *expect);
    return 0;
  }
  fill(*a, m * w, 1);
  fill(*b, w * n, 2);
  matmul_host(*a, *b, *expect, m, w, n);
  return 1;
}

/* Releases the views of A, B and C; the first failure, or AMP_SUCCESS. */
static inline amp_status release_matrix_views(amp_array_view *va, amp_array_view *vb,
                                              amp_array_view *vc) {
  amp_status a = amp_array_view_release(va), b = amp_array_view_release(vb);
  amp_status c = amp_array_view_release(vc);
  return a != AMP_SUCCESS ? a : b != AMP_SUCCESS ? b : c;
}

#endif
