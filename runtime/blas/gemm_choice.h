/* runtime/blas/gemm_choice.h: CLBlast or ampcl's own GEMM kernels, chosen per size (gemm_choice.c).
 */
#ifndef AMPCL_RUNTIME_GEMM_CHOICE_H
#define AMPCL_RUNTIME_GEMM_CHOICE_H

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

/* ---- for tests -------------------------------------------------------------------------------
 * What ran, counted over the process: CLBlast GEMMs, fast-kernel GEMMs, and measurements (first
 * GEMMs of a class under auto, each of which also counts one CLBlast and one fast run). */
typedef struct amp__gemm_counts {
  uint64_t clblast, fast, measured;
} amp__gemm_counts;
amp__gemm_counts amp__gemm_counts_get(void);

/* The cached choice for (acc, element kind, size class of max(m, n, k)): AMP__GEMM_CLBLAST,
 * AMP__GEMM_FAST, or AMP__GEMM_AUTO when none is cached yet; with the two measured device times
 * in nanoseconds when the pointers are not NULL. */
amp__gemm_mode amp__gemm_cached(const amp_accelerator *acc, amp_elem_kind kind, size_t m, size_t n,
                                size_t k, uint64_t *clblast_ns, uint64_t *fast_ns);

#endif /* AMPCL_RUNTIME_GEMM_CHOICE_H */
