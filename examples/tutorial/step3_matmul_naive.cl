/* Step 3: C = A * B, one work-item per element of C. A is m x w, B is w x n, C is m x n; the
 * sizes come from the views themselves. */
__kernel void matmul_naive(AMP_CONST_VIEW(float, a), AMP_CONST_VIEW(float, b), AMP_VIEW(float, c)) {
  AMP_INDEX2(idx); /* idx[0] is the row of C, idx[1] its column */
  const int w = amp_extent(a, 1);
  float sum = 0.0f;
  for (int k = 0; k < w; k++)
    sum += amp_at(a, idx[0], k) * amp_at(b, k, idx[1]);
  amp_at(c, idx[0], idx[1]) = sum;
}
