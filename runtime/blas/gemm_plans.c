/* runtime/blas/gemm_plans.c: the table of GEMM plans: kernel file, build options, launch shape,
 * and the plan to fall back to where a device refuses one. gemm_kernels.c picks among them.
 *
 * Float on GPUs: matmul_fast in the largest of its first three shapes that gives at least half
 * the compute units a tile. Double: 64 x 128 with 8 x 8 per thread and double2 columns of B; on
 * NVIDIA devices of compute capability 9.x, whose FP64 tensor cores PTX's m16n8k8 mma reaches,
 * matmul_dmma_bulk in 128 x 128 blocks, or in 64 x 128 blocks where those finish in less time by
 * a count of rounds of blocks (at 1000: 33.8 against 23.8 TFLOP/s on an H100), either with the
 * blocks of a last round that leaves half the units idle split along k, and matmul_dmma where the
 * bulk kernel is refused. On 9.x the 128 x 128 float shape takes K tiles of 32 in a ring
 * of 4 fed by cp.async (135 KB of tile_static memory, which NVIDIA's driver lets a kernel declare
 * there), falling back to K tiles of 32 through registers, then 16; a float shape whose tile_static
 * memory the device does not have falls back to the next smaller one; double falls back from the
 * tensor-core kernels to the same ring in the double shape, then to the plain double shape. CPU
 * devices: matmul_cpu, 96 rows x 16 columns per work-item in blocks of 6 x 16 in float8, 96 x 8
 * in double4 for double, k in slices of 256, launched in tiles of one work-item. Why each shape won
 * is measured in lab/NOTEBOOK.md; docs/PERFORMANCE.md has what it gives. */
#include "blas/gemm_plans.h"

const amp__gemm_plan amp__gemm_plans[NPLANS] = {
    /* 33,792 bytes of tile_static memory, 25,600 and 12,800 for the next two: on a device with
     * 32 KiB (Mesa's rusticl, some GPUs) the launch refuses the 128 x 128 shape and the next
     * smaller one does the work */
    {"matmul_fast", "-DT=float", 0, 128, 128, 16, 16, P_F64},
    {"matmul_fast", "-DT=float -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4", 0, 64, 128, 8, 32, P_F32},
    {"matmul_fast", "-DT=float -DTS_M=32 -DTS_N=64 -DWPT_M=4 -DWPT_N=4", 0, 32, 64, 8, 16, P_F_T32},
    {"matmul_fast", "-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2", 0, 64,
     128, 8, 16, P_D_T32},
    {"matmul_cpu", "-DT=float", 1, 96, 16, 0, 0, -1},
    {"matmul_cpu", "-DT=double -DVW=4", 1, 96, 8, 0, 0, -1},
    /* its defaults: 4 warps (tile 4 x 32 threads) */
    {"matmul_dmma", "", 0, 128, 64, 4, 32, P_D_RING},
    {"matmul_fast", "-DT=float -DTS_K=32", 0, 128, 128, 16, 16, P_F128},
    /* Only when the caller allows TF32 (amp__gemm_tf32_run; -1: amp_blas_gemm's float choice,
     * made there). Its defaults (128 x 128, K tiles of 16, 48 KB) and 128 x 64 where the device
     * is not 9.x (not measured there); on 9.x the fastest measured on an H100, 128 x 256 with
     * warps of 64 x 64 and K tiles of 32 (144 KB), and 128 x 64 with K tiles of 32 for matrices
     * with too few 128 x 256 blocks. */
    {"matmul_tf32", "", 0, 128, 128, 8, 32, -1},
    {"matmul_tf32", "-DBN=64", 0, 128, 64, 4, 32, -1},
    {"matmul_tf32", "-DBN=256 -DWN=64 -DBK=32 -DSTAGES=3", 0, 128, 256, 8, 32, P_TF32},
    {"matmul_tf32", "-DBN=64 -DBK=32 -DSTAGES=4", 0, 128, 64, 4, 32, P_TF32_N64},
    /* its defaults: 8 consumer and 4 producer warps (tile 12 x 32 threads), 110 KB; 64 x 128
     * blocks (8 consumer warps of 32 x 32, the same tile of threads) where they take fewer rounds
     * of blocks (gemm_kernels.c); matmul_dmma where either is refused */
    {"matmul_dmma_bulk", "", 0, 128, 128, 12, 32, P_DMMA},
    {"matmul_dmma_bulk", "-DBM=64 -DWM=32", 0, 64, 128, 12, 32, P_DMMA},
    /* matmul_fast's step 13 (cp.async, sm_80 and up): on 9.x only, where it was measured */
    {"matmul_fast", "-DT=float -DTS_K=32 -DASYNC_STAGES=4", 0, 128, 128, 16, 16, P_F128_K32},
    {"matmul_fast",
     "-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3", 0, 64,
     128, 8, 16, P_D},
    /* tiles of 32 threads (8 x 4), for a device that allows fewer than 128 per tile (found by
     * the launch's refusal, like the shapes above): correct everywhere, slow everywhere */
    {"matmul_fast", "-DT=float -DTS_M=32 -DTS_N=32 -DWPT_M=4 -DWPT_N=8", 0, 32, 32, 8, 4, -1},
    {"matmul_fast", "-DT=double -DTS_M=32 -DTS_N=32 -DWPT_M=4 -DWPT_N=8 -DTS_K=8 -DBW=2", 0, 32, 32,
     8, 4, -1},
    /* matmul_dmma_bulk's two shapes with the blocks of a last round that leaves at least half
     * the units idle split along k (its step 7; gemm_kernels.c), and the same shape unsplit where
     * the device refuses that */
    {"matmul_dmma_bulk", "-DSPLIT_K", 0, 128, 128, 12, 32, P_DMMA_BULK},
    {"matmul_dmma_bulk", "-DBM=64 -DWM=32 -DSPLIT_K", 0, 64, 128, 12, 32, P_DMMA_BULK_M64},
};
