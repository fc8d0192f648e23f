/* y = SCALE * a * x + y: compiles with the prelude, in debug mode too. */
__kernel void saxpy(float a, AMP_CONST_VIEW(float, x), AMP_VIEW(float, y)) {
  AMP_INDEX1(i);
  amp_at(y, i[0]) = SCALE * a * amp_at(x, i[0]) + amp_at(y, i[0]);
}
