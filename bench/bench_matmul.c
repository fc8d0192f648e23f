/* bench/bench_matmul.c: the matmul workload, C (n x n) = A (n x n) * B (n x n), in the columns of
 * the thesis's appendix A: a sequential C loop, OpenBLAS (its CBLAS), the three ampcl kernels of
 * kernels_cl/, a row-block split over several accelerators (its MultiGPU), CLBlast through
 * amp_blas_gemm (its CUBLAS) and CLBlast on the same split (its CUBLAS-XT); and `gemm`,
 * amp_blas_gemm as AMP_BLAS_GEMM leaves it (by default auto: CLBlast or the fast kernel, whichever
 * it measured faster for the size). The clblast columns set AMP_BLAS_GEMM=clblast while they run,
 * so they stay CLBlast's. `tensor` is kernels_cl/gemm/matmul_dmma.cl, double on NVIDIA's FP64
 * tensor cores (compute capability 9.0 and up; skipped elsewhere and for float); --fast-opts passes
 * it -DBM/-DBN/-DWM/-DWN when given. `bulk` is kernels_cl/gemm/matmul_dmma_bulk.cl, the same on the
 * same devices with producer warps and the copy engine (its -DPRODUCERS too). `tf32` is
 * kernels_cl/gemm/matmul_tf32.cl, float with TF32 inputs on NVIDIA's tensor cores (compute
 * capability 8.0 and up; skipped elsewhere and for double), run through amp_blas_gemm_ex with
 * AMP_GEMM_ALLOW_TF32 (the library's shape for the size); with
 * --fast-opts, the kernel itself with those options instead. `fast-multi` splits the rows as
 * `multi` does, running the fast kernel on every part (A's rows and all of B go to each part);
 * these splits drive each accelerator from a host thread of its own, over views of its own
 * (bench_parts.c), so the parts' copies cross their links at the same time. `gemm-multi` is the
 * library's own split, amp_blas_gemm_multi over the --multi accelerators (rows of A and C per
 * accelerator, B in column panels through a pinned ring that the host fills once for all of them;
 * runtime/blas/gemm_split.c): one blocking call from the host matrices to C in host memory, so its
 * kernel and end-to-end times are both that call's wall time (AMP_GEMM_MULTI_VERBOSE=1 prints its
 * per-accelerator breakdown); an untimed first call allocates its pinned workspace and lets each
 * accelerator build and choose its GEMM. AMP_BENCH_GEMM_MULTI_SWEEP times other settings of the
 * call after the cell's own runs, in the same process (gemm_multi_sweep below).
 *
 * Every result is compared with OpenBLAS's, computed once per type and size. Inputs are uniform
 * in [-1, 1], so each product term is at most 1 in magnitude and a dot product of length k has a
 * rounding error well below k * eps; the check allows 4 * k * eps per element (and no NaN). A
 * kernel that skips work, or returns zeros, misses by about sqrt(k) / 3: far above that. The tf32
 * column's inputs are rounded to 10 mantissa bits, each product then off by up to 2^-10 (with
 * room): it is allowed k * 2^-10 more, still below a skipped term's sqrt(k) / 3 for every k up to
 * 100,000. Its note gives the error against a double-precision product of the same inputs (16
 * rows spread over C): the largest difference over the largest element, the measure
 * bench/cuda_reference.py --tf32 prints for cuBLAS's TF32 mode; above 1e-3 (4x what TF32's
 * rounding gives) the cell fails. */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#ifdef AMP_BENCH_OPENMP
#include "omp/omp_bench.h"
#endif

static const char *const impls[] = {"seq",    "openblas", "naive",         "tiled",      "fast",
                                    "multi",  "clblast",  "clblast-multi", "gemm",       "tensor",
                                    "bulk",   "tf32",     "fast-multi",    "gemm-multi",
#ifdef AMP_BENCH_OPENMP
                                    "openmp", /* bench/omp/omp_matmul.c */
#endif
                                    NULL};

enum { REF64_ROWS = 16 }; /* rows of C the FP64 reference covers (the tf32 column's error) */

/* Host matrices of the current type and size, with OpenBLAS's product as the reference, and
 * (made at the first tf32 check, float only) REF64_ROWS rows of the product in double. */
static struct {
  bench_type type;
  long n;
  void *a, *b, *ref, *c;
  double *ref64;
} cache;

static void release_cache(void) {
  bench_data_free(cache.a);
  bench_data_free(cache.b);
  free(cache.ref);
  bench_data_free(cache.c);
  free(cache.ref64);
  memset(&cache, 0, sizeof cache);
}

static size_t esize(bench_type t) {
  return t == BENCH_DOUBLE ? sizeof(double) : sizeof(float);
}

static void blas_gemm(bench_type t, int n, const void *a, const void *b, void *c) {
  if (t == BENCH_DOUBLE)
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
  else
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
}

