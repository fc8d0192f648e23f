/* runtime/blas/gemm_general.c: the GEMMs ampcl's own kernels do not compute as they are,
 * C = alpha op(A) B + beta C with alpha != 1, beta != 0 or A transposed, on the fast engine
 * instead of CLBlast's general GEMM (which runs at about two thirds of the fast engine's speed on
 * the GPUs measured; an MPI program's SUMMA step, C += A_k B_k, is one of these).
 *
 * C is done in blocks of rows. For each block: op(A)'s rows (a section of A, or with A transposed
 * a transpose launch into a scratch view), their product with B into a scratch view P through the
 * engine choice of gemm_choice.c (which measures CLBlast against the fast kernel where nothing is
 * cached yet), and one launch C's rows = alpha P + beta C's rows
 * (kernels_cl/gemm/gemm_epilogue.cl). A block has as many rows as keep P (and the transposed rows
 * of A) within GG_SCRATCH bytes, so the extra memory is bounded whatever C's size; the extra
 * traffic is one write and one read of P and one read of C, small beside a product with k in the
 * hundreds or more. With alpha 1 and beta 0 (only A transposed) there is no P and no epilogue:
 * each block's product goes straight into C's rows.
 *
 * The call does not wait: the scratch views are transient (data/source.h), so their release hands
 * their buffers to data/retire.c, which keeps them for the next call's scratch once the launches
 * that use them have ended (releasing them would wait for the GPU on NVIDIA). The future `done`
 * spans from the end of a one-item launch that reads A and B (so it starts when they are ready) to
 * the end of the last block's epilogue (or product), so amp_future_elapsed_ns gives the whole
 * GEMM's device time.
 *
 * Errors: an operand check fails before anything runs; a block that fails after an earlier one
 * wrote C leaves C partly updated, which docs/ERRORS.md lists as one of its two exceptions. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "ampcl/kernel.h"
#include "ampcl/kernel_limits.h"
#include "blas/gemm_choice.h"
#include "blas/gemm_general.h"

#define GG_SCRATCH ((size_t)128 << 20) /* bytes of P and of A's transposed rows, each */

static _Atomic size_t scratch_bytes = GG_SCRATCH;

void amp__gemm_general_test_scratch(size_t bytes) {
  atomic_store(&scratch_bytes, bytes ? bytes : GG_SCRATCH);
}
#define GT  32 /* gemm_epilogue.cl: the transpose's block edge */
#define NGR 4  /* its thread rows: 8, or 4, 2, 1 where the device allows fewer threads per tile */

enum { K_TRANSPOSE, K_AXPBY, K_STAMP, NK };
static const char *const names[NK] = {"gemm_transpose", "gemm_axpby", "gemm_stamp"};
static pthread_mutex_t kernels_lock = PTHREAD_MUTEX_INITIALIZER;
/* float, double; the transpose once per thread-row count (gr: 8 >> g); kept for the process like
 * gemm_kernels.c's */
static amp_kernel *kernels[2][NK][NGR];

static amp_status get_kernel_gr(int dbl, int which, int g, amp_kernel **out) {
  amp_status status = AMP_SUCCESS;
  pthread_mutex_lock(&kernels_lock);
  if (!kernels[dbl][which][g]) {
    amp_program *prog = NULL;
    char opts[48];
    snprintf(opts, sizeof opts, "-DT=%s -DGR=%d", dbl ? "double" : "float", 8 >> g);
    status = amp_program_create_builtin("gemm_epilogue", opts, &prog);
    if (status == AMP_SUCCESS)
      status = amp_kernel_create(prog, names[which], &kernels[dbl][which][g]);
    amp_program_release(prog); /* the kernel keeps it */
  }
  *out = kernels[dbl][which][g];
  pthread_mutex_unlock(&kernels_lock);
  return status;
}

static amp_status get_kernel(int dbl, int which, amp_kernel **out) {
  return get_kernel_gr(dbl, which, 0, out);
}

