/* runtime/blas_choice.c: CLBlast or ampcl's own GEMM kernel, whichever is faster, per size.
 *
 * ampcl's fast kernel (kernels_cl/matmul_fast.cl on GPUs, matmul_cpu.cl on CPU devices; for double
 * on NVIDIA devices of compute capability 9.x, matmul_dmma_bulk.cl and matmul_dmma.cl on the
 * FP64 tensor cores)
 * computes C = A * B on row-major views, sections included, any sizes. On an H200 it beats CLBlast
 * at large sizes (1.3x in float, 1.76x in double) but not necessarily at every size. So a GEMM it
 * can do (no transposes, alpha 1, beta 0; every other GEMM stays CLBlast) goes to whichever of the
 * two measured faster for its (accelerator, element type, size class), the class being the power
 * of two at or above max(m, n, k). The first such GEMM of a class measures: CLBlast once untimed
 * (it compiles its kernels at its first call of a kind, which would fall inside its timed span),
 * then the fast kernel and CLBlast again, each timed with OpenCL profiling events on the call's
 * own views (all three write the same product into C; CLBlast's, run last, is the result). Where
 * the view does not profile (AMP_PROFILE=0) both are timed on the host instead, from enqueue to
 * the end of a wait, after an untimed run of the fast kernel too (its first run builds it). The
 * call waits for them, caches the faster engine (under a lock; a GEMM of the same class on another
 * thread meanwhile runs CLBlast without measuring), and its future is the winner's run. With
 * AMP_DEBUG=1 each measurement prints one line with both times and the choice.
 *
 * AMP_BLAS_GEMM=clblast|fast|auto (default auto) forces an engine for these GEMMs; "portable" is
 * the fast engine with the portable kernels only (matmul_fast.cl, matmul_cpu.cl: no inline PTX, no
 * TF32, even on the GPUs that have those paths), for checking or comparing a vendor path; another
 * value is an error naming it. The fast kernel launches through amp_parallel_for_each_ex, so its
 * operands go through the data model like any launch; its programs are built once per tile shape
 * and element type (amp_kernel handles kept for the process, built per accelerator at first use).
 *
 * Device time of the two engines: the fast kernel's is its kernel event (start to end); CLBlast's
 * runs from the end of a one-item kernel enqueued just before it to the end of its last kernel
 * (blas.c), so it includes its helper kernels, as it should. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ampcl/kernel.h"
#include "blas/blas_choice.h"
#include "core/trace_impl.h"
#include "exec/program.h"

amp_status amp__gemm_mode_get(amp__gemm_mode *out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  const char *env = getenv("AMP_BLAS_GEMM");
  *out = AMP__GEMM_AUTO;
  if (!env || !*env || strcmp(env, "auto") == 0)
    return AMP_SUCCESS;
  if (strcmp(env, "clblast") == 0)
    *out = AMP__GEMM_CLBLAST;
  else if (strcmp(env, "fast") == 0)
    *out = AMP__GEMM_FAST;
  else if (strcmp(env, "portable") == 0)
    *out = AMP__GEMM_PORTABLE;
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

/* One way to launch the fast kernel: a program file with its options and its launch shape. */
typedef struct plan {
  const char *file, *opts;
  int cpu;          /* matmul_cpu: a plain domain of (column blocks, row blocks) */
  int ts_m, ts_n;   /* rows and columns of C per tile (per work-item for matmul_cpu) */
  int rts_m, rts_n; /* threads per tile (matmul_fast) */
  int fallback;     /* the plan to take instead once this one was refused here, or -1 */
} plan;

