/* matmul_fast_multiply.h: matmul_fast.cl's inner product: acc += this thread's part of the A
 * tile times the B tile, from one tile_static buffer (step 1's register tile), in step 11's order
 * of the multiply-adds, with step 13's copies issued between its steps of k. A part of
 * matmul_fast.cl, after matmul_fast_fetch.h: nothing here stands on its own. */
/* Step 11, the order of the multiply-adds: one row of the register tile after another, the
 * columns of every other row in reverse (FMA_ORDER=1), so the A value of a row stays the same over
 * WPT_N multiply-adds and the B value at each turn over two; or the same by columns (FMA_ORDER=2).
 * Each accumulator still adds its k terms in the same order. */
#if BW == 4
#define MF_ROW_FWD(r, a, j) /* row r, the four columns of bv[j] left to right (a: av[i].sN) */     \
  do {                                                                                             \
    acc[r][j].s0 += a * bv[j].s0;                                                                  \
    acc[r][j].s1 += a * bv[j].s1;                                                                  \
    acc[r][j].s2 += a * bv[j].s2;                                                                  \
    acc[r][j].s3 += a * bv[j].s3;                                                                  \
  } while (0)
#define MF_ROW_BWD(r, a, j) /* and right to left */                                                \
  do {                                                                                             \
    acc[r][j].s3 += a * bv[j].s3;                                                                  \
    acc[r][j].s2 += a * bv[j].s2;                                                                  \
    acc[r][j].s1 += a * bv[j].s1;                                                                  \
    acc[r][j].s0 += a * bv[j].s0;                                                                  \
  } while (0)
#else
#define MF_ROW_FWD(r, a, j)                                                                        \
  do {                                                                                             \
    acc[r][j].s0 += a * bv[j].s0;                                                                  \
    acc[r][j].s1 += a * bv[j].s1;                                                                  \
  } while (0)
#define MF_ROW_BWD(r, a, j)                                                                        \
  do {                                                                                             \
    acc[r][j].s1 += a * bv[j].s1;                                                                  \
    acc[r][j].s0 += a * bv[j].s0;                                                                  \
  } while (0)
#endif
#define MF_COL_FWD(i, j, c) /* column c of bv[j], the four rows of av[i] top to bottom */          \
  do {                                                                                             \
    acc[4 * (i) + 0][j].c += av[i].s0 * bv[j].c;                                                   \
    acc[4 * (i) + 1][j].c += av[i].s1 * bv[j].c;                                                   \
    acc[4 * (i) + 2][j].c += av[i].s2 * bv[j].c;                                                   \
    acc[4 * (i) + 3][j].c += av[i].s3 * bv[j].c;                                                   \
  } while (0)
#define MF_COL_BWD(i, j, c) /* and bottom to top */                                                \
  do {                                                                                             \
    acc[4 * (i) + 3][j].c += av[i].s3 * bv[j].c;                                                   \
    acc[4 * (i) + 2][j].c += av[i].s2 * bv[j].c;                                                   \
    acc[4 * (i) + 1][j].c += av[i].s1 * bv[j].c;                                                   \
    acc[4 * (i) + 0][j].c += av[i].s0 * bv[j].c;                                                   \
  } while (0)

/* acc += this thread's part of (A tile) * (B tile), from one tile_static buffer: step 1's
 * register tile, in step 11's order. */
static inline void mf_multiply(__local T4 (*la)[LA_ROW], __local TB (*lb)[LB_ROW], int ty, int tx,
                               TB acc[WPT_M][VN] MF_RING_PARAM) {
#pragma unroll
  for (int k = 0; k < TS_K; k++) {
#if ASYNC_STAGES
    if (ring) { /* step 13: this step's share of the next K tile's copies */
#pragma unroll
      for (int q = k * NCOPY / TS_K; q < (k + 1) * NCOPY / TS_K; q++)
        mf_copy(ring, q);
    }
#endif
    T4 av[VM];
    TB bv[VN];
#pragma unroll
    for (int i = 0; i < VM; i++)
      av[i] = la[k][ty + i * RTS_M];
#pragma unroll
    for (int j = 0; j < VN; j++)
      bv[j] = lb[k][tx + j * RTS_N];
    /* FMA_ORDER is a constant (it may depend on sizeof(T)): the compiler keeps one branch. */
    if (FMA_ORDER == 1) { /* rows, serpentine */
#pragma unroll
      for (int i = 0; i < VM; i++) {
#pragma unroll
        for (int j = 0; j < VN; j++) {
          MF_ROW_FWD(4 * i + 0, av[i].s0, j);
        }
#pragma unroll
        for (int j = VN - 1; j >= 0; j--) {
          MF_ROW_BWD(4 * i + 1, av[i].s1, j);
        }
#pragma unroll
        for (int j = 0; j < VN; j++) {
          MF_ROW_FWD(4 * i + 2, av[i].s2, j);
        }
#pragma unroll
        for (int j = VN - 1; j >= 0; j--) {
          MF_ROW_BWD(4 * i + 3, av[i].s3, j);
        }
      }
    } else if (FMA_ORDER == 2) { /* columns, serpentine */
#pragma unroll
      for (int j = 0; j < VN; j++) {
#pragma unroll
        for (int i = 0; i < VM; i++) {
          MF_COL_FWD(i, j, s0);
        }
#pragma unroll
        for (int i = VM - 1; i >= 0; i--) {
          MF_COL_BWD(i, j, s1);
        }
#if BW == 4
#pragma unroll
        for (int i = 0; i < VM; i++) {
          MF_COL_FWD(i, j, s2);
        }
#pragma unroll
        for (int i = VM - 1; i >= 0; i--) {
          MF_COL_BWD(i, j, s3);
        }
#endif
      }
    } else { /* 0: the plain order of steps 1-10, a vector statement per A value and B vector */
#pragma unroll
      for (int i = 0; i < VM; i++) {
#pragma unroll
        for (int j = 0; j < VN; j++) {
          acc[4 * i + 0][j] += av[i].s0 * bv[j];
          acc[4 * i + 1][j] += av[i].s1 * bv[j];
          acc[4 * i + 2][j] += av[i].s2 * bv[j];
          acc[4 * i + 3][j] += av[i].s3 * bv[j];
        }
      }
    }
  }
}
