/* runtime/blas/gemm_choice.c: CLBlast or ampcl's own GEMM kernels, whichever is faster, per size.
 *
 * ampcl's fast kernel (kernels_cl/gemm/matmul_fast.cl on GPUs, matmul_cpu.cl on CPU devices; for
 * double on NVIDIA devices of compute capability 9.x, matmul_dmma_bulk.cl and matmul_dmma.cl on the
 * FP64 tensor cores)
 * computes C = A * B on row-major views, sections included, any sizes. On an H200 it beats CLBlast
 * at large sizes (1.3x in float, 1.76x in double) but not necessarily at every size. So a GEMM it
 * can do (no transposes, alpha 1, beta 0; every other GEMM stays CLBlast) goes to whichever of the
 * two measured faster for its (accelerator, element type, size class), the class being the power
 * of two at or above max(m, n, k). The first such GEMM of a class measures: each engine once
 * untimed (CLBlast compiles its kernels at its first call of a kind; the fast kernel's first run
 * builds it, and where it is two kernels, matmul_dmma_bulk split along k and gemm_ksplit_sum, the
 * span timed from the first's start to the second's end can take in the host's work at the
 * second's first enqueue: on an H100, timed so, the split lost to CLBlast at 3000, and won at
 * 5000 once the sum kernel had run: lab/runs/h100/2026-12-07-ksplit-first), then the fast kernel
 * and CLBlast again, each timed with OpenCL profiling events on the call's own views (all four
 * write the same product into C; CLBlast's, run last, is the result). Where the view does not
 * profile (AMP_PROFILE=0) both are timed on the host instead, from enqueue to the end of a wait.
 * The call waits for them, caches the faster engine (under a lock; a GEMM of the same class on
 * another thread meanwhile runs CLBlast without measuring), and its future is the winner's run.
 * With AMP_DEBUG=1 each measurement prints one line with both times and the choice.
 *
 * AMP_BLAS_GEMM=clblast|fast|auto (default auto) forces an engine for these GEMMs; "portable" is
 * the fast engine with the portable kernels only (matmul_fast.cl, matmul_cpu.cl: no inline PTX, no
 * TF32, even on the GPUs that have those paths), for checking or comparing a vendor path; another
 * value is an error naming it. The fast kernel launches through amp_parallel_for_each_ex, so its
 * operands go through the data model like any launch; its programs are built once per tile shape
 * and element type (amp_kernel handles kept for the process, built per accelerator at first use).
 *
 * Device time of the two engines: the fast kernel's is its kernel event (start to end; from the
 * start of the first to the end of the last where it is two, gemm_kernels.c); CLBlast's
 * runs from the end of a one-item kernel enqueued just before it to the end of its last kernel
 * (blas.c), so it includes its helper kernels, as it should. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas/clblast_gemm.h"
#include "blas/gemm_choice.h"
#include "blas/gemm_kernels.h"
#include "core/env_parse.h"
#include "core/knobs.h"
#include "core/timestamps.h"
#include "core/trace_impl.h"

amp_status amp__gemm_mode_get(amp__gemm_mode *out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  static const amp__gemm_mode modes[] = {AMP__GEMM_AUTO, AMP__GEMM_CLBLAST, AMP__GEMM_FAST,
                                         AMP__GEMM_PORTABLE};
  const char *env = amp__knob_get(AMP_KNOB_BLAS_GEMM);
  int m = amp__env_blas_gemm(env);
  *out = AMP__GEMM_AUTO;
  if (m >= 0)
    *out = modes[m];
  else
    AMP__FAIL(
        AMP_ERROR_INVALID_ARGUMENT,
        "%s: AMP_BLAS_GEMM is \"%s\"; it must be clblast, fast, portable or auto (the default)", fn,
        env);
fail:
  return status;
}

int amp__gemm_fast_can(amp_transpose trans_a, amp_transpose trans_b, double alpha, double beta) {
  return trans_a == AMP_NO_TRANS && trans_b == AMP_NO_TRANS && alpha == 1.0 && beta == 0.0;
}

/* ---- the fast kernel ------------------------------------------------------------------------ */

static _Atomic uint64_t n_measured;

amp__gemm_counts amp__gemm_counts_get(void) {
  amp__gemm_counts c = {amp__gemm_clblast_count(), amp__gemm_fast_count(),
                        atomic_load(&n_measured)};
  return c;
}