static void ensure_data(bench_type t, long n) {
  if (cache.a && cache.type == t && cache.n == n)
    return;
  release_cache();
  size_t count = (size_t)n * (size_t)n, bytes = count * esize(t);
  cache.type = t;
  cache.n = n;
  cache.a = bench_data_alloc(bytes);
  cache.b = bench_data_alloc(bytes);
  cache.ref = bench_alloc(bytes);
  cache.c = bench_data_alloc(bytes);
  if (t == BENCH_DOUBLE) {
    bench_fill_double(cache.a, count, 1);
    bench_fill_double(cache.b, count, 2);
  } else {
    bench_fill_float(cache.a, count, 1);
    bench_fill_float(cache.b, count, 2);
  }
  blas_gemm(t, (int)n, cache.a, cache.b, cache.ref);
}

/* NaN everywhere, so an element that no kernel wrote fails the check. */
static void poison(void *c, bench_type t, size_t count) {
  if (t == BENCH_DOUBLE)
    for (size_t i = 0; i < count; i++)
      ((double *)c)[i] = NAN;
  else
    for (size_t i = 0; i < count; i++)
      ((float *)c)[i] = NAN;
}

/* Compares cache.c with cache.ref; marks the cell FAILED on a mismatch. */
/* Which row of C the s-th FP64 reference row is: REF64_ROWS spread from the first to the last. */
static size_t ref64_row(int s) {
  return (size_t)s * (size_t)(cache.n - 1) / (REF64_ROWS - 1);
}

/* The FP64 reference rows of the float product in the cache (float inputs, exact double products
 * summed in double), made once per type and size; NULL when out of memory. */
static const double *fp64_rows(void) {
  const size_t n = (size_t)cache.n;
  if (!cache.ref64 && (cache.ref64 = calloc(REF64_ROWS * n, sizeof(double)))) {
    const float *A = cache.a, *B = cache.b;
    for (int s = 0; s < REF64_ROWS; s++) {
      double *row = cache.ref64 + (size_t)s * n;
      for (size_t q = 0; q < n; q++)
        for (size_t j = 0; j < n; j++)
          row[j] += (double)A[ref64_row(s) * n + q] * (double)B[q * n + j];
    }
  }
  return cache.ref64;
}

static void check(bench_cell *cell, const char *phase) {
  size_t count = (size_t)cell->size * (size_t)cell->size, worst_i = 0;
  double eps = cell->type == BENCH_DOUBLE ? 2.220446049250313e-16 : 1.1920929e-7;
  const int tf32 = strcmp(cell->impl, "tf32") == 0;
  double tol = (tf32 ? 0x1p-10 : 0.0) * (double)cell->size + 4.0 * (double)cell->size * eps,
         worst = 0;
  if (bench_inject_error) {
    if (cell->type == BENCH_DOUBLE)
      ((double *)cache.c)[count / 2] += 1.0;
    else
      ((float *)cache.c)[count / 2] += 1.0f;
  }
  for (size_t i = 0; i < count; i++) {
    double got = cell->type == BENCH_DOUBLE ? ((double *)cache.c)[i] : ((float *)cache.c)[i];
    double want = cell->type == BENCH_DOUBLE ? ((double *)cache.ref)[i] : ((float *)cache.ref)[i];
    double err = fabs(got - want) / tol;
    if (!(err <= worst)) { /* also catches NaN */
      worst = isnan(err) ? INFINITY : err;
      worst_i = i;
      if (isinf(worst))
        break;
    }
  }
  if (worst > cell->max_err)
    cell->max_err = worst;
  const double *ref64 = tf32 && worst <= 1.0 ? fp64_rows() : NULL;
  if (ref64) {
    const size_t n = (size_t)cell->size;
    const float *C = cache.c;
    double err = 0, largest = 0;
    for (int s = 0; s < REF64_ROWS; s++)
      for (size_t j = 0; j < n; j++) {
        const double want = ref64[(size_t)s * n + j];
        err = fmax(err, fabs(C[ref64_row(s) * n + j] - want));
        largest = fmax(largest, fabs(want));
      }
    /* The per-element tolerance above is TF32's worst case, far above what rounding gives on
     * random data (about 2.5e-4 of C's largest element at every size; a term left out shows
     * as 1e-2 and more at 4096): here the measured error itself must stay under 1e-3. */
    if (largest > 0 && err / largest > 1e-3) {
      cell->state = BENCH_FAILED;
      snprintf(cell->note, sizeof cell->note,
               "%s result wrong: error against FP64 %.3g of C's largest element (16 rows), "
               "TF32 gives about 2.5e-4",
               phase, err / largest);
    } else if (largest > 0 && cell->state != BENCH_FAILED) { /* keep an earlier phase's reason */
      snprintf(cell->note, sizeof cell->note,
               "TF32: error against FP64 %.3g of C's largest element (16 rows)", err / largest);
    }
  }
  if (worst > 1.0 && cell->state != BENCH_FAILED) {
    size_t n = (size_t)cell->size;
    double got =
        cell->type == BENCH_DOUBLE ? ((double *)cache.c)[worst_i] : ((float *)cache.c)[worst_i];
    double want =
        cell->type == BENCH_DOUBLE ? ((double *)cache.ref)[worst_i] : ((float *)cache.ref)[worst_i];
    cell->state = BENCH_FAILED;
    snprintf(cell->note, sizeof cell->note,
             "%s result wrong: C(%zu %zu) = %.9g but OpenBLAS gives %.9g (tolerance %.3g)", phase,
             worst_i / n, worst_i % n, got, want, tol);
  }
}

