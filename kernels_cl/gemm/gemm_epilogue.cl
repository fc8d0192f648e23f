/* gemm_epilogue.cl: what turns the product C = A B, the only GEMM ampcl's own kernels compute,
 * into a general one, C = alpha op(A) B + beta C (runtime/blas/gemm_general.c). Built with
 * -DT=float or -DT=double.
 *
 * gemm_transpose  at = a^T for a rows x cols view a and a cols x rows view at: op(A) = A^T made
 *                 explicit, a block of rows of op(A) at a time. 2-D tiles of GR x 32 threads
 *                 (GR 8; 4, 2 or 1 where the device allows fewer threads per tile: -DGR) move
 *                 32 x 32 blocks through tile_static memory (one spare column, so that reading a
 *                 column of the block hits 32 banks): every global read and write is a row of 32
 *                 neighbouring elements.
 * gemm_axpby      c = alpha p + beta c, element by element, on views of the same extent (sections
 *                 included: the rows of C a block's product p belongs to). Where beta is 0, c is
 *                 not read, as BLAS defines it (C may hold NaNs then).
 * gemm_ksplit_sum c's blocks from their parts along k (matmul_dmma_bulk.cl's step 7): work item
 *                 x of blocks * bm * bn is element (x / bn % bm, x % bn) of block x / (bm * bn), C's
 *                 block whole + x / (bm * bn) in amp_tile_order_grouped's order (group_m block
 *                 rows a band); it adds the block's `splits` parts in order (the same bits every
 *                 run) and stores the sum where it falls inside c.
 * gemm_stamp      does nothing; it reads the GEMM's operands, so it runs once they are ready, and
 *                 its end is where the GEMM's device time starts (amp_future_elapsed_ns). */
#ifndef T /* the runtime always passes it; the default lets the file build alone */
#define T float
#endif
#define GT 32 /* block edge */
#ifndef GR
#define GR 8 /* thread rows of a tile: each moves GT / GR rows of the block */
#endif

__attribute__((reqd_work_group_size(GT, GR, 1))) __kernel void
gemm_transpose(AMP_CONST_VIEW(T, a), AMP_VIEW(T, at)) {
  tile_static T blk[GT][GT + 1];
  AMP_TILED_INDEX2(idx);
  const int rows = amp_extent(a, 0), cols = amp_extent(a, 1);
  const int ly = idx.local_id[0], lx = idx.local_id[1];
  const int r0 = idx.tile[0] * GT, c0 = idx.tile[1] * GT; /* the block of a */
  for (int y = ly; y < GT; y += GR)
    if (r0 + y < rows && c0 + lx < cols)
      blk[y][lx] = amp_at(a, r0 + y, c0 + lx);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int y = ly; y < GT; y += GR) /* row c0 + y of at holds column c0 + y of a */
    if (c0 + y < cols && r0 + lx < rows)
      amp_at(at, c0 + y, r0 + lx) = blk[lx][y];
}

__kernel void gemm_axpby(AMP_CONST_VIEW(T, p), AMP_VIEW(T, c), T alpha, T beta) {
  AMP_INDEX2(i);
  const T x = alpha * amp_at(p, i[0], i[1]);
  amp_at(c, i[0], i[1]) = beta == (T)0 ? x : x + beta * amp_at(c, i[0], i[1]);
}

__kernel void gemm_ksplit_sum(AMP_CONST_VIEW(T, part), AMP_VIEW(T, c), int bm, int bn, int group_m,
                              int whole, int splits) {
  AMP_INDEX1(x);
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), per = bm * bn;
  const int i = x[0] / per, e = x[0] % per;
  int blk[2];
  amp_tile_order_grouped((m + bm - 1) / bm, (n + bn - 1) / bn, whole + i, group_m, blk);
  const int row = blk[0] * bm + e / bn, col = blk[1] * bn + e % bn;
  if (row >= m || col >= n)
    return;
  T sum = 0;
  for (int s = 0; s < splits; s++)
    sum += amp_at(part, (i * splits + s) * per + e);
  amp_at(c, row, col) = sum;
}

__kernel void gemm_stamp(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b)) {
  (void)amp_extent(a, 0);
  (void)amp_extent(b, 0);
}
