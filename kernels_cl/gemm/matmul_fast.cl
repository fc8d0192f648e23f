/* matmul_fast.cl: C = A * B with register blocking, a transposed and padded A tile in
 * tile_static memory, vector loads and stores, double buffering, an unchecked path for interior
 * tiles and an L2-friendly tile order. ampcl's portable GEMM kernel: what amp_blas_gemm runs on
 * GPUs without tensor cores for the type (runtime/blas/gemm_choice.c). It continues the matmul course
 * of kernels_cl/lessons/ from lesson 2 (matmul_tiled.cl); the 13 steps below are what it adds,
 * and the option of each step names it where it acts in the code. Lessons 3 to 6 take steps 1,
 * 3 with 4, and 6 one at a time, each a small kernel of its own.
 *
 * What it computes: as matmul_naive, C (m x n) = A (m x w) * B (w x n), row-major rank-2 views
 * (sections allowed), for any m, n, w >= 1: odd, prime, non-square.
 *
 * The steps it adds over matmul_tiled, each attacking what limits the one before:
 *   1. Register blocking. In matmul_tiled every multiply-add needs two tile_static reads, so
 *      on-chip memory, not arithmetic, sets the speed. Here a tile of threads computes a
 *      TS_M x TS_N block of C and each thread WPT_M x WPT_N elements of it (8 x 8 by default),
 *      kept in registers. Per step of k a thread reads WPT_M values of A and WPT_N of B and does
 *      WPT_M * WPT_N multiply-adds: 64 for 16 reads instead of 1 for 2.
 *   2. A deeper K tile shared by more threads: each tile of threads stages TS_M x TS_K of A and
 *      TS_K x TS_N of B (128 x 16 and 16 x 128 by default), so every element fetched from global
 *      memory is used TS_N (or TS_M) times.
 *   3. Vectors. The A tile holds T4 (float4 for T=float) and is stored transposed (la[k][row/4]),
 *      so a thread reads four rows of A for one k with one access; the B tile holds TB, vectors of
 *      BW elements (BW=4 by default), so it reads BW columns of B at once. B and C move as TB
 *      through global memory when their offset and row stride are multiples of BW (checked at run
 *      time; other views and the ragged right edge take a scalar path with the same results).
 *   4. Bank-conflict padding. The transposed store la[kk][q] by consecutive threads (consecutive
 *      kk) would hit one memory bank if a row of la were a multiple of 128 bytes long; PADV extra
 *      vectors per row (default 1) spread them over all banks.
 *   5. Unrolled loops (#pragma unroll) so the accumulators stay in registers and the compiler
 *      schedules loads ahead of the multiply-adds.
 *   6. Double buffering (-DDOUBLE_BUFFER=1, the default): the next K tile is fetched from global
 *      memory into registers while the current one is multiplied, then stored into the other of
 *      two tile_static buffers: one barrier per K tile instead of two, and global latency hidden
 *      behind arithmetic. -DDOUBLE_BUFFER=0 gives the simpler load / barrier / multiply / barrier.
 *   7. No checks where none are needed (-DINNER_FAST=1, the default). Steps 1-6 test every load
 *      against the edges of A and B; on a large matrix almost every tile lies wholly inside, yet
 *      those tests, the selects they need and the index arithmetic of each view access are issued
 *      in the main loop beside the multiply-adds. A tile of threads whose block lies inside
 *      C fetches its full K tiles through pointers that advance by one K tile per step; only the
 *      last, partial K tile and the tiles on C's edges take the checked path. Measured on an H200
 *      (lab/NOTEBOOK.md), this step is a quarter of float's speed at 8192, and it is what made
 *      the wide 128 x 128 tile with 8 x 8 per thread, which lost to 64 x 128 with 8 x 4 before
 *      it, the better of the two.
 *   8. Narrow B vectors for double (-DBW=2). A thread reads its WPT_N columns of B from
 *      tile_static memory as WPT_N / BW vectors at positions tx + j * RTS_N, so consecutive threads
 *      read consecutive vectors. A double4 is 32 bytes: a warp's 16-byte reads then land 32 bytes
 *      apart and four threads share each group of banks (a 4-way conflict). With double2 they are
 *      contiguous (no conflict), which made DGEMM a fifth faster on an H200. For float, 4 x 4
 *      bytes are already 16, and BW=4 is best.
 *   9. Tile order (-DGROUP_M=8). Tiles are dealt out GROUP_M block rows at a time, so the tiles
 *      running at once share a few block rows of A and a band of B's columns in the L2 cache. On
 *      an H200, with its 50 MB L2, this is worth under 1%; it is meant for GPUs with smaller
 *      caches. -DGROUP_M=1 gives the plain row-by-row order.
 *  10. Deeper K tiles where the device allows them (-DTS_K=32). Each K tile costs two barriers
 *      and a round of loads whose latency the double buffer must hide; twice the depth halves
 *      both per multiply-add. For float at 128 x 128 that needs 67.6 KB of tile_static memory:
 *      more than the 48 KB NVIDIA's driver reports, but a kernel may declare that much there
 *      (docs/KERNELS.md). On an H100 that gained about 4% in float; 64 was slower, as were K tiles
 *      of 8 (lab/NOTEBOOK.md). amp_blas_gemm takes it on compute capability 9.x
 *      (runtime/blas/gemm_choice.c); other devices keep 16, which fits 48 KB.
 *  11. The order of the multiply-adds (-DFMA_ORDER). Steps 1-10 wrote one vector statement per A
 *      value and B vector (FMA_ORDER=0), so the A operand changed every BW multiply-adds. Walking
 *      the register tile row by row with every other row reversed (1, the default for float and
 *      int) keeps a row's A value for WPT_N multiply-adds and the B value across each turn; by
 *      columns (2, the default for double) keeps a B value for WPT_M. Every accumulator still adds
 *      its k terms in the same order; only the interleaving of accumulators changes. The compiler
 *      mostly keeps the source's order and a GPU reads fewer registers when an operand repeats: on
 *      an H100 3% faster in float and 4-6% in double at 4096 and 8192, no change at 1024.
 *  12. The tile's size declared (-DTILE_SHAPE=1, the default): AMP_TILE_SHAPE(RTS_M, RTS_N),
 *      OpenCL's reqd_work_group_size. The kernel is only right with a tile of RTS_M x RTS_N threads
 *      (its fetch slots and register tile are dealt out by that count); declared, a launch with any
 *      other tile is refused (AMP_ERROR_INVALID_ARGUMENT, naming both shapes) instead of computing
 *      garbage, and the compiler knows the thread count, which made float 2-4% faster on an H100
 *      (K tiles of 32 and double stayed as they were).
 *  13. Copies that bypass registers, issued between the multiply-adds (-DASYNC_STAGES=S, NVIDIA
 *      compute capability 8.0 and up; inline PTX). Step 6 fetches the next K tile into registers
 *      (32 of them per thread with K tiles of 32) that stay live across the whole loop. Here the
 *      interior tiles' K tiles come through cp.async, straight from global to tile_static memory,
 *      into a ring of S buffers: a tile of threads multiplies tile t while tiles t + 1 .. t + S - 1
 *      are in flight. A is transposed on the way by one copy per element (4 or 8 bytes; a warp's
 *      32 copies cover 4 rows x 8 columns of the K tile), B moves 16 bytes a copy. Where the copies
 *      are issued matters more than what they are: all of a K tile's copies at once, before the
 *      loop, were 8% slower than step 6 (Nsight Compute: the warps then waited on the copies, 0.19
 *      stalls per issued instruction against 0.02 with the copies spread); the copies spread
 *      evenly over the steps of k (none or one per step with the shapes here), as CUTLASS's
 *      multistage loop does, make it faster: on an H100 about 5% in float with K tiles of 32 in 4
 *      stages (what amp_blas_gemm runs on 9.x) and in double with K tiles of 16 in 3; two stages,
 *      or K tiles of 8 or 16 in float, were slower than step 6 (lab/NOTEBOOK.md). The last,
 *      partial K tile and the tiles on C's edges keep the checked fetch through registers, one
 *      buffer, a barrier on each side. The PTX is kernels_cl/gemm/ampcl_ptx.h's.
 *
 * Build options (all optional; each is also documented where it is defined):
 *   option                 step  what
 *   -DT=float|double|int         element type (default float)
 *   -DTS_M=128 -DTS_N=128  1     rows and columns of C per tile of threads
 *   -DTS_K=16              2,10  depth of the K tile
 *   -DWPT_M=8 -DWPT_N=8    1     rows and columns of C per thread; WPT_M a multiple of 4, WPT_N
 *                                of BW
 *   -DBW=4                 3, 8  width of the B and C vectors: 4, or 2 (for double)
 *   -DPADV=1               4     padding of each tile_static row, in vectors
 *   -DDOUBLE_BUFFER=1      6     two tile_static buffers, prefetch through registers
 *   -DINNER_FAST=1         7     the unchecked fetch for interior tiles (0: every fetch checked)
 *   -DGROUP_M=8            9     block rows per band of the tile order (1: row by row)
 *   -DFMA_ORDER            11    order of the multiply-adds: 1 rows serpentine (float, int), 2
 *                                columns serpentine (double), 0 the plain vector statements
 *   -DTILE_SHAPE=1         12    declare the tile's shape (0: any tile accepted, unchecked)
 *   -DASYNC_STAGES=0       13    2 to 5: a ring of that many K tiles fed by cp.async (NVIDIA
 *                                8.0+: #error elsewhere); needs TS_K % 8 == 0, BW * sizeof(T) ==
 *                                16, whole warps, their count dividing TS_M / 4, and TS_N / BW
 *                                dividing the thread count
 * The main loop (in the kernel, at the end of the file) is one of three, by these options: the
 * cp.async ring (ASYNC_STAGES, step 13), else the double buffer (DOUBLE_BUFFER=1, step 6), else
 * one buffer between two barriers (DOUBLE_BUFFER=0, steps 1-5). amp_blas_gemm runs the first two,
 * tests/kernels/matmul.c builds all three, and lab/run_suite.sh's `tune` times the last two.
 * The defaults are among the fastest shapes measured for float on an NVIDIA H200 (64 x 256 is
 * within 2%; `lab/run_suite.sh tune`, lab/NOTEBOOK.md). For double use
 *     -DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2
 * (8 x 16 threads, 25.3 KB of tile_static memory), the fastest measured for double.
 * Small matrices: a 128 x 128 tile leaves most of the GPU idle when C has fewer such blocks than
 * the device has compute units. amp-bench takes the largest of 128 x 128 (8 x 8 per thread),
 * 64 x 128 (-DTS_M=64 -DWPT_N=4) and 32 x 64 (-DTS_M=32 -DTS_N=64 -DWPT_M=4 -DWPT_N=4) that
 * gives at least half the compute units a tile each, which on an H200 (132 units) made float
 * 1.6 times as fast at 1024 and twice as fast at 512.
 * Constraints (checked below with #error): WPT_M a multiple of 4 and WPT_N of BW; TS_M % WPT_M
 * == 0, TS_N % WPT_N == 0; the tile's thread count NT = (TS_M/WPT_M) * (TS_N/WPT_N) divides
 * TS_K*TS_M/4 and TS_K*TS_N/BW. tile_static bytes: NBUF * TS_K * sizeof(T) * (TS_M + TS_N +
 * (4 + BW) * PADV), NBUF = ASYNC_STAGES or else 1 + DOUBLE_BUFFER: 33.8 KB for the float
 * defaults, 67.6 KB for double with the same shape (or float with TS_K=32), 135 KB for float with
 * TS_K=32 in 4 stages, which exceed the 48 KB of many GPUs; ampcl refuses a launch that needs
 * more tile_static memory than the device has (AMP_ERROR_LIMIT_EXCEEDED), naming both numbers,
 * except on NVIDIA, whose driver runs kernels that declare more than the 48 KB it reports (up to
 * 227 KB on 9.x; docs/KERNELS.md).
 *
 * Tile shape and launch domain. A tile has RTS_M x RTS_N threads, RTS_M = TS_M / WPT_M and
 * RTS_N = TS_N / WPT_N (16 x 16 = 256 for the defaults); the domain holds ceil(m / TS_M) x
 * ceil(n / TS_N) tiles, one per TS_M x TS_N block of C (step 9 decides which tile takes which
 * block), so threads and tiles that fall wholly or partly outside C load zeros and skip their
 * stores (every thread reaches every barrier). Launch code (host C, errors elided to CHECK; views
 * as in matmul_naive.cl):
 *
 *     enum { TS_M = 128, TS_N = 128, WPT_M = 8, WPT_N = 8 };        // must match the -D options
 *     const int RTS_M = TS_M / WPT_M, RTS_N = TS_N / WPT_N;          // 16 x 16 threads per tile
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
 * 4*(ty + i*RTS_M) + r and columns BW*(tx + j*RTS_N) + s of the tile's block, for i < WPT_M/4,
 * j < WPT_N/BW, r < 4, s < BW. Columns are interleaved across threads in groups of BW, so a row
 * of threads reads consecutive vectors of the B tile (no bank conflicts) and stores consecutive
 * vectors of C (coalesced); rows likewise, so a row of threads reads one A address (a
 * broadcast). */