static void seq_gemm(bench_type t, int n, const void *a, const void *b, void *c) {
  /* The textbook loop in i-k-j order (unit stride through B and C); no blocking, no threads. */
  if (t == BENCH_DOUBLE) {
    const double *A = a, *B = b;
    double *C = c;
    memset(C, 0, (size_t)n * (size_t)n * sizeof *C);
    for (int i = 0; i < n; i++)
      for (int k = 0; k < n; k++) {
        const double aik = A[(size_t)i * n + k];
        for (int j = 0; j < n; j++)
          C[(size_t)i * n + j] += aik * B[(size_t)k * n + j];
      }
  } else {
    const float *A = a, *B = b;
    float *C = c;
    memset(C, 0, (size_t)n * (size_t)n * sizeof *C);
    for (int i = 0; i < n; i++)
      for (int k = 0; k < n; k++) {
        const float aik = A[(size_t)i * n + k];
        for (int j = 0; j < n; j++)
          C[(size_t)i * n + j] += aik * B[(size_t)k * n + j];
      }
  }
}

/* C = A B by OpenMP + SIMD C (bench/omp/omp_matmul.c). */
static void omp_gemm(bench_type t, int n, const void *a, const void *b, void *c) {
#ifdef AMP_BENCH_OPENMP
  if (t == BENCH_DOUBLE)
    omp_bench_dgemm(n, a, b, c);
  else
    omp_bench_sgemm(n, a, b, c);
#else
  (void)t, (void)n, (void)a, (void)b, (void)c;
#endif
}

/* seq, openblas and openmp: host code, where kernel time and end-to-end time are the same wall
 * time. */
static void run_host(bench_ctx *ctx, bench_cell *cell) {
  int n = (int)cell->size, is_seq = strcmp(cell->impl, "seq") == 0;
  void (*gemm)(bench_type, int, const void *, const void *, void *) =
      is_seq                              ? seq_gemm
      : strcmp(cell->impl, "openmp") == 0 ? omp_gemm
                                          : blas_gemm;
  size_t count = (size_t)n * (size_t)n;
  for (int r = -(is_seq ? 0 : ctx->warmup); r < ctx->repeats; r++) {
    poison(cache.c, cell->type, count);
    double t0 = bench_now_ms();
    gemm(cell->type, n, cache.a, cache.b, cache.c);
    double t1 = bench_now_ms();
    if (r >= 0) {
      cell->kernel_ms[r] = cell->sync_ms[r] = cell->e2e_ms[r] = t1 - t0;
      cell->n = r + 1;
    }
  }
  check(cell, "host");
}

/* ---- device implementations ------------------------------------------------------------------ */

typedef enum mm_kind { MM_NAIVE, MM_TILED, MM_FAST, MM_CPU, MM_BLAS } mm_kind;

typedef struct mm_plan {
  mm_kind kind;
  amp_program *prog;
  amp_kernel *k;
  int ts_m, ts_n, rts_m, rts_n; /* matmul_fast: C block per tile, threads per tile */
  unsigned gemm_flags;          /* MM_BLAS: amp_blas_gemm_ex's flags */
} mm_plan;

enum { TILE = 16 };

/* One launch of the plan on one view: C (m x n) = A (m x k) * B (k x n). */
static amp_status launch(amp_accelerator_view *av, const mm_plan *p, amp_array_view *a,
                         amp_array_view *b, amp_array_view *c, int m, int n, amp_future **done) {
  if (p->kind == MM_BLAS)
    return amp_blas_gemm_ex(av, p->gemm_flags, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, a, b, 0.0, c, done);
  amp_arg args[] = {amp_arg_view(a), amp_arg_view(b), amp_arg_view(c)};
  amp_launch l = {0};
  l.kernel = p->k;
  l.args = args;
  l.nargs = AMP_NARGS(args);
  if (p->kind == MM_NAIVE) {
    l.domain = amp_extent2(m, n);
  } else if (p->kind == MM_CPU) { /* column blocks first (kernels_cl/gemm/matmul_cpu.cl) */
    l.domain = amp_extent2((n + p->ts_n - 1) / p->ts_n, (m + p->ts_m - 1) / p->ts_m);
    l.tiled = 1; /* tiles of one work-item (matmul_cpu.cl's header says why) */
    l.tile[0] = l.tile[1] = 1;
  } else if (p->kind == MM_TILED) {
    l.domain = amp_tiled_extent_pad(amp_tile2(amp_extent2(m, n), TILE, TILE)).extent;
    l.tiled = 1;
    l.tile[0] = l.tile[1] = TILE;
  } else {
    l.domain =
        amp_extent2((m + p->ts_m - 1) / p->ts_m * p->rts_m, (n + p->ts_n - 1) / p->ts_n * p->rts_n);
    l.tiled = 1;
    l.tile[0] = p->rts_m;
    l.tile[1] = p->rts_n;
  }
  return amp_parallel_for_each_ex(av, &l, done);
}

