/* runtime/blas/gemm_kernels.h: ampcl's own GEMM kernels, chosen by plan (gemm_kernels.c). */
#ifndef AMPCL_RUNTIME_GEMM_KERNELS_H
#define AMPCL_RUNTIME_GEMM_KERNELS_H

#include <stdint.h>

#include "ampcl/blas.h"
#include "core/accelerator_impl.h"
#include "data/source.h"

/* C = A * B (row-major views, operands checked by the caller) through the plan for this size,
 * type and device: tf32 when the caller allows TF32 (float only), portable for the kernels
 * without vendor paths. When no TF32 plan is left on the device (none there, or all refused),
 * nothing runs and *no_plan is 1: the caller runs the float GEMM instead. */
amp_status amp__gemm_kernels_run(amp_accelerator_view *view, int tf32, int portable,
                                 amp_array_view *a, amp_array_view *b, amp_array_view *c,
                                 amp_future **done, int *no_plan);

/* How many parts along k matmul_dmma_bulk's SPLIT_K makes of each block of the last round, for
 * `tiles` blocks over depth k on cu compute units; 1: none (the plans do not split). */
unsigned amp__gemm_ksplit_ways(size_t tiles, size_t k, unsigned cu);

/* GEMMs these kernels ran, over the process. */
uint64_t amp__gemm_fast_count(void);

/* ---- for tests -------------------------------------------------------------------------------
 */

/* On CPU devices use matmul_fast (the GPU kernel) instead of matmul_cpu, as if the device had
 * `compute_units` compute units (0: the real number). gpu_kernel 0 restores. */
void amp__gemm_test_gpu_kernel(int gpu_kernel, unsigned compute_units);

/* Pick the kernels as if the device's compute capability were `cc` (0: the real one). With 90:
 * double takes matmul_dmma_bulk (128 x 64 blocks when C has few 128 x 128 ones; on a device that
 * cannot build it, the fallbacks, matmul_dmma, matmul_fast's cp.async ring and then matmul_fast,
 * run), float's 128 x 128 shape takes the cp.async ring with K tiles of 32 (falling back to K
 * tiles of 32 through registers, then 16), and TF32-allowed GEMMs try matmul_tf32 (80 and up). */
void amp__gemm_test_compute_capability(unsigned cc);

/* Whether a tensor-core DGEMM kernel (matmul_dmma_bulk or matmul_dmma) failed to build on acc, so
 * that its fallback is used there from then on. */
int amp__gemm_dmma_fell_back(const amp_accelerator *acc);

/* How many of the GEMM plans were refused on acc so far; each refused plan is skipped for its
 * fallback there from then on. */
unsigned amp__gemm_refused_plans(const amp_accelerator *acc);

/* The build options of the kernel that ran the last fast-kernel GEMM ("" before one). */
const char *amp__gemm_last_fast_options(void);

/* The kernel file of the last fast-kernel GEMM ("matmul_fast", "matmul_tf32", ...; "" before
 * one). */
const char *amp__gemm_last_fast_file(void);

/* Whether a matmul_tf32 plan was refused on acc (build or launch): from then on that plan's
 * fallback runs there (a smaller TF32 shape, or float when none is left). */
int amp__gemm_tf32_fell_back(const amp_accelerator *acc);

#endif /* AMPCL_RUNTIME_GEMM_KERNELS_H */
