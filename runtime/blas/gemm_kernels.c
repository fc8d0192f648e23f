/* runtime/blas/gemm_kernels.c: amp_blas_gemm's own kernels: the plan for a GEMM's size, element
 * type and device (gemm_plans.c has the table), each plan's program built once for the process,
 * its launch through the data model like any kernel's, and the fallback where a device refuses a
 * plan (remembered per accelerator). */
#include <stdio.h>
#include <stdlib.h>

#include "ampcl/kernel.h"
#include "blas/gemm_kernels.h"
#include "blas/gemm_plans.h"
#include "exec/launch.h"

static pthread_mutex_t kernels_lock = PTHREAD_MUTEX_INITIALIZER;
static amp_kernel *kernels[NPLANS]; /* made at first use; made again if that failed */
static amp_kernel *ksplit_sum;      /* gemm_epilogue.cl's gemm_ksplit_sum in double, the same way */
/* test hooks (gemm_kernels.h) */
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
  return plan_broken(acc, P_DMMA_BULK) || plan_broken(acc, P_DMMA_BULK_M64) ||
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

/* Plan p's tiles (blocks of C) for an m x n C. */
static size_t tiles_of(int p, size_t m, size_t n) {
  return ceil_div(m, (size_t)amp__gemm_plans[p].ts_m) *
         ceil_div(n, (size_t)amp__gemm_plans[p].ts_n);
}

/* Whether plan p gives fewer than half the compute units a tile for an m x n C. */
static int too_few_tiles(int p, size_t m, size_t n, unsigned cu) {
  return 2 * tiles_of(p, m, n) < (size_t)cu;
}

#define KSPLIT_MAX  8 /* parts of a block along k, at most */
#define KSPLIT_KMIN 8 /* K tiles of matmul_dmma_bulk (BK = 16) a part has, at least */

/* How many parts along k matmul_dmma_bulk's SPLIT_K makes of each block of the last round, for
 * `tiles` blocks over depth k on cu units (1: no split). A unit runs one block at a time (the tile
 * of 384 threads leaves ptxas 168 registers a thread, the whole register file), so T blocks take
 * T / cu whole rounds and a last one of r = T mod cu blocks, which leaves cu - r units idle; its
 * blocks in s parts each make a last round of r s <= cu parts that takes 1 / s of the time. Only
 * after a whole round: gemm_ksplit_sum's pass costs about as much whatever the size, and below a
 * round the 64 x 128 blocks do better. At most KSPLIT_MAX parts of KSPLIT_KMIN K tiles or more. */
unsigned amp__gemm_ksplit_ways(size_t tiles, size_t k, unsigned cu) {
  if (cu == 0 || cu > 100000 || tiles <= cu || tiles % cu == 0)
    return 1; /* (cu bounds the parts' view: cu x 128 x 128 elements fit an int) */
  size_t s = cu / (tiles % cu), most = ceil_div(k, 16) / KSPLIT_KMIN;
  if (s > most)
    s = most;
  if (s > KSPLIT_MAX)
    s = KSPLIT_MAX;
  return s >= 2 ? (unsigned)s : 1;
}

/* Plan p's time for an m x n x k product on cu units, in thousandths of one of its rounds: whole
 * rounds, then the last one, shorter where SPLIT_K splits its blocks. */
static size_t rounds_milli(int p, size_t m, size_t n, size_t k, unsigned cu) {
  const size_t t = tiles_of(p, m, n), u = cu ? cu : 1;
  return 1000 * (t / u) + (t % u ? 1000 / amp__gemm_ksplit_ways(t, k, u) : 0);
}

/* Whether matmul_dmma_bulk's 64 x 128 blocks finish an m x n x k product sooner than its
 * 128 x 128 ones, both split along k where that shortens their last round. A 64 x 128 block
 * takes 0.644 of a 128 x 128 block's time: on an H100 at 4096, where both run many rounds (8 and
 * 16), 42.4 against 54.6 TFLOP/s (lab/runs/h100/2026-12-07-dgemm-ports). The model picks 64 x 128
 * at 1000 and 1024 (one round against one), 128 x 128 from 3000 up. */
static int dmma_small_blocks(size_t m, size_t n, size_t k, unsigned cu) {
  return 644 * rounds_milli(P_DMMA_BULK_M64, m, n, k, cu) <
         1000 * rounds_milli(P_DMMA_BULK, m, n, k, cu);
}

/* The compute units the plans count with: the device's, or the test hook's. */
static unsigned units_of(const amp_accelerator *acc) {
  unsigned cu = atomic_load(&test_compute_units);
  return cu ? cu : acc->props.compute_units;
}

/* The plan for an m x n C of `kind` on acc, tf32 when the caller allows TF32 (float only): -1
 * when no TF32 plan is left (none on this device, or all refused here), meaning float. portable:
 * as on a device without vendor paths (compute capability 0). */
