/* matmul_fast.cl: C = A * B with register blocking, a transposed and padded A tile in
 * tile_static memory, 4-wide vector loads and stores, and double buffering. Lesson 3 of the
 * matmul course (lesson 2: matmul_tiled.cl).
 *
 * What it computes: as matmul_naive, C (m x n) = A (m x w) * B (w x n), row-major rank-2 views
 * (sections allowed), for any m, n, w >= 1: odd, prime, non-square.
 *
 * The steps it adds over matmul_tiled, each attacking what limits the one before:
 *   1. Register blocking. In matmul_tiled every multiply-add needs two tile_static reads, so
 *      on-chip memory, not arithmetic, sets the speed. Here a tile of threads computes a
 *      TS_M x TS_N block of C and each thread WPT_M x WPT_N elements of it (8 x 4 by default),
 *      kept in registers. Per step of k a thread reads WPT_M values of A and WPT_N of B and does
 *      WPT_M * WPT_N multiply-adds: 32 for 12 reads instead of 1 for 2.
 *   2. A deeper K tile shared by more threads: each tile of threads stages TS_M x TS_K of A and
 *      TS_K x TS_N of B (64 x 16 and 16 x 128 by default), so every element fetched from global
 *      memory is used TS_N (or TS_M) times.
 *   3. Vectors. tile_static arrays hold T4 (float4 for T=float), so a thread reads four rows of A
 *      or four columns of B with one 16-byte access. A is stored transposed (la[k][row/4]) so the
 *      four rows a thread needs for one k are adjacent. B and C move as T4 through global memory
 *      when their offset and row stride are multiples of 4 elements (checked at run time; other
 *      views and the ragged right edge take a scalar path with the same results).
 *   4. Bank-conflict padding. The transposed store la[kk][q] by consecutive threads (consecutive
 *      kk) would hit one memory bank if a row of la were 32 T4 = 512 bytes long; PADV extra T4
 *      per row (default 1) spread them over all banks.
 *   5. Unrolled loops (#pragma unroll) so the accumulators stay in registers and the compiler
 *      schedules loads ahead of the multiply-adds.
 *   6. Double buffering (-DDOUBLE_BUFFER=1, the default): the next K tile is fetched from global
 *      memory into registers while the current one is multiplied, then stored into the other of
 *      two tile_static buffers: one barrier per K tile instead of two, and global latency hidden
 *      behind arithmetic. -DDOUBLE_BUFFER=0 gives the simpler load / barrier / multiply / barrier.
 *
 * Build options (all optional):
 *   -DT=float|double|int   element type (default float)
 *   -DTS_M=64 -DTS_N=128   rows and columns of C per tile of threads
 *   -DTS_K=16              depth of the K tile
 *   -DWPT_M=8 -DWPT_N=4    rows and columns of C per thread; multiples of 4
 * The defaults are the shape measured fastest for float on an NVIDIA H100 and H200
 * (docs/PERFORMANCE.md, `bench/run_suite.sh tune`): 39.8 TFLOP/s at 8192 on the H200, against
 * 33.4 for 128 x 128 with 8 x 8 per thread.
 *   -DPADV=1               padding of each tile_static row, in T4 units
 *   -DDOUBLE_BUFFER=1      two tile_static buffers, prefetch through registers
 * Constraints (checked below with #error): WPT_M, WPT_N multiples of 4; TS_M % WPT_M == 0,
 * TS_N % WPT_N == 0; the tile's thread count NT = (TS_M/WPT_M) * (TS_N/WPT_N) divides
 * TS_K*TS_M/4 and TS_K*TS_N/4. tile_static bytes: (1 + DOUBLE_BUFFER) * TS_K * sizeof(T) *
 * (TS_M + TS_N + 8*PADV): 25.6 KB for the float defaults, 51 KB for double with the same tiles,
 * which exceeds the 48 KB of many GPUs. For double use -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8
 * -DTS_K=8 (25.6 KB; 8 x 16 threads): the fastest shape measured for double on an H200, 18.5
 * TFLOP/s at 8192 against 11.2 for 64 x 64 with 4 x 4 per thread. ampcl refuses a launch that needs more tile_static
 * memory than the device has (AMP_ERROR_LIMIT_EXCEEDED), naming both numbers.
 *
 * Tile shape and launch domain. A tile has RTS_M x RTS_N threads, RTS_M = TS_M / WPT_M and
 * RTS_N = TS_N / WPT_N (8 x 32 = 256 for the defaults); tile (ti, tj) computes C's block from row
 * ti*TS_M and column tj*TS_N. The domain holds ceil(m / TS_M) x ceil(n / TS_N) tiles, so threads
 * and tiles that fall wholly or partly outside C load zeros and skip their stores (every thread
 * reaches every barrier). Launch code (host C, errors elided to CHECK; views as in
 * matmul_naive.cl):
 *
 *     enum { TS_M = 64, TS_N = 128, WPT_M = 8, WPT_N = 4 };         // must match the -D options
 *     const int RTS_M = TS_M / WPT_M, RTS_N = TS_N / WPT_N;          // 8 x 32 threads per tile
 *     CHECK(amp_program_create_builtin("matmul_fast", "-DT=float", &prog));   // the defaults
 *     CHECK(amp_kernel_create(prog, "matmul_fast", &k));
 *     amp_tiled_extent dom = amp_tile2(amp_extent2((m + TS_M - 1) / TS_M * RTS_M,
 *                                                  (n + TS_N - 1) / TS_N * RTS_N),
 *                                      RTS_M, RTS_N);
 *     amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
 *     CHECK(amp_parallel_for_each_tiled(av, dom, k, args, AMP_NARGS(args)));
 *
 * Equivalently: dom = amp_tiled_extent_pad(amp_tile2(amp_extent2(ceil(m / WPT_M),
 * ceil(n / WPT_N)), RTS_M, RTS_N)), one thread per WPT_M x WPT_N block of C, padded to whole
 * tiles.
 *
 * Which thread owns what (for whoever tunes this): thread (ty, tx) of a tile owns rows
 * 4*(ty + i*RTS_M) + r and columns 4*(tx + j*RTS_N) + s of the tile's block, for i < WPT_M/4,
 * j < WPT_N/4, r, s < 4. Columns are interleaved across threads in groups of 4, so a row of
 * threads reads consecutive T4 of the B tile (no bank conflicts) and stores consecutive T4 of C
 * (coalesced); rows likewise, so a row of threads reads one A address (a broadcast). */
