/* bench/bench_addexp.c: the add-exp workload, result[i] = first[i] + exp(second[i]) over n floats
 * (the C++ AMP article's VectorAddExpPointwise). It is memory bound: the metric is GB/s of 12 * n
 * bytes (two floats read, one written per element). Implementations: a sequential C loop (the
 * baseline), kernels_cl/examples/add_exp.cl's add_exp ("naive", one element per thread),
 * add_exp_vec4
 * ("vec4", four per thread), and "fast": the fastest for the device (add_exp_vec4 on a GPU,
 * add_exp_cpu on a CPU device); "multi", the same split over the --multi accelerators, one block of
 * the arrays each, every accelerator driven from a host thread of its own; "openmp", the loop in
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

static const char *const impls[] = {"seq",    "naive", "vec4", "fast", "multi",
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
 * elements per accelerator of --multi, each with views of its own over its block and driven from
 * a host thread of its own (bench_parts.c), so the blocks cross their links at the same time. */
typedef struct ae_parts {
  int n, per, sync;
  amp_kernel *k;
  amp_accelerator_view *av[BENCH_MAX_ACCS];
  long lo[BENCH_MAX_ACCS], len[BENCH_MAX_ACCS];
  amp_array_view *f[BENCH_MAX_ACCS], *s[BENCH_MAX_ACCS], *r[BENCH_MAX_ACCS];
} ae_parts;

static void views_release(ae_parts *ps) {
  for (int p = 0; p < ps->n; p++) {
    amp_array_view_release(ps->f[p]);
    amp_array_view_release(ps->s[p]);
    amp_array_view_release(ps->r[p]);
    ps->f[p] = ps->s[p] = ps->r[p] = NULL;
  }
}

static amp_status views_create(ae_parts *ps) {
  amp_status st = AMP_SUCCESS;
  for (int p = 0; p < ps->n && st == AMP_SUCCESS; p++) {
    amp_extent e = amp_extent1((int)ps->len[p]);
    if ((st = amp_array_view_create_const(e, AMP_FLOAT, cache.first + ps->lo[p], &ps->f[p])) ||
        (st = amp_array_view_create_const(e, AMP_FLOAT, cache.second + ps->lo[p], &ps->s[p])) ||
        (st = amp_array_view_create(e, AMP_FLOAT, cache.result + ps->lo[p], &ps->r[p])))
      break;
    st = amp_array_view_discard_data(ps->r[p]);
  }
  return st;
}

static amp_status run_part(void *arg, int p, double *kernel_ms) {
  ae_parts *ps = arg;
  amp_arg args[] = {amp_arg_view(ps->f[p]), amp_arg_view(ps->s[p]), amp_arg_view(ps->r[p])};
  amp_launch l = {0};
  l.domain = amp_extent1((int)((ps->len[p] + ps->per - 1) / ps->per));
  l.kernel = ps->k;
  l.args = args;
  l.nargs = AMP_NARGS(args);
  amp_future *done = NULL;
  *kernel_ms = 0;
  amp_status st = amp_parallel_for_each_ex(ps->av[p], &l, &done);
  if (st == AMP_SUCCESS)
    st = bench_future_done(done, kernel_ms, 0);
  if (st == AMP_SUCCESS && ps->sync)
    st = amp_array_view_synchronize(ps->r[p]);
  return st;
}

/* Every part at once; *kernel_ms = the longest part's device time. 1 on a failure (noted). */
static int run_once(bench_cell *cell, const char *what, ae_parts *ps, int sync, double *kernel_ms) {
  ps->sync = sync;
  return bench_run_parts(cell, what, ps->n, run_part, ps, kernel_ms);
}

static void run_device(bench_ctx *ctx, bench_cell *cell) {
  long n = cell->size;
  ae_parts ps = {.per = per_item(ctx, cell->impl)};
  const char *kname = ps.per == 1 ? "add_exp" : ps.per == 4 ? "add_exp_vec4" : "add_exp_cpu";
  amp_program *prog = NULL;
  double ms;
  if (strcmp(cell->impl, "multi") == 0) {
    if (ctx->nmulti == 0) {
      cell->state = BENCH_SKIPPED;
      snprintf(cell->note, sizeof cell->note, "no accelerators for the split");
      return;
    }
    /* block p: elements [lo(p), lo(p + 1)), the bounds rounded down to 64 elements (256 bytes)
     * so that every block starts as aligned as the arrays */
    const long parts = (long)ctx->nmulti; /* n < 2^31 and parts <= 16: no overflow */
    for (long p = 0; p < parts; p++) {
      long lo = (n * p / parts) & ~63L, hi = p + 1 == parts ? n : (n * (p + 1) / parts) & ~63L;
      if (hi > lo) {
        ps.av[ps.n] = ctx->multi[p];
        ps.lo[ps.n] = lo;
        ps.len[ps.n++] = hi - lo;
      }
    }
  } else {
    ps.n = 1;
    ps.av[0] = ctx->av;
    ps.len[0] = n;
  }

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
    cell->kernel_ms[i] = ms > 0 ? ms : cell->sync_ms[i];
  }
  for (int p = 0; p < ps.n; p++)
    if (bench_fail(cell, amp_array_view_synchronize(ps.r[p]), "synchronize"))
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
  if (cell->state == BENCH_NOT_RUN)
    cell->state = BENCH_OK;
done:
  views_release(&ps);
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