#ifndef T /* element type: float, double or int */
#define T float
#endif
#ifndef TS_M /* rows of C per tile of threads (step 1) */
#define TS_M 128
#endif
#ifndef TS_N /* columns of C per tile of threads (step 1) */
#define TS_N 128
#endif
#ifndef TS_K /* depth of a K tile (steps 2, 10) */
#define TS_K 16
#endif
#ifndef WPT_M /* rows of C per thread, a multiple of 4 (step 1) */
#define WPT_M 8
#endif
#ifndef WPT_N /* columns of C per thread, a multiple of BW (step 1) */
#define WPT_N 8
#endif
#ifndef BW /* width of the B and C vectors: 4, or 2 for double (steps 3, 8) */
#define BW 4
#endif
#ifndef PADV /* vectors of padding per tile_static row (step 4) */
#define PADV 1
#endif
#ifndef DOUBLE_BUFFER /* 1: fetch the next K tile while multiplying, two buffers (step 6); 0: one */
#define DOUBLE_BUFFER 1
#endif
#ifndef GROUP_M /* block rows per band of the tile order; 1: row by row (step 9) */
#define GROUP_M 8
#endif
#ifndef INNER_FAST /* 1: unchecked fetch for interior tiles (step 7); 0: every fetch checked */
#define INNER_FAST 1
#endif
#ifndef FMA_ORDER /* step 11: 1 rows serpentine (float, int), 2 columns (double), 0 plain */
#define FMA_ORDER (sizeof(T) == 8 ? 2 : 1)
#endif
#ifndef TILE_SHAPE /* 1: declare the tile shape, refusing others (step 12); 0: any tile accepted */
#define TILE_SHAPE 1
#endif
#ifndef ASYNC_STAGES /* 0, or 2 to 5: a ring of K tiles fed by cp.async (step 13; NVIDIA 8.0+) */
#define ASYNC_STAGES 0
#endif