#ifndef T
#define T float
#endif
#ifndef TS_M
#define TS_M 64
#endif
#ifndef TS_N
#define TS_N 128
#endif
#ifndef TS_K
#define TS_K 16
#endif
#ifndef WPT_M
#define WPT_M 8
#endif
#ifndef WPT_N
#define WPT_N 4
#endif
#ifndef PADV
#define PADV 1
#endif
#ifndef DOUBLE_BUFFER
#define DOUBLE_BUFFER 1
#endif

#define RTS_M (TS_M / WPT_M)              /* threads per tile along M */
#define RTS_N (TS_N / WPT_N)              /* threads per tile along N */
#define NT (RTS_M * RTS_N)                /* threads per tile */
#define VM (WPT_M / 4)                    /* T4 of A per thread and k */
#define VN (WPT_N / 4)                    /* T4 of B per thread and k */
#define LA_ROW (TS_M / 4 + PADV)          /* T4 per row of the transposed A tile */
#define LB_ROW (TS_N / 4 + PADV)          /* T4 per row of the B tile */
#define LPT_A (TS_K * TS_M / 4 / NT)      /* T4 of A each thread fetches per K tile */
#define LPT_B (TS_K * TS_N / 4 / NT)      /* T4 of B each thread fetches per K tile */
#define NBUF (DOUBLE_BUFFER ? 2 : 1)

#if WPT_M % 4 != 0 || WPT_N % 4 != 0
#error "matmul_fast: WPT_M and WPT_N must be multiples of 4"
#endif
#if TS_M % WPT_M != 0 || TS_N % WPT_N != 0
#error "matmul_fast: WPT_M must divide TS_M and WPT_N must divide TS_N"
#endif
#if (TS_K * TS_M / 4) % NT != 0 || (TS_K * TS_N / 4) % NT != 0 || LPT_A < 1 || LPT_B < 1
#error "matmul_fast: the thread count (TS_M/WPT_M)*(TS_N/WPT_N) must divide TS_K*TS_M/4 and TS_K*TS_N/4"
#endif

#define MF_CAT_(a, b) a##b
#define MF_VEC4_(t) MF_CAT_(t, 4)
typedef MF_VEC4_(T) T4; /* float4, double4 or int4 */

#pragma OPENCL FP_CONTRACT ON

/* Fetches this thread's share of the K tile starting at k0 from global memory into registers:
 * LPT_A T4 of A (four rows at one k, so a tile row of A is read along k by consecutive threads)
 * and LPT_B T4 of B (four columns at one k, consecutive threads on consecutive columns). Elements
 * outside A or B read as zero. */
static inline void mf_fetch(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), int m, int n, int w,
                            int row0, int col0, int k0, int tid, int b_vec, T4 *ra, T4 *rb) {
#pragma unroll
  for (int p = 0; p < LPT_A; p++) {
    const int l = tid + p * NT;
    const int kg = k0 + l % TS_K, r = row0 + 4 * (l / TS_K);
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
    const int kg = k0 + l / (TS_N / 4), col = col0 + 4 * (l % (TS_N / 4));
    T4 v = (T4)(0);
    if (kg < w) {
      if (b_vec && col + 3 < n) {
        v = *(__global const T4 *)&amp_at(b, kg, col); /* 4-element aligned: checked by caller */
      } else {
        v.s0 = col + 0 < n ? amp_at(b, kg, col + 0) : (T)0;
        v.s1 = col + 1 < n ? amp_at(b, kg, col + 1) : (T)0;
        v.s2 = col + 2 < n ? amp_at(b, kg, col + 2) : (T)0;
        v.s3 = col + 3 < n ? amp_at(b, kg, col + 3) : (T)0;
      }
    }
    rb[p] = v;
  }
}

