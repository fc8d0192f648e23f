/* matmul_dmma_bulk.cl: C = A * B in double on NVIDIA's FP64 tensor cores, fed by warps that only
 * copy and by the copy engine of compute capability 9.0 (H100, H200), synchronized per buffer
 * instead of by a barrier of the whole tile. What amp_blas_gemm runs in double on compute
 * capability 9.x. It builds on matmul_dmma.cl, whose mma shape and tile order it keeps (its
 * fragments are read differently: step 6); read that one first. Like it, the kernel is not
 * portable: inline PTX (kernels_cl/gemm/ampcl_ptx.h), NVIDIA only.
 *
 * What it computes: as matmul_naive, C (m x n) = A (m x w) * B (w x n), row-major rank-2 views of
 * double (sections allowed), for any m, n, w >= 1, within DGEMM's usual error bound.
 *
 * Why another kernel. matmul_dmma reaches about two thirds of cuBLAS's DGEMM, and measurements
 * on an H100 put the rest in feeding the tensor cores, not in the math: without its copies from
 * global memory the same kernel runs at 0.95-1.0x cuBLAS, while the copies and barriers alone
 * take 90% of its time. Its 128 x 64 block of C moves (128 + 64) x 8 bytes from L2 per 128 x 64
 * multiply-adds along k, about 4 TB/s at its speed. A 128 x 128 block moves a third fewer bytes
 * per flop, but in matmul_dmma that tile was slower: its 8 warps meet at a barrier every K tile,
 * and with one such tile per SM (the accumulators fill half the register file) nothing runs
 * while they wait. This kernel takes the larger block and removes the barrier:
 *
 *   1. Warp specialization. A tile of threads has CWARPS consumer warps (8 by default, each a
 *      WM x WN = 64 x 32 part of the 128 x 128 block, as in matmul_dmma) and PRODUCERS producer
 *      warps (4) that only move data. Consumers only read tile_static memory and run mma.
 *   2. Barriers per buffer instead of one for the tile. A ring of STAGES (3) K-tile buffers, each
 *      with two mbarriers (PTX's split-phase barrier objects in tile_static memory): `full`
 *      completes when the copies into the buffer have landed, `empty` when every consumer thread
 *      has finished reading it. A consumer waits only for the buffer it needs next; a producer
 *      waits only before refilling a buffer. Warps drift apart freely: a slow warp delays nobody
 *      until the ring is full.
 *   3. Two copy paths. B's rows of a K tile are long (BN doubles, 1 KB): each is one
 *      `cp.async.bulk` (sm_90), a request to the SM's copy engine (the TMA unit) for a contiguous
 *      run of bytes, counted against `full` when it lands (the producer announces the bytes with
 *      expect_tx). A's rows are short (BK doubles, 256 bytes), and the copy engine spends about as
 *      long on a request as on a kilobyte: with every A row a bulk request the kernel ran at a
 *      fraction of its speed (one request per ~60 clocks per SM, on an H100). A goes through
 *      matmul_dmma's cp.async instead, 16 bytes per producer thread per instruction, whose
 *      completion `cp.async.mbarrier.arrive` reports to `full`. One producer warp could not issue
 *      them fast enough; four can.
 *   4. Padding instead of an XOR swizzle. A bulk copy lands as contiguous bytes, so B cannot be
 *      XOR-swizzled as in matmul_dmma; instead each row of a buffer is APAD (A) or BPAD (B)
 *      doubles longer than its data, 4 by default: with the default shapes a row then starts 8
 *      banks after the one above, so when the 16 threads of a half-warp read one fragment
 *      element each (A at row g, column t; B at row t, column g: 8 bytes apiece) they touch 32
 *      different banks. (A padding of 2 gives 2-way conflicts: Nsight Compute counted about 90
 *      times as many as with this padding and step 6.)
 *   5. Edges. cp.async zero-fills A past its edges, as in matmul_dmma. A bulk copy cannot, so
 *      where a row of B's K tile is partly outside B the producer thread copies its even-length
 *      in-bounds part in bulk and loads a last odd element itself, with a plain store that its
 *      own arrival on `full` publishes. The buffer's columns past B's edge keep whatever they
 *      held: column j of C reads only column j of B, and C's columns past its edge are never
 *      stored. Only a row past A's width (the last K tile's) is written with zeros, since it
 *      meets A's zero-filled columns and 0 x a stale Inf would be NaN. (Zeros in every column
 *      past the edge, -DPAD_EDGES, cost each K tile of the last block column plain stores and a
 *      proxy fence; in one round of blocks that column sets the kernel's time: lab/NOTEBOOK.md.)
 *      Views whose rows do not start on 16-byte boundaries (an odd offset or row stride) take
 *      plain loads for every element: correct, slow.
 *   6. Fragments read 8 bytes at a time (step 4 of matmul_dmma read A 16 bytes at a time, two
 *      k of one row, with mma position t <-> tile column 2t, t + 4 <-> 2t + 1). An f64 mma takes
 *      its A operand in four consecutive registers, positions (g, t), (g + 8, t), (g, t + 4),
 *      (g + 8, t + 4); a 16-byte read of one row fills two registers with positions 0 and 2, so
 *      ptxas moved every value into place before each mma: in the SASS of that version 9 moves
 *      (IMAD.MOV) per DMMA, register spills inside the loop (the 384-thread tile caps ptxas at
 *      168 registers, and the moves need more), and 2-way bank conflicts on the 16-byte reads
 *      (Nsight Compute). Reading each element on its own in the mma's own k order puts it
 *      straight into its register: on an H100 the kernel then issued about a third fewer
 *      instructions, kept the DMMA pipe busier and ran 13% faster, and K tiles of 16 in 3 stages,
 *      slower before, became the fastest shape (lab/NOTEBOOK.md).
 *   7. Splitting the last round along k (-DSPLIT_K). An SM holds one tile of threads at a time,
 *      so a C of T blocks on U SMs takes ceil(T / U) rounds of blocks, and the last runs T mod U
 *      of them while the other SMs idle: at 3000, 576 blocks of 128 x 128 on an H100's 132 SMs
 *      make 4 full rounds and one of 48. With SPLIT_K the kernel takes two more arguments: the
 *      first `whole` blocks (in the tile order) run as above; each later block is computed in
 *      `splits` parts, K tiles split evenly, by consecutive tiles of threads, each part written
 *      whole into its own place of the view `part` (BM x BN doubles, part p of the i-th such
 *      block at (i * splits + p) * BM * BN); gemm_epilogue.cl's gemm_ksplit_sum then adds each
 *      block's parts in order into C. 48 blocks in 2 parts make a last round of 96 half blocks:
 *      4.5 rounds instead of 5, and the sums, in a fixed order, give the same bits every run.
 *   8. Warps past the edge (-DEDGE_SKIP, not yet the default). At 5000 = 39 x 128 + 8, the last
 *      column and row of blocks hold 8 columns (rows) of C each, yet every warp of those blocks
 *      runs its full share of mma: 79 of the 1,600 blocks. With EDGE_SKIP a consumer warp whose
 *      WM x WN part lies wholly past C's edge skips its mma (its accumulators stay zero and never
 *      reach C): 6 of the 8 consumer warps in the last block column at 5000, 4 in the last row.
 *      It still waits for each buffer and releases it, or the ring's phases would no longer
 *      count every consumer. It becomes the default once a GPU run shows it faster at the
 *      awkward sizes and no slower elsewhere (lab/gpu_dgemm_ports.sh, SHAPES='"" EDGE_SKIP=1').
 *
 * Build options: -DBM=128 -DBN=128 (C block per tile of threads), -DWM=64 -DWN=32 (per consumer
 * warp: WM a multiple of 16, WN of 8), -DBK=16 (K tile: 8, 16 or 32), -DSTAGES=3 (2 or more),
 * -DPRODUCERS=4, -DGROUP_M=8, -DAPAD=4 -DBPAD=4 (step 4; even, so rows stay 16-byte aligned).
 * Threads per tile: ((BM / WM) * (BN / WN) + PRODUCERS) * 32, 384 for the defaults (ptxas gives
 * them 168 registers: 384 x 168 fills the register file of an SM, so more producers would not
 * fit). tile_static bytes: STAGES * 8 * (BM * (BK + APAD) + BK * (BN + BPAD)) + 16 * STAGES:
 * 112,176 for the defaults (NVIDIA's driver runs kernels that declare more than the 48 KB it
 * reports: docs/KERNELS.md). On an H100 these defaults come within about a tenth of cuBLAS's
 * DGEMM (docs/PERFORMANCE.md); K tiles of 8 in 4 stages were within 2%, of 32 in 3 stages 15-19%
 * slower, 2 producers 6-8% slower (lab/NOTEBOOK.md). Handing the producers'
 * registers to the consumers (setmaxnreg) would be a next step, but it is an sm_90a instruction,
 * and NVIDIA's OpenCL compiler emits PTX for sm_90, where ptxas refuses it.
 *
 * Launch: a rank-2 tiled domain whose tile is (CWARPS + PRODUCERS, 32), and ceil(m / BM) x
 * ceil(n / BN) tiles:
 *
 *     CHECK(amp_program_create_builtin("matmul_dmma_bulk", "", &prog));   // 128 x 128
 *     CHECK(amp_kernel_create(prog, "matmul_dmma_bulk", &k));
 *     amp_tiled_extent dom = amp_tile2(amp_extent2((m + 127) / 128 * 12, (n + 127) / 128 * 32),
 *                                      12, 32);
 *     amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
 *     CHECK(amp_parallel_for_each_tiled(av, dom, k, args, AMP_NARGS(args)));
 *
 * With -DSPLIT_K the domain is one row of whole + splits * (blocks - whole) tiles, (12, 32 * that),
 * the arguments a, b, c, part, whole, splits, and gemm_ksplit_sum follows (step 7).
 *
 * amp_blas_gemm does this for you in double on compute capability 9.x: with 128 x 128 blocks, or
 * with -DBM=64 -DWM=32 (64 x 128 blocks, 8 consumer warps of 32 x 32, the same tile of threads)
 * where those take fewer whole rounds of blocks, as at 1000 (33.8 against 23.8 TFLOP/s on an H100,
 * where 128 x 64 blocks, -DBN=64, ran at 29.3); with SPLIT_K where the last round is at most
 * half full; matmul_dmma where this kernel is refused.
 * Only an NVIDIA device of compute capability 9.0 or more builds it. With AMP_DEBUG=1 the copies
 * are not bounds-checked (they do not go through amp_at); the plain path's A loads are. */
