/* bench/bench_nbody.c: the all-pairs n-body workload of kernels_cl/examples/nbody.cl. One timed run
 * is
 * --steps steps of n bodies (n^2 interactions each); the metric is interactions per second.
 * Implementations: a sequential C loop (the baseline, only up to --seq-max bodies), the
 * kernels nbody_naive, nbody_tiled and nbody_fast, and `pairs`: kernels_cl/examples/nbody_pairs.cl,
 * which computes each pair once (two kernels a step, the sums meeting in an acceleration view
 * through atomic adds). Its metric counts n^2 interactions a step like the others, though it
 * evaluates n^2 / 2 pairs: the same result, in less time. `openmp` is the step in OpenMP + SIMD C
 * on the host (bench/omp/omp_nbody.c; amp-bench --cpu), timed and checked as seq is.
 *
 * The host code below uses the kernels' math exactly: dist = p_j - p_i, r2 = dot + SOFTENING2,
 * inv = 1 / sqrt(r2), a += dist * mass * inv^3, then v += a dt and p += v dt.
 *
 * Check: one step from the initial state, on up to 256 bodies spread over the array, against a
 * double-precision host sum. The tolerance per body allows 1e-3 of |a| plus 1e-5 of the sum of
 * the magnitudes of its n terms (float rounding over n terms, native rsqrt), times dt. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#ifdef AMP_BENCH_OPENMP
#include "omp/omp_bench.h"
#endif

#define SOFTENING2                                                                                 \
  0.01f /* kernels_cl/examples/nbody.cl's default; passed to it as -DSOFTENING2                    \
         */
#define NB_TILE        256
#define NB_BPT         4
#define NB_CHECKED     256
#define NB_PAIRS_TILE  32 /* nbody_pairs.cl's defaults */
#define NB_PAIRS_BPT   8
#define NB_PAIRS_CHUNK 8

static const char *const impls[] = {"seq",    "naive", "tiled", "fast", "pairs",
#ifdef AMP_BENCH_OPENMP
                                    "openmp", /* bench/omp/omp_nbody.c */
#endif
                                    NULL};

typedef struct particle {
  float position[4], velocity[4];
} particle;

static const float delta_time = 1e-3f, particle_mass = 1.0f;

static struct {
  long n;
  particle *initial, *cur, *nxt;
  float *accel; /* pairs: n x 4 zeros, the acceleration view's home */
} cache;

static void release_cache(void) {
  free(cache.initial);
  free(cache.cur);
  free(cache.nxt);
  free(cache.accel);
  memset(&cache, 0, sizeof cache);
}

/* Bodies uniform in a cube of side cbrt(n): about one body per unit volume at every n, so the
 * softening length (0.1) stays well below the mean spacing. */
static void ensure_data(long n) {
  if (cache.initial && cache.n == n)
    return;
  release_cache();
  size_t bytes = (size_t)n * sizeof(particle);
  cache.n = n;
  cache.initial = bench_alloc(bytes);
  cache.cur = bench_alloc(bytes);
  cache.nxt = bench_alloc(bytes);
  cache.accel = bench_alloc((size_t)n * 4 * sizeof(float));
  memset(cache.accel, 0, (size_t)n * 4 * sizeof(float)); /* stays so: see VIEWS_RELEASE */
  float *r = bench_alloc((size_t)n * 6 * sizeof(float));
  bench_fill_float(r, (size_t)n * 6, 5);
  float side = cbrtf((float)n);
  for (long i = 0; i < n; i++) {
    particle *p = &cache.initial[i];
    for (int d = 0; d < 3; d++) {
      p->position[d] = 0.5f * side * r[6 * i + d];
      p->velocity[d] = 0.1f * r[6 * i + 3 + d];
    }
    p->position[3] = 1.0f;
    p->velocity[3] = 0.0f;
  }
  free(r);
}

