/* matmul.cl: C = A * B for row-major matrices, A m x w, B w x n, C m x n.
 *
 * The element type T is chosen when the program is built: -DT=int, -DT=float or -DT=double
 * (default float). Every kernel reads the sizes from the views themselves (amp_extent), so no
 * width is passed by hand, and amp_at() honours the views' offsets and strides: the same kernels
 * work on sections of larger matrices (the `multi` implementation launches them on row blocks).
 *
 *   matmul_naive  the C++ AMP article's first AMP listing (and the CUDA thesis's "band"
 *                 kernel): one thread per element of C over C's extent, a dot product of a row
 *                 of A and a column of B.
 *   matmul_tiled  the C++ AMP article's tiled listing (the CUDA thesis's block kernel, the CUDA
 *                 tiling tutorial's scheme): tiles of TILE x TILE threads (-DTILE=16 by
 *                 default) each compute a TILE x TILE block of C, staging TILE x TILE blocks of
 *                 A and B in tile_static memory. It is launched over C's extent padded up to
 *                 whole tiles (amp_tiled_extent_pad), so threads past the edge load zeros and
 *                 write nothing; every thread reaches every barrier. */
#ifndef T
#define T float
#endif
#ifndef TILE
#define TILE 16
#endif

__kernel void matmul_naive(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_INDEX2(idx);
  const int w = amp_extent(a, 1);
  T sum = 0;
  for (int k = 0; k < w; ++k)
    sum += amp_at(a, idx[0], k) * amp_at(b, k, idx[1]);
  amp_at(c, idx[0], idx[1]) = sum;
}

__kernel void matmul_tiled(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_TILED_INDEX2(idx);
  tile_static T localA[TILE][TILE];
  tile_static T localB[TILE][TILE];
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int row = idx.global_id[0], col = idx.global_id[1];
  const int localRow = idx.local_id[0], localCol = idx.local_id[1];
  T sum = 0;
  for (int k = 0; k < w; k += TILE) {
    /* Each thread loads one element of each block; outside the matrices it loads 0. */
    localA[localRow][localCol] = (row < m && k + localCol < w) ? amp_at(a, row, k + localCol) : 0;
    localB[localRow][localCol] = (k + localRow < w && col < n) ? amp_at(b, k + localRow, col) : 0;
    amp_barrier_wait(); /* the blocks are complete */

    for (int t = 0; t < TILE; ++t)
      sum += localA[localRow][t] * localB[t][localCol];

    amp_barrier_wait(); /* everyone is done with the blocks before the next k overwrites them */
  }
  if (row < m && col < n)
    amp_at(c, row, col) = sum;
}