#if AMP_COMPUTE_CAPABILITY < 90
#error                                                                                             \
    "matmul_dmma_bulk needs an NVIDIA GPU of compute capability 9.0 or more (amp_accelerator_properties.compute_capability); on this device use matmul_fast"
#endif
#ifndef BM /* rows of C per tile of threads, a multiple of 32 */
#define BM 128
#endif
#ifndef BN /* columns of C per tile of threads */
#define BN 128
#endif
#ifndef WM /* rows of C per consumer warp, a multiple of 16 dividing BM */
#define WM 64
#endif
#ifndef WN /* columns of C per consumer warp, a multiple of 8 dividing BN */
#define WN 32
#endif
#ifndef BK /* depth of a K tile: 8, 16 or 32 */
#define BK 16
#endif
#ifndef STAGES /* K-tile buffers in the ring, at least 2 (step 2) */
#define STAGES 3
#endif
#ifndef GROUP_M /* block rows per band of the tile order */
#define GROUP_M 8
#endif
#ifndef PRODUCERS /* warps that only copy (steps 1, 3) */
#define PRODUCERS 4
#endif
#ifndef APAD /* doubles of padding per A row in tile_static memory, even (step 4) */
#define APAD 4
#endif
#ifndef BPAD /* doubles of padding per B row, even (step 4) */
#define BPAD 4
#endif
#define WARPS_N (BN / WN)             /* consumer warps along N */
#define CWARPS  ((BM / WM) * WARPS_N) /* consumer warps; the producers follow them */
#define NPT     (PRODUCERS * 32)      /* producer threads */
#define NT      (CWARPS * 32 + NPT)   /* threads per tile */
#define MI      (WM / 16)             /* mma tiles per warp along M */
#define NJ      (WN / 8)              /* mma tiles per warp along N */
#define AS      (BK + APAD)           /* doubles per A row in tile_static memory */
#define BS      (BN + BPAD)           /* doubles per B row */
#define A_STAGE (BM * AS)             /* doubles per A buffer */
#define B_STAGE (BK * BS)             /* doubles per B buffer */

