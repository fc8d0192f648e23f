/* bench/bench_addexp.c: the add-exp workload, result[i] = first[i] + exp(second[i]) over n floats
 * (the C++ AMP article's VectorAddExpPointwise). It is memory bound: the metric is GB/s of 12 * n
 * bytes (two floats read, one written per element). Implementations: a sequential C loop (the
 * baseline), kernels_cl/examples/add_exp.cl's add_exp ("naive", one element per thread),
 * add_exp_assert ("assert": naive with an amp_assert that holds, so each launch waits for its
 * kernel and reads the assert record),
 * add_exp_vec4
 * ("vec4", four per thread), and "fast": the fastest for the device (add_exp_vec4 on a GPU,
 * add_exp_cpu on a CPU device); "multi", the same split over the --multi accelerators, one block of
 * the arrays each, every accelerator driven from a host thread of its own, its block cut into
 * AMP_BENCH_PIECES pieces (default 4) on queues of their own so that copies in, kernels and copies
 * out of different pieces overlap; "openmp", the loop in
 * OpenMP + SIMD C on the host (bench/omp/omp_addexp.c; amp-bench --cpu).
 *
 * Check: every element against the host's expf, with a relative tolerance of 1e-4 (the kernels
 * use native_exp, a few ulp on GPUs) plus 1e-6 absolute. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#ifdef AMP_BENCH_OPENMP
#include "omp/omp_bench.h"
#endif

static const char *const impls[] = {"seq",    "naive", "assert", "vec4", "fast", "multi",
#ifdef AMP_BENCH_OPENMP
                                    "openmp", /* bench/omp/omp_addexp.c */
#endif
                                    NULL};

static struct {
  long n;
  float *first, *second, *ref, *result;
} cache;

static void release_cache(void) {
  bench_data_free(cache.first);
  bench_data_free(cache.second);
  free(cache.ref);
  bench_data_free(cache.result);
  memset(&cache, 0, sizeof cache);
}

static void seq_add_exp(long n, const float *a, const float *b, float *r) {
  for (long i = 0; i < n; i++)
    r[i] = a[i] + expf(b[i]);
}

static void ensure_data(long n) {
  if (cache.first && cache.n == n)
    return;
  release_cache();
  size_t bytes = (size_t)n * sizeof(float);
  cache.n = n;
  cache.first = bench_data_alloc(bytes);
  cache.second = bench_data_alloc(bytes);
  cache.ref = bench_alloc(bytes);
  cache.result = bench_data_alloc(bytes);
  bench_fill_float(cache.first, (size_t)n, 3);
  bench_fill_float(cache.second, (size_t)n, 4);
  seq_add_exp(n, cache.first, cache.second, cache.ref);
}

static void check(bench_cell *cell, const char *phase) {
  long worst_i = 0;
  double worst = 0;
  if (bench_inject_error)
    cache.result[cell->size / 2] += 1.0f;
  for (long i = 0; i < cell->size; i++) {
    double want = cache.ref[i], err = fabs(cache.result[i] - want) / (1e-4 * fabs(want) + 1e-6);
    if (!(err <= worst)) {
      worst = isnan(err) ? INFINITY : err;
      worst_i = i;
      if (isinf(worst))
        break;
    }
  }
  if (worst > cell->max_err)
    cell->max_err = worst;
  if (worst > 1.0 && cell->state != BENCH_FAILED) {
    cell->state = BENCH_FAILED;
    snprintf(cell->note, sizeof cell->note, "%s result wrong: result[%ld] = %.9g, expected %.9g",
             phase, worst_i, cache.result[worst_i], cache.ref[worst_i]);
  }
}

static void poison(long n) {
  for (long i = 0; i < n; i++)
    cache.result[i] = NAN;
}

/* Elements per work-item of the kernel an impl runs: naive 1, vec4 4, and "fast" (and "multi"),
 * the fastest for the device: add_exp_vec4 on a GPU, add_exp_cpu (CHUNK = 256 elements as
 * float16) on a CPU. */
static int per_item(const bench_ctx *ctx, const char *impl) {
  if (strcmp(impl, "fast") == 0 || strcmp(impl, "multi") == 0)
    return ctx->props.is_emulated ? 256 : 4;
  return strcmp(impl, "vec4") == 0 ? 4 : 1;
}

/* The parts of a run: one (the whole arrays on --accelerator), or for "multi" one block of
 * elements per accelerator of --multi, each driven from a host thread of its own (bench_parts.c),
 * so the blocks cross their links at the same time. A part's block is cut into pieces
 * (AMP_BENCH_PIECES, "multi" only; 1 for the others), each with views of its own and, when there
 * are several, each on an accelerator view (an in-order queue) of its own on the part's
 * accelerator, so that one piece's copies overlap another's kernel and copies (see run_part). */