static int pick_plan(const amp_accelerator *acc, amp_elem_kind kind, size_t m, size_t n, size_t k,
                     int tf32, int portable) {
  int dbl = kind == AMP_ELEM_DOUBLE;
  unsigned cc = atomic_load(&test_cc);
  if (!cc)
    cc = acc->props.compute_capability;
  if (portable)
    cc = 0;
  const unsigned cu = units_of(acc);
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
    if (p == P_DMMA_BULK && dmma_small_blocks(m, n, k, cu))
      p = P_DMMA_BULK_M64;
    if (p != P_D && amp__gemm_ksplit_ways(tiles_of(p, m, n), k, cu) > 1)
      p = p == P_DMMA_BULK ? P_DMMA_BULK_KS : P_DMMA_BULK_M64_KS;
  } else {
    p = P_F128;
    while (p < P_F32 && too_few_tiles(p, m, n, cu))
      p++;
    if (p == P_F128 && cc9)
      p = P_F128_RING;
  }
  /* refused here before: its fallback (-1 only after a TF32 plan) */
  while (p >= 0 && plan_broken(acc, p))
    p = amp__gemm_plans[p].fallback;
  return p;
}

/* *slot's kernel `name` of builtin program `file` built with `opts`, made at first use. */
static amp_status cached_kernel(amp_kernel **slot, const char *file, const char *opts,
                                const char *name, amp_kernel **out) {
  amp_status status = AMP_SUCCESS;
  pthread_mutex_lock(&kernels_lock);
  if (!*slot) {
    amp_program *prog = NULL;
    status = amp_program_create_builtin(file, opts, &prog);
    if (status == AMP_SUCCESS)
      status = amp_kernel_create(prog, name, slot);
    amp_program_release(prog); /* the kernel keeps it */
  }
  *out = *slot;
  pthread_mutex_unlock(&kernels_lock);
  return status;
}

static amp_status get_kernel(int p, amp_kernel **out) {
  const amp__gemm_plan *pl = &amp__gemm_plans[p];
  return cached_kernel(&kernels[p], pl->file, pl->opts, pl->file, out);
}

static _Atomic uint64_t n_fast;

uint64_t amp__gemm_fast_count(void) {
  return atomic_load(&n_fast);
}

/* Whether a failed launch was the device refusing the plan itself, nothing enqueued: at the
 * build, the launch's checks or the driver's enqueue (see launch_plan). */
static int refusal(amp_status status, int enqueued) {
  return (status == AMP_ERROR_BUILD_FAILED || status == AMP_ERROR_LIMIT_EXCEEDED) && !enqueued;
}

/* matmul_dmma_bulk's block-row band (GROUP_M, its default), which gemm_ksplit_sum follows */
#define DMMA_GROUP_M 8

/* Plan p with SPLIT_K (matmul_dmma_bulk's step 7), its kernel k: the blocks of the whole rounds
 * into C, those of the last round in parts into a transient view, then gemm_ksplit_sum adding
 * each block's parts into C. *done spans both kernels. */
static amp_status launch_ksplit(amp_accelerator_view *view, int p, amp_kernel *k, amp_array_view *a,
                                amp_array_view *b, amp_array_view *c, amp_future **done,
                                int *refused) {
  amp_status status = AMP_SUCCESS;
  const amp__gemm_plan *pl = &amp__gemm_plans[p];
  const size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1];
  const unsigned cu = units_of(view->acc);
  /* pick_plan took this plan where it splits (the same count), so s >= 2, r >= 1, and r * s <= cu
   * parts of ts_m x ts_n elements fit an int */
  const size_t tiles = tiles_of(p, m, n), r = tiles % cu, whole = tiles - r;
  const unsigned s = amp__gemm_ksplit_ways(tiles, (size_t)a->extent.dim[1], cu);
  const int per = pl->ts_m * pl->ts_n;
  amp_kernel *ks = NULL;
  amp_array_view *part = NULL;
  amp_future *first = NULL, *last = NULL;
  int enqueued = 0;
  if (s < 2)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_blas_gemm: internal: a split plan for %zu blocks",
              tiles);
  status = cached_kernel(&ksplit_sum, "gemm_epilogue", "-DT=double", "gemm_ksplit_sum", &ks);
  if (status != AMP_SUCCESS) {
    *refused = status == AMP_ERROR_BUILD_FAILED;
    goto fail;
  }
  AMP__TRY(amp__array_view_create_transient(amp_extent1((int)(r * s) * per), c->type,
                                            "amp_blas_gemm", &part));
  amp_arg args[] = {amp_arg_view(a),    amp_arg_view(b),         amp_arg_view(c),
                    amp_arg_view(part), amp_arg_int((int)whole), amp_arg_int((int)s)};
  amp_launch l = {amp_extent2(pl->rts_m, (int)(whole + r * s) * pl->rts_n),
                  1,
                  {pl->rts_m, pl->rts_n},
                  k,
                  args,
                  AMP_NARGS(args)};
  status = amp__launch(view, &l, done ? &first : NULL, &enqueued);
  if (status != AMP_SUCCESS) {
    *refused = refusal(status, enqueued);
    goto fail;
  }
  amp_arg sa[] = {amp_arg_view(part),    amp_arg_view(c),           amp_arg_int(pl->ts_m),
                  amp_arg_int(pl->ts_n), amp_arg_int(DMMA_GROUP_M), amp_arg_int((int)whole),
                  amp_arg_int((int)s)};
  amp_launch ls = {amp_extent1((int)r * per), 0, {0}, ks, sa, AMP_NARGS(sa)};
  AMP__TRY(amp__launch(view, &ls, done ? &last : NULL, &enqueued));
  if (done)
    status = amp__future_span(first, last, 1, done);
