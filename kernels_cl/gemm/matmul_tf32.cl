/* matmul_tf32.cl: C = A * B for float views on NVIDIA's tensor cores with TF32 inputs (compute
 * capability 8.0 and up), through inline PTX (kernels_cl/gemm/ampcl_ptx.h). The mixed-precision
 * sibling of matmul_dmma.cl: the same plan, for float, and NOT the same arithmetic as
 * every other float GEMM in ampcl. It is only ever used when asked for by name
 * (amp_blas_gemm_ex with AMP_GEMM_ALLOW_TF32, include/ampcl/blas.h), never by default.
 *
 * What TF32 is. The tensor core's "tensor float 32" keeps float's 8 exponent bits but only 10 of
 * its 23 mantissa bits (the precision of a half), so each input is rounded to about 3 decimal
 * digits (relative error up to 2^-11, 4.9e-4); products and sums are in float. A product of
 * n x k by k x n matrices with random inputs then typically carries a relative error of order
 * 1e-4 to 1e-3 where float's own is 1e-6 to 1e-7: fine for much of machine learning, wrong for a
 * solver that needs float's digits. This is the trade cuBLAS makes with CUBLAS_TF32_TENSOR_OP_MATH
 * (and PyTorch with allow_tf32); lab/NOTEBOOK.md has both errors against a double product.
 * Inputs are rounded to nearest (cvt.rna.tf32.f32), not truncated, which halves the error of
 * feeding float bits to the instruction as they are.
 *
 * The instruction. `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 d, a, b, c` makes the 32
 * threads of a warp compute D (16 x 8) = A (16 x 8) * B (8 x 8) + C. Each thread holds (g = lane
 * / 4, t = lane % 4; lab/ptx_probe.c checks it against a host product):
 *     A: four values, a0 = (g, t), a1 = (g + 8, t), a2 = (g, t + 4), a3 = (g + 8, t + 4)
 *     B: two values, b0 = (t, g), b1 = (t + 4, g)
 *     C, D: four floats, d0 = (g, 2t), d1 = (g, 2t + 1), d2 = (g + 8, 2t), d3 = (g + 8, 2t + 1)
 * the same places as the f64 m16n8k8 of matmul_dmma.cl, 4-byte elements instead of 8.
 *
 * The kernel (what differs from matmul_dmma.cl, which explains the plan in full):
 *   1. A tile of 8 warps computes a BM x BN = 128 x 128 block of C, each warp 64 x 32 (4 x 4 mma
 *      per step of 8 along k, 64 float accumulators per thread). float accumulators take half
 *      the registers of double ones, so the tile can be twice as large as matmul_dmma's, which
 *      halves the bytes fetched from global memory per multiply-add: at tensor-core rates that
 *      traffic, not the arithmetic, is what a small tile runs out of first.
 *   2. K tiles of BK = 16 (two mma steps per barrier; -DBK=32 for four), A staged as [row][k], B
 *      as [k][col], moved by cp.async in 16-byte chunks (four floats) through a ring of STAGES
 *      buffers: 3 x 16 KB, exactly the 48 KB NVIDIA's driver reports per tile.
 *   3. Every fragment value read on its own, 4 bytes, in the mma's own k order: A's (g, t),
 *      (g + 8, t), (g, t + 4), (g + 8, t + 4) go straight into the four consecutive registers the
 *      instruction takes. (With the k positions t and t + 4 given columns 2t and 2t + 1, one 8-byte
 *      read gives a thread both of a row's values, but they then sit in positions 0 and 2, and
 *      ptxas moved every A value into place before each mma: a fifth more instructions and 7-10%
 *      of the speed on an H100.) A warp's 32 reads of one position then cover 8 rows (g) and 4
 *      columns (t) of A, or 4 rows (t) and 8 columns (g) of B; XOR swizzles of the 16-byte chunks
 *      put them on 32 different banks: A's chunk q of row r at q ^ (r % 8) with rows of 32 floats
 *      (q ^ ((r / 2) % 4) with rows of 16, two rows to 32 banks), B's at q ^ (2 * (k % 4)) (A_AT,
 *      B_AT). Nsight Compute counts next to no bank conflicts.
 *   4. Each value read from tile_static memory is rounded to TF32 (one cvt per value) before it
 *      enters the mma: 24 conversions per 16 mma.
 *
 * Build options: -DBM=128 -DBN=128 -DWM=64 -DWN=32 -DBK=16 (or 32) -DSTAGES=3 (2 to 5)
 * -DGROUP_M=8 -DTF_ROUND=1. BN must be a multiple of 32. Threads per tile: (BM / WM) * (BN / WN) *
 * 32; tile_static bytes: STAGES * BK * 4 * (BM + BN). The defaults fit the 48 KB NVIDIA's driver
 * reports (plus 16 bytes, which it allows). On an H100, -DBN=256 -DWN=64 -DBK=32 -DSTAGES=3
 * (warps of 64 x 64 read each A and B value for twice the mma; 144 KB, which a kernel may declare
 * there: docs/KERNELS.md) is about 1.5 times as fast as the defaults: it is what amp_blas_gemm_ex
 * runs on compute capability 9.x, with -DBN=64 -DBK=32 -DSTAGES=4 for matrices with too few
 * 128 x 256 blocks. -DTF_ROUND=0 was 17% faster on 128 x 128 (the conversions are 24
 * instructions per 16 mma) but doubles the error. cuBLAS in TF32 mode is still about three times
 * as fast there, with Hopper's warpgroup mma (wgmma), which OpenCL cannot reach: NVIDIA's
 * compiler emits PTX for target sm_90, and ptxas refuses the sm_90a-only instructions there
 * (setmaxnreg was tried, lab/NOTEBOOK.md); mma.sync itself peaks below cuBLAS's rate
 * (lab/ptx_probe.c measures it from registers).
 *
 * Launch: a rank-2 tiled domain whose tile is (warps, 32), warps = (BM / WM) * (BN / WN), and
 * ceil(m / BM) x ceil(n / BN) tiles:
 *
 *     CHECK(amp_program_create_builtin("matmul_tf32", "", &prog));    // 128 x 128, 8 warps
 *     CHECK(amp_kernel_create(prog, "matmul_tf32", &k));
 *     amp_tiled_extent dom = amp_tile2(amp_extent2((m + 127) / 128 * 8, (n + 127) / 128 * 32),
 *                                      8, 32);
 *     amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
 *     CHECK(amp_parallel_for_each_tiled(av, dom, k, args, AMP_NARGS(args)));
 *
 * amp_blas_gemm_ex(..., AMP_GEMM_ALLOW_TF32, ...) does this for you where the device can
 * (runtime/blas/gemm_choice.c). Rows of A and B that start on 16-byte boundaries (offset and row
 * stride multiples of 4) take cp.async; other views a plain-load path with the same results. */
