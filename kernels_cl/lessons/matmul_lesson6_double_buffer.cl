/* matmul_lesson6_double_buffer.cl: C = A * B with the next K step's blocks fetched while the
 * current ones are multiplied, in two tile_static buffers. Lesson 6 of the matmul course (lesson
 * 5: matmul_lesson5_vectors.cl), and its last frozen lesson.
 *
 * What it computes: as matmul_naive, C (m x n) = A (m x w) * B (w x n), row-major rank-2 views
 * (sections allowed), for any m, n, w >= 1.
 *
 * What limited lesson 5: each K step ran load, barrier, multiply, barrier. While a tile's threads
 * wait for their global loads they have nothing to multiply, and the second barrier makes every
 * thread wait for the slowest reader before anyone may load again.
 *
 * The step it adds: double buffering. There are two buffers of each block. Before the loop the
 * first K step's blocks are loaded into buffer 0. In step t every thread first issues the global
 * reads of step t + 1 into registers (ra, rb), then multiplies the blocks of step t from buffer
 * t % 2 (the reads are in flight meanwhile), then stores its registers into the other buffer.
 * One barrier per step is enough: the other buffer was last read in step t - 1, before the
 * barrier that ended it, and the barrier that ends step t makes the new blocks complete before
 * step t + 1 reads them. The loading and the storing are lesson 5's, only split in two (fetch
 * and stage) around the multiply.
 *
 * Where the course goes on: kernels_cl/gemm/matmul_fast.cl, the production kernel, holds these
 * steps (its steps 1, 3, 4 and 6) and adds the rest: rectangular blocks with a shallower K step
 * (128 x 128 x 16), unrolled loops, vector loads of B and C from global memory, unchecked loads
 * for blocks wholly inside the matrices, narrower vectors for double, an L2-friendly tile order,
 * the order of the multiply-adds and, on NVIDIA GPUs, copies that bypass the registers.
 *
 * Tile shape: RTS_M x RTS_N threads, RTS_M = TILE / WPT_M and RTS_N = TILE / WPT_N (8 x 8 = 64 for
 * the defaults), declared with AMP_TILE_SHAPE. tile_static memory: twice lesson 5's, 2 * TILE *
 * (2 * TILE + 4 * PADV) elements (17 KB for float with the defaults, 34 KB for double).
 *
 * Edges: as lesson 5: zeros outside A and B, every thread reaches every barrier (the number of K
 * steps is the same in every thread), stores guarded element by element.
 *
 * Element type: -DT=float (default), -DT=double or -DT=int.
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
#error "matmul_lesson6_double_buffer: WPT_M and WPT_N must be multiples of 4 that divide TILE"
#endif

#define L6_CAT_(a, b) a##b
#define L6_VEC_(t, w) L6_CAT_(t, w)
typedef L6_VEC_(T, 4) T4; /* float4, double4 or int4 */

/* Reads this thread's share of the K step at k0 from global memory into registers: ra[p] is
 * column k of A's block in rows 4q .. 4q + 3, rb[p] row kb of B's block in columns 4qb .. 4qb + 3
 * (lesson 5's loads, zeros outside A and B). */
static inline void fetch(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), int m, int n, int w, int row0,
                         int col0, int k0, int tid, T4 *ra, T4 *rb) {
  for (int p = 0; p < LPT; p++) {
    const int l = tid + p * NT;
    const int ak = k0 + l % TILE, r = row0 + 4 * (l / TILE);
    T4 va = (T4)(0);
    if (ak < w) {
      va.s0 = r + 0 < m ? amp_at(a, r + 0, ak) : (T)0;
      va.s1 = r + 1 < m ? amp_at(a, r + 1, ak) : (T)0;
      va.s2 = r + 2 < m ? amp_at(a, r + 2, ak) : (T)0;
      va.s3 = r + 3 < m ? amp_at(a, r + 3, ak) : (T)0;
    }
    ra[p] = va;
    const int bk = k0 + l / (TILE / 4), col = col0 + 4 * (l % (TILE / 4));
    T4 vb = (T4)(0);
    if (bk < w) {
      vb.s0 = col + 0 < n ? amp_at(b, bk, col + 0) : (T)0;
      vb.s1 = col + 1 < n ? amp_at(b, bk, col + 1) : (T)0;
      vb.s2 = col + 2 < n ? amp_at(b, bk, col + 2) : (T)0;
      vb.s3 = col + 3 < n ? amp_at(b, bk, col + 3) : (T)0;
    }
    rb[p] = vb;
  }
}

/* Stores the fetched registers into one buffer: A transposed, B as it is (lesson 5's layout). */
static inline void stage(__local T4 (*la)[LA_ROW], __local T4 (*lb)[TILE / 4], int tid,
                         const T4 *ra, const T4 *rb) {
  for (int p = 0; p < LPT; p++) {
    const int l = tid + p * NT;
    la[l % TILE][l / TILE] = ra[p];
    lb[l / (TILE / 4)][l % (TILE / 4)] = rb[p];
  }
}

/* acc += this thread's part of (A's block) * (B's block), from one buffer (lesson 5's loop). */
static inline void multiply(__local T4 (*la)[LA_ROW], __local T4 (*lb)[TILE / 4], int ty, int tx,
                            T4 acc[WPT_M][VN]) {
  for (int t = 0; t < TILE; t++) {
    T4 av[VM], bv[VN];
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
}

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
__kernel void matmul_lesson6_double_buffer(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b),
                                           AMP_VIEW(T, c)) {
  AMP_TILED_INDEX2(idx);
  tile_static T4 la[2][TILE][LA_ROW];   /* two buffers of lesson 5's la */
  tile_static T4 lb[2][TILE][TILE / 4]; /* and of its lb */
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int ty = idx.local_id[0], tx = idx.local_id[1], tid = ty * RTS_N + tx;
  const int row0 = idx.tile[0] * TILE, col0 = idx.tile[1] * TILE;
  const int steps = (w + TILE - 1) / TILE; /* the same in every thread: barriers stay uniform */
  T4 acc[WPT_M][VN];
  for (int i = 0; i < WPT_M; i++)
    for (int j = 0; j < VN; j++)
      acc[i][j] = (T4)(0);
  T4 ra[LPT], rb[LPT]; /* the next step's share of the blocks, on its way */

  fetch(AMP_VIEW_ARG(a), AMP_VIEW_ARG(b), m, n, w, row0, col0, 0, tid, ra, rb);
  stage(la[0], lb[0], tid, ra, rb);
  amp_barrier_wait(); /* step 0's blocks are complete */
  for (int t = 0; t < steps; t++) {
    const int cur = t & 1, more = t + 1 < steps;
    if (more) /* global reads in flight while we multiply */
      fetch(AMP_VIEW_ARG(a), AMP_VIEW_ARG(b), m, n, w, row0, col0, (t + 1) * TILE, tid, ra, rb);
    multiply(la[cur], lb[cur], ty, tx, acc);
    if (more) /* the other buffer was last read in step t - 1, before the barrier that ended it */
      stage(la[cur ^ 1], lb[cur ^ 1], tid, ra, rb);
    amp_barrier_wait(); /* step t + 1's blocks are complete, and step t's are free */
  }
  for (int i = 0; i < VM; i++)
    for (int r = 0; r < 4; r++)
      for (int j = 0; j < VN; j++)
        store4(AMP_VIEW_ARG(c), m, n, row0 + 4 * (ty + i * RTS_M) + r,
               col0 + 4 * (tx + j * RTS_N), acc[4 * i + r][j]);
}
