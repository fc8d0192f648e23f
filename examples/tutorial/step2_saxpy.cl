/* Step 2: y = a * x + y, one work-item per element. */
__kernel void saxpy(float a, AMP_CONST_VIEW(float, x), AMP_VIEW(float, y)) {
  AMP_INDEX1(i);
  amp_at(y, i[0]) = a * amp_at(x, i[0]) + amp_at(y, i[0]);
}