#define RTS_M  (TS_M / WPT_M)          /* threads per tile along M */
#define RTS_N  (TS_N / WPT_N)          /* threads per tile along N */
#define NT     (RTS_M * RTS_N)         /* threads per tile */
#define VM     (WPT_M / 4)             /* T4 of A per thread and k */
#define VN     (WPT_N / BW)            /* TB of B per thread and k */
#define LA_ROW (TS_M / 4 + PADV)       /* T4 per row of the transposed A tile */
#define LB_ROW (TS_N / BW + PADV)      /* TB per row of the B tile */
#define LPT_A  (TS_K * TS_M / 4 / NT)  /* T4 of A each thread fetches per K tile */
#define LPT_B  (TS_K * TS_N / BW / NT) /* TB of B each thread fetches per K tile */
#define NBUF   (ASYNC_STAGES ? ASYNC_STAGES : DOUBLE_BUFFER ? 2 : 1)
/* What slot l = tid + p * NT of a thread's fetch holds: of A, column MF_A_K(l) of the K tile in
 * rows 4 * MF_A_Q(l) .. + 3 of the block; of B, row MF_B_K(l) of the K tile and vector MF_B_Q(l)
 * of it. One definition for mf_fetch, the unchecked fetch's pointers and mf_stage, which must
 * agree. */
