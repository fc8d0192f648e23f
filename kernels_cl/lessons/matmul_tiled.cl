/* matmul_tiled.cl: C = A * B with TILE x TILE tiles of A and B staged in tile_static memory.
 * Lesson 2 of the matmul course (lesson 1: matmul_naive.cl; lesson 3: matmul_lesson3_column.cl).
 *
 * What it computes: as matmul_naive, C (m x n) = A (m x w) * B (w x n), row-major rank-2 views,
 * one work-item per element of C. This is the C++ AMP article's tiled MatrixMultiply, made to work for every
 * size rather than only multiples of 16.
 *
 * Tile shape: TILE x TILE work-items (build option -DTILE=16, the default; 16 x 16 = 256 threads
 * fits every GPU; 8 and 32 also work where the device allows 64 / 1024 threads per tile). A tile
 * of threads computes a TILE x TILE block of C.
 *
 * The step it adds over matmul_naive: reuse through tile_static memory. The K loop advances TILE
 * columns of A (rows of B) at a time. In each step every thread loads one element of A's
 * TILE x TILE block and one of B's into tile_static arrays, the tile waits at a barrier, and then
 * each thread reads TILE elements of each block from fast on-chip memory. Global traffic drops by
 * a factor TILE. la[row][t] is the same address for the threads of one row (a broadcast) and
 * lb[t][col] is consecutive across a row of threads, so neither read conflicts on memory banks.
 *
 * What lesson 3 attacks: every multiply-add here needs two tile_static reads, so on-chip memory,
 * not arithmetic, sets the speed.
 *
 * Sizes the tile does not divide: the launch domain is C's extent rounded up to whole tiles
 * (amp_tiled_extent_pad), so some threads lie outside C. Those threads still load (zeros, for
 * elements outside A or B) and still reach every barrier, because a barrier must be reached by
 * all threads of a tile or by none; only the final store is guarded. Zeros outside the matrices
 * add nothing to the sums, so the K loop needs no special last step either.
 *
 * Element type: -DT=float (default), -DT=double or -DT=int.
 *
 * Launch (host C, error checks elided to CHECK; views as in matmul_naive.cl):
 *
 *     CHECK(amp_program_create_builtin("matmul_tiled", "-DT=float -DTILE=16", &prog));
 *     CHECK(amp_kernel_create(prog, "matmul_tiled", &k));
 *     amp_tiled_extent dom = amp_tiled_extent_pad(amp_tile2(amp_extent2(m, n), 16, 16));
 *     amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
 *     CHECK(amp_parallel_for_each_tiled(av, dom, k, args, AMP_NARGS(args)));
 *
 * The tile passed to amp_tile2 must equal -DTILE in both dimensions. */
#ifndef T /* element type: float, double or int */
#define T float
#endif
#ifndef TILE /* edge of the square tile: TILE x TILE threads, and of the tiles of A and B */
#define TILE 16
#endif

AMP_TILE_SHAPE(TILE, TILE) /* another tile is refused: la and lb are TILE x TILE */
__kernel void matmul_tiled(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_TILED_INDEX2(idx);
  tile_static T la[TILE][TILE];
  tile_static T lb[TILE][TILE];
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int row = idx.global_id[0], col = idx.global_id[1];
  const int lr = idx.local_id[0], lc = idx.local_id[1];
  T sum = 0;
  /* w / TILE rounded up: the same trip count in every thread, so the barriers stay uniform. */
  for (int k0 = 0; k0 < w; k0 += TILE) {
    const int ka = k0 + lc, kb = k0 + lr;
    la[lr][lc] = (row < m && ka < w) ? amp_at(a, row, ka) : (T)0;
    lb[lr][lc] = (kb < w && col < n) ? amp_at(b, kb, col) : (T)0;
    amp_barrier_wait(); /* the blocks are complete */
    for (int t = 0; t < TILE; t++)
      sum += la[lr][t] * lb[t][lc];
    amp_barrier_wait(); /* everyone is done reading before the next step overwrites them */
  }
  if (row < m && col < n)
    amp_at(c, row, col) = sum;
}