static amp_status run_plans(amp_accelerator_view *view, int tf32, amp__gemm_mode mode,
                            amp_array_view *a, amp_array_view *b, amp_array_view *c,
                            amp_future **done) {
  int no_plan;
  amp_status status =
      amp__gemm_kernels_run(view, tf32, mode == AMP__GEMM_PORTABLE, a, b, c, done, &no_plan);
  if (status == AMP_SUCCESS && no_plan) /* no TF32 plan left: float, as amp_blas_gemm runs it */
    return amp__gemm_choice_run(view, mode, a, b, c, done);
  return status;
}

static amp_status run_fast(amp_accelerator_view *view, amp_array_view *a, amp_array_view *b,
                           amp_array_view *c, amp_future **done) {
  return run_plans(view, 0, AMP__GEMM_FAST, a, b, c, done);
}

static amp_status run_clblast(amp_accelerator_view *view, amp_array_view *a, amp_array_view *b,
                              amp_array_view *c, amp_future **done) {
  return amp__blas_clblast(view, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, a, b, 0.0, c, done);
}

/* ---- the cache of choices -------------------------------------------------------------------- */

enum { NCLASS = 64 };
typedef struct entry {
  int state; /* AMP__GEMM_AUTO (none yet), _CLBLAST, _FAST, or MEASURING */
  uint64_t clblast_ns, fast_ns;
} entry;
enum { MEASURING = 3 };

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static entry (*cache)[2][NCLASS]; /* per accelerator index, element type, size class */
static size_t ncache;

static int size_class(size_t m, size_t n, size_t k) {
  size_t x = m > n ? m : n;
  x = x > k ? x : k;
  int c = 0;
  while (c < NCLASS - 1 && ((size_t)1 << c) < x)
    c++;
  return c;
}

/* The entry, grown into existence; NULL when out of memory. Call with cache_lock held. */
static entry *lookup(const amp_accelerator *acc, amp_elem_kind kind, int cls) {
  if (acc->index >= ncache) {
    size_t want = acc->index + 1;
    void *p = realloc(cache, want * sizeof *cache);
    if (!p)
      return NULL;
    cache = p;
    memset(cache + ncache, 0, (want - ncache) * sizeof *cache);
    ncache = want;
  }
  return &cache[acc->index][kind == AMP_ELEM_DOUBLE][cls];
}

amp__gemm_mode amp__gemm_cached(const amp_accelerator *acc, amp_elem_kind kind, size_t m, size_t n,
                                size_t k, uint64_t *clblast_ns, uint64_t *fast_ns) {
  amp__gemm_mode r = AMP__GEMM_AUTO;
  pthread_mutex_lock(&cache_lock);
  entry *e = acc->index < ncache ? lookup(acc, kind, size_class(m, n, k)) : NULL;
  if (e && (e->state == AMP__GEMM_CLBLAST || e->state == AMP__GEMM_FAST)) {
    r = (amp__gemm_mode)e->state;
    if (clblast_ns)
      *clblast_ns = e->clblast_ns;
    if (fast_ns)
      *fast_ns = e->fast_ns;
  }
  pthread_mutex_unlock(&cache_lock);
  return r;
}

static void store(const amp_accelerator *acc, amp_elem_kind kind, int cls, int state,
                  uint64_t clblast_ns, uint64_t fast_ns) {
  pthread_mutex_lock(&cache_lock);
  entry *e = lookup(acc, kind, cls); /* exists: made when the measurement began */
  if (e) {
    e->state = state;
    e->clblast_ns = clblast_ns;
    e->fast_ns = fast_ns;
  }
  pthread_mutex_unlock(&cache_lock);
}

