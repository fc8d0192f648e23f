/* algorithms.cl: the example's own kernel, between library calls on the same views.
 *
 *   quantize  bin[i] = the 0..255 level of x[i] in [-1, 1] (clamped). Domain: amp_extent1(n). */
__kernel void quantize(AMP_CONST_VIEW(float, x), AMP_VIEW(int, bin)) {
  AMP_INDEX1(idx);
  const int i = idx[0];
  const float t = (amp_at(x, i) + 1.0f) * 128.0f;
  amp_at(bin, i) = clamp((int)t, 0, 255);
}