/* matmul_fast.cl's header has the shapes: for float the largest of the first three that gives at
 * least half the compute units a tile; for double 64 x 128 with 8 x 8 per thread and double2
 * columns of B, or where the device has FP64 tensor cores that PTX's m16n8k8 reaches (compute
 * capability 9.x) matmul_dmma_bulk.cl: 128 x 128 blocks (2.3x the portable kernel on an H100 at
 * 4096-8192, 0.91-0.97x cuBLAS) if that gives at least half the compute units a tile, else
 * 128 x 64 blocks (faster than 128 x 128 and than matmul_dmma.cl at 256-1024, slower than 128 x
 * 128 from 1536 up), docs/PERFORMANCE.md; matmul_dmma.cl where the bulk kernel is refused. On 9.x
 * the 128 x 128 float shape takes K tiles of 32 in a ring of 4 fed by cp.async (matmul_fast's step
 * 13: 135 KB of tile_static memory, which NVIDIA's driver lets a kernel declare there; 5-6% faster
 * than K tiles of 32 through registers on an H100, which are its fallback, then K tiles of 16);
 * double falls back from the tensor-core kernels to the same ring in the double shape, then to the
 * plain double shape. matmul_cpu.cl's: 8 rows x 32 columns per work-item (8 x 16 for double). */
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
  P_DMMA_BULK_N64,
  P_F128_RING,
  P_D_RING,
  NPLANS
};
_Static_assert(NPLANS <= 32, "amp_accelerator.gemm_broken_plans has a bit per plan");
static const plan plans[NPLANS] = {
    {"matmul_fast", "-DT=float", 0, 128, 128, 16, 16, -1},
    {"matmul_fast", "-DT=float -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4", 0, 64, 128, 8, 32, -1},
    {"matmul_fast", "-DT=float -DTS_M=32 -DTS_N=64 -DWPT_M=4 -DWPT_N=4", 0, 32, 64, 8, 16, -1},
    {"matmul_fast", "-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2", 0, 64,
     128, 8, 16, -1},
    {"matmul_cpu", "-DT=float", 1, 8, 32, 0, 0, -1},
    {"matmul_cpu", "-DT=double -DCB=1", 1, 8, 16, 0, 0, -1},
    /* its defaults: 4 warps (tile 4 x 32 threads) */
    {"matmul_dmma", "", 0, 128, 64, 4, 32, P_D_RING},
    {"matmul_fast", "-DT=float -DTS_K=32", 0, 128, 128, 16, 16, P_F128},
    /* Only when the caller allows TF32 (amp__gemm_tf32_run; -1: amp_blas_gemm's float choice,
     * made there). Its defaults (128 x 128, K tiles of 16, 48 KB) and 128 x 64 where the device
     * is not 9.x (not measured there); on 9.x the fastest measured on an H100, 128 x 256 with
     * warps of 64 x 64 and K tiles of 32 (144 KB), and 128 x 64 with K tiles of 32 for matrices
     * with too few 128 x 256 blocks (docs/PERFORMANCE.md). */
    {"matmul_tf32", "", 0, 128, 128, 8, 32, -1},
    {"matmul_tf32", "-DBN=64", 0, 128, 64, 4, 32, -1},
    {"matmul_tf32", "-DBN=256 -DWN=64 -DBK=32 -DSTAGES=3", 0, 128, 256, 8, 32, P_TF32},
    {"matmul_tf32", "-DBN=64 -DBK=32 -DSTAGES=4", 0, 128, 64, 4, 32, P_TF32_N64},
    /* its defaults: 8 consumer and 4 producer warps (tile 12 x 32 threads), 110 KB; 128 x 64
     * blocks (4 consumer warps) for matrices with too few 128 x 128 blocks; matmul_dmma where
     * either is refused */
    {"matmul_dmma_bulk", "", 0, 128, 128, 12, 32, P_DMMA},
    {"matmul_dmma_bulk", "-DBN=64", 0, 128, 64, 8, 32, P_DMMA},
    /* matmul_fast's step 13 (cp.async, sm_80 and up): on 9.x only, where it was measured */
    {"matmul_fast", "-DT=float -DTS_K=32 -DASYNC_STAGES=4", 0, 128, 128, 16, 16, P_F128_K32},
    {"matmul_fast",
     "-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3", 0, 64,
     128, 8, 16, P_D},
};

static pthread_mutex_t kernels_lock = PTHREAD_MUTEX_INITIALIZER;
static amp_kernel *kernels[NPLANS]; /* made at first use; made again if that failed */
/* test hooks (blas_choice.h) */
static _Atomic int test_gpu_kernel;
static _Atomic unsigned test_compute_units;
static _Atomic unsigned test_cc;
static const char *_Atomic last_fast_opts = ""; /* the build options of the last fast GEMM */
static const char *_Atomic last_fast_file = ""; /* and its kernel file */

void amp__gemm_test_compute_capability(unsigned cc) {
  atomic_store(&test_cc, cc);
}

const char *amp__gemm_last_fast_options(void) {
  return atomic_load(&last_fast_opts);
}

const char *amp__gemm_last_fast_file(void) {
  return atomic_load(&last_fast_file);
}

/* Whether plan p failed to build on acc (so its fallback runs there). */
static int plan_broken(const amp_accelerator *acc, int p) {
  return (atomic_load(&acc->gemm_broken_plans) >> p) & 1u;
}