#if BM % 32 != 0 || BM % WM != 0 || BN % WN != 0 || WM % 16 != 0 || WN % 8 != 0 ||                 \
    (BK != 8 && BK != 16 && BK != 32) || STAGES < 2 || NT > 1024 || PRODUCERS < 1 ||               \
    (BM * BK / 2) % NPT != 0 || NPT < BK || APAD < 0 || APAD % 2 != 0 || BPAD < 0 || BPAD % 2 != 0
#error                                                                                             \
    "matmul_dmma_bulk: BM must be a multiple of 32, WM divide it and be a multiple of 16, WN divide BN and be a multiple of 8, BK 8, 16 or 32, STAGES at least 2, at most 32 warps, the producer threads (32 * PRODUCERS) dividing the BM * BK / 2 chunks of A and at least BK, APAD and BPAD even"
#endif

#include "ampcl_ptx.h" /* cp.async, mbarrier, the copy engine, mma, ampcl_store2_T */
AMPCL_DEFINE_STORE2(double)

/* The part of one row of a K tile that goes through the copy engine: `count` doubles of the row
 * lie inside A or B; with 16-byte aligned rows the even part of them, else none. */
static inline int db_bulk_count(int count, int aligned) {
  return aligned ? count & ~1 : 0;
}

/* The rest of that row, by this lane: elements from `from` to `count` loaded one by one (src
 * checked, as amp_at would), zeros up to `cap`. */
