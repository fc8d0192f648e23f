/* matmul_lesson5_vectors.cl: C = A * B with the register tile's operands read from tile_static
 * memory as vectors of four, A's block stored transposed and padded. Lesson 5 of the matmul
 * course (lesson 4: matmul_lesson4_regtile.cl; lesson 6: matmul_lesson6_double_buffer.cl).
 *
 * What it computes: as matmul_naive, C (m x n) = A (m x w) * B (w x n), row-major rank-2 views
 * (sections allowed), for any m, n, w >= 1.
 *
 * What limited lesson 4: each thread read its WPT_M values of A one element at a time down a
 * column of la, and threads of different rows of the tile, running together, read addresses
 * TILE elements apart: one memory bank, so those reads were served one after another.
 *
 * The step it adds: vector reads of tile_static memory. A thread now owns groups of four
 * neighbouring rows and four neighbouring columns of the block of C (rows 4 * (ty + i * RTS_M) + r,
 * columns 4 * (tx + j * RTS_N) + s, r and s < 4), and both blocks are stored so that each group is
 * one T4 (float4 for T=float):
 *   - B's block as lb[k][q]: columns 4q .. 4q + 3 of row k, as in memory;
 *   - A's block transposed, la[k][q]: rows 4q .. 4q + 3 of column k. Read untransposed, a
 *     thread's four rows at one k would lie TILE elements apart; transposed they are one vector.
 * In each step of k a thread reads WPT_M / 4 vectors of A and WPT_N / 4 of B (2 reads for 16
 * multiply-adds with the defaults, against 8 in lesson 4), and threads of consecutive rows of the
 * tile read consecutive vectors of la, no longer one bank.
 * The transposition moves the conflict to the store: the loading threads take consecutive k, so
 * they write la[k][q] one row of la apart, and a row of TILE / 4 vectors is 128 bytes for float
 * at TILE=32, a multiple of the banks' width: every store of a warp would hit the same banks.
 * PADV spare vectors at the end of each row of la shift each row to other banks. lb needs none:
 * its stores and reads run along its rows.
 *
 * What lesson 6 attacks: every K step still waits for its global loads before any thread can
 * multiply (load, barrier, multiply, barrier), so the arithmetic idles while memory is busy.
 *
 * Tile shape: RTS_M x RTS_N threads, RTS_M = TILE / WPT_M and RTS_N = TILE / WPT_N (8 x 8 = 64 for
 * the defaults), declared with AMP_TILE_SHAPE. tile_static memory: TILE * (2 * TILE + 4 * PADV)
 * elements (8.5 KB for float with the defaults, 17 KB for double).
 *
 * Edges: global memory is still read one element at a time through amp_at, zeros outside A and
 * B; every thread reaches every barrier; stores are guarded element by element.
 *
 * Element type: -DT=float (default), -DT=double or -DT=int (T4 is then double4 or int4).
 *
 * Launch: as lesson 4 (matmul_lesson4_regtile.cl), with this kernel's name.  */
#ifndef T /* element type: float, double or int */
#define T float
#endif
#ifndef TILE /* edge of the block of C a tile computes, and depth of its K step; a multiple of 4 */
#define TILE 32
#endif
#ifndef WPT_M /* rows of C per thread: a multiple of 4 that divides TILE */
#define WPT_M 4
#endif
#ifndef WPT_N /* columns of C per thread: a multiple of 4 that divides TILE */
#define WPT_N 4
#endif
#ifndef PADV /* spare vectors at the end of each row of la (0: no padding, bank conflicts) */
#define PADV 1
#endif
#define RTS_M  (TILE / WPT_M)         /* rows of threads per tile */
#define RTS_N  (TILE / WPT_N)         /* columns of threads per tile */
#define NT     (RTS_M * RTS_N)        /* threads per tile */
#define VM     (WPT_M / 4)            /* vectors of A a thread reads per step of k */
#define VN     (WPT_N / 4)            /* vectors of B a thread reads per step of k */
#define LPT    (TILE * TILE / 4 / NT) /* vectors of each block a thread loads */
#define LA_ROW (TILE / 4 + PADV)      /* vectors per row of la */
#if WPT_M % 4 != 0 || WPT_N % 4 != 0 || TILE % WPT_M != 0 || TILE % WPT_N != 0
#error "matmul_lesson5_vectors: WPT_M and WPT_N must be multiples of 4 that divide TILE"
#endif

