/* vector_add_exp.cl: result[i] = first[i] + exp(second[i]), the C++ AMP article's VectorAddExpPointwise.
 *
 * One thread per element over a rank-1 extent; no tiles. first and second are read-only views
 * (array_view<const float,1>), result is read-write. fast_math_exp is native_exp: as fast as the
 * device can make it, with the precision the device chooses (AMP's fast_math::exp). */
__kernel void vector_add_exp(AMP_CONST_VIEW(float, first), AMP_CONST_VIEW(float, second),
                             AMP_VIEW(float, result)) {
  AMP_INDEX1(i);
  amp_at(result, i[0]) = amp_at(first, i[0]) + fast_math_exp(amp_at(second, i[0]));
}