/* The views of one run. Whole: A, B and C over the host matrices. Split: per part (one per
 * accelerator) views of its own over its row blocks of A and C and over the whole of B, so that
 * no two parts share a data source and each part's copies run on its own thread at the same time
 * as the others' (bench_parts.c). The B views of the parts cover the same host memory: they are
 * read-only, so they cannot disagree. */
typedef struct mm_views {
  amp_array_view *a, *b, *c; /* whole: the views; split: NULL */
  int nparts;
  amp_accelerator_view *av[BENCH_MAX_ACCS];
  amp_array_view *pa[BENCH_MAX_ACCS], *pb[BENCH_MAX_ACCS], *pc[BENCH_MAX_ACCS];
  int rows[BENCH_MAX_ACCS];
} mm_views;

static void views_release(mm_views *v) {
  if (v->a) { /* whole: the parts' pointers are the same three views */
    amp_array_view_release(v->a);
    amp_array_view_release(v->b);
    amp_array_view_release(v->c);
  } else {
    for (int p = 0; p < v->nparts; p++) {
      amp_array_view_release(v->pa[p]);
      amp_array_view_release(v->pb[p]);
      amp_array_view_release(v->pc[p]);
    }
  }
  memset(v, 0, sizeof *v);
}

static amp_status views_create(bench_ctx *ctx, bench_cell *cell, int split, mm_views *v) {
  int n = (int)cell->size;
  amp_elem_type et = cell->type == BENCH_DOUBLE ? AMP_DOUBLE : AMP_FLOAT;
  size_t row_bytes = (size_t)n * esize(cell->type);
  amp_status st;
  memset(v, 0, sizeof *v);
  if (!split) {
    v->nparts = 1;
    v->av[0] = ctx->av;
    v->rows[0] = n;
    if ((st = amp_array_view_create_const(amp_extent2(n, n), et, cache.a, &v->a)) ||
        (st = amp_array_view_create_const(amp_extent2(n, n), et, cache.b, &v->b)) ||
        (st = amp_array_view_create(amp_extent2(n, n), et, cache.c, &v->c)))
      return st;
    v->pa[0] = v->a;
    v->pb[0] = v->b;
    v->pc[0] = v->c;
    return amp_array_view_discard_data(v->c);
  }
  /* One block of rows per accelerator: rows [n*p/P, n*(p+1)/P). B goes whole to each. */
  int parts = (int)ctx->nmulti;
  for (int p = 0; p < parts; p++) {
    int r0 = (int)((long)n * p / parts), r1 = (int)((long)n * (p + 1) / parts);
    if (r1 == r0)
      continue;
    int q = v->nparts++;
    v->av[q] = ctx->multi[p];
    v->rows[q] = r1 - r0;
    if ((st = amp_array_view_create_const(amp_extent2(r1 - r0, n), et,
                                          (char *)cache.a + (size_t)r0 * row_bytes, &v->pa[q])) ||
        (st = amp_array_view_create_const(amp_extent2(n, n), et, cache.b, &v->pb[q])) ||
        (st = amp_array_view_create(amp_extent2(r1 - r0, n), et,
                                    (char *)cache.c + (size_t)r0 * row_bytes, &v->pc[q])) ||
        (st = amp_array_view_discard_data(v->pc[q])))
      return st;
  }
  return AMP_SUCCESS;
}

/* One run of every part: the launch, its wait, and with `sync` the copy of the part's C back to
 * host memory. */
typedef struct mm_run {
  const mm_plan *plan;
  mm_views *v;
  int n, sync;
} mm_run;

static amp_status run_part(void *arg, int p, double *kernel_ms) {
  mm_run *r = arg;
  amp_future *done = NULL;
  *kernel_ms = 0;
  amp_status st = launch(r->v->av[p], r->plan, r->v->pa[p], r->v->pb[p], r->v->pc[p], r->v->rows[p],
                         r->n, &done);
  if (st == AMP_SUCCESS)
    st = bench_future_done(done, kernel_ms, 0);
  if (st == AMP_SUCCESS && r->sync)
    st = amp_array_view_synchronize(r->v->pc[p]);
  return st;
}

/* Runs every part, each on its own thread, and waits for all; *kernel_ms = the longest part's
 * device time. Returns 1 (and fills the cell's note) on a failure. */