fail:
  amp_future_release(first);
  amp_future_release(last);
  amp_array_view_release(part); /* transient: its buffer waits for the launches, not the host */
  return status;
}

/* Plan p without a split, its kernel k: one launch over C's blocks. */
static amp_status launch_whole(amp_accelerator_view *view, int p, amp_kernel *k, amp_array_view *a,
                               amp_array_view *b, amp_array_view *c, amp_future **done,
                               int *refused) {
  const size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1];
  const amp__gemm_plan *pl = &amp__gemm_plans[p];
  amp_arg args[] = {amp_arg_view(a), amp_arg_view(b), amp_arg_view(c)};
  amp_launch l = {0};
  l.kernel = k;
  l.args = args;
  l.nargs = AMP_NARGS(args);
  if (pl->cpu) { /* column blocks first, tiles of one work-item (matmul_cpu.cl) */
    l.domain = amp_extent2((int)ceil_div(n, (size_t)pl->ts_n), (int)ceil_div(m, (size_t)pl->ts_m));
    l.tiled = 1;
    l.tile[0] = l.tile[1] = 1;
  } else { /* views hold at most 2^31-1 elements, so these fit an int */
    l.domain = amp_extent2((int)(ceil_div(m, (size_t)pl->ts_m) * (size_t)pl->rts_m),
                           (int)(ceil_div(n, (size_t)pl->ts_n) * (size_t)pl->rts_n));
    l.tiled = 1;
    l.tile[0] = pl->rts_m;
    l.tile[1] = pl->rts_n;
  }
  int enqueued = 0;
  amp_status status = amp__launch(view, &l, done, &enqueued);
  if (status != AMP_SUCCESS)
    *refused = refusal(status, enqueued);
  return status;
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
  const amp__gemm_plan *pl = &amp__gemm_plans[p];
  amp_kernel *k;
  *refused = 0;
  if ((status = get_kernel(p, &k)) != AMP_SUCCESS) {
    *refused = status == AMP_ERROR_BUILD_FAILED;
    return status;
  }
  status = p == P_DMMA_BULK_KS || p == P_DMMA_BULK_M64_KS
               ? launch_ksplit(view, p, k, a, b, c, done, refused)
               : launch_whole(view, p, k, a, b, c, done, refused);
  if (status != AMP_SUCCESS)
    return status;
  atomic_fetch_add(&n_fast, 1);
  atomic_store(&last_fast_opts, pl->opts);
  atomic_store(&last_fast_file, pl->file);
  return status;
}

/* C = A * B through the plan pick_plan chooses. A plan the device refuses that has a fallback
 * (every TF32 plan has: another, or float) is marked on the accelerator, and its fallback
 * (pick_plan follows the bit) does the work, now and from then on. */
amp_status amp__gemm_kernels_run(amp_accelerator_view *view, int tf32, int portable,
                                 amp_array_view *a, amp_array_view *b, amp_array_view *c,
                                 amp_future **done, int *no_plan) {
  size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1];
  *no_plan = 0;
  int p = pick_plan(view->acc, a->type.kind, m, n, (size_t)a->extent.dim[1], tf32, portable);
  if (p < 0) { /* no TF32 plan left here: the caller runs the float GEMM */
    *no_plan = 1;
    return AMP_SUCCESS;
  }
  int refused;
  amp_status status = launch_plan(view, p, a, b, c, done, &refused);
  if (status != AMP_SUCCESS && refused && (tf32 || amp__gemm_plans[p].fallback >= 0)) {
    if (amp__debug_enabled())
      fprintf(stderr,
              "[ampcl] debug: amp_blas_gemm: %s %s (tiles of %d x %d threads) refused on %s (%s); "
              "its fallback does the work from now on\n",
              amp__gemm_plans[p].file, amp__gemm_plans[p].opts, amp__gemm_plans[p].rts_m,
              amp__gemm_plans[p].rts_n, view->acc->props.device_path, amp_last_error());
    atomic_fetch_or(&view->acc->gemm_broken_plans, 1u << p);
    return amp__gemm_kernels_run(view, tf32, portable, a, b, c, done, no_plan);
  }
  return status;
}
