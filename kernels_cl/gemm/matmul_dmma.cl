/* matmul_dmma.cl: C = A * B in double on NVIDIA's FP64 tensor cores (compute capability 9.0 and up:
 * H100, H200), through inline PTX (kernels_cl/gemm/ampcl_ptx.h). Not portable: OpenCL C has no word
 * for a tensor core, but NVIDIA's OpenCL compiler accepts `asm` statements with PTX, as CUDA does.
 * amp_blas_gemm runs it in double on compute capability 9.x where matmul_dmma_bulk.cl, which builds
 * on it, is refused; everywhere else matmul_fast.cl is the kernel, and it is the one POCL runs in
 * CI. Read matmul_fast.cl first: this kernel keeps its tile order.
 *
 * What it computes: as matmul_naive, C (m x n) = A (m x w) * B (w x n), row-major rank-2 views of
 * double (sections allowed), for any m, n, w >= 1. The results are exact products summed in a
 * different order than a loop would: within DGEMM's usual error bound, as OpenBLAS's are.
 *
 * Why: a CUDA core does one FP64 multiply-add per clock per lane, 64 per clock per SM on an
 * H100; matmul_fast reaches two thirds of that peak. The FP64 tensor core does a whole small
 * matrix product per instruction, 128 multiply-adds per clock per SM: twice the ceiling.
 *
 * The instruction. `mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 d, a, b, c` makes the 32
 * threads of a warp compute together D (16 x 8) = A (16 x 8) * B (8 x 8) + C. Each thread holds
 * a fixed part of every operand in its registers (g = lane / 4, t = lane % 4):
 *     A: four doubles, rows g and g + 8, columns t and t + 4   (a0 = (g, t), a1 = (g + 8, t),
 *                                                               a2 = (g, t + 4), a3 = (g + 8, t + 4))
 *     B: two doubles, rows t and t + 4 of column g              (b0 = (t, g), b1 = (t + 4, g))
 *     C, D: four doubles, rows g and g + 8, columns 2t, 2t + 1  (d0 = (g, 2t), d1 = (g, 2t + 1),
 *                                                               d2 = (g + 8, 2t), d3 = (g + 8, 2t + 1))
 * (lab/ptx_probe.c checks this against a host product; the PTX ISA's "Matrix Fragments for
 * mma.m16n8k8" describes the same). The older m8n8k4 shape works on sm_80 too, but on an H100 it
 * runs at half the rate of m16n8k8 (lab/ptx_probe.c, operands in registers).
 *
 * The kernel, step by step:
 *   1. A tile of threads (4 warps by default) computes a BM x BN block of C (128 x 64), each warp
 *      a WM x WN part of it (64 x 32): (WM / 16) x (WN / 8) = 4 x 4 mma instructions per step of
 *      8 along k, with 4 x 4 x 4 = 64 accumulators per thread in registers. 4 warps of 64 x 32
 *      leave registers for two tiles of threads per SM, which hide each other's barriers: on an
 *      H100 128 x 64 with 4 warps was a sixth faster than 128 x 128 with 8.
 *   2. K tiles of BK = 8 columns of A and rows of B are staged in tile_static memory, A as
 *      [row][k] and B as [k][col]. The mma's k positions t and t + 4 are given the tile's k
 *      columns 2t and 2t + 1: any order of k gives the same sum as long as A and B agree, and this
 *      one puts the two values of a row of A that a thread needs side by side (one 16-byte read,
 *      and rows of 8 doubles then need no padding for the reads to be conflict-free). B's reads
 *      (rows 2t or 2t + 1, 8 consecutive columns) would put 4 rows on the same banks; B's 16-byte
 *      chunks are XORed with 4 in rows 2, 3, 6 and 7 (B_AT), so they fall on distinct banks.
 *   3. Global to tile_static without registers: `cp.async.cg.shared.global` copies 16 bytes per
 *      instruction straight into tile_static memory (sm_80+), and its "source size" operand reads
 *      fewer bytes and fills the rest with zeros, which is how the edges of A and B (any m, n, w)
 *      cost no branches. A ring of STAGES (3) buffers keeps two K tiles in flight while the
 *      tensor cores work on a third, with one barrier per K tile. cp.async needs 16-byte aligned
 *      sources: every row of A and B must start on one (offset and row stride even); other views
 *      take a plain load path (same results, slower), chosen once per launch.
 *   4. Tile order as in matmul_fast (GROUP_M block rows per band) for L2 reuse.
 *
 * Build options: -DBM=128 -DBN=64 (C block per tile of threads), -DWM=64 -DWN=32 (per warp: WM a
 * multiple of 16, WN of 8), -DSTAGES=3 (2 to 5), -DGROUP_M=8. Threads per tile:
 * (BM / WM) * (BN / WN) * 32; tile_static bytes: STAGES * 8 * 8 * (BM + BN), 36,864 for the
 * defaults. NVIDIA's driver reports 49,152 bytes per tile but runs kernels that declare more
 * (docs/KERNELS.md); more stages (4, 5), 256 x 64 or 128 x 128 tiles, and two or more K tiles per
 * barrier were all measured with that room on an H100, and none was faster than these defaults
 * (lab/NOTEBOOK.md). 64 accumulators per thread need about 230 registers: tiles of more than 8
 * warps of 64 x 32, or of 16 warps of 32 x 32, are refused by the driver.
 *
 * Launch: a rank-2 tiled domain whose tile is (warps, 32), warps = (BM / WM) * (BN / WN), and
 * ceil(m / BM) x ceil(n / BN) tiles:
 *
 *     CHECK(amp_program_create_builtin("matmul_dmma", "", &prog));    // 128 x 64, 4 warps
 *     CHECK(amp_kernel_create(prog, "matmul_dmma", &k));
 *     amp_tiled_extent dom = amp_tile2(amp_extent2((m + 127) / 128 * 4, (n + 63) / 64 * 32),
 *                                      4, 32);
 *     amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
 *     CHECK(amp_parallel_for_each_tiled(av, dom, k, args, AMP_NARGS(args)));
 *
 * amp_blas_gemm does this for you on such a device where matmul_dmma_bulk is refused
 * (runtime/blas/gemm_choice.c; for compute capability 9.x, the GPUs it was measured on). With
 * AMP_DEBUG=1, cp.async's reads are not bounds-checked as amp_at's are (they do not go through
 * amp_at); the plain-load path's are. Only an NVIDIA device
 * of compute capability 9.0 or more builds the kernel (the PTX assembler rejects the f64 m16n8k8
 * shape below sm_90; other compilers reject the asm statement):
 * amp_accelerator_properties.compute_capability says which. */