/* Stores the fetched registers into one tile_static buffer: A transposed (la[k][row / 4]). */
static inline void mf_stage(__local T4 (*la)[LA_ROW], __local T4 (*lb)[LB_ROW], int tid,
                            const T4 *ra, const T4 *rb) {
#pragma unroll
  for (int p = 0; p < LPT_A; p++) {
    const int l = tid + p * NT;
    la[l % TS_K][l / TS_K] = ra[p];
  }
#pragma unroll
  for (int p = 0; p < LPT_B; p++) {
    const int l = tid + p * NT;
    lb[l / (TS_N / 4)][l % (TS_N / 4)] = rb[p];
  }
}

/* acc += this thread's part of (A tile) * (B tile), from one tile_static buffer. */
static inline void mf_multiply(__local T4 (*la)[LA_ROW], __local T4 (*lb)[LB_ROW],
                               int ty, int tx, T4 acc[WPT_M][VN]) {
#pragma unroll
  for (int k = 0; k < TS_K; k++) {
    T4 av[VM], bv[VN];
#pragma unroll
    for (int i = 0; i < VM; i++)
      av[i] = la[k][ty + i * RTS_M];
#pragma unroll
    for (int j = 0; j < VN; j++)
      bv[j] = lb[k][tx + j * RTS_N];
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

__kernel void matmul_fast(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_TILED_INDEX2(idx);
  tile_static T4 la[NBUF][TS_K][LA_ROW];
  tile_static T4 lb[NBUF][TS_K][LB_ROW];
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int ty = idx.local_id[0], tx = idx.local_id[1], tid = ty * RTS_N + tx;
  const int row0 = idx.tile[0] * TS_M, col0 = idx.tile[1] * TS_N;
  /* T4 access to B and C needs 4-element alignment of every row start: offset and row stride
   * multiples of 4 (buffers themselves are aligned far beyond that). Uniform across the launch. */
  const int b_vec = ((b_shape.s3 | b_shape.s4) & 3) == 0;
  const int c_vec = ((c_shape.s3 | c_shape.s4) & 3) == 0;
  const int ktiles = (w + TS_K - 1) / TS_K; /* the same in every thread: barriers stay uniform */

  T4 acc[WPT_M][VN];
#pragma unroll
  for (int i = 0; i < WPT_M; i++)
#pragma unroll
    for (int j = 0; j < VN; j++)
      acc[i][j] = (T4)(0);
  T4 ra[LPT_A], rb[LPT_B];

#if DOUBLE_BUFFER
  mf_fetch(a_data, a_shape, b_data, b_shape, m, n, w, row0, col0, 0, tid, b_vec, ra, rb);
  mf_stage(la[0], lb[0], tid, ra, rb);
  amp_barrier_wait_with_tile_static_memory_fence();
  for (int t = 0; t < ktiles; t++) {
    const int cur = t & 1;
    const int more = t + 1 < ktiles;
    if (more) /* global loads in flight while we multiply */
      mf_fetch(a_data, a_shape, b_data, b_shape, m, n, w, row0, col0, (t + 1) * TS_K, tid, b_vec,
               ra, rb);
    mf_multiply(la[cur], lb[cur], ty, tx, acc);
    /* The other buffer was last read in step t-1, before the barrier that ended it. */
    if (more)
      mf_stage(la[cur ^ 1], lb[cur ^ 1], tid, ra, rb);
    amp_barrier_wait_with_tile_static_memory_fence();
  }
#else
  for (int t = 0; t < ktiles; t++) {
    mf_fetch(a_data, a_shape, b_data, b_shape, m, n, w, row0, col0, t * TS_K, tid, b_vec, ra, rb);
    mf_stage(la[0], lb[0], tid, ra, rb);
    amp_barrier_wait_with_tile_static_memory_fence(); /* the tiles are complete */
    mf_multiply(la[0], lb[0], ty, tx, acc);
    amp_barrier_wait_with_tile_static_memory_fence(); /* all reads done before the next stage */
  }
#endif

#pragma unroll
  for (int i = 0; i < VM; i++) {
#pragma unroll
    for (int r = 0; r < 4; r++) {
      const int row = row0 + 4 * (ty + i * RTS_M) + r;
      if (row >= m)
        continue;
#pragma unroll
      for (int j = 0; j < VN; j++) {
        const int col = col0 + 4 * (tx + j * RTS_N);
        const T4 v = acc[4 * i + r][j];
        if (c_vec && col + 3 < n) {
          *(__global T4 *)&amp_at(c, row, col) = v;
        } else {
          if (col + 0 < n)
            amp_at(c, row, col + 0) = v.s0;
          if (col + 1 < n)
            amp_at(c, row, col + 1) = v.s1;
          if (col + 2 < n)
            amp_at(c, row, col + 2) = v.s2;
          if (col + 3 < n)
            amp_at(c, row, col + 3) = v.s3;
        }
      }
    }
  }
}