#define MF_A_K(l) ((l) % TS_K)
#define MF_A_Q(l) ((l) / TS_K)
#define MF_B_K(l) ((l) / (TS_N / BW))
#define MF_B_Q(l) ((l) % (TS_N / BW))

#if BW != 2 && BW != 4
#error "matmul_fast: BW must be 2 or 4"
#endif
#if GROUP_M < 1
#error "matmul_fast: GROUP_M must be at least 1"
#endif
#if WPT_M % 4 != 0 || WPT_N % BW != 0
#error "matmul_fast: WPT_M must be a multiple of 4 and WPT_N a multiple of BW"
#endif
#if TS_M % WPT_M != 0 || TS_N % WPT_N != 0
#error "matmul_fast: WPT_M must divide TS_M and WPT_N must divide TS_N"
#endif
#if (TS_K * TS_M / 4) % NT != 0 || (TS_K * TS_N / BW) % NT != 0 || LPT_A < 1 || LPT_B < 1
#error                                                                                             \
    "matmul_fast: the thread count (TS_M/WPT_M)*(TS_N/WPT_N) must divide TS_K*TS_M/4 and TS_K*TS_N/BW"
#endif

#if ASYNC_STAGES
#if AMP_COMPUTE_CAPABILITY < 80
#error "matmul_fast: ASYNC_STAGES needs cp.async (NVIDIA compute capability 8.0 or later)"
#endif
#if ASYNC_STAGES < 2 || ASYNC_STAGES > 5
#error "matmul_fast: ASYNC_STAGES must be 0 or 2 to 5"
#endif
#if TS_K % 8 != 0 || NT % 32 != 0 || (TS_M / 4) % (NT / 32) != 0 || NT % (TS_N / BW) != 0
#error                                                                                             \
    "matmul_fast: ASYNC_STAGES needs TS_K % 8 == 0, whole warps whose count divides TS_M / 4, and TS_N / BW dividing the thread count"