#if AMP_COMPUTE_CAPABILITY < 90
#error                                                                                             \
    "matmul_dmma needs an NVIDIA GPU of compute capability 9.0 or more (amp_accelerator_properties.compute_capability); on this device use matmul_fast"
#endif
#ifndef BM /* rows of C per tile of threads */
#define BM 128
#endif
#ifndef BN /* columns of C per tile of threads, a multiple of 16 */
#define BN 64
#endif
#ifndef WM /* rows of C per warp, a multiple of 16 dividing BM */
#define WM 64
#endif
#ifndef WN /* columns of C per warp, a multiple of 8 dividing BN */
#define WN 32
#endif
#ifndef GROUP_M /* block rows per band of the tile order (step 4) */
#define GROUP_M 8
#endif
#ifndef STAGES /* K tiles in the cp.async ring, 2 to 5 (step 3) */
#define STAGES 3
#endif
#define BK      8
#define WARPS_N (BN / WN)                  /* warps along N */
#define NT      ((BM / WM) * WARPS_N * 32) /* threads per tile */
#define MI      (WM / 16)                  /* mma tiles per warp along M */
#define NJ      (WN / 8)                   /* mma tiles per warp along N */
#define CPA     (BM * BK / 2 / NT)         /* 16-byte chunks of A per thread per K tile */
#define CPB     (BK * BN / 2 / NT)         /* 16-byte chunks of B per thread per K tile */
#define A_RSTEP (NT / (BK / 2))            /* tile rows between a thread's chunks of A */
#define B_RSTEP (NT / (BN / 2))            /* K-tile rows between a thread's chunks of B */
/* Where 16-byte chunk q (two doubles) of row r lands in a tile_static K tile (see step 2): A
 * rows hold BK = 8 doubles, in order; B rows hold BN doubles, chunks XORed with 4 in rows 2, 3,
 * 6 and 7. Both give element offsets. */
