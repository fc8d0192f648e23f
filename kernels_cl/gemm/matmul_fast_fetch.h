/* matmul_fast_fetch.h: matmul_fast.cl's tile loaders: a K tile of A and B from global memory
 * into registers, checked at the edges (mf_fetch) or not (step 7, mf_fetch_inner), from registers
 * into a tile_static buffer with A transposed (mf_stage), and step 13's copies straight from
 * global to tile_static memory (mf_ring, mf_copy). The pointer step of the unchecked fetch
 * (mf_advance) stands beside the kernel. A part of matmul_fast.cl, after matmul_fast_edges.h:
 * nothing here stands on its own. */
/* Fetches this thread's share of the K tile starting at k0 from global memory into registers:
 * LPT_A T4 of A (four rows at one k, so a tile row of A is read along k by consecutive threads)
 * and LPT_B TB of B (BW columns at one k, consecutive threads on consecutive columns). Elements
 * outside A or B read as zero. */
static inline void mf_fetch(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), int m, int n, int w,
                            int row0, int col0, int k0, int tid, int b_vec, T4 *ra, TB *rb) {
#pragma unroll
  for (int p = 0; p < LPT_A; p++) {
    const int l = tid + p * NT;
    const int kg = k0 + MF_A_K(l), r = row0 + 4 * MF_A_Q(l);
    T4 v = (T4)(0);
    if (kg < w) {
      v.s0 = r + 0 < m ? amp_at(a, r + 0, kg) : (T)0;
      v.s1 = r + 1 < m ? amp_at(a, r + 1, kg) : (T)0;
      v.s2 = r + 2 < m ? amp_at(a, r + 2, kg) : (T)0;
      v.s3 = r + 3 < m ? amp_at(a, r + 3, kg) : (T)0;
    }
    ra[p] = v;
  }
#pragma unroll
  for (int p = 0; p < LPT_B; p++) {
    const int l = tid + p * NT;
    const int kg = k0 + MF_B_K(l), col = col0 + BW * MF_B_Q(l);
    TB v = (TB)(0);
    if (kg < w) {
      if (b_vec && col + BW - 1 < n) {
        v = *(__global const TB *)&amp_at(b, kg, col); /* BW-element aligned: checked by caller */
      } else {
        v = mf_load_b_edge(AMP_VIEW_ARG(b), n, kg, col);
      }
    }
    rb[p] = v;
  }
}

/* Step 7: the same fetch for a K tile that lies wholly inside A and B, in a tile of threads whose
 * rows and columns all lie inside C, with B's rows BW-aligned: no bounds checks, no selects, and no
 * index arithmetic beyond one pointer step per K tile. pa[p] points at this thread's A element (row
 * r, column kk of the tile) and pb[p] at the first element of its TB of B; the caller advances them
 * by TS_K columns of A and TS_K rows of B per tile. */
static inline void mf_fetch_inner(__global const T *const *pa, int lda, __global const T *const *pb,
                                  T4 *ra, TB *rb) {
#pragma unroll
  for (int p = 0; p < LPT_A; p++)
    ra[p] = (T4)(pa[p][0], pa[p][lda], pa[p][2 * lda], pa[p][3 * lda]);
#pragma unroll
  for (int p = 0; p < LPT_B; p++)
    rb[p] = *(__global const TB *)pb[p]; /* BW-aligned: interior tiles need b_vec */
}

/* Stores the fetched registers into one tile_static buffer: A transposed (la[k][row / 4], step 3;
 * rows padded by PADV, step 4). */
static inline void mf_stage(__local T4 (*la)[LA_ROW], __local TB (*lb)[LB_ROW], int tid,
                            const T4 *ra, const TB *rb) {
#pragma unroll
  for (int p = 0; p < LPT_A; p++) {
    const int l = tid + p * NT;
    la[MF_A_K(l)][MF_A_Q(l)] = ra[p];
  }
#pragma unroll
  for (int p = 0; p < LPT_B; p++) {
    const int l = tid + p * NT;
    lb[MF_B_K(l)][MF_B_Q(l)] = rb[p];
  }
}

#if ASYNC_STAGES
/* Step 13: one K tile of an interior tile of threads, from global to tile_static memory with no
 * registers between (cp.async), in NCOPY copies per thread that mf_multiply issues a few at a time
 * between its steps of k. A is transposed on the way: each element is a copy of its own (4 or 8
 * bytes), and a warp's 32 copies cover 4 rows x 8 columns, so its global reads are 4 runs of 32
 * bytes (64 in double). B goes 16 bytes a copy, which needs B's rows 16-byte aligned: interior
 * tiles need b_vec, and ampcl's buffers are aligned far beyond that. */
typedef struct mf_ring {
  __local T *la_t;      /* this thread's first A element in the buffer being filled */
  __local TB *lb_t;     /* and its first B vector there */
  __global const T *ga; /* the same two in the K tile being fetched */
  __global const T *gb;
  int a_off[AS_STEPS]; /* offsets of the thread's other rows of A, elements */
  int b_off[LPT_B];    /* and of its other rows of B */
  int on;              /* 0 past the last full K tile: the copies read nothing, write zeros */
} mf_ring;

static inline void mf_copy(const mf_ring *r, int q) {
  if (q < LPT_AS) {
    const int j = q % AS_STEPS, dk = 8 * (q / AS_STEPS);
    __global const T *src = r->ga + r->a_off[j] + dk;
    const uint dst = (uint)(size_t)(r->la_t + (dk * LA_ROW + j * (NT / 32)) * 4);
    const int bytes = r->on ? (int)sizeof(T) : 0;
    if (sizeof(T) == 8)
      AMPCL_CP_ASYNC_CA8(dst, src, bytes);
    else
      AMPCL_CP_ASYNC_CA4(dst, src, bytes);
  } else {
    const int j = q - LPT_AS;
    __global const T *src = r->gb + r->b_off[j];
    const uint dst = (uint)(size_t)(r->lb_t + j * (NT / (TS_N / BW)) * LB_ROW);
    const int bytes = r->on ? 16 : 0;
    AMPCL_CP_ASYNC_CG16(dst, src, bytes);
  }
}
#define MF_RING_PARAM , const mf_ring *ring
#define MF_NO_RING    , 0
#else
#define MF_RING_PARAM
#define MF_NO_RING
#endif