#if AMP_COMPUTE_CAPABILITY < 80
#error                                                                                             \
    "matmul_tf32 needs an NVIDIA GPU of compute capability 8.0 or more (amp_accelerator_properties.compute_capability); on this device use matmul_fast"
#endif
#ifndef BM /* rows of C per tile of threads */
#define BM 128
#endif
#ifndef BN /* columns of C per tile of threads, a multiple of 32 */
#define BN 128
#endif
#ifndef WM /* rows of C per warp, a multiple of 16 dividing BM */
#define WM 64
#endif
#ifndef WN /* columns of C per warp, a multiple of 8 dividing BN */
#define WN 32
#endif
#ifndef BK /* depth of a K tile: 16 or 32 (step 2) */
#define BK 16
#endif
#ifndef GROUP_M /* block rows per band of the tile order */
#define GROUP_M 8
#endif
#ifndef STAGES /* K tiles in the cp.async ring, 2 to 5 (step 2) */
#define STAGES 3
#endif
#ifndef TF_ROUND /* 1: inputs rounded to nearest TF32 (step 4); 0: truncated, twice the error */
#define TF_ROUND 1
#endif
#define WARPS_N (BN / WN)                  /* warps along N */
#define NT      ((BM / WM) * WARPS_N * 32) /* threads per tile */
#define MI      (WM / 16)                  /* mma tiles per warp along M */
#define NJ      (WN / 8)                   /* mma tiles per warp along N */
#define CPA     (BM * BK / 4 / NT)         /* 16-byte chunks of A per thread per K tile */
#define CPB     (BK * BN / 4 / NT)         /* 16-byte chunks of B per thread per K tile */
#define A_RSTEP (NT / (BK / 4))            /* tile rows between a thread's chunks of A */
#define B_RSTEP (NT / (BN / 4))            /* K-tile rows between a thread's chunks of B */
/* Where 16-byte chunk q (four floats) of row r lands in a tile_static K tile (step 3), as a
 * float offset (step 3): A's rows of BK floats, B's of BN; the XORs put a warp's 32 reads of one
 * fragment position (8 rows by 4 columns of A, 4 rows by 8 columns of B) on 32 different banks. */
