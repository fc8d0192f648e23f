/* ampcl_mma_kernel.h: the kernel function of matmul_dmma.cl and matmul_tf32.cl, written once.
 * NVIDIA only (inline PTX through ampcl_ptx.h).
 *
 * Both kernels have the same plan (matmul_dmma.cl explains it in full): a tile of warps computes a
 * BM x BN block of C, each warp WM x WN of it with m16n8k8 mma instructions whose accumulators
 * stay in registers; K tiles of A and B come through a ring of STAGES tile_static buffers filled
 * by cp.async; the block is chosen in matmul_fast's grouped tile order; and the accumulators go to
 * C two at a time. Only the element type differs, and with it the functions that copy a K tile in
 * (*_stage) and multiply it (*_multiply), which each file keeps. This file is the rest: the kernel
 * itself, around those two.
 *
 * A kernel file defines, before its `#include "ampcl_mma_kernel.h"` (after ampcl_ptx.h's, its
 * AMPCL_DEFINE_STORE2(T) and its own *_stage and *_multiply):
 *   MMA_KERNEL      the kernel's name (matmul_dmma)
 *   MMA_PREFIX      its functions' prefix, of MMA_PREFIX##_stage and MMA_PREFIX##_multiply (dm)
 *   MMA_T           the element type (double)
 *   MMA_VN          elements in 16 bytes, cp.async's copy (2); the tile_static buffers are of
 *                   MMA_T##MMA_VN (double2), so that each copy's destination is 16-byte aligned
 *   MMA_ALIGN_MASK  MMA_VN - 1 (1): a row of A or B starts on 16 bytes when its offset and row
 *                   stride have none of these bits
 *   MMA_ZERO        zero of MMA_T (0.0)
 *   MMA_A_CAST      what the A buffer is given to *_multiply as: nothing (its vectors), or a cast
 *                   to scalars, (__local const float *)
 * and gets the kernel, of the tile shape the file's NT says. The build puts this file's text in
 * place of the #include when it embeds the kernels (cmake/embed_kernels.cmake); whoever builds one
 * of them from disk passes -I with this folder. */
#ifndef AMPCL_MMA_KERNEL_H
#define AMPCL_MMA_KERNEL_H

#define MMA_CAT_(a, b) a##b
#define MMA_CAT(a, b)  MMA_CAT_(a, b)
#define MMA_VEC        MMA_CAT(MMA_T, MMA_VN) /* double2, float4 */
#define MMA_AS         MMA_CAT(as, MMA_VN)    /* the buffers: as2 and bs2, as4 and bs4 */
#define MMA_BS         MMA_CAT(bs, MMA_VN)
#define MMA_STAGE      MMA_CAT(MMA_PREFIX, _stage)
#define MMA_MULTIPLY   MMA_CAT(MMA_PREFIX, _multiply)
#define MMA_STORE2     MMA_CAT(ampcl_store2_, MMA_T) /* ampcl_ptx.h's AMPCL_DEFINE_STORE2 */

/* The tile is (warps, 32) and nothing else (AMP_TILE_SHAPE: ampcl refuses another shape, naming
 * both, instead of running mma.sync with partial warps). */
