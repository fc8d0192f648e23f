/* runtime/blas/gemm_general.h: alpha, beta and a transposed A on the fast engine (gemm_general.c).
 */
#ifndef AMPCL_RUNTIME_GEMM_GENERAL_H
#define AMPCL_RUNTIME_GEMM_GENERAL_H

#include "blas/gemm_choice.h"

/* Whether amp_blas_gemm takes gemm_general.c's way for a GEMM the fast kernel cannot do as it is:
 * B not transposed, and the engine `mode` forces, or (auto) the one cached for the product's
 * size class, is not CLBlast (CLBlast then does the whole GEMM, as it always did). */
int amp__gemm_general_wanted(const amp_accelerator *acc, amp__gemm_mode mode, amp_transpose trans_b,
                             amp_elem_kind kind, size_t m, size_t n, size_t k);

/* C = alpha op(A) B + beta C on the view (operands checked by the caller): op(A)'s blocks of rows
 * times B through amp__gemm_choice_run into a scratch view, then C's rows = alpha * that + beta *
 * C's rows. Returns without waiting; *done (if not NULL) spans the whole GEMM. */
amp_status amp__gemm_general_run(amp_accelerator_view *view, amp__gemm_mode mode,
                                 amp_transpose trans_a, double alpha, amp_array_view *a,
                                 amp_array_view *b, double beta, amp_array_view *c,
                                 amp_future **done);

/* Tests: the scratch bound in bytes (0: the default, 128 MiB), so that small GEMMs run in several
 * blocks of rows. */
void amp__gemm_general_test_scratch(size_t bytes);

#endif
