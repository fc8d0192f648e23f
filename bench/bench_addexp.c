/* bench/bench_addexp.c: the add-exp workload, result[i] = first[i] + exp(second[i]) over n floats
 * (the C++ AMP article's VectorAddExpPointwise). It is memory bound: the metric is GB/s of 12 * n
 * bytes (two floats read, one written per element). Implementations: a sequential C loop (the
 * baseline), kernels_cl/add_exp.cl's add_exp ("naive", one element per thread), add_exp_vec4
 * ("vec4", four per thread), and "fast": the fastest for the device (add_exp_vec4 on a GPU,
 * add_exp_cpu on a CPU device).
 *
 * Check: every element against the host's expf, with a relative tolerance of 1e-4 (the kernels
 * use native_exp, a few ulp on GPUs) plus 1e-6 absolute. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const char *const impls[] = {"seq", "naive", "vec4", "fast", NULL};

static struct {
  long n;
  float *first, *second, *ref, *result;
} cache;

static void release_cache(void) {
  free(cache.first);
  free(cache.second);
  free(cache.ref);
  free(cache.result);
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
  cache.first = bench_alloc(bytes);
  cache.second = bench_alloc(bytes);
  cache.ref = bench_alloc(bytes);
  cache.result = bench_alloc(bytes);
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

static amp_status launch(bench_ctx *ctx, amp_kernel *k, int per, amp_array_view *f,
                         amp_array_view *s, amp_array_view *r, long n, double *kernel_ms) {
  amp_arg args[] = {amp_arg_view(f), amp_arg_view(s), amp_arg_view(r)};
  amp_launch l = {0};
  l.domain = amp_extent1((int)((n + per - 1) / per)); /* per: elements per work-item */
  l.kernel = k;
  l.args = args;
  l.nargs = AMP_NARGS(args);
  amp_future *done = NULL;
  amp_status st = amp_parallel_for_each_ex(ctx->av, &l, &done);
  *kernel_ms = 0;
  if (st == AMP_SUCCESS)
    st = bench_future_done(done, kernel_ms, 0);
  return st;
}

/* Elements per work-item of the kernel an impl runs: naive 1, vec4 4, and "fast", the fastest for
 * the device: add_exp_vec4 on a GPU, add_exp_cpu (CHUNK = 256 elements as float16) on a CPU. */
static int per_item(const bench_ctx *ctx, const char *impl) {
  if (strcmp(impl, "fast") == 0)
    return ctx->props.is_emulated ? 256 : 4;
  return strcmp(impl, "vec4") == 0 ? 4 : 1;
}

static void run_device(bench_ctx *ctx, bench_cell *cell) {
  long n = cell->size;
  int per = per_item(ctx, cell->impl);
  const char *kname = per == 1 ? "add_exp" : per == 4 ? "add_exp_vec4" : "add_exp_cpu";
  amp_program *prog = NULL;
  amp_kernel *k = NULL;
  amp_array_view *f = NULL, *s = NULL, *r = NULL;
  amp_extent e = amp_extent1((int)n);
  double ms;
#define VIEWS_CREATE()                                                                             \
  (bench_fail(cell, amp_array_view_create_const(e, AMP_FLOAT, cache.first, &f), "view") ||         \
   bench_fail(cell, amp_array_view_create_const(e, AMP_FLOAT, cache.second, &s), "view") ||        \
   bench_fail(cell, amp_array_view_create(e, AMP_FLOAT, cache.result, &r), "view") ||              \
   bench_fail(cell, amp_array_view_discard_data(r), "discard_data"))
#define VIEWS_RELEASE()                                                                            \
  do {                                                                                             \
    amp_array_view_release(f);                                                                     \
    amp_array_view_release(s);                                                                     \
    amp_array_view_release(r);                                                                     \
    f = s = r = NULL;                                                                              \
  } while (0)

  if (bench_fail(cell, amp_program_create_builtin("add_exp", ctx->fast_opts, &prog), "program") ||
      bench_fail(cell, amp_kernel_create(prog, kname, &k), "kernel"))
    goto done;
  poison(n);
  if (VIEWS_CREATE())
    goto done;
  for (int w = 0; w < ctx->warmup; w++)
    if (bench_fail(cell, launch(ctx, k, per, f, s, r, n, &ms), "warm-up launch"))
      goto done;
  for (int i = 0; i < ctx->repeats; i++) {
    double t0 = bench_now_ms();
    if (bench_fail(cell, launch(ctx, k, per, f, s, r, n, &ms), "launch"))
      goto done;
    cell->sync_ms[i] = bench_now_ms() - t0;
    cell->kernel_ms[i] = ms > 0 ? ms : cell->sync_ms[i];
  }
  if (bench_fail(cell, amp_array_view_synchronize(r), "synchronize"))
    goto done;
  VIEWS_RELEASE();
  check(cell, "kernel-time");
  for (int i = 0; i < ctx->repeats; i++) {
    poison(n);
    double t0 = bench_now_ms();
    if (VIEWS_CREATE() || bench_fail(cell, launch(ctx, k, per, f, s, r, n, &ms), "launch") ||
        bench_fail(cell, amp_array_view_synchronize(r), "synchronize"))
      goto done;
    cell->e2e_ms[i] = bench_now_ms() - t0;
    VIEWS_RELEASE();
  }
  check(cell, "end-to-end");
  cell->n = ctx->repeats;
  if (cell->state == BENCH_NOT_RUN)
    cell->state = BENCH_OK;
done:
  VIEWS_RELEASE();
  amp_kernel_release(k);
  amp_program_release(prog);
#undef VIEWS_CREATE
#undef VIEWS_RELEASE
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
  if (strcmp(cell->impl, "seq") != 0) {
    run_device(ctx, cell);
    return;
  }
  for (int i = -ctx->warmup; i < ctx->repeats; i++) {
    poison(cell->size);
    double t0 = bench_now_ms();
    seq_add_exp(cell->size, cache.first, cache.second, cache.result);
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
