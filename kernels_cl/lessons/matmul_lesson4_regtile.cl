/* matmul_lesson4_regtile.cl: C = A * B, each thread computing a WPT_M x WPT_N block of C in
 * registers. Lesson 4 of the matmul course (lesson 3: matmul_lesson3_column.cl; lesson 5:
 * matmul_lesson5_vectors.cl).
 *
 * What it computes: as matmul_naive, C (m x n) = A (m x w) * B (w x n), row-major rank-2 views
 * (sections allowed), for any m, n, w >= 1.
 *
 * What limited lesson 3: a thread there shares its B value across WPT rows, but reads a new A
 * value for every multiply-add, so tile_static reads still come close to one per multiply-add.
 *
 * The step it adds: a 2-D register tile. A tile of threads computes a TILE x TILE block of C with
 * RTS_M x RTS_N threads (RTS_M = TILE / WPT_M, RTS_N = TILE / WPT_N); each thread keeps WPT_M x
 * WPT_N sums in registers. In each step of k it copies its WPT_M values of A and WPT_N values of
 * B from tile_static memory into registers and does every product of the two: WPT_M + WPT_N reads
 * for WPT_M * WPT_N multiply-adds (8 for 16 with the defaults, against 9 for 8 in lesson 3). The
 * rows and columns a thread owns are interleaved (rows ty + i * RTS_M, columns tx + j * RTS_N), so
 * that the threads of a row of the tile read consecutive elements of lb. The blocks of A and B
 * (TILE x TILE each) are loaded by all the threads together, WPT_M * WPT_N elements each, at
 * consecutive columns for consecutive threads.
 *
 * What lesson 5 attacks: a thread's A values lie down a column of la, TILE elements apart: they
 * take WPT_M separate reads, and threads of different rows of the tile that run together read
 * addresses TILE elements apart, which fall in the same memory bank (a conflict: the reads are
 * served one after another). Every read is also a single element.
 *
 * Tile shape: RTS_M x RTS_N threads (-DTILE=32 -DWPT_M=4 -DWPT_N=4: 8 x 8 = 64 threads), declared
 * with AMP_TILE_SHAPE. tile_static memory: 2 * TILE * TILE elements (8 KB for float, 16 KB for
 * double). -DTILE=64 gives 256 threads and halves the global reads again, for 32 KB in float.
 *
 * Edges: the domain is rounded up to whole tiles, loads outside A and B give zeros, every thread
 * reaches every barrier, and only the stores are guarded.
 *
 * Element type: -DT=float (default), -DT=double or -DT=int.
 *
 * Launch (host C, error checks elided to CHECK; views as in matmul_naive.cl): one thread per
 * WPT_M x WPT_N block of C, padded to whole tiles.
 *
 *     CHECK(amp_program_create_builtin("matmul_lesson4_regtile", "-DT=float", &prog));
 *     CHECK(amp_kernel_create(prog, "matmul_lesson4_regtile", &k));
 *     enum { TILE = 32, WPT_M = 4, WPT_N = 4 };                     // must match the -D options
 *     amp_extent threads = amp_extent2((m + WPT_M - 1) / WPT_M, (n + WPT_N - 1) / WPT_N);
 *     amp_tiled_extent dom =
 *         amp_tiled_extent_pad(amp_tile2(threads, TILE / WPT_M, TILE / WPT_N));
 *     amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
 *     CHECK(amp_parallel_for_each_tiled(av, dom, k, args, AMP_NARGS(args)));  */
#ifndef T /* element type: float, double or int */
#define T float
#endif
#ifndef TILE /* edge of the block of C a tile computes, and depth of its K step */
#define TILE 32
#endif
#ifndef WPT_M /* rows of C per thread; must divide TILE */
#define WPT_M 4
#endif
#ifndef WPT_N /* columns of C per thread; must divide TILE */
#define WPT_N 4
#endif
#define RTS_M (TILE / WPT_M)  /* rows of threads per tile */
#define RTS_N (TILE / WPT_N)  /* columns of threads per tile */
#define NT    (RTS_M * RTS_N) /* threads per tile */
#define LPT   (WPT_M * WPT_N) /* elements of each block a thread loads */
#if TILE % WPT_M != 0 || TILE % WPT_N != 0
#error "matmul_lesson4_regtile: WPT_M and WPT_N must divide TILE"
#endif

AMP_TILE_SHAPE(RTS_M, RTS_N) /* another tile is refused: the loops below assume this one */
__kernel void matmul_lesson4_regtile(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_TILED_INDEX2(idx);
  tile_static T la[TILE][TILE];
  tile_static T lb[TILE][TILE];
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int ty = idx.local_id[0], tx = idx.local_id[1], tid = ty * RTS_N + tx;
  const int row0 = idx.tile[0] * TILE, col0 = idx.tile[1] * TILE;
  T sum[WPT_M][WPT_N];
  for (int i = 0; i < WPT_M; i++)
    for (int j = 0; j < WPT_N; j++)
      sum[i][j] = 0;
  for (int k0 = 0; k0 < w; k0 += TILE) {
    /* The tile's NT threads load both blocks together: element l = tid + p * NT of a block is
     * row l / TILE, column l % TILE. */
    for (int p = 0; p < LPT; p++) {
      const int l = tid + p * NT, r = l / TILE, q = l % TILE;
      const int arow = row0 + r, ak = k0 + q, bk = k0 + r, bcol = col0 + q;
      la[r][q] = (arow < m && ak < w) ? amp_at(a, arow, ak) : (T)0;
      lb[r][q] = (bk < w && bcol < n) ? amp_at(b, bk, bcol) : (T)0;
    }
    amp_barrier_wait(); /* the blocks are complete */
    for (int t = 0; t < TILE; t++) {
      T av[WPT_M], bv[WPT_N]; /* this step's operands, in registers */
      for (int i = 0; i < WPT_M; i++)
        av[i] = la[ty + i * RTS_M][t];
      for (int j = 0; j < WPT_N; j++)
        bv[j] = lb[t][tx + j * RTS_N];
      for (int i = 0; i < WPT_M; i++)
        for (int j = 0; j < WPT_N; j++)
          sum[i][j] += av[i] * bv[j];
    }
    amp_barrier_wait(); /* everyone is done reading before the next step overwrites them */
  }
  for (int i = 0; i < WPT_M; i++) {
    const int row = row0 + ty + i * RTS_M;
    for (int j = 0; j < WPT_N; j++) {
      const int col = col0 + tx + j * RTS_N;
      if (row < m && col < n)
        amp_at(c, row, col) = sum[i][j];
    }
  }
}