enum { MAX_PIECES = 16 };

typedef struct ae_parts {
  int n, per, sync, pieces;
  int own_queues; /* q[][] were created here (released at the end) */
  amp_kernel *k;
  int np[BENCH_MAX_ACCS]; /* pieces of part p that are not empty */
  amp_accelerator_view *q[BENCH_MAX_ACCS][MAX_PIECES];
  long lo[BENCH_MAX_ACCS][MAX_PIECES], len[BENCH_MAX_ACCS][MAX_PIECES];
  amp_array_view *f[BENCH_MAX_ACCS][MAX_PIECES], *s[BENCH_MAX_ACCS][MAX_PIECES],
      *r[BENCH_MAX_ACCS][MAX_PIECES];
} ae_parts;

/* AMP_BENCH_PIECES: pieces per accelerator in the multi column, 1 to MAX_PIECES (default 4).
 * Returns 0 and notes the cell on a bad value. */
static int pieces_of(bench_cell *cell, int *out) {
  const char *v = getenv("AMP_BENCH_PIECES");
  char *end = NULL;
  long n = v ? strtol(v, &end, 10) : 4;
  if (v && (end == v || *end || n < 1 || n > MAX_PIECES)) {
    cell->state = BENCH_ERROR;
    snprintf(cell->note, sizeof cell->note,
             "AMP_BENCH_PIECES must be a whole number from 1 to %d, not '%.40s'", MAX_PIECES, v);
    return 0;
  }
  *out = (int)n;
  return 1;
}

/* Cuts [lo, lo + len) into `parts` blocks at multiples of 64 elements (256 bytes, so every block
 * starts as aligned as the arrays), the last block taking the rest; empty blocks are left out.
 * Writes the blocks' starts, lengths and (which != NULL) numbers, returns how many. len < 2^31,
 * parts <= 16: no overflow. */
static int cut(long lo, long len, int parts, long *los, long *lens, int *which) {
  int m = 0;
  for (long p = 0; p < parts; p++) {
    long a = (len * p / parts) & ~63L, b = p + 1 == parts ? len : (len * (p + 1) / parts) & ~63L;
    if (b > a) {
      if (which)
        which[m] = (int)p;
      los[m] = lo + a;
      lens[m++] = b - a;
    }
  }
  return m;
}

static void views_release(ae_parts *ps) {
  for (int p = 0; p < ps->n; p++)
    for (int k = 0; k < ps->np[p]; k++) {
      amp_array_view_release(ps->f[p][k]);
      amp_array_view_release(ps->s[p][k]);
      amp_array_view_release(ps->r[p][k]);
      ps->f[p][k] = ps->s[p][k] = ps->r[p][k] = NULL;
    }
}

static amp_status views_create(ae_parts *ps) {
  amp_status st = AMP_SUCCESS;
  for (int p = 0; p < ps->n; p++)
    for (int k = 0; k < ps->np[p]; k++) {
      long lo = ps->lo[p][k];
      amp_extent e = amp_extent1((int)ps->len[p][k]);
      if ((st = amp_array_view_create_const(e, AMP_FLOAT, cache.first + lo, &ps->f[p][k])) ||
          (st = amp_array_view_create_const(e, AMP_FLOAT, cache.second + lo, &ps->s[p][k])) ||
          (st = amp_array_view_create(e, AMP_FLOAT, cache.result + lo, &ps->r[p][k])) ||
          (st = amp_array_view_discard_data(ps->r[p][k])))
        return st;
    }
  return st;
}

static amp_status launch(ae_parts *ps, int p, int k, amp_future **done) {
  amp_arg args[] = {amp_arg_view(ps->f[p][k]), amp_arg_view(ps->s[p][k]),
                    amp_arg_view(ps->r[p][k])};
  amp_launch l = {0};
  l.domain = amp_extent1((int)((ps->len[p][k] + ps->per - 1) / ps->per));
  l.kernel = ps->k;
  l.args = args;
  l.nargs = AMP_NARGS(args);
  return amp_parallel_for_each_ex(ps->q[p][k], &l, done);
}

/* Part p: every piece launched on its own queue, and with sync its result brought back. From
 * pinned memory (--pinned) a piece's result comes back with synchronize_async right after its
 * launch: the copies are DMA, enqueued at once, and the GPU's two copy engines and its compute
 * units take pieces from different queues at the same time. From malloc'd memory only a blocking
 * synchronize is staged by ampcl (docs/TRANSFERS.md; the async one is the driver's slow path), so
 * piece k is synchronized after piece k + 1 is launched: piece k + 1's kernel runs while piece
 * k's result comes back. *kernel_ms = the sum of the pieces' device times. */