/* The transpose in tiles of *gr x GT threads, gr the most of 8, 4, 2, 1 that the device and the
 * kernel allow (asked as a portable program asks: the accelerator's limits, amp_kernel_limits);
 * 1 where none does, whose launch then says why it is refused. */
static amp_status get_transpose(amp_accelerator_view *view, int dbl, amp_kernel **out, int *gr) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator *acc = view->acc;
  const amp_accelerator_properties *p = &acc->props;
  for (int g = 0; g < NGR; g++) {
    amp_kernel_limits_info li;
    const size_t rows = (size_t)(8 >> g);
    AMP__TRY(get_kernel_gr(dbl, K_TRANSPOSE, g, out));
    *gr = (int)rows;
    if (rows * GT <= p->max_tile_size && rows <= p->max_tile_extent[1] &&
        GT <= p->max_tile_extent[2] && amp_kernel_limits(*out, acc, &li) == AMP_SUCCESS &&
        rows * GT <= li.max_tile_threads)
      break;
  }
  if (*gr != 8 && amp__debug_enabled())
    fprintf(
        stderr,
        "[ampcl] debug: amp_blas_gemm: the transpose of A in tiles of %d x %d threads (%s allows "
        "%zu per tile; the tuned shape is 8 x %d)\n",
        *gr, GT, acc->props.device_path, p->max_tile_size, GT);
fail:
  return status;
}

int amp__gemm_general_wanted(const amp_accelerator *acc, amp__gemm_mode mode, amp_transpose trans_b,
                             amp_elem_kind kind, size_t m, size_t n, size_t k) {
  if (trans_b != AMP_NO_TRANS || mode == AMP__GEMM_CLBLAST)
    return 0;
#ifdef AMP_HAVE_CLBLAST
  /* auto: CLBlast's general GEMM where CLBlast won this size class's product; the fast engine
   * where it won or nothing was measured yet (the first block's product measures) */
  if (mode == AMP__GEMM_AUTO &&
      amp__gemm_cached(acc, kind, m, n, k, NULL, NULL) == AMP__GEMM_CLBLAST)
    return 0;
#else
  (void)acc, (void)kind, (void)m, (void)n, (void)k;
#endif
  return 1;
}

static size_t min_size(size_t x, size_t y) {
  return x < y ? x : y;
}

/* A rows x cols section of v from (r, c); *out is v itself where that is all of it. */
static amp_status section(amp_array_view *v, int r, int c, int rows, int cols,
                          amp_array_view **out) {
  if (r == 0 && c == 0 && rows == v->extent.dim[0] && cols == v->extent.dim[1]) {
    *out = v;
    return amp_array_view_retain(v);
  }
  return amp_array_view_section(v, amp_index2(r, c), amp_extent2(rows, cols), out);
}