/* The first GEMM of a class: both engines, timed; the faster is cached, its future returned. */
static amp_status measure(amp_accelerator_view *view, int cls, amp_array_view *a, amp_array_view *b,
                          amp_array_view *c, amp_future **done) {
  amp_status status = AMP_SUCCESS;
  amp_elem_kind kind = a->type.kind;
  amp_future *ff = NULL, *fc = NULL;
  uint64_t fast_ns = 0, clblast_ns = 0;
  int state = AMP__GEMM_AUTO;
  /* A view without profiling (AMP_PROFILE=0), or a device whose timestamps measure nothing
   * (core/timestamps.c), has no device times: each run is then timed on
   * the host, from its enqueue to the end of a wait for it (launch overhead included). */
  const bool host_timed = !view->profiling || !amp__timestamps_usable(view->acc, NULL);
  AMP__TRY(run_clblast(view, a, b, c, NULL)); /* untimed: CLBlast compiles at its first call */
  /* untimed too: the fast kernel's first run builds (and loads) its kernels */
  amp_status fst = run_fast(view, a, b, c, NULL);
  if (host_timed)
    AMP__TRY(amp_accelerator_view_wait(view));
  uint64_t t0 = amp__trace_now();
  if (fst == AMP_SUCCESS)
    fst = run_fast(view, a, b, c, &ff);
  if (host_timed && fst == AMP_SUCCESS && (fst = amp_future_wait(ff)) == AMP_SUCCESS)
    fast_ns = amp__trace_now() - t0;
  t0 = amp__trace_now();
  AMP__TRY(run_clblast(view, a, b, c, &fc)); /* run last: its C is the result */
  if (host_timed) {
    AMP__TRY(amp_future_wait(fc));
    clblast_ns = amp__trace_now() - t0;
  } else {
    AMP__TRY(amp_future_elapsed_ns(fc, &clblast_ns));
    if (fst == AMP_SUCCESS)
      fst = amp_future_elapsed_ns(ff, &fast_ns);
  }
  if (fst != AMP_SUCCESS) { /* e.g. too little tile_static memory for the tile: CLBlast then */
    if (amp__debug_enabled())
      fprintf(stderr, "[ampcl] amp_blas_gemm: the fast kernel failed (%s), CLBlast it is\n",
              amp_last_error());
    fast_ns = UINT64_MAX;
  }
  state = fast_ns < clblast_ns ? AMP__GEMM_FAST : AMP__GEMM_CLBLAST;
  atomic_fetch_add(&n_measured, 1);
  if (amp__debug_enabled())
    fprintf(stderr,
            "[ampcl] amp_blas_gemm: %s GEMMs of size class %zu (m %d, n %d, k %d) on %s: CLBlast "
            "%.3f ms, fast kernel %.3f ms: %s from now on\n",
            kind == AMP_ELEM_DOUBLE ? "double" : "float", (size_t)1 << cls, c->extent.dim[0],
            c->extent.dim[1], a->extent.dim[1], view->acc->props.device_path, clblast_ns * 1e-6,
            fast_ns == UINT64_MAX ? -1.0 : fast_ns * 1e-6,
            state == AMP__GEMM_FAST ? "fast kernel" : "CLBlast");
  if (done) {
    *done = state == AMP__GEMM_FAST ? ff : fc;
    if (state == AMP__GEMM_FAST)
      ff = NULL;
    else
      fc = NULL;
  }
fail:
  store(view->acc, kind, cls, state, clblast_ns, fast_ns); /* AMP__GEMM_AUTO again on failure */
  amp_future_release(ff);
  amp_future_release(fc);
  return status;
}

amp_status amp__gemm_choice_run(amp_accelerator_view *view, amp__gemm_mode mode, amp_array_view *a,
                                amp_array_view *b, amp_array_view *c, amp_future **done) {
  amp_status status = AMP_SUCCESS;
#ifndef AMP_HAVE_CLBLAST
  if (mode == AMP__GEMM_AUTO)
    mode = AMP__GEMM_FAST; /* nothing to choose from */
#endif
  if (mode == AMP__GEMM_FAST)
    return run_fast(view, a, b, c, done);
  if (mode == AMP__GEMM_PORTABLE)
    return run_plans(view, 0, mode, a, b, c, done);
  if (mode == AMP__GEMM_CLBLAST)
    return run_clblast(view, a, b, c, done);
  size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1], k = (size_t)a->extent.dim[1];
  int cls = size_class(m, n, k), state = AMP__GEMM_AUTO;
  pthread_mutex_lock(&cache_lock);
  entry *e = lookup(view->acc, a->type.kind, cls);
  if (e) {
    state = e->state;
    if (state == AMP__GEMM_AUTO)
      e->state = MEASURING;
  }
  pthread_mutex_unlock(&cache_lock);
  if (!e)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "amp_blas_gemm: out of memory for the GEMM choice cache");
  if (state == AMP__GEMM_AUTO)
    return measure(view, cls, a, b, c, done);
  if (state == AMP__GEMM_FAST)
    return run_fast(view, a, b, c, done);
  return run_clblast(view, a, b, c, done); /* chosen, or being measured on another thread */
fail:
  return status;
}

/* ---- TF32, when the caller allows it ----------------------------------------------------------
 */

/* No measurement against CLBlast: both would have to agree on what "the same result" is. */
amp_status amp__gemm_tf32_run(amp_accelerator_view *view, amp__gemm_mode mode, amp_array_view *a,
                              amp_array_view *b, amp_array_view *c, amp_future **done) {
  return run_plans(view, 1, mode, a, b, c, done);
}
