/* runtime/blas/blas.c: amp_blas_gemm and amp_blas_gemm_ex: the operands are checked here, then
 * the GEMM goes to one engine. On a CPU device whose operands live in host memory: OpenBLAS on that
 * memory (blas_host.c). A GEMM ampcl's own kernels can do (no transposes, alpha 1, beta 0): the
 * choice between CLBlast and those kernels (gemm_choice.c), or the one AMP_BLAS_GEMM forces; that
 * variable is read at every call, and a bad value fails the call. Any other GEMM with B not
 * transposed: the same engines through a scratch product and an epilogue (gemm_general.c), unless
 * CLBlast is forced or won that size class; the rest: CLBlast (clblast_gemm.c). */
#include <stdio.h>

#include "ampcl/blas.h"
#include "blas/blas_host.h"
#include "blas/clblast_gemm.h"
#include "blas/gemm_choice.h"
#include "blas/gemm_general.h"

static amp_status check_matrix(const amp_array_view *v, const char *name, amp_elem_kind kind,
                               const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(v, AMP__MAGIC_ARRAY_VIEW, "array view", fn));
  if (v->extent.rank != 2)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH, "%s: %s has rank %d; a matrix has rank 2", fn, name,
              v->extent.rank);
  if (v->type.kind != kind)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s holds another element type than A", fn, name);
fail:
  return status;
}

amp_status amp_blas_gemm(amp_accelerator_view *view, amp_transpose trans_a, amp_transpose trans_b,
                         double alpha, amp_array_view *a, amp_array_view *b, double beta,
                         amp_array_view *c, amp_future **done) {
  return amp_blas_gemm_ex(view, 0, trans_a, trans_b, alpha, a, b, beta, c, done);
}

amp_status amp_blas_gemm_ex(amp_accelerator_view *view, unsigned flags, amp_transpose trans_a,
                            amp_transpose trans_b, double alpha, amp_array_view *a,
                            amp_array_view *b, double beta, amp_array_view *c, amp_future **done) {
  amp_status status = AMP_SUCCESS;
  const char *fn = flags ? "amp_blas_gemm_ex" : "amp_blas_gemm";
  amp__gemm_mode mode;
  AMP__CHECK(view, AMP__MAGIC_VIEW, "accelerator view");
  if (flags & ~(unsigned)AMP_GEMM_ALLOW_TF32)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: flags is 0x%x; the only flag there is is AMP_GEMM_ALLOW_TF32 (0x%x)", fn, flags,
              (unsigned)AMP_GEMM_ALLOW_TF32);
  AMP__TRY(amp__check_handle(a, AMP__MAGIC_ARRAY_VIEW, "array view", fn));
  if (a->type.kind != AMP_ELEM_FLOAT && a->type.kind != AMP_ELEM_DOUBLE)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: GEMM takes AMP_FLOAT or AMP_DOUBLE views", fn);
  AMP__TRY(check_matrix(a, "A", a->type.kind, fn));
  AMP__TRY(check_matrix(b, "B", a->type.kind, fn));
  AMP__TRY(check_matrix(c, "C", a->type.kind, fn));
  if (c->read_only)
    AMP__FAIL(AMP_ERROR_ACCESS_DENIED, "%s: C is a read-only view", fn);
  size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1];
  size_t am = (size_t)a->extent.dim[trans_a ? 1 : 0], k = (size_t)a->extent.dim[trans_a ? 0 : 1];
  size_t bk = (size_t)b->extent.dim[trans_b ? 1 : 0], bn = (size_t)b->extent.dim[trans_b ? 0 : 1];
  if (am != m || bk != k || bn != n)
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH,
              "%s: op(A) is %zu x %zu, op(B) is %zu x %zu and C is %zu x %zu; they must be "
              "m x k, k x n and m x n",
              fn, am, k, bk, bn, m, n);
  if (a->type.kind == AMP_ELEM_DOUBLE && !view->acc->props.supports_double_precision)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE, "%s: %s does not support double precision", fn,
              view->acc->props.device_path);
  AMP__TRY(amp__gemm_mode_get(&mode, fn));
  if (amp__blas_host_wanted(view->acc, a, b, c))
    return amp__blas_host_gemm(view, trans_a, trans_b, alpha, a, b, beta, c, done);
  if (amp__gemm_fast_can(trans_a, trans_b, alpha, beta)) {
    if ((flags & AMP_GEMM_ALLOW_TF32) && a->type.kind == AMP_ELEM_FLOAT &&
        mode != AMP__GEMM_CLBLAST && mode != AMP__GEMM_PORTABLE)
      return amp__gemm_tf32_run(view, mode, a, b, c, done);
    return amp__gemm_choice_run(view, mode, a, b, c, done);
  }
  if (amp__gemm_general_wanted(view->acc, mode, trans_b, a->type.kind, m, n, k))
    return amp__gemm_general_run(view, mode, trans_a, alpha, a, b, beta, c, done);
  return amp__blas_clblast(view, trans_a, trans_b, alpha, a, b, beta, c, done);
fail:
  return status;
}