#define A_AT(r, q) ((r)*BK + ((q) << 1))
#define B_AT(k, q) ((k)*BN + (((q) ^ ((((k) >> 1) & 1) << 2)) << 1))

#if STAGES < 2 || STAGES > 5
#error "matmul_dmma: STAGES must be 2 to 5"
#endif
#if BM % WM != 0 || BN % WN != 0 || WM % 16 != 0 || WN % 8 != 0 || BN % 16 != 0
#error                                                                                             \
    "matmul_dmma: WM must divide BM and be a multiple of 16, WN divide BN and be a multiple of 8, BN a multiple of 16"
#endif
#if NT > 1024 || CPA < 1 || CPB < 1 || (BM * BK / 2) % NT != 0 || (BK * BN / 2) % NT != 0 ||       \
    NT % (BN / 2) != 0
#error "matmul_dmma: at most 32 warps, and the warps must share the K tile's copies evenly"
#endif

#include "ampcl_ptx.h" /* cp.async, mma, ampcl_store2_T */
AMPCL_DEFINE_STORE2(double)

/* One K tile of A (BM x BK) and B (BK x BN), from k0, into tile_static buffers as one group of
 * copies; elements outside A or B arrive as zeros. Thread tid copies CPA chunks of A and CPB of
 * B, two doubles each: A chunk p is pair q_a = tid % (BK / 2) of tile row tid / (BK / 2) +
 * p * A_RSTEP, B chunk p pair q_b = tid % (BN / 2) of tile row tid / (BN / 2) + p * B_RSTEP. The
 * pairs are the same in every K tile and every p, so the bounds that do not depend on k (rows of
 * A, columns of B) and the tile_static offsets come out of the loop; what is left per chunk is an
 * address, a clamp and the copy. Where rows are not 16-byte aligned (uniform: the branch is taken
 * once per K tile), plain loads do the same through registers. */