AMP_TILE_SHAPE(NT / 32, 32)
__kernel void MMA_KERNEL(AMP_CONST_VIEW(MMA_T, a), AMP_CONST_VIEW(MMA_T, b), AMP_VIEW(MMA_T, c)) {
  AMP_TILED_INDEX2(idx);
  /* Vectors of 16 bytes, not scalars: cp.async writes 16 aligned bytes, and a double array is
   * only 8-aligned. */
  tile_static MMA_VEC MMA_AS[STAGES][BM * BK / MMA_VN];
  tile_static MMA_VEC MMA_BS[STAGES][BK * BN / MMA_VN];
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int warp = idx.local_id[0], lane = idx.local_id[1], tid = warp * 32 + lane;
  const int wm = warp / WARPS_N, wn = warp % WARPS_N;
  /* Which block of C: as in matmul_fast, GROUP_M block rows per band of the tile order. */
  int blk[2];
  amp_tile_order_grouped(get_num_groups(1), get_num_groups(0),
                         idx.tile[0] * get_num_groups(0) + idx.tile[1], GROUP_M, blk);
  const int row0 = blk[0] * BM, col0 = blk[1] * BN;
  /* cp.async reads 16 aligned bytes: every row of A and B must start on a 16-byte boundary
   * (buffers are aligned far beyond that). The same in every thread of the launch. */
  const int aligned = ((a_shape.s3 | a_shape.s4 | b_shape.s3 | b_shape.s4) & MMA_ALIGN_MASK) == 0;
  const int c_vec = ((c_shape.s3 | c_shape.s4) & 1) == 0;
  const int ktiles = (w + BK - 1) / BK;

  MMA_T acc[MI][NJ][4];
#pragma unroll
  for (int i = 0; i < MI; i++)
#pragma unroll
    for (int j = 0; j < NJ; j++)
      acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = MMA_ZERO;

      /* A ring of STAGES K tiles: tiles 0 .. STAGES - 2 are requested before the loop, and step kt
       * requests tile kt + STAGES - 1 into the buffer of tile kt - 1. One barrier per step does
       * both jobs: after it, tile kt has landed (every thread waited for its own copies first), and
       * every warp has finished multiplying tile kt - 1, so its buffer may be refilled. Past the
       * last tile, empty groups keep the count of groups in flight the same in every step. */
#pragma unroll
  for (int s = 0; s < STAGES - 1; s++) {
    if (s < ktiles)
      MMA_STAGE((__local MMA_T *)MMA_AS[s], (__local MMA_T *)MMA_BS[s], AMP_VIEW_ARG(a),
                AMP_VIEW_ARG(b), m, n, w, row0, col0, s * BK, tid, aligned);
    else
      AMPCL_CP_ASYNC_COMMIT();
  }
  for (int kt = 0; kt < ktiles; kt++) {
    AMPCL_CP_ASYNC_WAIT_RING(STAGES);                 /* this thread's copies of tile kt */
    amp_barrier_wait_with_tile_static_memory_fence(); /* everyone's */
    const int next = kt + STAGES - 1, slot = next % STAGES;
    if (next < ktiles)
      MMA_STAGE((__local MMA_T *)MMA_AS[slot], (__local MMA_T *)MMA_BS[slot], AMP_VIEW_ARG(a),
                AMP_VIEW_ARG(b), m, n, w, row0, col0, next * BK, tid, aligned);
    else
      AMPCL_CP_ASYNC_COMMIT();
    MMA_MULTIPLY(MMA_A_CAST MMA_AS[kt % STAGES], (__local const MMA_T *)MMA_BS[kt % STAGES], wm, wn,
                 lane, acc);
  }

  /* Each accumulator pair to C (rows g and g + 8 of each mma tile, columns 2t and 2t + 1). */
  const int g = lane >> 2, tq = lane & 3;
#pragma unroll
  for (int i = 0; i < MI; i++) {
    const int row = row0 + wm * WM + i * 16 + g;
#pragma unroll
    for (int j = 0; j < NJ; j++) {
      const int col = col0 + wn * WN + j * 8 + 2 * tq;
      MMA_STORE2(AMP_VIEW_ARG(c), m, n, row, col, c_vec, acc[i][j][0], acc[i][j][1]);
      MMA_STORE2(AMP_VIEW_ARG(c), m, n, row + 8, col, c_vec, acc[i][j][2], acc[i][j][3]);
    }
  }
}

#undef MMA_CAT_
#undef MMA_CAT
#undef MMA_VEC
#undef MMA_AS
#undef MMA_BS
#undef MMA_STAGE
#undef MMA_MULTIPLY
#undef MMA_STORE2

#endif /* AMPCL_MMA_KERNEL_H */
