/* transpose_cpu.cl: amp_transpose_view on CPU devices (runtime/algorithms/transpose.c takes this
 * file when the accelerator is a CPU device, props.is_emulated; GPUs keep transpose.cl). Built
 * with -DT=<int, uint, float or double> and -DT8=<its 8-vector>.
 *
 *   amp_transpose_cpu  Untiled, no tile_static memory, no barrier. Thread (bi, bj) moves the
 *                      TRC_B x TRC_B (32 x 32) block of src at rows 32 bi, columns 32 bj, in
 *                      8 x 8 pieces: 8 rows of src read as 8-vectors, transposed in registers,
 *                      written as 8 rows of dst; the block's 32 rows of src and 32 rows of dst
 *                      stay in the L1 cache while it works. Pieces crossing the view's edge go
 *                      element by element. Domain: amp_extent2(ceil(R/32), ceil(C/32)).
 * Sections work (rows are addressed through the views' strides). */
#ifndef T /* the runtime always passes T and T8; these defaults let the file build alone */
#define T float
#endif
#ifndef T8
#define T8 float8
#endif
#define TRC_B 32

#define TRC_COL(j)                                                                                 \
  (T8)(x0.s##j, x1.s##j, x2.s##j, x3.s##j, x4.s##j, x5.s##j, x6.s##j, x7.s##j)

__kernel void amp_transpose_cpu(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst)) {
  const int R = amp_extent(src, 0), C = amp_extent(src, 1);
  AMP_INDEX2(idx); /* (bi, bj) */
  const int r0 = idx[0] * TRC_B, c0 = idx[1] * TRC_B;
  if (r0 >= R || c0 >= C)
    return;
  for (int r = r0; r < r0 + TRC_B && r < R; r += 8)
    for (int c = c0; c < c0 + TRC_B && c < C; c += 8) {
      if (r + 8 <= R && c + 8 <= C) {
        const T8 x0 = vload8(0, &amp_at(src, r, c)), x1 = vload8(0, &amp_at(src, r + 1, c)),
                 x2 = vload8(0, &amp_at(src, r + 2, c)), x3 = vload8(0, &amp_at(src, r + 3, c)),
                 x4 = vload8(0, &amp_at(src, r + 4, c)), x5 = vload8(0, &amp_at(src, r + 5, c)),
                 x6 = vload8(0, &amp_at(src, r + 6, c)), x7 = vload8(0, &amp_at(src, r + 7, c));
        vstore8(TRC_COL(0), 0, &amp_at(dst, c, r));
        vstore8(TRC_COL(1), 0, &amp_at(dst, c + 1, r));
        vstore8(TRC_COL(2), 0, &amp_at(dst, c + 2, r));
        vstore8(TRC_COL(3), 0, &amp_at(dst, c + 3, r));
        vstore8(TRC_COL(4), 0, &amp_at(dst, c + 4, r));
        vstore8(TRC_COL(5), 0, &amp_at(dst, c + 5, r));
        vstore8(TRC_COL(6), 0, &amp_at(dst, c + 6, r));
        vstore8(TRC_COL(7), 0, &amp_at(dst, c + 7, r));
      } else {
        for (int i = r; i < r + 8 && i < R; i++)
          for (int j = c; j < c + 8 && j < C; j++)
            amp_at(dst, j, i) = amp_at(src, i, j);
      }
    }
}