#if BK != 16 && BK != 32
#error "matmul_tf32: BK must be 16 or 32"
#endif
#define A_SWZ(r)   (BK == 16 ? ((r) >> 1) & 3 : (r)&7)
#define B_SWZ(k)   (((k)&3) << 1)
#define A_AT(r, q) ((r)*BK + (((q) ^ A_SWZ(r)) << 2))
#define B_AT(k, q) ((k)*BN + (((q) ^ B_SWZ(k)) << 2))

#if STAGES < 2 || STAGES > 5
#error "matmul_tf32: STAGES must be 2 to 5"
#endif
#if BM % WM != 0 || BN % WN != 0 || WM % 16 != 0 || WN % 8 != 0 || BN % 32 != 0
#error                                                                                             \
    "matmul_tf32: WM must divide BM and be a multiple of 16, WN divide BN and be a multiple of 8, BN a multiple of 32"
#endif
#if NT > 1024 || CPA < 1 || CPB < 1 || (BM * BK / 4) % NT != 0 || (BK * BN / 4) % NT != 0 ||       \
    NT % (BN / 4) != 0
#error "matmul_tf32: at most 32 warps, and the warps must share the K tile's copies evenly"
#endif

#include "ampcl_ptx.h" /* cp.async, mma, the TF32 rounding, ampcl_store2_T */
AMPCL_DEFINE_STORE2(float)

/* x rounded to the nearest TF32 value (ties away from zero), as the mma's operand bits; with
 * -DTF_ROUND=0 float's bits as they are, whose low 13 bits the instruction ignores (truncation:
 * twice the error, one instruction less per value). */
static inline uint tf_round(float x) {
#if TF_ROUND
  uint r;
  AMPCL_CVT_RNA_TF32(r, x);
  return r;
#else
  return as_uint(x);
#endif
}

/* One K tile of A (BM x BK) and B (BK x BN) from k0 into tile_static buffers, one group of
 * copies; elements outside A or B arrive as zeros. Thread tid copies CPA chunks of A (chunk
 * tid % (BK / 4) of rows tid / (BK / 4) + p * A_RSTEP) and CPB of B (chunk tid % (BN / 4) of rows
 * tid / (BN / 4) + p * B_RSTEP). As in matmul_dmma's dm_stage, what does not depend on k is
 * worked out once per call and a chunk with nothing to read copies 0 bytes from offset 0. */