static inline void db_fill(__local double *dst, __global const double *src, int from, int count,
                           int cap) {
  for (int e = from; e < count; e++)
    dst[e] = src[e];
  for (int e = max(from, count); e < cap; e++)
    dst[e] = 0.0;
}

/* This warp's mma fragments of one 8-deep slice (columns kk .. kk + 7) of the buffers, each
 * element read on its own into its operand position (step 6): A's (g, t), (g + 8, t), (g, t + 4),
 * (g + 8, t + 4) and B's (t, g), (t + 4, g) of the slice, as the PTX ISA lays out m16n8k8. */
static inline void db_fragments(__local const double *as, __local const double *bs, int kk, int wm,
                                int wn, int lane, double fa[MI][4], double fb[NJ][2]) {
  const int g = lane >> 2, t = lane & 3;
#pragma unroll
  for (int i = 0; i < MI; i++) {
    const int r = wm * WM + i * 16 + g;
    fa[i][0] = as[r * AS + kk + t];
    fa[i][1] = as[(r + 8) * AS + kk + t];
    fa[i][2] = as[r * AS + kk + t + 4];
    fa[i][3] = as[(r + 8) * AS + kk + t + 4];
  }
#pragma unroll
  for (int j = 0; j < NJ; j++) {
    const int col = wn * WN + j * 8 + g;
    fb[j][0] = bs[(kk + t) * BS + col];
    fb[j][1] = bs[(kk + t + 4) * BS + col];
  }
}

/* acc += the warp's WM x WN product of one slice's fragments. */
static inline void db_mma(double fa[MI][4], double fb[NJ][2], double acc[MI][NJ][4]) {
#pragma unroll
  for (int i = 0; i < MI; i++)
#pragma unroll
    for (int j = 0; j < NJ; j++)
      AMPCL_MMA_M16N8K8_F64(acc[i][j], fa[i], fb[j]);
}

/* The producer warp: fills buffer (kt - kt0) % STAGES with K tile kt, for each of the block's K
 * tiles kt0 .. kt1 - 1 (all of them but in a part, step 7), each time the consumers have released
 * the buffer. B's rows (BN doubles, 1 KB by default) go through the copy
 * engine, lane l taking row l of the K tile; A's rows are only BK doubles (128 bytes), and the copy
 * engine takes about as long per request as per kilobyte (measured on an H100 with every A row a
 * bulk copy: one request per ~60 clocks, whatever the size; step 3), so A goes through cp.async, 16
 * bytes per lane per instruction, which also zero-fills its edges. Each lane arrives on `full`
 * twice per K tile: once announcing its bulk bytes, once when its cp.async copies have landed
 * (cp.async.mbarrier.arrive.noinc). */
