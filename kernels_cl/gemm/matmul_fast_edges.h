/* matmul_fast_edges.h: matmul_fast.cl's scalar paths, one element at a time: B's loads and C's
 * stores at C's ragged right edge and for views whose rows are not BW-aligned (step 3). A part of
 * matmul_fast.cl, which includes it after its options, types and checks: nothing here stands on
 * its own. The build puts this file's text in place of the #include when it embeds the kernel. */
/* BW elements of row kg of B from column col, one at a time, zero past column n: the scalar path
 * for B's ragged right edge and for views whose rows are not BW-aligned. */
static inline TB mf_load_b_edge(AMP_CONST_VIEW(T, b), int n, int kg, int col) {
  const T x0 = col + 0 < n ? amp_at(b, kg, col + 0) : (T)0;
  const T x1 = col + 1 < n ? amp_at(b, kg, col + 1) : (T)0;
#if BW == 4
  const T x2 = col + 2 < n ? amp_at(b, kg, col + 2) : (T)0;
  const T x3 = col + 3 < n ? amp_at(b, kg, col + 3) : (T)0;
  return (TB)(x0, x1, x2, x3);
#else
  return (TB)(x0, x1);
#endif
}

/* Stores BW elements of row row of C from column col, one at a time, none past column n. */
static inline void mf_store_c_edge(AMP_VIEW(T, c), int n, int row, int col, TB v) {
  if (col + 0 < n)
    amp_at(c, row, col + 0) = v.s0;
  if (col + 1 < n)
    amp_at(c, row, col + 1) = v.s1;
#if BW == 4
  if (col + 2 < n)
    amp_at(c, row, col + 2) = v.s2;
  if (col + 3 < n)
    amp_at(c, row, col + 3) = v.s3;
#endif
}