static amp_status run_part(void *arg, int p, double *kernel_ms) {
  ae_parts *ps = arg;
  amp_future *done[MAX_PIECES] = {0}, *back[MAX_PIECES] = {0};
  const int np = ps->np[p], async = bench_pinned_on != NULL;
  amp_status st = AMP_SUCCESS;
  *kernel_ms = 0;
  for (int k = 0; k < np && st == AMP_SUCCESS; k++) {
    st = launch(ps, p, k, &done[k]);
    if (st == AMP_SUCCESS && ps->sync && async)
      st = amp_array_view_synchronize_async(ps->r[p][k], &back[k]);
    else if (st == AMP_SUCCESS && ps->sync && k > 0)
      st = amp_array_view_synchronize(ps->r[p][k - 1]);
  }
  if (st == AMP_SUCCESS && ps->sync && !async)
    st = amp_array_view_synchronize(ps->r[p][np - 1]);
  for (int k = 0; k < np; k++) { /* every future is waited for and released, failed or not */
    amp_status w = AMP_SUCCESS;
    if (back[k]) {
      w = amp_future_wait(back[k]);
      amp_future_release(back[k]);
    }
    if (done[k]) {
      amp_status d = bench_future_done(done[k], kernel_ms, 0);
      w = w == AMP_SUCCESS ? d : w;
    }
    st = st == AMP_SUCCESS ? w : st;
  }
  return st;
}

/* Every part at once; *kernel_ms = the longest part's device time. 1 on a failure (noted). */
static int run_once(bench_cell *cell, const char *what, ae_parts *ps, int sync, double *kernel_ms) {
  ps->sync = sync;
  return bench_run_parts(cell, what, ps->n, run_part, ps, kernel_ms);
}

/* The parts and pieces of a cell, and the queues of the pieces: with one piece per part, the
 * part's accelerator's default view (as the one-GPU column uses); with several, views made here,
 * one per piece. 1 on a failure (noted). */
static int plan(bench_ctx *ctx, bench_cell *cell, ae_parts *ps) {
  long n = cell->size;
  if (strcmp(cell->impl, "multi") != 0) {
    ps->n = ps->np[0] = ps->pieces = 1;
    ps->q[0][0] = ctx->av;
    ps->len[0][0] = n;
    return 0;
  }
  if (ctx->nmulti == 0) {
    cell->state = BENCH_SKIPPED;
    snprintf(cell->note, sizeof cell->note, "no accelerators for the split");
    return 1;
  }
  if (!pieces_of(cell, &ps->pieces))
    return 1;
  long blo[BENCH_MAX_ACCS], blen[BENCH_MAX_ACCS];
  int acc_of[BENCH_MAX_ACCS]; /* block b goes to accelerator acc_of[b] of --multi */
  int nb = cut(0, n, (int)ctx->nmulti, blo, blen, acc_of);
  ps->n = nb;
  ps->own_queues = ps->pieces > 1;
  for (int p = 0; p < nb; p++) {
    ps->np[p] = cut(blo[p], blen[p], ps->pieces, ps->lo[p], ps->len[p], NULL);
    amp_accelerator_view *dv = ctx->multi[acc_of[p]];
    amp_accelerator *acc = NULL;
    for (int k = 0; k < ps->np[p]; k++) {
      if (!ps->own_queues) {
        ps->q[p][k] = dv;
        continue;
      }
      if (bench_fail(cell, amp_accelerator_view_get_accelerator(dv, &acc), "accelerator") ||
          bench_fail(cell,
                     amp_accelerator_create_view(acc, AMP_QUEUING_MODE_IMMEDIATE, &ps->q[p][k]),
                     "view of a piece"))
        return 1;
    }
  }
  return 0;
}

static void queues_release(ae_parts *ps) {
  if (ps->own_queues)
    for (int p = 0; p < ps->n; p++)
      for (int k = 0; k < ps->np[p]; k++)
        amp_accelerator_view_release(ps->q[p][k]);
}