/* One step on the host, in float, with the kernels' math. */
static void seq_step(long n, const particle *prev, particle *next, float *scratch) {
  (void)scratch;
  for (long i = 0; i < n; i++) {
    const float *pi = prev[i].position;
    float ax = 0, ay = 0, az = 0;
    for (long j = 0; j < n; j++) {
      const float *pj = prev[j].position;
      float dx = pj[0] - pi[0], dy = pj[1] - pi[1], dz = pj[2] - pi[2];
      float r2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
      float inv = 1.0f / sqrtf(r2);
      float s = particle_mass * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    particle p = prev[i];
    p.velocity[0] += ax * delta_time;
    p.velocity[1] += ay * delta_time;
    p.velocity[2] += az * delta_time;
    for (int d = 0; d < 3; d++)
      p.position[d] += p.velocity[d] * delta_time;
    next[i] = p;
  }
}

static double norm3(double x, double y, double z) {
  return sqrt(x * x + y * y + z * z);
}

/* `next` should be one step from cache.initial. */
static void check(bench_cell *cell, particle *next, const char *phase) {
  long n = cell->size, count = n < NB_CHECKED ? n : NB_CHECKED;
  if (bench_inject_error)
    next[0].velocity[0] += 1.0f;
  for (long c = 0; c < count; c++) {
    long i = c * n / count;
    const particle *p = &cache.initial[i];
    double a[3] = {0, 0, 0}, sum = 0;
    for (long j = 0; j < n; j++) {
      const float *q = cache.initial[j].position;
      double d[3] = {(double)q[0] - p->position[0], (double)q[1] - p->position[1],
                     (double)q[2] - p->position[2]};
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + (double)SOFTENING2;
      double s = particle_mass / (r2 * sqrt(r2));
      for (int k = 0; k < 3; k++)
        a[k] += d[k] * s;
      sum += norm3(d[0], d[1], d[2]) * s;
    }
    double v[3], x[3];
    for (int k = 0; k < 3; k++) {
      v[k] = p->velocity[k] + a[k] * delta_time;
      x[k] = p->position[k] + v[k] * delta_time;
    }
    const particle *g = &next[i];
    double ev = norm3(g->velocity[0] - v[0], g->velocity[1] - v[1], g->velocity[2] - v[2]);
    double ex = norm3(g->position[0] - x[0], g->position[1] - x[1], g->position[2] - x[2]);
    double tv = delta_time * (1e-3 * norm3(a[0], a[1], a[2]) + 1e-5 * sum) +
                1e-6 * norm3(v[0], v[1], v[2]) + 1e-12;
    double tx = delta_time * tv + 1e-6 * norm3(x[0], x[1], x[2]) + 1e-12;
    double worst = ev / tv > ex / tx ? ev / tv : ex / tx;
    if (isnan(ev) || isnan(ex))
      worst = INFINITY;
    if (worst > cell->max_err)
      cell->max_err = worst;
    if (worst > 1.0 && cell->state != BENCH_FAILED) {
      cell->state = BENCH_FAILED;
      snprintf(cell->note, sizeof cell->note,
               "%s result wrong: body %ld velocity (%.7g %.7g %.7g), expected (%.7g %.7g %.7g)",
               phase, i, g->velocity[0], g->velocity[1], g->velocity[2], v[0], v[1], v[2]);
    }
  }
}

static void poison(particle *p, long n) {
  for (long i = 0; i < n; i++)
    for (int d = 0; d < 4; d++)
      p[i].position[d] = p[i].velocity[d] = NAN;
}

/* Tile and bodies per thread of nbody_fast: what --fast-opts says (-DTILE=, -DBPT=), or a shape
 * that keeps every compute unit busy. Bodies per thread (BPT) reuse each tile_static read, but
 * make the tiles fewer: at 10,240 bodies, 256-thread tiles with BPT=4 are 10 tiles for a GPU of
 * 132 compute units. So BPT halves, then the tile, until there are at least as many tiles as
 * compute units (or BPT = 1 and tiles of 64). nbody_tiled always uses NB_TILE. */
static void nb_shape(const bench_ctx *ctx, const char *impl, long n, int *tile, int *bpt) {
  *tile = NB_TILE;
  *bpt = 1;
  if (strcmp(impl, "fast") != 0)
    return;
  *tile = bench_option_int(ctx->fast_opts, "-DTILE=", NB_TILE);
  *bpt = bench_option_int(ctx->fast_opts, "-DBPT=", NB_BPT);
  if (ctx->fast_opts)
    return;
  long cus = ctx->props.compute_units ? (long)ctx->props.compute_units : 1;
  while (*bpt > 1 && n / ((long)*tile * *bpt) < cus)
    *bpt /= 2;
  while (*tile > 64 && n / ((long)*tile * *bpt) < cus)
    *tile /= 2;
}

/* nbody_pairs' shape: --fast-opts' -DTILE=, -DBPT= and -DCHUNK=, or the defaults with BPT and
 * CHUNK halved (CHUNK first) until there are at least 8 tasks per compute unit. Returns the
 * number of tasks (tiles to launch); 0 if that does not fit an int domain. */
static long pairs_shape(const bench_ctx *ctx, long n, int *tile, int *bpt, int *chunk) {
  *tile = bench_option_int(ctx->fast_opts, "-DTILE=", NB_PAIRS_TILE);
  *bpt = bench_option_int(ctx->fast_opts, "-DBPT=", NB_PAIRS_BPT);
  *chunk = bench_option_int(ctx->fast_opts, "-DCHUNK=", NB_PAIRS_CHUNK);
  long cus = ctx->props.compute_units ? (long)ctx->props.compute_units : 1, tasks;
  for (;;) {
    long blocks = (n + (long)*tile * *bpt - 1) / ((long)*tile * *bpt);
    tasks = (blocks + 1) / 2 * ((blocks + 1 + *chunk - 1) / *chunk);
    if (ctx->fast_opts || tasks >= 8 * cus || (*chunk == 1 && *bpt == 1))
      break;
    if (*chunk > 1)
      *chunk /= 2;
    else
      *bpt /= 2;
  }
  return tasks <= INT_MAX / *tile ? tasks : 0;
}

/* "fast" is the fastest kernel for the device: on a CPU device, the CPU-shaped nbody_cpu
 * (NB_VW bodies per work-item in vector lanes), unless --fast-opts asks for nbody_fast. */
#define NB_VW 16
static int use_cpu_kernel(const bench_ctx *ctx, const char *impl) {
  return strcmp(impl, "fast") == 0 && ctx->props.is_emulated && !ctx->fast_opts;
}

/* The launch domain of each kernel (see the top of kernels_cl/examples/nbody.cl). */
static amp_launch launch_of(const bench_ctx *ctx, const char *impl, long n) {
  amp_launch l = {0};
  if (strcmp(impl, "naive") == 0) {
    l.domain = amp_extent1((int)n);
  } else if (strcmp(impl, "pairs") == 0) {
    int tile, bpt, chunk;
    long tasks = pairs_shape(ctx, n, &tile, &bpt, &chunk);
    l.domain = amp_extent1((int)(tasks * tile));
    l.tiled = 1;
    l.tile[0] = tile;
  } else if (use_cpu_kernel(ctx, impl)) {
    l.domain = amp_extent1((int)((n + NB_VW - 1) / NB_VW));
  } else {
    int tile, bpt;
    nb_shape(ctx, impl, n, &tile, &bpt);
    long threads = (n + bpt - 1) / bpt;
    amp_tiled_extent te = amp_tiled_extent_pad(amp_tile1(amp_extent1((int)threads), tile));
    l.domain = te.extent;
    l.tiled = 1;
    l.tile[0] = tile;
  }
  return l;
}

/* One launch, waited for; its kernel time is added to *kernel_ms. */
static amp_status launch_timed(bench_ctx *ctx, const amp_launch *l, double *kernel_ms) {
  amp_future *done = NULL;
  amp_status st = amp_parallel_for_each_ex(ctx->av, l, &done);
  return st == AMP_SUCCESS ? bench_future_done(done, kernel_ms, 0) : st;
}

/* `steps` steps from cache.cur; the views swap roles every step. Returns the state's view.
 * k[0] is the step's kernel; for pairs k[0] sums into accel and k[1] moves the bodies. */
static amp_status steps(bench_ctx *ctx, amp_kernel *const k[2], amp_array_view **cur,
                        amp_array_view **nxt, amp_array_view *accel, const char *impl, long n,
                        int count, double *kernel_ms) {
  amp_launch l = launch_of(ctx, impl, n);
  amp_status st = AMP_SUCCESS;
  *kernel_ms = 0;
  for (int s = 0; s < count && st == AMP_SUCCESS; s++) {
    amp_arg args[] = {amp_arg_view(*cur), amp_arg_view(*nxt), amp_arg_float(delta_time),
                      amp_arg_float(particle_mass)};
    amp_arg sum[] = {amp_arg_view(*cur), amp_arg_view(accel)};
    l.kernel = k[0];
    l.args = k[1] ? sum : args;
    l.nargs = k[1] ? AMP_NARGS(sum) : AMP_NARGS(args);
    st = launch_timed(ctx, &l, kernel_ms);
    if (k[1] && st == AMP_SUCCESS) { /* pairs: then move the bodies (and zero accel) */
      amp_arg move[] = {amp_arg_view(*cur), amp_arg_view(*nxt), amp_arg_view(accel),
                        amp_arg_float(delta_time), amp_arg_float(particle_mass)};
      amp_launch a = {
          .kernel = k[1], .domain = amp_extent1((int)n), .args = move, .nargs = AMP_NARGS(move)};
      st = launch_timed(ctx, &a, kernel_ms);
    }
    amp_array_view *t = *cur;
    *cur = *nxt;
    *nxt = t;
  }
  return st;
}

static void run_device(bench_ctx *ctx, bench_cell *cell) {
  long n = cell->size;
  size_t bytes = (size_t)n * sizeof(particle);
  char name[32], opts[256];
  amp_program *prog = NULL;
  amp_kernel *k[2] = {NULL, NULL};
  amp_array_view *cur = NULL, *nxt = NULL, *accel = NULL;
  amp_extent e = amp_extent1((int)n);
  amp_elem_type et = AMP_STRUCT(particle);
  double ms;
  const int pairs = strcmp(cell->impl, "pairs") == 0;
  snprintf(name, sizeof name, "nbody_%s", use_cpu_kernel(ctx, cell->impl) ? "cpu" : cell->impl);
  const char *fast_math = "-cl-fast-relaxed-math -cl-denorms-are-zero";
  if (pairs) {
    int tile, bpt, chunk;
    if (pairs_shape(ctx, n, &tile, &bpt, &chunk) == 0) {
      cell->state = BENCH_SKIPPED;
      snprintf(cell->note, sizeof cell->note, "%ld bodies: more tiles than an int domain holds", n);
      return;
    }
    if (!bench_tile_fits(ctx, cell, 1, &tile))
      return; /* a device that allows fewer threads per tile */
    snprintf(opts, sizeof opts, "-DTILE=%d -DBPT=%d -DCHUNK=%d -DSOFTENING2=%.9gf %s", tile, bpt,
             chunk, (double)SOFTENING2, ctx->fast_opts ? ctx->fast_opts : fast_math);
  } else {
    int tile, bpt;
    nb_shape(ctx, cell->impl, n, &tile, &bpt);
    if (strcmp(cell->impl, "naive") != 0 && !use_cpu_kernel(ctx, cell->impl) &&
        !bench_tile_fits(ctx, cell, 1, &tile))
      return; /* a device that allows fewer threads per tile */
    snprintf(opts, sizeof opts, "-DTILE=%d -DBPT=%d -DSOFTENING2=%.9gf %s", tile, bpt,
             (double)SOFTENING2,
             strcmp(cell->impl, "fast") != 0 ? ""
             : ctx->fast_opts                ? ctx->fast_opts
                                             : fast_math);
  }
  /* pairs' acceleration view starts at zero and nbody_pairs_advance leaves it so: its contents
   * are dropped (discard_data) before release, so it is never copied back and cache.accel stays
   * zero for the next view over it. */
#define VIEWS_CREATE()                                                                             \
  (bench_fail(cell, amp_array_view_create(e, et, cache.cur, &cur), "view") ||                      \
   bench_fail(cell, amp_array_view_create(e, et, cache.nxt, &nxt), "view") ||                      \
   bench_fail(cell, amp_array_view_discard_data(nxt), "discard_data") ||                           \
   (pairs &&                                                                                       \
    bench_fail(cell,                                                                               \
               amp_array_view_create(amp_extent2((int)n, 4), AMP_FLOAT, cache.accel, &accel),      \
               "view")))
#define VIEWS_RELEASE()                                                                            \
  do {                                                                                             \
    amp_array_view_release(cur);                                                                   \
    amp_array_view_release(nxt);                                                                   \
    if (accel)                                                                                     \
      amp_array_view_discard_data(accel);                                                          \
    amp_array_view_release(accel);                                                                 \
    cur = nxt = accel = NULL;                                                                      \
  } while (0)

  if (bench_fail(cell, amp_program_create_builtin(pairs ? "nbody_pairs" : "nbody", opts, &prog),
                 "program") ||
      bench_fail(cell, amp_kernel_create(prog, name, &k[0]), "kernel") ||
      (pairs && bench_fail(cell, amp_kernel_create(prog, "nbody_pairs_advance", &k[1]), "kernel")))
    goto done;

  /* Kernel time: the state stays on the device; warm-up steps compile and copy it in. */
  memcpy(cache.cur, cache.initial, bytes);
  if (VIEWS_CREATE())
    goto done;
  for (int w = 0; w < ctx->warmup; w++)
    if (bench_fail(cell, steps(ctx, k, &cur, &nxt, accel, cell->impl, n, 1, &ms), "warm-up launch"))
      goto done;
  for (int r = 0; r < ctx->repeats; r++) {
    double t0 = bench_now_ms();
    if (bench_fail(cell, steps(ctx, k, &cur, &nxt, accel, cell->impl, n, ctx->steps, &ms),
                   "launch"))
      goto done;
    cell->sync_ms[r] = bench_now_ms() - t0;
    cell->kernel_ms[r] = ms; /* NAN where the device gives no device time: n/a */
  }
  VIEWS_RELEASE();

  /* End to end: copy in, --steps steps, copy the state back. The last repeat runs one step more
   * from the initial state, checked against the host. */
  for (int r = 0; r < ctx->repeats; r++) {
    memcpy(cache.cur, cache.initial, bytes);
    double t0 = bench_now_ms();
    if (VIEWS_CREATE() ||
        bench_fail(cell, steps(ctx, k, &cur, &nxt, accel, cell->impl, n, ctx->steps, &ms),
                   "launch") ||
        bench_fail(cell, amp_array_view_synchronize(cur), "synchronize"))
      goto done;
    cell->e2e_ms[r] = bench_now_ms() - t0;
    VIEWS_RELEASE();
  }
  memcpy(cache.cur, cache.initial, bytes);
  poison(cache.nxt, n);
  if (VIEWS_CREATE() ||
      bench_fail(cell, steps(ctx, k, &cur, &nxt, accel, cell->impl, n, 1, &ms), "launch") ||
      bench_fail(cell, amp_array_view_synchronize(cur), "synchronize"))
    goto done;
  VIEWS_RELEASE();
  check(cell, cache.nxt, "one-step");
  cell->n = ctx->repeats;
  if (cell->state == BENCH_NOT_RUN)
    cell->state = BENCH_OK;
done:
  VIEWS_RELEASE();
  amp_kernel_release(k[0]);
  amp_kernel_release(k[1]);
  amp_program_release(prog);
#undef VIEWS_CREATE
#undef VIEWS_RELEASE
}

#ifdef AMP_BENCH_OPENMP
static void omp_step(long n, const particle *prev, particle *next, float *scratch) {
  omp_bench_nbody_step(n, (const float *)prev, (float *)next, scratch, delta_time, particle_mass,
                       SOFTENING2);
}
#endif

static void run(bench_ctx *ctx, bench_cell *cell) {
  long n = cell->size;
  void (*step)(long, const particle *, particle *, float *) = NULL;
  if (strcmp(cell->impl, "seq") == 0)
    step = seq_step;
#ifdef AMP_BENCH_OPENMP
  else if (strcmp(cell->impl, "openmp") == 0)
    step = omp_step;
#endif
  if (!step) {
    ensure_data(n);
    run_device(ctx, cell);
    return;
  }
  if (step == seq_step && n > ctx->seq_max) {
    cell->state = BENCH_SKIPPED;
    snprintf(cell->note, sizeof cell->note, "above --seq-max %ld", ctx->seq_max);
    return;
  }
  ensure_data(n);
  size_t bytes = (size_t)n * sizeof(particle);
  float *scratch = bench_alloc((size_t)n * 3 * sizeof(float));
  for (int r = -(step == seq_step ? 0 : ctx->warmup); r < ctx->repeats; r++) {
    memcpy(cache.cur, cache.initial, bytes);
    double t0 = bench_now_ms();
    for (int s = 0; s < ctx->steps; s++) {
      step(n, cache.cur, cache.nxt, scratch);
      particle *t = cache.cur;
      cache.cur = cache.nxt;
      cache.nxt = t;
    }
    if (r >= 0)
      cell->kernel_ms[r] = cell->sync_ms[r] = cell->e2e_ms[r] = bench_now_ms() - t0;
  }
  poison(cache.nxt, n);
  step(n, cache.initial, cache.nxt, scratch);
  free(scratch);
  check(cell, cache.nxt, "host");
  cell->n = ctx->repeats;
  if (cell->state == BENCH_NOT_RUN)
    cell->state = BENCH_OK;
}

static double work(const bench_ctx *ctx, long n) {
  return (double)n * (double)n * ctx->steps * 1e-9; /* G interactions */
}

static const long gpu_sizes[] = {10240, 65536, 262144, 0};
static const long cpu_sizes[] = {1024, 4096, 0};

const bench_workload bench_nbody = {
    .name = "nbody",
    .impls = impls,
    .metric = "Ginteractions/s",
    .size_label = "Bodies",
    .float_only = 1,
    .work = work,
    .gpu_sizes = gpu_sizes,
    .cpu_sizes = cpu_sizes,
    .seq_max_default = 10240,
    .fallback_baseline = "naive",
    .run = run,
    .release_cache = release_cache,
};
