/* runtime/blas_choice.h: CLBlast or ampcl's own GEMM kernel, chosen per size (blas_choice.c). */
#ifndef AMPCL_RUNTIME_BLAS_CHOICE_H
#define AMPCL_RUNTIME_BLAS_CHOICE_H

#include <stdint.h>

#include "ampcl/blas.h"
#include "core/accelerator_impl.h"
#include "data/source.h"

/* What AMP_BLAS_GEMM asks for: unset or "auto", "clblast", "fast", "portable" (the fast engine
 * without the vendor paths). The cache of choices stores the first three (and 3 while measuring).
 */
typedef enum amp__gemm_mode {
  AMP__GEMM_AUTO = 0,
  AMP__GEMM_CLBLAST = 1,
  AMP__GEMM_FAST = 2,
  AMP__GEMM_PORTABLE = 4
} amp__gemm_mode;

/* Reads AMP_BLAS_GEMM; any other value is AMP_ERROR_INVALID_ARGUMENT naming it. */
amp_status amp__gemm_mode_get(amp__gemm_mode *out, const char *fn);

/* The fast kernel computes this GEMM: no transposes, alpha 1, beta 0. */
int amp__gemm_fast_can(amp_transpose trans_a, amp_transpose trans_b, double alpha, double beta);

/* amp_blas_gemm's work on an OpenCL device for a GEMM the fast kernel can do (operands checked
 * by the caller): the engine `mode` forces, else the one cached for the size class, else both,
 * timed, and the faster one cached. */
amp_status amp__gemm_choice_run(amp_accelerator_view *view, amp__gemm_mode mode, amp_array_view *a,
                                amp_array_view *b, amp_array_view *c, amp_future **done);

/* amp_blas_gemm_ex with AMP_GEMM_ALLOW_TF32, for a float GEMM the fast kernel can do (operands
 * checked by the caller; mode is not AMP__GEMM_CLBLAST): matmul_tf32 on NVIDIA devices of compute
 * capability 8.0 and up, else (or when the device refuses it, remembered per accelerator) what
 * amp__gemm_choice_run does in float. */
amp_status amp__gemm_tf32_run(amp_accelerator_view *view, amp__gemm_mode mode, amp_array_view *a,
                              amp_array_view *b, amp_array_view *c, amp_future **done);

/* The CLBlast GEMM (blas.c), operands checked by the caller. */
amp_status amp__blas_clblast(amp_accelerator_view *view, amp_transpose trans_a,
                             amp_transpose trans_b, double alpha, amp_array_view *a,
                             amp_array_view *b, double beta, amp_array_view *c, amp_future **done);

/* ---- for tests -------------------------------------------------------------------------------
 * What ran, counted over the process: CLBlast GEMMs, fast-kernel GEMMs, and measurements (first
 * GEMMs of a class under auto, each of which also counts one CLBlast and one fast run). */
typedef struct amp__gemm_counts {
  uint64_t clblast, fast, measured;
} amp__gemm_counts;
amp__gemm_counts amp__gemm_counts_get(void);
void amp__gemm_count_clblast(void); /* blas.c, after each CLBlast GEMM enqueued */

/* The cached choice for (acc, element kind, size class of max(m, n, k)): AMP__GEMM_CLBLAST,
 * AMP__GEMM_FAST, or AMP__GEMM_AUTO when none is cached yet; with the two measured device times
 * in nanoseconds when the pointers are not NULL. */
amp__gemm_mode amp__gemm_cached(const amp_accelerator *acc, amp_elem_kind kind, size_t m, size_t n,
                                size_t k, uint64_t *clblast_ns, uint64_t *fast_ns);

/* Test hook: on CPU devices use matmul_fast (the GPU kernel) instead of matmul_cpu, as if the
 * device had `compute_units` compute units (0: the real number). gpu_kernel 0 restores. */
void amp__gemm_test_gpu_kernel(int gpu_kernel, unsigned compute_units);

/* Test hook: pick the kernels as if the device's compute capability were `cc` (0: the real one).
 * With 90: double takes matmul_dmma_bulk (128 x 64 blocks when C has few 128 x 128 ones; on a
 * device that cannot build it, the fallbacks, matmul_dmma, matmul_fast's cp.async ring and then
 * matmul_fast, run), float's 128 x 128 shape takes the cp.async ring with K tiles of 32 (falling
 * back to K tiles of 32 through registers, then 16), and TF32-allowed GEMMs try matmul_tf32 (80
 * and up). */
void amp__gemm_test_compute_capability(unsigned cc);

/* Whether a tensor-core DGEMM kernel (matmul_dmma_bulk or matmul_dmma) failed to build on acc, so
 * that its fallback is used there from then on. */
int amp__gemm_dmma_fell_back(const amp_accelerator *acc);

/* Test hook: how many of the GEMM plans (kernel and build options) were refused on acc so far; each
 * refused plan is skipped for its fallback there from then on. */
unsigned amp__gemm_refused_plans(const amp_accelerator *acc);

/* Test hook: the build options of the kernel that ran the last fast-kernel GEMM ("" before one). */
const char *amp__gemm_last_fast_options(void);

/* Test hook: the kernel file of the last fast-kernel GEMM ("matmul_fast", "matmul_tf32", ...; ""
 * before one). */
const char *amp__gemm_last_fast_file(void);

/* Whether a matmul_tf32 plan was refused on acc (build or launch): from then on that plan's
 * fallback runs there (a smaller TF32 shape, or float when none is left). */
int amp__gemm_tf32_fell_back(const amp_accelerator *acc);

#endif /* AMPCL_RUNTIME_BLAS_CHOICE_H */