amp_status amp__gemm_general_run(amp_accelerator_view *view, amp__gemm_mode mode,
                                 amp_transpose trans_a, double alpha, amp_array_view *a,
                                 amp_array_view *b, double beta, amp_array_view *c,
                                 amp_future **done) {
  amp_status status = AMP_SUCCESS;
  const int dbl = a->type.kind == AMP_ELEM_DOUBLE;
  const size_t es = a->type.size;
  const size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1];
  const size_t k = (size_t)a->extent.dim[trans_a ? 0 : 1];
  amp_kernel *kt = NULL, *ke = NULL, *ks = NULL;
  int gr = 8;
  amp_array_view *p = NULL, *at = NULL, *as = NULL, *ats = NULL, *ps = NULL, *cs = NULL;
  amp_future *stamp = NULL, *last = NULL;
  /* alpha 1 and beta 0 (so A is transposed): each block's product goes straight into C's rows,
   * with no P and no epilogue */
  const int direct = alpha == 1.0 && beta == 0.0;
  if (!direct)
    AMP__TRY(get_kernel(dbl, K_AXPBY, &ke));
  if (trans_a)
    AMP__TRY(get_transpose(view, dbl, &kt, &gr));
  if (done)
    AMP__TRY(get_kernel(dbl, K_STAMP, &ks));
  /* rows per block: P and A's transposed rows within GG_SCRATCH each (n, k >= 1; views hold
   * fewer than 2^31 elements, so every product below fits a size_t and the extents an int) */
  const size_t cap = atomic_load(&scratch_bytes);
  size_t rows = direct ? m : min_size(m, cap / es / n);
  if (trans_a)
    rows = min_size(rows, cap / es / k);
  if (rows > 256)
    rows -= rows % 256; /* whole tiles of the product kernels */
  if (rows == 0)
    rows = 1;
  if (!direct)
    AMP__TRY(amp__array_view_create_transient(amp_extent2((int)rows, (int)n), a->type,
                                              "amp_blas_gemm", &p));
  if (trans_a)
    AMP__TRY(amp__array_view_create_transient(amp_extent2((int)rows, (int)k), a->type,
                                              "amp_blas_gemm", &at));
  if (done) {
    amp_arg sa[] = {amp_arg_view(a), amp_arg_view(b)};
    amp_launch l = {amp_extent1(1), 0, {0}, ks, sa, AMP_NARGS(sa)};
    AMP__TRY(amp_parallel_for_each_ex(view, &l, &stamp));
  }
  for (size_t r0 = 0; r0 < m; r0 += rows) {
    const int h = (int)min_size(rows, m - r0), r = (int)r0;
    amp_array_view *opa;
    if (trans_a) { /* A is k x m: its columns r0 .. r0 + h - 1, transposed into at's first h rows */
      AMP__TRY(section(a, 0, r, (int)k, h, &as));
      AMP__TRY(section(at, 0, 0, h, (int)k, &ats));
      amp_arg ta[] = {amp_arg_view(as), amp_arg_view(ats)};
      /* tiles of gr x GT threads, one per 32 x 32 block of as (k x h) */
      amp_launch l = {amp_extent2(((int)k + GT - 1) / GT * gr, (h + GT - 1) / GT * GT),
                      1,
                      {gr, GT},
                      kt,
                      ta,
                      AMP_NARGS(ta)};
      AMP__TRY(amp_parallel_for_each_ex(view, &l, NULL));
      opa = ats;
    } else {
      AMP__TRY(section(a, r, 0, h, (int)k, &as));
      opa = as;
    }
    AMP__TRY(section(c, r, 0, h, (int)n, &cs));
    amp_future_release(last);
    last = NULL;
    if (direct) {
      AMP__TRY(amp__gemm_choice_run(view, mode, opa, b, cs, done ? &last : NULL));
    } else {
      AMP__TRY(section(p, 0, 0, h, (int)n, &ps));
      AMP__TRY(amp__gemm_choice_run(view, mode, opa, b, ps, NULL));
      amp_arg ea[] = {amp_arg_view(ps), amp_arg_view(cs),
                      dbl ? amp_arg_double(alpha) : amp_arg_float((float)alpha),
                      dbl ? amp_arg_double(beta) : amp_arg_float((float)beta)};
      amp_launch l = {amp_extent2(h, (int)n), 0, {0}, ke, ea, AMP_NARGS(ea)};
      AMP__TRY(amp_parallel_for_each_ex(view, &l, done ? &last : NULL));
    }
    amp_array_view_release(as);
    amp_array_view_release(ats);
    amp_array_view_release(ps);
    amp_array_view_release(cs);
    as = ats = ps = cs = NULL;
  }
  if (done)
    status = amp__future_span(stamp, last, 0, done);
fail:
  amp_array_view_release(as);
  amp_array_view_release(ats);
  amp_array_view_release(ps);
  amp_array_view_release(cs);
  amp_array_view_release(p);
  amp_array_view_release(at);
  amp_future_release(stamp);
  amp_future_release(last);
  return status;
}
