/* runtime/blas/clblast_gemm.h: GEMM through CLBlast (clblast_gemm.c). */
#ifndef AMPCL_RUNTIME_CLBLAST_GEMM_H
#define AMPCL_RUNTIME_CLBLAST_GEMM_H

#include <stdint.h>

#include "ampcl/blas.h"
#include "data/source.h"

/* The CLBlast GEMM, operands checked by the caller. Without CLBlast in the build,
 * AMP_ERROR_UNSUPPORTED_FEATURE. */
amp_status amp__blas_clblast(amp_accelerator_view *view, amp_transpose trans_a,
                             amp_transpose trans_b, double alpha, amp_array_view *a,
                             amp_array_view *b, double beta, amp_array_view *c, amp_future **done);

/* CLBlast GEMMs enqueued, over the process. */
uint64_t amp__gemm_clblast_count(void);

#endif /* AMPCL_RUNTIME_CLBLAST_GEMM_H */