static inline void db_produce(__local double *as, __local double *bs, __local ulong *full,
                              __local ulong *empty, AMP_CONST_VIEW(double, a),
                              AMP_CONST_VIEW(double, b), int m, int n, int w, int row0, int col0,
                              int kt0, int kt1, int pt) {
  const int aligned_a = ((a_shape.s3 | a_shape.s4) & 1) == 0;
  const int aligned_b = ((b_shape.s3 | b_shape.s4) & 1) == 0;
  const int bcols = clamp(n - col0, 0, BN);
  /* Producer thread pt's chunks of A: pair q of rows ra, ra + NPT / (BK / 2), ... of the block;
   * thread pt < BK also copies row pt of B's K tile. */
  const int q = pt % (BK / 2), ra = pt / (BK / 2);
  for (int kt = kt0; kt < kt1; kt++) {
    const int u = kt - kt0; /* the ring's count: buffer u % STAGES, its use u / STAGES */
    const int s = u % STAGES, k0 = kt * BK, kcols = min(w - k0, BK);
    __local double *a_buf = as + s * A_STAGE, *b_buf = bs + s * B_STAGE;
    if (u >= STAGES) /* the consumers' release of this buffer's previous K tile */
      ampcl_mbarrier_wait_parity(&empty[s], (uint)((u / STAGES + 1) & 1));
    /* B: first what this lane writes itself, then its arrival with the bytes to come, then the
     * bulk copy: the arrival publishes the plain stores, and the phase cannot complete before the
     * announced bytes have landed. Plain stores into a buffer before bulk copies into it again
     * need a fence between the two proxies. */
    int bulk = 0;
    if (pt < BK) {
      const int count = pt < kcols ? bcols : 0;
      bulk = db_bulk_count(count, aligned_b);
#ifdef PAD_EDGES
      const int cap = BN; /* every column written, zeros past the edge (for comparison only) */
#else
      const int cap = count ? count : BN; /* step 5: only a row past A's width needs zeros */
#endif
      if (bulk < cap) {
        db_fill(b_buf + pt * BS, b_data + b_shape.s3 + (count ? (k0 + pt) * b_shape.s4 + col0 : 0),
                bulk, count, cap);
        AMPCL_FENCE_PROXY_ASYNC();
      }
    }
    /* A: 16 bytes per lane per step, 32 / (BK / 2) rows per step; past A's edges zeros. */
    const int na = clamp(kcols - 2 * q, 0, 2);
#pragma unroll
    for (int p = 0; p < BM * BK / 2 / NPT; p++) {
      const int r = ra + p * (NPT / (BK / 2)), cnt = row0 + r < m ? na : 0;
      __local double *dst = a_buf + r * AS + 2 * q;
      if (aligned_a) {
        ampcl_cp_async16(
            dst, a_data + (cnt ? a_shape.s3 + (row0 + r) * a_shape.s4 + k0 + 2 * q : 0), cnt * 8);
      } else {
        dst[0] = cnt > 0 ? amp_at(a, row0 + r, k0 + 2 * q) : 0.0;
        dst[1] = cnt > 1 ? amp_at(a, row0 + r, k0 + 2 * q + 1) : 0.0;
      }
    }
    ampcl_mbarrier_arrive_expect_tx(&full[s], (uint)bulk * 8u);
    if (bulk)
      ampcl_cp_async_bulk(b_buf + pt * BS, b_data + b_shape.s3 + (k0 + pt) * b_shape.s4 + col0,
                          (uint)bulk * 8u, &full[s]);
    AMPCL_CP_ASYNC_MBARRIER_ARRIVE_NOINC(&full[s]);
  }
}

/* The tile is (CWARPS + PRODUCERS, 32) and nothing else (AMP_TILE_SHAPE: ampcl refuses another
 * shape, naming both, instead of running mma.sync with partial warps or without a producer). */