static int run_once(bench_cell *cell, const char *what, const mm_plan *plan, mm_views *v, int n,
                    int sync, double *kernel_ms) {
  mm_run r = {.plan = plan, .v = v, .n = n, .sync = sync};
  return bench_run_parts(cell, what, v->nparts, run_part, &r, kernel_ms);
}

static amp_status plan_create(const bench_ctx *ctx, bench_cell *cell, mm_plan *p) {
  char fast_buf[256]; /* the options are copied by amp_program_create_builtin */
  /* A split runs its column's plan on every part: fast-multi the fast kernel, clblast-multi
   * amp_blas_gemm, multi (the thesis's MultiGPU column) the tiled kernel (gemm-multi is one
   * library call: run_gemm_multi). */
  const char *impl = strcmp(cell->impl, "fast-multi") == 0 ? "fast" : cell->impl;
  int dbl = cell->type == BENCH_DOUBLE;
  memset(p, 0, sizeof *p);
  if (strncmp(impl, "clblast", 7) == 0 || strcmp(impl, "gemm") == 0) {
    p->kind = MM_BLAS;
    return AMP_SUCCESS;
  }
  if (strcmp(impl, "tf32") == 0 && !ctx->fast_opts) { /* what the library runs, in its shape */
    p->kind = MM_BLAS;
    p->gemm_flags = AMP_GEMM_ALLOW_TF32;
    return AMP_SUCCESS;
  }
  const char *name, *opts;
  if (strcmp(impl, "naive") == 0) {
    p->kind = MM_NAIVE;
    name = "matmul_naive";
    opts = dbl ? "-DT=double" : "-DT=float";
  } else if (strcmp(impl, "fast") == 0 && ctx->props.is_emulated && !ctx->fast_opts) {
    /* "fast" is the fastest kernel for the device: on a CPU device the CPU-shaped one, 96 rows
     * x 16 columns per work-item in blocks of 6 x 16 held in float8 registers (96 x 8 in double4
     * for double), the shapes amp_blas_gemm takes there (runtime/blas/gemm_plans.c). */
    p->kind = MM_CPU;
    name = "matmul_cpu";
    opts = dbl ? "-DT=double -DVW=4" : "-DT=float";
    p->ts_m = 96;
    p->ts_n = dbl ? 8 : 16;
  } else if (strcmp(impl, "fast") == 0) {
    p->kind = MM_FAST;
    name = "matmul_fast";
    /* float: the largest of three shapes that still gives half the compute units a tile each
     * (measured on an H200, 132 units: 128 x 128 from 2048 up, 64 x 128 at 1024, 32 x 64 at 512;
     * matmul_fast.cl's header). double: the shape the header recommends (64 x 128, 8 x 8 per
     * thread, K tile 8, double2 columns of B). */
    static const struct {
      int ts_m, ts_n, wpt_m, wpt_n;
      const char *opts;
    } shapes[] = {{128, 128, 8, 8, "-DT=float"},
                  {64, 128, 8, 4, "-DT=float -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4"},
                  {32, 64, 4, 4, "-DT=float -DTS_M=32 -DTS_N=64 -DWPT_M=4 -DWPT_N=4"}};
    size_t si = 0;
    /* a split's part has about size / parts rows of C: its tiles count, not the whole's */
    long parts = strstr(cell->impl, "multi") && ctx->nmulti > 1 ? (long)ctx->nmulti : 1;
    long rows = (cell->size + parts - 1) / parts;
    while (si + 1 < sizeof shapes / sizeof shapes[0] &&
           2 * ((rows + shapes[si].ts_m - 1) / shapes[si].ts_m) *
                   ((cell->size + shapes[si].ts_n - 1) / shapes[si].ts_n) <
               (long)ctx->props.compute_units)
      si++;
    opts = dbl ? "-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
               : shapes[si].opts;
    /* as amp_blas_gemm does (runtime/blas/gemm_choice.c) on compute capability 9.x: the cp.async
     * ring (step 13): in float with K tiles of 32; in double the ring's double shape, which
     * amp_blas_gemm runs only if the tensor-core kernels (the `tensor` and `bulk` columns) are
     * refused */
    const int cc9 = ctx->props.compute_capability >= 90 && ctx->props.compute_capability < 100;
    if (!dbl && si == 0 && cc9)
      opts = "-DT=float -DTS_K=32 -DASYNC_STAGES=4";
    if (dbl && cc9)
      opts =
          "-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3";
    p->ts_m = dbl ? 64 : shapes[si].ts_m;
    p->ts_n = dbl ? 128 : shapes[si].ts_n;
    p->rts_m = p->ts_m / (dbl ? 8 : shapes[si].wpt_m);
    p->rts_n = p->ts_n / (dbl ? 8 : shapes[si].wpt_n);
    if (ctx->fast_opts) { /* a tile shape to try: read it back from the options */
      snprintf(fast_buf, sizeof fast_buf, "-DT=%s %s", dbl ? "double" : "float", ctx->fast_opts);
      opts = fast_buf;
      int wm = bench_option_int(ctx->fast_opts, "-DWPT_M=", 8),
          wn = bench_option_int(ctx->fast_opts, "-DWPT_N=", 8);
      p->ts_m = bench_option_int(ctx->fast_opts, "-DTS_M=", 128);
      p->ts_n = bench_option_int(ctx->fast_opts, "-DTS_N=", 128);
      p->rts_m = p->ts_m / wm;
      p->rts_n = p->ts_n / wn;
    }
  } else if (strcmp(impl, "tensor") == 0) {
    p->kind = MM_FAST; /* the same launch shape: ceil(m / ts_m) x ceil(n / ts_n) tiles */
    name = "matmul_dmma";
    opts = ctx->fast_opts ? ctx->fast_opts : "";
    p->ts_m = bench_option_int(opts, "-DBM=", 128);
    p->ts_n = bench_option_int(opts, "-DBN=", 64); /* matmul_dmma.cl's defaults */
    p->rts_m = p->ts_m / bench_option_int(opts, "-DWM=", 64) *
               (p->ts_n / bench_option_int(opts, "-DWN=", 32)); /* warps */
    p->rts_n = 32;
  } else if (strcmp(impl, "bulk") == 0) {
    p->kind = MM_FAST;
    name = "matmul_dmma_bulk";
    opts = ctx->fast_opts ? ctx->fast_opts : "";
    p->ts_m = bench_option_int(opts, "-DBM=", 128);
    p->ts_n = bench_option_int(opts, "-DBN=", 128); /* matmul_dmma_bulk.cl's defaults */
    p->rts_m = p->ts_m / bench_option_int(opts, "-DWM=", 64) *
                   (p->ts_n / bench_option_int(opts, "-DWN=", 32)) +
               bench_option_int(opts, "-DPRODUCERS=", 4); /* consumer and producer warps */
    p->rts_n = 32;
  } else if (strcmp(impl, "tf32") == 0) {
    p->kind = MM_FAST;
    name = "matmul_tf32";
    opts = ctx->fast_opts ? ctx->fast_opts : "";
    p->ts_m = bench_option_int(opts, "-DBM=", 128);
    p->ts_n = bench_option_int(opts, "-DBN=", 128); /* matmul_tf32.cl's defaults */
    p->rts_m = p->ts_m / bench_option_int(opts, "-DWM=", 64) *
               (p->ts_n / bench_option_int(opts, "-DWN=", 32)); /* warps */
    p->rts_n = 32;
  } else { /* tiled, and multi, which splits the tiled kernel (the thesis's "MultiGPU (block)") */
    p->kind = MM_TILED;
    name = "matmul_tiled";
    opts = dbl ? "-DT=double -DTILE=16" : "-DT=float -DTILE=16";
  }
  amp_status st = amp_program_create_builtin(name, opts, &p->prog);
  if (st == AMP_SUCCESS)
    st = amp_kernel_create(p->prog, name, &p->k);
  return st;
}