unsigned amp__gemm_refused_plans(const amp_accelerator *acc) {
  unsigned n = 0;
  for (unsigned bits = atomic_load(&acc->gemm_broken_plans); bits; bits &= bits - 1)
    n++;
  return n;
}

int amp__gemm_dmma_fell_back(const amp_accelerator *acc) {
  return plan_broken(acc, P_DMMA_BULK) || plan_broken(acc, P_DMMA_BULK_N64) ||
         plan_broken(acc, P_DMMA);
}

int amp__gemm_tf32_fell_back(const amp_accelerator *acc) {
  return plan_broken(acc, P_TF32) || plan_broken(acc, P_TF32_N64) ||
         plan_broken(acc, P_TF32_WIDE) || plan_broken(acc, P_TF32_SMALL);
}

void amp__gemm_test_gpu_kernel(int gpu_kernel, unsigned compute_units) {
  atomic_store(&test_gpu_kernel, gpu_kernel);
  atomic_store(&test_compute_units, gpu_kernel ? compute_units : 0);
}

static size_t ceil_div(size_t x, size_t d) {
  return (x + d - 1) / d;
}

/* Whether plan p gives fewer than half the compute units a tile for an m x n C. */
static int too_few_tiles(int p, size_t m, size_t n, unsigned cu) {
  return 2 * ceil_div(m, (size_t)plans[p].ts_m) * ceil_div(n, (size_t)plans[p].ts_n) < (size_t)cu;
}

/* The plan for an m x n C of `kind` on acc, tf32 when the caller allows TF32 (float only): -1
 * when no TF32 plan is left (none on this device, or all refused here), meaning float. portable:
 * as on a device without vendor paths (compute capability 0). */
static int pick_plan(const amp_accelerator *acc, amp_elem_kind kind, size_t m, size_t n, int tf32,
                     int portable) {
  int dbl = kind == AMP_ELEM_DOUBLE;
  unsigned cc = atomic_load(&test_cc);
  if (!cc)
    cc = acc->props.compute_capability;
  if (portable)
    cc = 0;
  unsigned cu = atomic_load(&test_compute_units);
  if (!cu)
    cu = acc->props.compute_units;
  /* The device-specific plans on 9.x only: the devices they were measured on (H100, H200). Later
   * NVIDIA GPUs build matmul_dmma too, but some run FP64 mma no faster than their vector units;
   * they keep the portable kernels until measured. */
  const int cc9 = cc >= 90 && cc < 100;
  int p;
  if (tf32) {
    /* The tf32 mma exists from compute capability 8.0 (NVIDIA only: others report 0); the large
     * shape where it gives at least half the compute units a tile, else the 128 x 64 one. */
    if (cc < 80)
      return -1;
    p = cc9 ? P_TF32_WIDE : P_TF32;
    if (too_few_tiles(p, m, n, cu))
      p = cc9 ? P_TF32_SMALL : P_TF32_N64;
  } else if (acc->props.is_emulated && !atomic_load(&test_gpu_kernel)) {
    return dbl ? P_CPU_D : P_CPU_F;
  } else if (dbl) {
    p = cc9 ? P_DMMA_BULK : P_D;
    if (p == P_DMMA_BULK && too_few_tiles(p, m, n, cu))
      p = P_DMMA_BULK_N64;
  } else {
    p = P_F128;
    while (p < P_F32 && too_few_tiles(p, m, n, cu))
      p++;
    if (p == P_F128 && cc9)
      p = P_F128_RING;
  }
  /* refused here before: its fallback (-1 only after a TF32 plan) */
  while (p >= 0 && plan_broken(acc, p))
    p = plans[p].fallback;
  return p;
}

static amp_status get_kernel(int p, amp_kernel **out) {
  amp_status status = AMP_SUCCESS;
  pthread_mutex_lock(&kernels_lock);
  if (!kernels[p]) {
    amp_program *prog = NULL;
    status = amp_program_create_builtin(plans[p].file, plans[p].opts, &prog);
    if (status == AMP_SUCCESS)
      status = amp_kernel_create(prog, plans[p].file, &kernels[p]);
    amp_program_release(prog); /* the kernel keeps it */
  }
  *out = kernels[p];
  pthread_mutex_unlock(&kernels_lock);
  return status;
}

static _Atomic uint64_t n_clblast, n_fast, n_measured;

