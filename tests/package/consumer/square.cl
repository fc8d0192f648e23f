/* The consumer's own kernel, embedded into it as a string by ampcl_embed_cl (or the script). */
__kernel void square(AMP_CONST_VIEW(float, x), AMP_VIEW(float, y)) {
  AMP_INDEX1(i);
  amp_at(y, i[0]) = amp_at(x, i[0]) * amp_at(x, i[0]);
}