static void run_device_cell(bench_ctx *ctx, bench_cell *cell);

/* The clblast columns are CLBlast's: amp_blas_gemm forced to it (AMP_BLAS_GEMM, read at every
 * call) while they run, the caller's setting restored after. */
static void run_device(bench_ctx *ctx, bench_cell *cell) {
  if (strncmp(cell->impl, "clblast", 7) != 0) {
    run_device_cell(ctx, cell);
    return;
  }
  const char *env = getenv("AMP_BLAS_GEMM");
  char *saved = env ? strdup(env) : NULL;
  setenv("AMP_BLAS_GEMM", "clblast", 1);
  run_device_cell(ctx, cell);
  if (saved)
    setenv("AMP_BLAS_GEMM", saved, 1);
  else
    unsetenv("AMP_BLAS_GEMM");
  free(saved);
}

/* One amp_blas_gemm_multi call over views of the host matrices: C = A B into cache.c. */
static amp_status gemm_multi_once(bench_ctx *ctx, bench_cell *cell) {
  int n = (int)cell->size;
  amp_elem_type et = cell->type == BENCH_DOUBLE ? AMP_DOUBLE : AMP_FLOAT;
  amp_array_view *a = NULL, *b = NULL, *c = NULL;
  amp_status st;
  if ((st = amp_array_view_create_const(amp_extent2(n, n), et, cache.a, &a)) == AMP_SUCCESS &&
      (st = amp_array_view_create_const(amp_extent2(n, n), et, cache.b, &b)) == AMP_SUCCESS &&
      (st = amp_array_view_create(amp_extent2(n, n), et, cache.c, &c)) == AMP_SUCCESS)
    st = amp_blas_gemm_multi(ctx->multi, (int)ctx->nmulti, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, a, b,
                             0.0, c);
  amp_array_view_release(a);
  amp_array_view_release(b);
  amp_status rel = amp_array_view_release(c);
  return st != AMP_SUCCESS ? st : rel;
}

