/* transpose.cl: dst(j, i) = src(i, j) for a rank-2 src of R x C and a rank-2 dst of C x R
 * (runtime/algorithms/transpose.c: amp_transpose). Built with -DT=<int, uint, float or double>.
 *
 * Tile shape: 2-D tiles of TR_ROWS x TR_DIM threads (8 x 32) moving a TR_DIM x TR_DIM (32 x 32)
 * block: each thread reads 4 elements of the block down a column of threads (rows r, r+8, r+16,
 * r+24), so a row of 32 threads reads 32 neighbouring elements of src, and writes 4 elements of
 * the transposed block the same way, so writes to dst are coalesced too. The block sits in
 * tile_static memory as [32][33]: the padding column puts the 32 elements of a block column in 32
 * different banks, so reading it by columns has no bank conflicts. Domain: amp_extent2(ceil(R/32)
 * * 8, ceil(C/32) * 32) tiled by (8, 32); edge blocks check bounds, so R and C need not be
 * multiples of 32. Sections work (rows are read through the views' strides). */
#ifndef T /* the runtime always passes T (and T4); these defaults let the file build alone */
#define T float
#endif
#ifndef T4
#define T4 float4
#endif
#ifndef TR_DIM /* the runtime passes it (transpose.c): blocks of TR_DIM x TR_DIM elements */
#define TR_DIM 32
#endif
#ifndef TR_ROWS /* the runtime passes it (transpose.c): tiles of TR_ROWS x TR_DIM threads */
#define TR_ROWS 8
#endif
#if TR_ROWS < 1 || TR_ROWS > TR_DIM || TR_DIM % TR_ROWS != 0
#error "transpose.cl: TR_ROWS must divide TR_DIM"
#endif

__kernel void amp_transpose_tiles(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst)) {
  tile_static T block[TR_DIM][TR_DIM + 1];
  AMP_TILED_INDEX2(idx);
  const int R = amp_extent(src, 0), C = amp_extent(src, 1);
  const int ty = idx.local_id[0], tx = idx.local_id[1];
  const int r0 = idx.tile[0] * TR_DIM, c0 = idx.tile[1] * TR_DIM;
  for (int k = 0; k < TR_DIM; k += TR_ROWS) {
    const int r = r0 + ty + k, c = c0 + tx;
    if (r < R && c < C)
      block[ty + k][tx] = amp_at(src, r, c);
  }
  amp_barrier_wait_with_tile_static_memory_fence();
  for (int k = 0; k < TR_DIM; k += TR_ROWS) {
    const int r = c0 + ty + k, c = r0 + tx; /* dst row = src column */
    if (r < C && c < R)
      amp_at(dst, r, c) = block[tx][ty + k];
  }
}
