/* runtime/blas/blas_host.h: GEMM on a CPU accelerator through OpenBLAS (blas_host.c says when). */
#ifndef AMPCL_RUNTIME_BLAS_HOST_H
#define AMPCL_RUNTIME_BLAS_HOST_H

#include "ampcl/blas.h"
#include "core/accelerator_impl.h"
#include "data/source.h"

/* OpenBLAS could be loaded (tried once per process). */
int amp__blas_host_available(void);

/* The GEMM on `acc` with these (already checked) operands goes to OpenBLAS: acc is a CPU device,
 * every operand's source is host memory, AMP_BLAS_CPU is not "opencl", and OpenBLAS loads. */
int amp__blas_host_wanted(const amp_accelerator *acc, const amp_array_view *a,
                          const amp_array_view *b, const amp_array_view *c);

/* amp_blas_gemm's work, on the host memory, blocking; arguments checked by the caller. */
amp_status amp__blas_host_gemm(amp_accelerator_view *view, amp_transpose trans_a,
                               amp_transpose trans_b, double alpha, amp_array_view *a,
                               amp_array_view *b, double beta, amp_array_view *c,
                               amp_future **done);

#endif /* AMPCL_RUNTIME_BLAS_HOST_H */