static inline void tf_stage(__local float *as, __local float *bs, AMP_CONST_VIEW(float, a),
                            AMP_CONST_VIEW(float, b), int m, int n, int w, int row0, int col0,
                            int k0, int tid, int aligned) {
  const int qa = tid % (BK / 4), ra = tid / (BK / 4), qb = tid % (BN / 4), rb = tid / (BN / 4);
  const int gc = col0 + 4 * qb, ncols = clamp(n - gc, 0, 4); /* B's columns inside B */
  const int gka = k0 + 4 * qa, na = clamp(w - gka, 0, 4);    /* A's columns inside A */
  if (aligned) {
#pragma unroll
    for (int p = 0; p < CPA; p++) {
      const int gr = row0 + ra + p * A_RSTEP, cnt = gr < m ? na : 0;
      ampcl_cp_async16(as + A_AT(ra + p * A_RSTEP, qa),
                       a_data + (cnt ? a_shape.s3 + gr * a_shape.s4 + gka : 0), cnt * 4);
    }
#pragma unroll
    for (int p = 0; p < CPB; p++) {
      const int gk = k0 + rb + p * B_RSTEP, cnt = gk < w ? ncols : 0;
      ampcl_cp_async16(bs + B_AT(rb + p * B_RSTEP, qb),
                       b_data + (cnt ? b_shape.s3 + gk * b_shape.s4 + gc : 0), cnt * 4);
    }
  } else {
#pragma unroll
    for (int p = 0; p < CPA; p++) {
      const int r = ra + p * A_RSTEP, gr = row0 + r, cnt = gr < m ? na : 0;
      __local float *dst = as + A_AT(r, qa);
#pragma unroll
      for (int e = 0; e < 4; e++)
        dst[e] = e < cnt ? amp_at(a, gr, gka + e) : 0.0f;
    }
#pragma unroll
    for (int p = 0; p < CPB; p++) {
      const int r = rb + p * B_RSTEP, gk = k0 + r, cnt = gk < w ? ncols : 0;
      __local float *dst = bs + B_AT(r, qb);
#pragma unroll
      for (int e = 0; e < 4; e++)
        dst[e] = e < cnt ? amp_at(b, gk, gc + e) : 0.0f;
    }
  }
  AMPCL_CP_ASYNC_COMMIT(); /* an empty group when nothing was copied */
}

/* acc += this warp's WM x WN part of (A tile) * (B tile), BK / 8 mma steps. */
static inline void tf_multiply(__local const float *as, __local const float *bs, int wm, int wn,
                               int lane, float acc[MI][NJ][4]) {
  const int g = lane >> 2, t = lane & 3;
#pragma unroll
  for (int s = 0; s < BK / 8; s++) {
    uint fa[MI][4], fb[NJ][2];
#pragma unroll
    for (int i = 0; i < MI; i++) {
      const int r = wm * WM + i * 16 + g;
      fa[i][0] = tf_round(as[A_AT(r, 2 * s) + t]);         /* (g, t) */
      fa[i][1] = tf_round(as[A_AT(r + 8, 2 * s) + t]);     /* (g + 8, t) */
      fa[i][2] = tf_round(as[A_AT(r, 2 * s + 1) + t]);     /* (g, t + 4) */
      fa[i][3] = tf_round(as[A_AT(r + 8, 2 * s + 1) + t]); /* (g + 8, t + 4) */
    }
#pragma unroll
    for (int j = 0; j < NJ; j++) {
      const int col = wn * WN + j * 8 + g;
      fb[j][0] = tf_round(bs[B_AT(8 * s + t, col >> 2) + (col & 3)]);
      fb[j][1] = tf_round(bs[B_AT(8 * s + t + 4, col >> 2) + (col & 3)]);
    }
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
      for (int j = 0; j < NJ; j++)
        AMPCL_MMA_M16N8K8_TF32(acc[i][j], fa[i], fb[j]);
  }
}

/* The kernel: ampcl_mma_kernel.h's, shared with matmul_dmma.cl (the ring of matmul_dmma, one
 * barrier per step), around tf_stage and tf_multiply. */
#define MMA_KERNEL     matmul_tf32
#define MMA_PREFIX     tf /* tf_stage, tf_multiply */
#define MMA_T          float
#define MMA_VN         4 /* floats per 16-byte copy: the buffers are float4 */
#define MMA_ALIGN_MASK 3 /* rows start on 16 bytes: offset and row stride multiples of 4 */
#define MMA_ZERO       0.0f
#define MMA_A_CAST     (__local const float *) /* tf_multiply reads A's buffer as floats */
#include "ampcl_mma_kernel.h"