/* Times `repeats` calls (after one untimed call, which also reallocates the pinned workspace
 * when a setting changed its size) into ms[], each result checked. 1 on a failure. */
static int gemm_multi_timed(bench_ctx *ctx, bench_cell *cell, int warm, double *ms) {
  size_t count = (size_t)cell->size * (size_t)cell->size;
  for (int w = 0; w < warm; w++)
    if (bench_fail(cell, gemm_multi_once(ctx, cell), "warm-up call"))
      return 1;
  for (int r = 0; r < ctx->repeats; r++) {
    poison(cache.c, cell->type, count);
    double t0 = bench_now_ms();
    if (bench_fail(cell, gemm_multi_once(ctx, cell), "amp_blas_gemm_multi"))
      return 1;
    ms[r] = bench_now_ms() - t0;
    check(cell, "end-to-end");
    if (cell->state != BENCH_NOT_RUN)
      return 1;
  }
  return 0;
}

/* AMP_BENCH_GEMM_MULTI_SWEEP: settings of amp_blas_gemm_multi to time after the cell's own runs,
 * in the same process (one OpenBLAS reference for all): space-separated, each a comma-separated
 * list of AMP_GEMM_MULTI_*=value, e.g. "AMP_GEMM_MULTI_PANEL=1024 AMP_GEMM_MULTI_SHARED=0,
 * AMP_GEMM_MULTI_A_PARTS=1". Each prints one line with its median; the environment is restored
 * after each. */
static void gemm_multi_sweep(bench_ctx *ctx, bench_cell *cell) {
  const char *sweep = getenv("AMP_BENCH_GEMM_MULTI_SWEEP");
  char buf[1024], *save = NULL;
  if (!sweep || !*sweep)
    return;
  snprintf(buf, sizeof buf, "%s", sweep);
  for (char *set = strtok_r(buf, " ", &save); set; set = strtok_r(NULL, " ", &save)) {
    char names[8][64], *olds[8], item[256], *save2 = NULL;
    int nset = 0, bad = 0;
    snprintf(item, sizeof item, "%s", set);
    for (char *kv = strtok_r(item, ",", &save2); kv && nset < 8; kv = strtok_r(NULL, ",", &save2)) {
      char *eq = strchr(kv, '=');
      if (!eq || strncmp(kv, "AMP_GEMM_MULTI_", 15) != 0 || (size_t)(eq - kv) >= sizeof names[0]) {
        bad = 1;
        break;
      }
      snprintf(names[nset], sizeof names[nset], "%.*s", (int)(eq - kv), kv);
      const char *old = getenv(names[nset]);
      olds[nset] = old ? strdup(old) : NULL;
      setenv(names[nset++], eq + 1, 1);
    }
    double ms[BENCH_MAX_REPEATS];
    int failed = bad || gemm_multi_timed(ctx, cell, 1, ms);
    if (bad)
      printf("        gemm-multi sweep: \"%s\" is not a list of AMP_GEMM_MULTI_*=value\n", set);
    else if (failed)
      printf("        gemm-multi sweep: %s: FAILED (%s)\n", set, cell->note);
    else
      printf("        gemm-multi sweep: %s: end to end %.3f ms median of %d [%.3f - %.3f], ok\n",
             set, bench_stats_of(ms, ctx->repeats).median, ctx->repeats,
             bench_stats_of(ms, ctx->repeats).min, bench_stats_of(ms, ctx->repeats).max);
    fflush(stdout);
    while (nset-- > 0) { /* the caller's environment back */
      if (olds[nset])
        setenv(names[nset], olds[nset], 1);
      else
        unsetenv(names[nset]);
      free(olds[nset]);
    }
    if (failed)
      return;
  }
}

static void run_gemm_multi(bench_ctx *ctx, bench_cell *cell) {
  if (gemm_multi_timed(ctx, cell, ctx->warmup > 0 ? ctx->warmup : 1, cell->e2e_ms))
    return;
  memcpy(cell->sync_ms, cell->e2e_ms, sizeof cell->sync_ms);
  memcpy(cell->kernel_ms, cell->e2e_ms, sizeof cell->kernel_ms);
  cell->n = ctx->repeats;
  gemm_multi_sweep(ctx, cell);
  if (cell->state == BENCH_NOT_RUN) {
    cell->state = BENCH_OK;
    snprintf(cell->note, sizeof cell->note, "one call: kernel = end to end");
  }
}

