/* Compiles as it is built normally, not in debug mode (-DAMP_DEBUG=1), where a view is three
 * parameters: the helper is given x's two by hand (AMP_VIEW_ARG(x) gives what there is). */
static float first(AMP_CONST_VIEW(float, v)) {
  return amp_at(v, 0);
}

__kernel void saxpy(float a, AMP_CONST_VIEW(float, x), AMP_VIEW(float, y)) {
  AMP_INDEX1(i);
  amp_at(y, i[0]) = SCALE * a * first(x_data, x_shape) + amp_at(y, i[0]);
}