#define L5_CAT_(a, b) a##b
#define L5_VEC_(t, w) L5_CAT_(t, w)
typedef L5_VEC_(T, 4) T4; /* float4, double4 or int4 */

/* Stores four elements of row row of C from column col, none outside C. */
static inline void store4(AMP_VIEW(T, c), int m, int n, int row, int col, T4 v) {
  if (row >= m)
    return;
  if (col + 0 < n)
    amp_at(c, row, col + 0) = v.s0;
  if (col + 1 < n)
    amp_at(c, row, col + 1) = v.s1;
  if (col + 2 < n)
    amp_at(c, row, col + 2) = v.s2;
  if (col + 3 < n)
    amp_at(c, row, col + 3) = v.s3;
}

AMP_TILE_SHAPE(RTS_M, RTS_N) /* another tile is refused: the loops below assume this one */
__kernel void matmul_lesson5_vectors(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_TILED_INDEX2(idx);
  tile_static T4 la[TILE][LA_ROW];   /* la[k][q]: rows 4q .. 4q + 3 of A's block, column k */
  tile_static T4 lb[TILE][TILE / 4]; /* lb[k][q]: columns 4q .. 4q + 3 of B's block, row k */
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int ty = idx.local_id[0], tx = idx.local_id[1], tid = ty * RTS_N + tx;
  const int row0 = idx.tile[0] * TILE, col0 = idx.tile[1] * TILE;
  T4 acc[WPT_M][VN]; /* acc[4 * i + r][j]: row 4 * (ty + i * RTS_M) + r, columns of vector j */
  for (int i = 0; i < WPT_M; i++)
    for (int j = 0; j < VN; j++)
      acc[i][j] = (T4)(0);
  for (int k0 = 0; k0 < w; k0 += TILE) {
    for (int p = 0; p < LPT; p++) {
      const int l = tid + p * NT;
      /* A: vector l holds column k of the block in rows 4q .. 4q + 3 (consecutive threads take
       * consecutive k, so their global reads run along A's rows), stored transposed. */
      const int k = l % TILE, q = l / TILE, ak = k0 + k, r = row0 + 4 * q;
      T4 va = (T4)(0);
      if (ak < w) {
        va.s0 = r + 0 < m ? amp_at(a, r + 0, ak) : (T)0;
        va.s1 = r + 1 < m ? amp_at(a, r + 1, ak) : (T)0;
        va.s2 = r + 2 < m ? amp_at(a, r + 2, ak) : (T)0;
        va.s3 = r + 3 < m ? amp_at(a, r + 3, ak) : (T)0;
      }
      la[k][q] = va;
      /* B: vector l holds row kb of the block, columns 4qb .. 4qb + 3. */
      const int kb = l / (TILE / 4), qb = l % (TILE / 4), bk = k0 + kb, col = col0 + 4 * qb;
      T4 vb = (T4)(0);
      if (bk < w) {
        vb.s0 = col + 0 < n ? amp_at(b, bk, col + 0) : (T)0;
        vb.s1 = col + 1 < n ? amp_at(b, bk, col + 1) : (T)0;
        vb.s2 = col + 2 < n ? amp_at(b, bk, col + 2) : (T)0;
        vb.s3 = col + 3 < n ? amp_at(b, bk, col + 3) : (T)0;
      }
      lb[kb][qb] = vb;
    }
    amp_barrier_wait(); /* the blocks are complete */
    for (int t = 0; t < TILE; t++) {
      T4 av[VM], bv[VN]; /* this step's operands: 4 rows of A, 4 columns of B each */
      for (int i = 0; i < VM; i++)
        av[i] = la[t][ty + i * RTS_M];
      for (int j = 0; j < VN; j++)
        bv[j] = lb[t][tx + j * RTS_N];
      for (int i = 0; i < VM; i++)
        for (int j = 0; j < VN; j++) {
          acc[4 * i + 0][j] += av[i].s0 * bv[j];
          acc[4 * i + 1][j] += av[i].s1 * bv[j];
          acc[4 * i + 2][j] += av[i].s2 * bv[j];
          acc[4 * i + 3][j] += av[i].s3 * bv[j];
        }
    }
    amp_barrier_wait(); /* everyone is done reading before the next step overwrites them */
  }
  for (int i = 0; i < VM; i++)
    for (int r = 0; r < 4; r++)
      for (int j = 0; j < VN; j++)
        store4(AMP_VIEW_ARG(c), m, n, row0 + 4 * (ty + i * RTS_M) + r,
               col0 + 4 * (tx + j * RTS_N), acc[4 * i + r][j]);
}