static void run_device_cell(bench_ctx *ctx, bench_cell *cell) {
  int n = (int)cell->size, split = strstr(cell->impl, "multi") != NULL;
  size_t count = (size_t)n * (size_t)n;
  mm_plan plan;
  mm_views v = {0};
  double ms;
  if (split && ctx->nmulti == 0) {
    cell->state = BENCH_SKIPPED;
    snprintf(cell->note, sizeof cell->note, "no accelerators for the split");
    return;
  }
  if (strcmp(cell->impl, "gemm-multi") == 0) {
    run_gemm_multi(ctx, cell);
    return;
  }
  if (bench_fail(cell, plan_create(ctx, cell, &plan), "program"))
    goto done;
  if ((plan.kind == MM_TILED && !bench_tile_fits(ctx, cell, 2, (const int[]){TILE, TILE})) ||
      (plan.kind == MM_FAST &&
       !bench_tile_fits(ctx, cell, 2, (const int[]){plan.rts_m, plan.rts_n})))
    goto done; /* a device that allows fewer threads per tile */

  /* Kernel time: the inputs stay on the device between runs (the first warm-up run copies them
   * in and compiles the kernel), so the events time the computation alone. */
  poison(cache.c, cell->type, count);
  if (bench_fail(cell, views_create(ctx, cell, split, &v), "views"))
    goto done;
  for (int w = 0; w < ctx->warmup; w++)
    if (run_once(cell, "warm-up launch", &plan, &v, n, 0, &ms))
      goto done;
  for (int r = 0; r < ctx->repeats; r++) {
    double t0 = bench_now_ms();
    if (run_once(cell, "launch", &plan, &v, n, 0, &ms))
      goto done;
    cell->sync_ms[r] = bench_now_ms() - t0;
    cell->kernel_ms[r] = ms; /* NAN where the device gives no device time: n/a */
  }
  for (int p = 0; p < v.nparts; p++)
    if (bench_fail(cell, amp_array_view_synchronize(v.pc[p]), "synchronize"))
      goto done;
  views_release(&v);
  check(cell, "kernel-time");

  /* End to end: views over host memory, copies in, the launch, the copy back of C. */
  for (int r = 0; r < ctx->repeats; r++) {
    poison(cache.c, cell->type, count);
    double t0 = bench_now_ms();
    if (bench_fail(cell, views_create(ctx, cell, split, &v), "views") ||
        run_once(cell, "launch and synchronize", &plan, &v, n, 1, &ms))
      goto done;
    cell->e2e_ms[r] = bench_now_ms() - t0;
    views_release(&v);
  }
  check(cell, "end-to-end");
  cell->n = ctx->repeats;
  if (cell->state == BENCH_NOT_RUN)
    cell->state = BENCH_OK;
done:
  views_release(&v);
  amp_kernel_release(plan.k);
  amp_program_release(plan.prog);
}

static void run(bench_ctx *ctx, bench_cell *cell) {
  int is_seq = strcmp(cell->impl, "seq") == 0;
  if (is_seq && cell->size > ctx->seq_max) {
    cell->state = BENCH_SKIPPED;
    snprintf(cell->note, sizeof cell->note, "above --seq-max %ld", ctx->seq_max);
    return;
  }
  const int is_host = is_seq || !strcmp(cell->impl, "openblas") || !strcmp(cell->impl, "openmp");
  if (cell->type == BENCH_DOUBLE && !is_host && !ctx->props.supports_double_precision) {
    cell->state = BENCH_SKIPPED;
    snprintf(cell->note, sizeof cell->note, "%s has no fp64", ctx->props.device_path);
    return;
  }
  if ((strcmp(cell->impl, "tensor") == 0 || strcmp(cell->impl, "bulk") == 0) &&
      (cell->type != BENCH_DOUBLE || ctx->props.compute_capability < 90)) {
    cell->state = BENCH_SKIPPED;
    snprintf(cell->note, sizeof cell->note, "needs double on NVIDIA compute capability 9.0+");
    return;
  }
  if (strcmp(cell->impl, "tf32") == 0 &&
      (cell->type != BENCH_FLOAT || ctx->props.compute_capability < 80)) {
    cell->state = BENCH_SKIPPED;
    snprintf(cell->note, sizeof cell->note, "needs float on NVIDIA compute capability 8.0+");
    return;
  }
  ensure_data(cell->type, cell->size);
  if (is_host) {
    run_host(ctx, cell);
    if (cell->state == BENCH_NOT_RUN)
      cell->state = BENCH_OK;
  } else {
    run_device(ctx, cell);
  }
}

static double work(const bench_ctx *ctx, long n) {
  (void)ctx;
  return 2.0 * (double)n * (double)n * (double)n * 1e-9; /* GFLOP */
}

static const long gpu_sizes[] = {512, 1024, 2048, 4096, 8192, 0};
static const long cpu_sizes[] = {128, 256, 512, 0};

const bench_workload bench_matmul = {
    .name = "matmul",
    .impls = impls,
    .metric = "GFLOP/s",
    .size_label = "Matrix Size",
    .float_only = 0,
    .work = work,
    .gpu_sizes = gpu_sizes,
    .cpu_sizes = cpu_sizes,
    .seq_max_default = 2048,
    .fallback_baseline = "openblas",
    .run = run,
    .release_cache = release_cache,
};