static inline void dm_stage(__local double *as, __local double *bs, AMP_CONST_VIEW(double, a),
                            AMP_CONST_VIEW(double, b), int m, int n, int w, int row0, int col0,
                            int k0, int tid, int aligned) {
  const int qa = tid % (BK / 2), ra = tid / (BK / 2), qb = tid % (BN / 2), rb = tid / (BN / 2);
  const int gc = col0 + 2 * qb, ncols = clamp(n - gc, 0, 2); /* B's columns inside B */
  if (aligned) {
    /* Offsets in int, as amp_at computes them (a view's elements are addressed with int), and
     * offset 0 for a chunk with nothing to read: cheaper than 64-bit pointers per chunk. */
    const int oa = a_shape.s3 + 2 * qa + k0, na = clamp(w - k0 - 2 * qa, 0, 2);
#pragma unroll
    for (int p = 0; p < CPA; p++) {
      const int gr = row0 + ra + p * A_RSTEP, cnt = gr < m ? na : 0;
      ampcl_cp_async16(as + A_AT(ra + p * A_RSTEP, qa), a_data + (cnt ? oa + gr * a_shape.s4 : 0),
                       cnt * 8);
    }
#pragma unroll
    for (int p = 0; p < CPB; p++) {
      const int gk = k0 + rb + p * B_RSTEP, cnt = gk < w ? ncols : 0;
      ampcl_cp_async16(bs + B_AT(rb + p * B_RSTEP, qb),
                       b_data + (cnt ? b_shape.s3 + gk * b_shape.s4 + gc : 0), cnt * 8);
    }
  } else {
#pragma unroll
    for (int p = 0; p < CPA; p++) {
      const int r = ra + p * A_RSTEP, gr = row0 + r, gk = k0 + 2 * qa;
      const int cnt = gr < m ? clamp(w - gk, 0, 2) : 0;
      __local double *dst = as + A_AT(r, qa);
      dst[0] = cnt > 0 ? amp_at(a, gr, gk) : 0.0;
      dst[1] = cnt > 1 ? amp_at(a, gr, gk + 1) : 0.0;
    }
#pragma unroll
    for (int p = 0; p < CPB; p++) {
      const int r = rb + p * B_RSTEP, gk = k0 + r, cnt = gk < w ? ncols : 0;
      __local double *dst = bs + B_AT(r, qb);
      dst[0] = cnt > 0 ? amp_at(b, gk, gc) : 0.0;
      dst[1] = cnt > 1 ? amp_at(b, gk, gc + 1) : 0.0;
    }
  }
  AMPCL_CP_ASYNC_COMMIT(); /* an empty group when nothing was copied */
}

/* acc += this warp's WM x WN part of (A tile) * (B tile): one step of 8 along k.
 * The mma's k positions t and t + 4 are given the tile's columns (of A; rows of B) 2t and 2t + 1:
 * any order of k gives the same sum as long as A and B agree, and this one puts the two A values a
 * thread needs from a row side by side, one 16-byte read instead of two 8-byte ones. */
static inline void dm_multiply(__local const double2 *as, __local const double *bs, int wm, int wn,
                               int lane, double acc[MI][NJ][4]) {
  const int g = lane >> 2, t = lane & 3;
  double fa[MI][4], fb[NJ][2];
#pragma unroll
  for (int i = 0; i < MI; i++) {
    const int r = wm * WM + i * 16 + g;
    const double2 lo = as[A_AT(r, t) / 2], hi = as[A_AT(r + 8, t) / 2];
    fa[i][0] = lo.x; /* (g, 2t) */
    fa[i][1] = hi.x; /* (g + 8, 2t) */
    fa[i][2] = lo.y; /* (g, 2t + 1) */
    fa[i][3] = hi.y; /* (g + 8, 2t + 1) */
  }
#pragma unroll
  for (int j = 0; j < NJ; j++) {
    const int col = wn * WN + j * 8 + g;
    fb[j][0] = bs[B_AT(2 * t, col >> 1) + (col & 1)];
    fb[j][1] = bs[B_AT(2 * t + 1, col >> 1) + (col & 1)];
  }
#pragma unroll
  for (int i = 0; i < MI; i++)
#pragma unroll
    for (int j = 0; j < NJ; j++)
      AMPCL_MMA_M16N8K8_F64(acc[i][j], fa[i], fb[j]);
}

/* The kernel: ampcl_mma_kernel.h's, shared with matmul_tf32.cl, around dm_stage and dm_multiply
 * (steps 1 to 4 above). */
#define MMA_KERNEL     matmul_dmma
#define MMA_PREFIX     dm /* dm_stage, dm_multiply */
#define MMA_T          double
#define MMA_VN         2 /* doubles per 16-byte copy: the buffers are double2 */
#define MMA_ALIGN_MASK 1 /* rows start on 16 bytes: offset and row stride even */
#define MMA_ZERO       0.0
#define MMA_A_CAST     /* dm_multiply reads A's buffer as double2 */
#include "ampcl_mma_kernel.h"
