/* split.cl: add-exp, result[i] = first[i] + exp(second[i]), over whatever piece of the arrays the
 * views given to it cover. examples/split launches it once per piece, on every accelerator, each
 * piece with views of its own. One work-item per element; untiled. */
__kernel void add_exp(AMP_CONST_VIEW(float, first), AMP_CONST_VIEW(float, second),
                      AMP_VIEW(float, result)) {
  AMP_INDEX1(i);
  amp_at(result, i[0]) = amp_at(first, i[0]) + fast_math_exp(amp_at(second, i[0]));
}