amp__gemm_counts amp__gemm_counts_get(void) {
  amp__gemm_counts c = {atomic_load(&n_clblast), atomic_load(&n_fast), atomic_load(&n_measured)};
  return c;
}

/* C = A * B through plan p, launched like any kernel (the data model moves the views). On
 * failure *refused says whether the device refused the plan itself with nothing enqueued: at
 * the build (the tensor-core kernels' PTX), at the launch's checks (a larger K tile's
 * tile_static memory) or at the driver's enqueue; then a fallback can do the work. A failure
 * after the kernel was enqueued (a full handle table for its future is LIMIT_EXCEEDED too) is
 * not a refusal. */
static amp_status launch_plan(amp_accelerator_view *view, int p, amp_array_view *a,
                              amp_array_view *b, amp_array_view *c, amp_future **done,
                              int *refused) {
  amp_status status = AMP_SUCCESS;
  size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1];
  const plan *pl = &plans[p];
  amp_kernel *k;
  *refused = 0;
  if ((status = get_kernel(p, &k)) != AMP_SUCCESS) {
    *refused = status == AMP_ERROR_BUILD_FAILED;
    return status;
  }
  amp_arg args[] = {amp_arg_view(a), amp_arg_view(b), amp_arg_view(c)};
  amp_launch l = {0};
  l.kernel = k;
  l.args = args;
  l.nargs = AMP_NARGS(args);
  if (pl->cpu) { /* column blocks first (matmul_cpu.cl) */
    l.domain = amp_extent2((int)ceil_div(n, (size_t)pl->ts_n), (int)ceil_div(m, (size_t)pl->ts_m));
  } else { /* views hold at most 2^31-1 elements, so these fit an int */
    l.domain = amp_extent2((int)(ceil_div(m, (size_t)pl->ts_m) * (size_t)pl->rts_m),
                           (int)(ceil_div(n, (size_t)pl->ts_n) * (size_t)pl->rts_n));
    l.tiled = 1;
    l.tile[0] = pl->rts_m;
    l.tile[1] = pl->rts_n;
  }
  status = amp_parallel_for_each_ex(view, &l, done);
  if (status != AMP_SUCCESS) {
    *refused = (status == AMP_ERROR_BUILD_FAILED || status == AMP_ERROR_LIMIT_EXCEEDED) &&
               !amp__launch_enqueued();
    return status;
  }
  atomic_fetch_add(&n_fast, 1);
  atomic_store(&last_fast_opts, pl->opts);
  atomic_store(&last_fast_file, pl->file);
  return status;
}

/* C = A * B through the kernel pick_plan chooses (tf32: a TF32 plan, and when none is left the
 * float GEMM amp__gemm_choice_run makes with `mode`). A plan the device refuses that has a
 * fallback (every TF32 plan has: another, or float) is marked on the accelerator, and its
 * fallback (pick_plan follows the bit) does the work, now and from then on. */
static amp_status run_plans(amp_accelerator_view *view, int tf32, amp__gemm_mode mode,
                            amp_array_view *a, amp_array_view *b, amp_array_view *c,
                            amp_future **done) {
  size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1];
  int p = pick_plan(view->acc, a->type.kind, m, n, tf32, mode == AMP__GEMM_PORTABLE);
  if (p < 0)
    return amp__gemm_choice_run(view, mode, a, b, c, done); /* float, as amp_blas_gemm runs it */
  int refused;
  amp_status status = launch_plan(view, p, a, b, c, done, &refused);
  if (status != AMP_SUCCESS && refused && (tf32 || plans[p].fallback >= 0)) {
    atomic_fetch_or(&view->acc->gemm_broken_plans, 1u << p);
    return run_plans(view, tf32, mode, a, b, c, done);
  }
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

void amp__gemm_count_clblast(void) {
  atomic_fetch_add(&n_clblast, 1);
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
  /* A view without profiling (AMP_PROFILE=0) has no device times: each run is then timed on
   * the host, from its enqueue to the end of a wait for it (launch overhead included). */
  const bool host_timed = !view->profiling;
  AMP__TRY(run_clblast(view, a, b, c, NULL)); /* untimed: CLBlast compiles at its first call */
  amp_status fst = AMP_SUCCESS;
  if (host_timed) { /* the fast kernel's first run builds it: untimed too */
    fst = run_fast(view, a, b, c, NULL);
    AMP__TRY(amp_accelerator_view_wait(view));
  }
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
