/* runtime/blas/gemm_plans.h: the ways amp_blas_gemm can launch ampcl's own GEMM kernels, as data
 * (gemm_plans.c); gemm_kernels.c picks one per call. */
#ifndef AMPCL_RUNTIME_GEMM_PLANS_H
#define AMPCL_RUNTIME_GEMM_PLANS_H

/* One way to launch the fast kernel: a program file with its options and its launch shape. */
typedef struct amp__gemm_plan {
  const char *file, *opts;
  int cpu;          /* matmul_cpu: (column blocks, row blocks) in tiles of one work-item */
  int ts_m, ts_n;   /* rows and columns of C per tile (per work-item for matmul_cpu) */
  int rts_m, rts_n; /* threads per tile (matmul_fast) */
  int fallback;     /* the plan to take instead once this one was refused here, or -1 */
} amp__gemm_plan;

/* The plans, by index into amp__gemm_plans. */
enum {
  P_F128,
  P_F64,
  P_F32,
  P_D,
  P_CPU_F,
  P_CPU_D,
  P_DMMA,
  P_F128_K32,
  P_TF32,
  P_TF32_N64,
  P_TF32_WIDE,
  P_TF32_SMALL,
  P_DMMA_BULK,
  P_DMMA_BULK_M64,
  P_F128_RING,
  P_D_RING,
  P_F_T32,
  P_D_T32,
  P_DMMA_BULK_KS,
  P_DMMA_BULK_M64_KS,
  NPLANS
};
_Static_assert(NPLANS <= 32, "amp_accelerator.gemm_broken_plans has a bit per plan");

extern const amp__gemm_plan amp__gemm_plans[NPLANS];

#endif /* AMPCL_RUNTIME_GEMM_PLANS_H */
