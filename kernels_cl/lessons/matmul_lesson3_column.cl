/* matmul_lesson3_column.cl: C = A * B, each thread computing WPT elements of one column of C.
 * Lesson 3 of the matmul course (lesson 2: matmul_tiled.cl; lesson 4: matmul_lesson4_regtile.cl).
 *
 * What it computes: as matmul_naive, C (m x n) = A (m x w) * B (w x n), row-major rank-2 views
 * (sections allowed), for any m, n, w >= 1.
 *
 * What limited lesson 2: each multiply-add there needs two tile_static reads, la[lr][t] and
 * lb[t][lc]. On-chip memory is fast, but not twice as fast as the arithmetic units, so reading it,
 * not multiplying, sets the speed.
 *
 * The step it adds: more work per thread. A tile of threads still computes a TILE x TILE block of
 * C, but with WPT times fewer threads, TILE / WPT rows of TILE: thread (lr, lc) computes the WPT
 * elements of column lc in rows lr, lr + RTS, lr + 2 RTS, ... (RTS = TILE / WPT), keeping their
 * sums in WPT registers. In each step of k it reads lb[t][lc] once and uses it for all WPT
 * elements: WPT + 1 tile_static reads for WPT multiply-adds instead of 2 for 1. Each thread also
 * loads WPT elements of each block instead of one. The rows are interleaved (lr + i * RTS rather
 * than WPT neighbouring rows) so that, as in lesson 2, the threads of one row of the tile read
 * one address of la (a broadcast) and consecutive addresses of lb.
 *
 * What lesson 4 attacks: the A values are still read once per multiply-add. A thread that owns a
 * 2-D block of C reuses each A value across its columns too.
 *
 * Tile shape: TILE / WPT x TILE threads (-DTILE=32 -DWPT=8: 4 x 32 = 128 threads), declared with
 * AMP_TILE_SHAPE, so a launch with another tile is refused. tile_static memory: 2 * TILE * TILE
 * elements (8 KB for float with the defaults, 16 KB for double).
 *
 * Edges: as in lesson 2, the domain is rounded up to whole tiles, threads outside C load zeros and
 * reach every barrier, and only the stores are guarded.
 *
 * Element type: -DT=float (default), -DT=double or -DT=int.
 *
 * Launch (host C, error checks elided to CHECK; views as in matmul_naive.cl): one thread per WPT
 * elements of a column of C, padded to whole tiles.
 *
 *     CHECK(amp_program_create_builtin("matmul_lesson3_column", "-DT=float", &prog));
 *     CHECK(amp_kernel_create(prog, "matmul_lesson3_column", &k));
 *     enum { TILE = 32, WPT = 8 };                                  // must match the -D options
 *     amp_tiled_extent dom = amp_tiled_extent_pad(
 *         amp_tile2(amp_extent2((m + WPT - 1) / WPT, n), TILE / WPT, TILE));
 *     amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
 *     CHECK(amp_parallel_for_each_tiled(av, dom, k, args, AMP_NARGS(args)));  */
#ifndef T /* element type: float, double or int */
#define T float
#endif
#ifndef TILE /* edge of the block of C a tile computes, and depth of its K step */
#define TILE 32
#endif
#ifndef WPT /* elements of C per thread, in one column; must divide TILE */
#define WPT 8
#endif
#define RTS (TILE / WPT) /* rows of threads per tile */
#if TILE % WPT != 0
#error "matmul_lesson3_column: WPT must divide TILE"
#endif

AMP_TILE_SHAPE(RTS, TILE) /* another tile is refused: the loops below assume this one */
__kernel void matmul_lesson3_column(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_TILED_INDEX2(idx);
  tile_static T la[TILE][TILE];
  tile_static T lb[TILE][TILE];
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int lr = idx.local_id[0], lc = idx.local_id[1];
  const int row0 = idx.tile[0] * TILE, col = idx.tile[1] * TILE + lc;
  T sum[WPT];
  for (int i = 0; i < WPT; i++)
    sum[i] = 0;
  for (int k0 = 0; k0 < w; k0 += TILE) {
    /* Each thread loads WPT elements of each block: rows lr, lr + RTS, ... of both. */
    for (int i = 0; i < WPT; i++) {
      const int r = lr + i * RTS;
      const int row = row0 + r, ka = k0 + lc, kb = k0 + r;
      la[r][lc] = (row < m && ka < w) ? amp_at(a, row, ka) : (T)0;
      lb[r][lc] = (kb < w && col < n) ? amp_at(b, kb, col) : (T)0;
    }
    amp_barrier_wait(); /* the blocks are complete */
    for (int t = 0; t < TILE; t++) {
      const T bv = lb[t][lc]; /* one read of B for WPT multiply-adds */
      for (int i = 0; i < WPT; i++)
        sum[i] += la[lr + i * RTS][t] * bv;
    }
    amp_barrier_wait(); /* everyone is done reading before the next step overwrites them */
  }
  for (int i = 0; i < WPT; i++) {
    const int row = row0 + lr + i * RTS;
    if (row < m && col < n)
      amp_at(c, row, col) = sum[i];
  }
}