AMP_TILE_SHAPE(CWARPS + PRODUCERS, 32)
#ifdef SPLIT_K /* step 7 */
__kernel void matmul_dmma_bulk(AMP_CONST_VIEW(double, a), AMP_CONST_VIEW(double, b),
                               AMP_VIEW(double, c), AMP_VIEW(double, part), int whole, int splits) {
#else
__kernel void matmul_dmma_bulk(AMP_CONST_VIEW(double, a), AMP_CONST_VIEW(double, b),
                               AMP_VIEW(double, c)) {
#endif
  AMP_TILED_INDEX2(idx);
  /* double2: 16-byte aligned buffers, as the copy engine needs. */
  tile_static double2 as2[STAGES * A_STAGE / 2];
  tile_static double2 bs2[STAGES * B_STAGE / 2];
  tile_static ulong bars[2 * STAGES]; /* full[0 .. STAGES), then empty[0 .. STAGES) */
  __local double *as = (__local double *)as2, *bs = (__local double *)bs2;
  __local ulong *full = bars, *empty = bars + STAGES;
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int warp = idx.local_id[0], lane = idx.local_id[1];
  const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN, ktiles = (w + BK - 1) / BK;
  /* This tile of threads' block of C and its K tiles kt0 .. kt1 - 1: all of them, or with SPLIT_K
   * beyond the first `whole` blocks, part `sp` of `splits` (step 7). */
  const int lin = idx.tile[0] * get_num_groups(0) + idx.tile[1];
#ifdef SPLIT_K
  const int tail = lin >= whole, slot = tail ? (lin - whole) / splits : 0;
  const int sp = tail ? (lin - whole) % splits : 0, chunk = (ktiles + splits - 1) / splits;
  const int kt0 = tail ? min(ktiles, sp * chunk) : 0;
  const int kt1 = tail ? min(ktiles, kt0 + chunk) : ktiles;
  const int block = tail ? whole + slot : lin; /* its place in the tile order */
#else
  const int kt0 = 0, kt1 = ktiles, block = lin;
#endif
  int blk[2];
  amp_tile_order_grouped(tiles_m, tiles_n, block, GROUP_M, blk);
  const int row0 = blk[0] * BM, col0 = blk[1] * BN;

  if (warp == 0 && lane == 0) {
    for (int s = 0; s < STAGES; s++) {
      ampcl_mbarrier_init(&full[s],
                          2 * NPT); /* each producer thread twice, and the announced bytes */
      ampcl_mbarrier_init(&empty[s], CWARPS * 32); /* every consumer thread */
    }
    AMPCL_FENCE_MBARRIER_INIT();
  }
  amp_barrier_wait_with_tile_static_memory_fence(); /* the only barrier of the tile */

  if (warp >= CWARPS) {
    db_produce(as, bs, full, empty, AMP_VIEW_ARG(a), AMP_VIEW_ARG(b), m, n, w, row0, col0, kt0,
               kt1, (warp - CWARPS) * 32 + lane);
    return;
  }

  const int wm = warp / WARPS_N, wn = warp % WARPS_N;
  const int c_vec = ((c_shape.s3 | c_shape.s4) & 1) == 0;
  double acc[MI][NJ][4];
#pragma unroll
  for (int i = 0; i < MI; i++)
#pragma unroll
    for (int j = 0; j < NJ; j++)
      acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0.0;

  /* A warp whose part of the block lies wholly past C's edge computes nothing that is stored, so
   * it skips its mma (step 8); it still waits for each buffer and releases it, or the ring's
   * phases would no longer count every consumer. */
#ifdef EDGE_SKIP /* step 8, not yet the default */
  const int live = row0 + wm * WM < m && col0 + wn * WN < n;
#else
  const int live = 1;
#endif
  for (int u = 0; u < kt1 - kt0; u++) { /* K tile kt0 + u */
    const int s = u % STAGES;
    ampcl_mbarrier_wait_parity(&full[s], (uint)((u / STAGES) & 1)); /* it has landed */
    if (live) {
#pragma unroll
      for (int kk = 0; kk < BK; kk += 8) {
        double fa[MI][4], fb[NJ][2];
        db_fragments(as + s * A_STAGE, bs + s * B_STAGE, kk, wm, wn, lane, fa, fb);
        db_mma(fa, fb, acc);
      }
    }
    ampcl_mbarrier_arrive(&empty[s]); /* this thread is done reading the buffer */
  }

  const int g = lane >> 2, tq = lane & 3;
#ifdef SPLIT_K
  if (tail) { /* a part of the block: into `part`, whole (edges too), as gemm_ksplit_sum reads it */
    __global double *dst = part_data + part_shape.s3 + (size_t)(slot * splits + sp) * BM * BN;
#pragma unroll
    for (int i = 0; i < MI; i++) {
      const int r = wm * WM + i * 16 + g;
#pragma unroll
      for (int j = 0; j < NJ; j++) {
        const int col = wn * WN + j * 8 + 2 * tq;
        vstore2((double2)(acc[i][j][0], acc[i][j][1]), 0, dst + r * BN + col);
        vstore2((double2)(acc[i][j][2], acc[i][j][3]), 0, dst + (r + 8) * BN + col);
      }
    }
    return;
  }
#endif
#pragma unroll
  for (int i = 0; i < MI; i++) {
    const int row = row0 + wm * WM + i * 16 + g;
#pragma unroll
    for (int j = 0; j < NJ; j++) {
      const int col = col0 + wn * WN + j * 8 + 2 * tq;
      ampcl_store2_double(AMP_VIEW_ARG(c), m, n, row, col, c_vec, acc[i][j][0], acc[i][j][1]);
      ampcl_store2_double(AMP_VIEW_ARG(c), m, n, row + 8, col, c_vec, acc[i][j][2], acc[i][j][3]);
    }
  }
}