#endif
#define LPT_AS   (TS_M * TS_K / NT)       /* elements of A each thread copies per K tile */
#define AS_STEPS ((TS_M / 4) / (NT / 32)) /* a thread's groups of 4 rows of A per 8 columns */
#define NCOPY    (LPT_AS + LPT_B)         /* copies per thread per K tile */
#include "ampcl_ptx.h"                    /* cp.async */
#endif

#define MF_CAT_(a, b) a##b
#define MF_VEC_(t, w) MF_CAT_(t, w)
typedef MF_VEC_(T, 4) T4;  /* float4, double4 or int4: four rows of A */
typedef MF_VEC_(T, BW) TB; /* BW columns of B and C */
#if ASYNC_STAGES
typedef char mf_tb_is_16_bytes[sizeof(TB) == 16 ? 1 : -1]; /* B's copies are 16 bytes */
#endif

#pragma OPENCL FP_CONTRACT ON

/* The kernel's parts, each a header beside this file, in this order (the build puts their text in
 * place of each #include when it embeds the kernel; a build from disk passes -I with this folder):
 * the scalar paths at the edges, the tile loaders, and the inner product. mf_advance and the
 * kernel itself, with its main loops and its stores into C, follow. */
#include "matmul_fast_edges.h"
#include "matmul_fast_fetch.h"
#include "matmul_fast_multiply.h"

/* Advances the inner-fetch pointers by one K tile: TS_K columns of A, TS_K rows of B. */
static inline void mf_advance(__global const T **pa, __global const T **pb, int ldb) {
#pragma unroll
  for (int p = 0; p < LPT_A; p++)
    pa[p] += TS_K;
#pragma unroll
  for (int p = 0; p < LPT_B; p++)
    pb[p] += TS_K * ldb;
}