static void run_device(bench_ctx *ctx, bench_cell *cell) {
  long n = cell->size;
  ae_parts ps = {.per = per_item(ctx, cell->impl)};
  const char *kname = strcmp(cell->impl, "assert") == 0 ? "add_exp_assert"
                      : ps.per == 1                     ? "add_exp"
                      : ps.per == 4                     ? "add_exp_vec4"
                                                        : "add_exp_cpu";
  amp_program *prog = NULL;
  double ms;
  if (plan(ctx, cell, &ps))
    goto done;
  if (bench_fail(cell, amp_program_create_builtin("add_exp", ctx->fast_opts, &prog), "program") ||
      bench_fail(cell, amp_kernel_create(prog, kname, &ps.k), "kernel"))
    goto done;
  poison(n);
  if (bench_fail(cell, views_create(&ps), "view"))
    goto done;
  for (int w = 0; w < ctx->warmup; w++)
    if (run_once(cell, "warm-up launch", &ps, 0, &ms))
      goto done;
  for (int i = 0; i < ctx->repeats; i++) {
    double t0 = bench_now_ms();
    if (run_once(cell, "launch", &ps, 0, &ms))
      goto done;
    cell->sync_ms[i] = bench_now_ms() - t0;
    cell->kernel_ms[i] = ms; /* NAN where the device gives no device time: n/a */
  }
  for (int p = 0; p < ps.n; p++)
    for (int k = 0; k < ps.np[p]; k++)
      if (bench_fail(cell, amp_array_view_synchronize(ps.r[p][k]), "synchronize"))
        goto done;
  views_release(&ps);
  check(cell, "kernel-time");
  for (int i = 0; i < ctx->repeats; i++) {
    poison(n);
    double t0 = bench_now_ms();
    if (bench_fail(cell, views_create(&ps), "view") ||
        run_once(cell, "launch and synchronize", &ps, 1, &ms))
      goto done;
    cell->e2e_ms[i] = bench_now_ms() - t0;
    views_release(&ps);
  }
  check(cell, "end-to-end");
  cell->n = ctx->repeats;
  if (cell->state == BENCH_NOT_RUN) {
    cell->state = BENCH_OK;
    if (strcmp(cell->impl, "multi") == 0) {
      snprintf(cell->note, sizeof cell->note,
               "%d accelerator(s), %d piece(s) each (AMP_BENCH_PIECES), copies back %s", ps.n,
               ps.pieces,
               bench_pinned_on ? "with synchronize_async" : "blocking, one piece behind");
      printf("addexp multi, %ld elements: %s\n", n, cell->note);
    }
  }
done:
  views_release(&ps);
  queues_release(&ps);
  amp_kernel_release(ps.k);
  amp_program_release(prog);
}

static void run(bench_ctx *ctx, bench_cell *cell) {
  if (cell->size > 0x7fffffffL) {
    cell->state = BENCH_SKIPPED;
    snprintf(cell->note, sizeof cell->note, "n does not fit an extent (int)");
    return;
  }
  if (strcmp(cell->impl, "seq") == 0 && cell->size > ctx->seq_max) {
    cell->state = BENCH_SKIPPED;
    snprintf(cell->note, sizeof cell->note, "above --seq-max %ld", ctx->seq_max);
    return;
  }
  ensure_data(cell->size);
  void (*host)(long, const float *, const float *, float *) = NULL;
  if (strcmp(cell->impl, "seq") == 0)
    host = seq_add_exp;
#ifdef AMP_BENCH_OPENMP
  else if (strcmp(cell->impl, "openmp") == 0)
    host = omp_bench_add_exp;
#endif
  if (!host) {
    run_device(ctx, cell);
    return;
  }
  for (int i = -ctx->warmup; i < ctx->repeats; i++) {
    poison(cell->size);
    double t0 = bench_now_ms();
    host(cell->size, cache.first, cache.second, cache.result);
    double t = bench_now_ms() - t0;
    if (i >= 0)
      cell->kernel_ms[i] = cell->sync_ms[i] = cell->e2e_ms[i] = t;
  }
  cell->n = ctx->repeats;
  check(cell, "host");
  if (cell->state == BENCH_NOT_RUN)
    cell->state = BENCH_OK;
}

static double work(const bench_ctx *ctx, long n) {
  (void)ctx;
  return 12.0 * (double)n * 1e-9; /* GB */
}

static const long gpu_sizes[] = {1L << 20, 1L << 22, 1L << 24, 1L << 26, 1L << 28, 0};
static const long cpu_sizes[] = {1L << 16, 1L << 18, 1L << 20, 1L << 22, 0};

const bench_workload bench_addexp = {
    .name = "addexp",
    .impls = impls,
    .metric = "GB/s",
    .size_label = "Elements",
    .float_only = 1,
    .work = work,
    .gpu_sizes = gpu_sizes,
    .cpu_sizes = cpu_sizes,
    .seq_max_default = 1L << 30,
    .fallback_baseline = NULL,
    .run = run,
    .release_cache = release_cache,
};
