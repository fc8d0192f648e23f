/* sample_matmul.cl: the C++ AMP book's matrix multiply, simple and tiled, written anew in OpenCL C
 * with ampcl's prelude (tests/samples/matmul.c checks both against the host's product).
 *
 * C (m x n) = A (m x w) * B (w x n), row-major rank-2 views, one thread per element of C.
 *   matmul_simple  each thread walks a row of A and a column of B in global memory
 *   matmul_tiles   TILE x TILE blocks of A and B go through tile_static memory, so each element is
 *                  read from global memory once per tile instead of once per thread. The launch
 *                  covers C rounded up to whole tiles; threads outside C load zeros, reach every
 *                  barrier and store nothing.
 *
 * Options: -DT=float (default), int, double; -DTILE=16 (default; the host's tile must equal it in
 * both dimensions). */
#ifndef T
#define T float
#endif
#ifndef TILE
#define TILE 16
#endif

__kernel void matmul_simple(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_INDEX2(idx);
  const int r = idx[0], col = idx[1], w = amp_extent(a, 1);
  T acc = 0;
  for (int k = 0; k < w; k++)
    acc += amp_at(a, r, k) * amp_at(b, k, col);
  amp_at(c, r, col) = acc;
}

AMP_TILE_SHAPE(TILE, TILE)
__kernel void matmul_tiles(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_TILED_INDEX2(idx);
  tile_static T ta[TILE][TILE], tb[TILE][TILE];
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int r = idx.global_id[0], col = idx.global_id[1];
  const int y = idx.local_id[0], x = idx.local_id[1];
  T acc = 0;
  for (int t = 0; t < (w + TILE - 1) / TILE; t++) {
    const int ak = t * TILE + x, bk = t * TILE + y;
    ta[y][x] = r < m && ak < w ? amp_at(a, r, ak) : (T)0;
    tb[y][x] = bk < w && col < n ? amp_at(b, bk, col) : (T)0;
    amp_barrier_wait();
    for (int k = 0; k < TILE; k++)
      acc += ta[y][k] * tb[k][x];
    amp_barrier_wait();
  }
  if (r < m && col < n)
    amp_at(c, r, col) = acc;
}