#if TILE_SHAPE /* step 12 */
AMP_TILE_SHAPE(RTS_M, RTS_N)
#endif
__kernel void matmul_fast(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_TILED_INDEX2(idx);
  tile_static T4 la[NBUF][TS_K][LA_ROW];
  tile_static TB lb[NBUF][TS_K][LB_ROW];
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int ty = idx.local_id[0], tx = idx.local_id[1], tid = ty * RTS_N + tx;
  /* Step 9, which block of C this tile computes: tiles are numbered in the order the GPU tends to
   * start them (tile[1], OpenCL's dimension 0, fastest) and the numbers are dealt out GROUP_M block
   * rows at a time, so the tiles running at once share GROUP_M block rows of A and a narrow band of
   * B's columns, which stay in the L2 cache. */
  int blk[2];
  amp_tile_order_grouped(get_num_groups(1), get_num_groups(0),
                         idx.tile[0] * get_num_groups(0) + idx.tile[1], GROUP_M, blk);
  const int row0 = blk[0] * TS_M, col0 = blk[1] * TS_N;
  /* TB access to B and C needs BW-element alignment of every row start: offset and row stride
   * multiples of BW (buffers themselves are aligned far beyond that). Uniform across the launch. */
  const int b_vec = ((b_shape.s3 | b_shape.s4) & (BW - 1)) == 0;
  const int c_vec = ((c_shape.s3 | c_shape.s4) & (BW - 1)) == 0;
  const int ktiles = (w + TS_K - 1) / TS_K; /* the same in every thread: barriers stay uniform */

  TB acc[WPT_M][VN];
#pragma unroll
  for (int i = 0; i < WPT_M; i++)
#pragma unroll
    for (int j = 0; j < VN; j++)
      acc[i][j] = (TB)(0);
  T4 ra[LPT_A];
  TB rb[LPT_B];

  /* Interior tiles of threads (the whole TS_M x TS_N block inside C, B's rows BW-aligned) fetch
   * their full K tiles through mf_fetch_inner (with ASYNC_STAGES, through step 13's copies
   * instead); the last, partial K tile and the tiles on C's bottom and right edges go through the
   * checked mf_fetch. Uniform across the tile. */
  const int interior = INNER_FAST && b_vec && row0 + TS_M <= m && col0 + TS_N <= n;
  const int kfull = interior ? w / TS_K : 0; /* K tiles fetched without checks */
  const int lda = a_shape.s4, ldb = b_shape.s4;
#if !ASYNC_STAGES
  /* For edge tiles these point past A's last row and are never used (int arithmetic, as in
   * amp_at: A and B must hold fewer than 2^31 elements, counting TS_M rows past A's end). Setting
   * them only for interior tiles was slower (7% in float on an H200). */
  __global const T *pa[LPT_A], *pb[LPT_B];
#pragma unroll
  for (int p = 0; p < LPT_A; p++) {
    const int l = tid + p * NT;
    pa[p] = a_data + a_shape.s3 + (row0 + 4 * MF_A_Q(l)) * lda + MF_A_K(l);
  }
#pragma unroll
  for (int p = 0; p < LPT_B; p++) {
    const int l = tid + p * NT;
    pb[p] = b_data + b_shape.s3 + MF_B_K(l) * ldb + col0 + BW * MF_B_Q(l);
  }
#endif

  /* The main loop, one of three: step 13's ring, step 6's double buffer, or one buffer. */
#if ASYNC_STAGES
  {
    /* Step 13, a ring of ASYNC_STAGES K tiles: tiles 0 .. S - 2 are requested before the loop, and
     * step t requests tile t + S - 1 into the buffer of tile t - 1, while it multiplies. After the
     * one barrier per step, tile t has landed (every thread waited for its own copies first) and
     * every thread has finished multiplying tile t - 1. Past the last full K tile the copies move
     * nothing (so the count of groups in flight stays the same in every step), and their source
     * stays the last full K tile, so that no copy is ever given an address outside A or B: the
     * pointers advance only to a K tile that will be copied. */
    const int wq = tid >> 5, rr = (tid >> 3) & 3, kl = tid & 7;
    const int bk = tid / (TS_N / BW), bq = tid % (TS_N / BW);
    mf_ring ring;
    ring.ga = a_data + a_shape.s3 + (row0 + 4 * wq + rr) * lda + kl;
    ring.gb = b_data + b_shape.s3 + bk * ldb + col0 + BW * bq;
#pragma unroll
    for (int j = 0; j < AS_STEPS; j++)
      ring.a_off[j] = 4 * (NT / 32) * j * lda;
#pragma unroll
    for (int j = 0; j < LPT_B; j++)
      ring.b_off[j] = j * (NT / (TS_N / BW)) * ldb;
#pragma unroll
    for (int s = 0; s < ASYNC_STAGES - 1; s++) {
      ring.on = s < kfull;
      ring.la_t = (__local T *)&la[s][kl][wq] + rr;
      ring.lb_t = &lb[s][bk][bq];
      if (ring.on) { /* (tiles of threads on C's edges copy nothing: kfull is 0) */
#pragma unroll
        for (int q = 0; q < NCOPY; q++)
          mf_copy(&ring, q);
      }
      AMPCL_CP_ASYNC_COMMIT();
      if (s + 1 < kfull) {
        ring.ga += TS_K;
        ring.gb += TS_K * ldb;
      }
    }
    for (int t = 0; t < kfull; t++) {
      AMPCL_CP_ASYNC_WAIT_RING(ASYNC_STAGES);
      amp_barrier_wait_with_tile_static_memory_fence();
      const int ns = (t + ASYNC_STAGES - 1) % ASYNC_STAGES;
      ring.on = t + ASYNC_STAGES - 1 < kfull;
      ring.la_t = (__local T *)&la[ns][kl][wq] + rr;
      ring.lb_t = &lb[ns][bk][bq];
      mf_multiply(la[t % ASYNC_STAGES], lb[t % ASYNC_STAGES], ty, tx, acc, &ring);
      AMPCL_CP_ASYNC_COMMIT();
      if (t + ASYNC_STAGES < kfull) {
        ring.ga += TS_K;
        ring.gb += TS_K * ldb;
      }
    }
    /* Every copy landed (the last ones wrote zeros into buffers no step reads) before the
     * checked path below reuses buffer 0: the last, partial K tile of interior tiles and every K
     * tile of the tiles on C's edges, through registers, a barrier on each side. */
    AMPCL_CP_ASYNC_WAIT_ALL();
    for (int t = kfull; t < ktiles; t++) {
      amp_barrier_wait_with_tile_static_memory_fence();
      mf_fetch(AMP_VIEW_ARG(a), AMP_VIEW_ARG(b), m, n, w, row0, col0, t * TS_K, tid, b_vec, ra, rb);
      mf_stage(la[0], lb[0], tid, ra, rb);
      amp_barrier_wait_with_tile_static_memory_fence();
      mf_multiply(la[0], lb[0], ty, tx, acc MF_NO_RING);
    }
  }
#elif DOUBLE_BUFFER /* step 6: the next K tile through registers while this one is multiplied */
  if (kfull > 0)
    mf_fetch_inner(pa, lda, pb, ra, rb);
  else
    mf_fetch(AMP_VIEW_ARG(a), AMP_VIEW_ARG(b), m, n, w, row0, col0, 0, tid, b_vec, ra, rb);
  mf_stage(la[0], lb[0], tid, ra, rb);
  amp_barrier_wait_with_tile_static_memory_fence();
  for (int t = 0; t < ktiles; t++) {
    const int cur = t & 1;
    const int more = t + 1 < ktiles;
    if (t + 1 < kfull) { /* global loads in flight while we multiply */
      mf_advance(pa, pb, ldb);
      mf_fetch_inner(pa, lda, pb, ra, rb);
    } else if (more) {
      mf_fetch(AMP_VIEW_ARG(a), AMP_VIEW_ARG(b), m, n, w, row0, col0, (t + 1) * TS_K, tid, b_vec,
               ra, rb);
    }
    mf_multiply(la[cur], lb[cur], ty, tx, acc MF_NO_RING);
    /* The other buffer was last read in step t-1, before the barrier that ended it. */
    if (more)
      mf_stage(la[cur ^ 1], lb[cur ^ 1], tid, ra, rb);
    amp_barrier_wait_with_tile_static_memory_fence();
  }
#else /* DOUBLE_BUFFER=0: one buffer, a barrier on each side of the multiply */
  for (int t = 0; t < ktiles; t++) {
    if (t < kfull) {
      mf_fetch_inner(pa, lda, pb, ra, rb);
      mf_advance(pa, pb, ldb);
    } else {
      mf_fetch(AMP_VIEW_ARG(a), AMP_VIEW_ARG(b), m, n, w, row0, col0, t * TS_K, tid, b_vec, ra, rb);
    }
    mf_stage(la[0], lb[0], tid, ra, rb);
    amp_barrier_wait_with_tile_static_memory_fence(); /* the tiles are complete */
    mf_multiply(la[0], lb[0], ty, tx, acc MF_NO_RING);
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
        const int col = col0 + BW * (tx + j * RTS_N);
        const TB v = acc[4 * i + r][j];
        if (c_vec && col + BW - 1 < n)
          *(__global TB *)&amp_at(c, row, col) = v;
        else
          mf_store_c_edge(AMP_VIEW_ARG(c), n, row, col, v);
      }
    }
  }
}
