/* bench/bench_cpu.c: amp-bench --cpu: ampcl on the chosen accelerator (meant for a CPU device:
 * POCL, Intel's CPU runtime) beside the OpenMP + SIMD C versions of bench/omp/, in the same run,
 * on the same inputs: add-exp, n-body, matmul (float and double: the CPU kernel, and
 * amp_blas_gemm, which on a CPU device runs OpenBLAS; OpenBLAS itself beside), reduce, scan,
 * transpose and the 7 x 7 stencil (amp_gaussian_blur, sigma 1). --fast-opts applies to add-exp's
 * kernel only.
 *
 * Both sides are timed as wall time with the data where each works on it: ampcl's from the launch
 * (or the algorithm's call) until its result is complete on the device, the data already there
 * (the workloads' "sync" time; the algorithms' end-to-end time of --algorithms), OpenMP's the
 * call. The median and the fastest of --repeats after --warmup untimed runs (on a shared machine
 * the fastest is the least disturbed). The ratio is OpenMP's time over ampcl's: ampcl's speed as a
 * share of OpenMP's (1.0 the same, the goal >= 0.8), of the medians and of the best.
 *
 * Checks: add-exp, n-body and matmul are the workloads' own cells (`fast` and `openmp`), each
 * checked against the workload's host reference with its tolerance. The algorithms' results are
 * checked against a host reference (the sum in double, the scan and transpose exactly, the
 * stencil in double at every 997th pixel and the edges) and OpenMP's against ampcl's (exact for
 * scan and transpose, 1e-5 of the reference's magnitude for the sum, 1e-5 per pixel). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#ifdef AMP_BENCH_OPENMP
#include "omp/omp_bench.h"

enum { NROWS = 10 };

typedef struct cpu_row {
  char what[48];
  long size;
  double ampcl_ms, omp_ms, ref_ms;       /* medians; ref_ms: OpenBLAS, for matmul; 0 elsewhere */
  double ampcl_best, omp_best, ref_best; /* the fastest repeat of each */
  int ok;
  int skipped; /* not ok because ampcl's cell was skipped (e.g. a device without fp64) */
  char note[256];
} cpu_row;

/* ---- add-exp, n-body, matmul: the workloads' cells ------------------------------------------ */

/* A pause before each timed phase, so that the worker threads of what ran before (OpenBLAS's spin
 * for a while after a call, libgomp's and the OpenCL runtime's briefly) are asleep and do not
 * compete for the cores with what is timed next. */
static void settle(void) {
  struct timespec t = {0, 250 * 1000 * 1000};
  nanosleep(&t, NULL);
}

/* Runs one cell of workload w; 0 with *ms and *best its median and fastest sync time when it
 * verified, else 1 with the reason in row->note. */
static int cell_ms(bench_ctx *ctx, const bench_workload *w, const char *impl, bench_type t,
                   long size, double *ms, double *best, cpu_row *row) {
  bench_cell c;
  memset(&c, 0, sizeof c);
  c.impl = impl;
  c.type = t;
  c.size = size;
  fprintf(stderr, "%s %s %ld %s ...\n", w->name, bench_type_name(t), size, impl);
  settle();
  w->run(ctx, &c);
  if (c.state != BENCH_OK) {
    row->skipped = c.state == BENCH_SKIPPED;
    snprintf(row->note, sizeof row->note, "%s: %s: %.200s", impl,
             c.state == BENCH_FAILED    ? "FAILED"
             : c.state == BENCH_SKIPPED ? "skipped"
                                        : "ERROR",
             c.note);
    return 1;
  }
  bench_stats st = bench_stats_of(c.sync_ms, c.n);
  *ms = st.median;
  *best = st.min;
  return 0;
}

/* ampcl's `impl` (fast: the CPU-shaped kernel; gemm: amp_blas_gemm) beside `openmp` (and, for
 * matmul, OpenBLAS). */
static void workload_row(bench_ctx *ctx, const bench_workload *w, const char *impl, bench_type t,
                         long size, cpu_row *row) {
  snprintf(row->what, sizeof row->what, "%s%s%s", strcmp(impl, "gemm") ? w->name : "gemm",
           w->float_only ? "" : " ", w->float_only ? "" : bench_type_name(t));
  row->size = size;
  row->ok = !cell_ms(ctx, w, impl, t, size, &row->ampcl_ms, &row->ampcl_best, row) &&
            !cell_ms(ctx, w, "openmp", t, size, &row->omp_ms, &row->omp_best, row) &&
            (w != &bench_matmul ||
             !cell_ms(ctx, w, "openblas", t, size, &row->ref_ms, &row->ref_best, row));
  if (w->release_cache)
    w->release_cache();
}

/* ---- reduce, scan, transpose, stencil ------------------------------------------------------- */

enum { A_REDUCE, A_SCAN, A_TRANSPOSE, A_STENCIL };
static const char *const algo_names[] = {"reduce", "scan", "transpose", "stencil 7x7"};

typedef struct algo_io {
  int which;
  long n, side;
  void *in, *out_ampcl, *out_omp;
  float sum_ampcl, sum_omp, weights[49];
  amp_array *a_in, *a_out;
  amp_array_view *v_in, *v_out;
} algo_io;

static amp_status ampcl_once(bench_ctx *ctx, algo_io *io) {
  amp_status s;
  switch (io->which) {
  case A_REDUCE:
    return amp_reduce(ctx->av, io->v_in, AMP_REDUCE_SUM, &io->sum_ampcl);
  case A_SCAN:
    return amp_scan(ctx->av, io->v_in, io->v_out, AMP_SCAN_INCLUSIVE);
  case A_TRANSPOSE:
    s = amp_transpose_view(ctx->av, io->v_in, io->v_out);
    break;
  default:
    s = amp_gaussian_blur(ctx->av, io->v_in, io->v_out, 1.0f);
  }
  return s == AMP_SUCCESS ? amp_accelerator_view_wait(ctx->av) : s;
}

static void omp_once(algo_io *io) {
  switch (io->which) {
  case A_REDUCE:
    io->sum_omp = omp_bench_reduce_sum(io->n, io->in);
    break;
  case A_SCAN:
    omp_bench_scan_inclusive(io->n, io->in, io->out_omp);
    break;
  case A_TRANSPOSE:
    omp_bench_transpose(io->side, io->side, io->in, io->out_omp);
    break;
  default:
    omp_bench_stencil(io->side, io->side, io->in, io->out_omp, io->weights, 3);
  }
}

/* amp_gaussian_blur's weights for sigma 1 (runtime/algorithms/stencil.c): exp(-(a^2 + b^2) / 2)
 * rounded to float, over their sum. */
static void blur_weights(float *w) {
  double total = 0;
  for (int i = 0; i < 49; i++)
    total += w[i] =
        (float)exp(-(double)((i / 7 - 3) * (i / 7 - 3) + (i % 7 - 3) * (i % 7 - 3)) / 2.0);
  for (int i = 0; i < 49; i++)
    w[i] = (float)(w[i] / total);
}

/* The stencil's pixel p in double, from the float weights. */
static double blur_ref(const algo_io *io, long p) {
  const float *x = io->in;
  long s = io->side, i = p / s, j = p % s;
  double want = 0;
  for (int a = -3; a <= 3; a++)
    for (int b = -3; b <= 3; b++) {
      long y = i + a < 0 ? 0 : i + a >= s ? s - 1 : i + a;
      long c = j + b < 0 ? 0 : j + b >= s ? s - 1 : j + b;
      want += (double)io->weights[(a + 3) * 7 + b + 3] * x[y * s + c];
    }
  return want;
}

/* 0 when both results are right and agree; else 1 with the reason. */
static int algo_check(const algo_io *io, char *why, size_t cap) {
  long n = io->which == A_SCAN || io->which == A_REDUCE ? io->n : io->side * io->side;
  if (io->which == A_REDUCE) {
    double want = 0, mag = 0;
    const float *x = io->in;
    for (long i = 0; i < n; i++) {
      want += x[i];
      mag += fabs(x[i]);
    }
    double tol = 1e-5 * mag + 1e-3, a = io->sum_ampcl + (bench_inject_error ? 1.0 + mag : 0.0);
    if (fabs(a - want) > tol || fabs(io->sum_omp - want) > tol || fabs(a - io->sum_omp) > tol) {
      snprintf(why, cap, "sums: ampcl %.9g, OpenMP %.9g, host %.9g", a, (double)io->sum_omp, want);
      return 1;
    }
    return 0;
  }
  if (bench_inject_error)
    ((int32_t *)io->out_ampcl)[n / 2] ^= 1 << 20;
  if (io->which == A_SCAN) {
    const int32_t *x = io->in, *a = io->out_ampcl, *o = io->out_omp;
    int32_t acc = 0;
    for (long i = 0; i < n; i++) {
      acc += x[i];
      if (a[i] != acc || o[i] != acc) {
        snprintf(why, cap, "scan[%ld]: ampcl %d, OpenMP %d, host %d", i, a[i], o[i], acc);
        return 1;
      }
    }
    return 0;
  }
  const float *x = io->in, *a = io->out_ampcl, *o = io->out_omp;
  long s = io->side;
  for (long p = 0; p < n; p++) {
    long i = p / s, j = p % s;
    double want;
    if (io->which == A_TRANSPOSE)
      want = x[j * s + i];
    else if (p % 997 == 0 || i < 3 || j < 3 || i >= s - 3 || j >= s - 3)
      want = blur_ref(io, p);
    else
      want = a[p]; /* between the sampled pixels: OpenMP against ampcl */
    double tol = io->which == A_TRANSPOSE ? 0 : 1e-5;
    if (!(fabs(a[p] - want) <= tol && fabs(o[p] - want) <= tol && fabs(a[p] - o[p]) <= tol)) {
      snprintf(why, cap, "%s(%ld, %ld): ampcl %.9g, OpenMP %.9g, host %.9g",
               io->which == A_TRANSPOSE ? "transpose" : "stencil", i, j, a[p], o[p], want);
      return 1;
    }
  }
  return 0;
}

static void algo_free(algo_io *io) {
  amp_array_view_release(io->v_in);
  amp_array_view_release(io->v_out);
  amp_array_release(io->a_in);
  amp_array_release(io->a_out);
  free(io->in);
  free(io->out_ampcl);
  free(io->out_omp);
}

static void algo_row(bench_ctx *ctx, int which, long n, cpu_row *row) {
  algo_io io;
  memset(&io, 0, sizeof io);
  io.which = which;
  io.n = n;
  io.side = (long)sqrt((double)n);
  const int square = which == A_TRANSPOSE || which == A_STENCIL;
  const long count = square ? io.side * io.side : n;
  const size_t bytes = (size_t)count * 4;
  amp_extent e = square ? amp_extent2((int)io.side, (int)io.side) : amp_extent1((int)n);
  amp_elem_type t = which == A_SCAN ? AMP_INT32 : AMP_FLOAT;
  amp_status s = AMP_SUCCESS;
  snprintf(row->what, sizeof row->what, "%s", algo_names[which]);
  row->size = count;
  fprintf(stderr, "%s %ld ...\n", algo_names[which], count);
  io.in = bench_alloc(bytes);
  io.out_ampcl = bench_alloc(bytes);
  io.out_omp = bench_alloc(bytes);
  if (which == A_SCAN)
    for (long i = 0; i < n; i++) /* small values of both signs: exact int sums */
      ((int32_t *)io.in)[i] = (int32_t)(((uint32_t)i * 2654435761u) >> 29) - 3;
  else
    bench_fill_float(io.in, (size_t)count, 42);
  blur_weights(io.weights);
  if ((s = amp_array_create_from(ctx->av, e, t, io.in, &io.a_in)) ||
      (s = amp_array_view_of(io.a_in, &io.v_in)) ||
      (which != A_REDUCE && ((s = amp_array_create(ctx->av, e, t, &io.a_out)) ||
                             (s = amp_array_view_of(io.a_out, &io.v_out)))))
    goto fail;
  double t_ampcl[BENCH_MAX_REPEATS], t_omp[BENCH_MAX_REPEATS];
  /* ampcl's runs, then OpenMP's: the two runtimes' worker threads never compete for the cores */
  settle();
  for (int r = -ctx->warmup; r < ctx->repeats; r++) {
    double t0 = bench_now_ms();
    if ((s = ampcl_once(ctx, &io)))
      goto fail;
    if (r >= 0)
      t_ampcl[r] = bench_now_ms() - t0;
  }
  settle();
  for (int r = -ctx->warmup; r < ctx->repeats; r++) {
    double t0 = bench_now_ms();
    omp_once(&io);
    if (r >= 0)
      t_omp[r] = bench_now_ms() - t0;
  }
  if (which != A_REDUCE && (s = amp_copy_from_array(io.a_out, io.out_ampcl, bytes)))
    goto fail;
  bench_stats sa = bench_stats_of(t_ampcl, ctx->repeats), so = bench_stats_of(t_omp, ctx->repeats);
  row->ampcl_ms = sa.median;
  row->ampcl_best = sa.min;
  row->omp_ms = so.median;
  row->omp_best = so.min;
  row->ok = !algo_check(&io, row->note, sizeof row->note);
  algo_free(&io);
  return;
fail:
  snprintf(row->note, sizeof row->note, "ampcl: %s: %s", amp_status_name(s), amp_last_error());
  algo_free(&io);
}

/* ---- the table ---------------------------------------------------------------------------- */

int bench_cpu(bench_ctx *ctx, const long *sizes, int nsizes, const char *csv_path) {
  /* sizes: add-exp elements, n-body bodies, matmul n, algorithm elements (a missing one: the
   * default) */
  static const long dflt[4] = {1L << 22, 4096, 1024, 1L << 22};
  long sz[4];
  for (int i = 0; i < 4; i++)
    sz[i] = i < nsizes ? sizes[i] : dflt[i];
  if (sz[0] > 0x7fffffffL || sz[1] > 0x7fffffffL || sz[2] > 46340 || sz[3] < 4 ||
      sz[3] > 0x7fffffffL) {
    fprintf(stderr, "amp-bench: --cpu sizes out of range (add-exp and n-body < 2^31, matmul <= "
                    "46340, algorithms 4 .. 2^31-1)\n");
    return 2;
  }
  FILE *csv = NULL;
  if (csv_path && !(csv = fopen(csv_path, "w"))) {
    fprintf(stderr, "amp-bench: cannot write %s\n", csv_path);
    return 1;
  }
  cpu_row rows[NROWS];
  memset(rows, 0, sizeof rows);
  /* --fast-opts: add-exp's kernel only (e.g. -Dnative_exp=exp where the device's native_exp
   * misses the check); the other rows run their CPU kernels as they are */
  const char *addexp_opts = ctx->fast_opts;
  workload_row(ctx, &bench_addexp, "fast", BENCH_FLOAT, sz[0], &rows[0]);
  ctx->fast_opts = NULL;
  workload_row(ctx, &bench_nbody, "fast", BENCH_FLOAT, sz[1], &rows[1]);
  workload_row(ctx, &bench_matmul, "fast", BENCH_FLOAT, sz[2], &rows[2]);
  workload_row(ctx, &bench_matmul, "fast", BENCH_DOUBLE, sz[2], &rows[3]);
  workload_row(ctx, &bench_matmul, "gemm", BENCH_FLOAT, sz[2], &rows[4]);
  workload_row(ctx, &bench_matmul, "gemm", BENCH_DOUBLE, sz[2], &rows[5]);
  for (int a = A_REDUCE; a <= A_STENCIL; a++)
    algo_row(ctx, a, sz[3], &rows[6 + a]);
  ctx->fast_opts = addexp_opts;

  printf("\nampcl on %s beside OpenMP + SIMD C (%d threads, %ld cores online); wall ms, data in "
         "place, median and best of %d\n",
         ctx->props.device_path, omp_bench_threads(), sysconf(_SC_NPROCESSORS_ONLN), ctx->repeats);
  printf("ratio = OpenMP ms / ampcl ms (ampcl's speed as a share of OpenMP's), of the medians and "
         "of the best runs; n-body: %d steps\n",
         ctx->steps);
  printf("matmul: the CPU kernel (matmul_cpu); gemm: amp_blas_gemm (OpenBLAS on a CPU device)%s%s"
         "\n\n",
         ctx->fast_opts ? "; add-exp's kernel built with " : "",
         ctx->fast_opts ? ctx->fast_opts : "");
  printf("%-14s %9s %10s %10s %10s %10s %7s %7s %10s  %s\n", "workload", "size", "ampcl med",
         "ampcl best", "OpenMP med", "OMP best", "ratio", "r best", "OpenBLAS", "check");
  if (csv)
    fprintf(csv, "workload,size,ampcl_ms,ampcl_best_ms,openmp_ms,openmp_best_ms,ratio,ratio_best,"
                 "openblas_ms,openblas_best_ms,state,device,threads,note\n");
  int rc = 0;
  for (int i = 0; i < NROWS; i++) {
    cpu_row *r = &rows[i];
    double ratio = r->ok && r->ampcl_ms > 0 ? r->omp_ms / r->ampcl_ms : 0;
    double ratio_best = r->ok && r->ampcl_best > 0 ? r->omp_best / r->ampcl_best : 0;
    rc |= !r->ok && !r->skipped;
    if (r->ok) {
      char blas[32] = "-";
      if (r->ref_ms > 0)
        snprintf(blas, sizeof blas, "%.3f", r->ref_best);
      printf("%-14s %9ld %10.3f %10.3f %10.3f %10.3f %7.2f %7.2f %10s  ok\n", r->what, r->size,
             r->ampcl_ms, r->ampcl_best, r->omp_ms, r->omp_best, ratio, ratio_best, blas);
    } else {
      printf("%-14s %9ld %10s %10s %10s %10s %7s %7s %10s  %s%s\n", r->what, r->size, "-", "-", "-",
             "-", "-", "-", "-", r->skipped ? "" : "FAILED: ", r->note);
    }
    for (char *q = r->note; *q; q++)
      if (*q == '"')
        *q = '\'';
    if (csv)
      fprintf(csv, "%s,%ld,%.4f,%.4f,%.4f,%.4f,%.3f,%.3f,%.4f,%.4f,%s,\"%s\",%d,\"%s\"\n", r->what,
              r->size, r->ampcl_ms, r->ampcl_best, r->omp_ms, r->omp_best, ratio, ratio_best,
              r->ref_ms, r->ref_best,
              r->ok        ? "ok"
              : r->skipped ? "skipped"
                           : "FAILED",
              ctx->props.device_path, omp_bench_threads(), r->note);
  }
  if (csv)
    fclose(csv);
  return rc;
}

#else /* built without OpenMP */

int bench_cpu(bench_ctx *ctx, const long *sizes, int nsizes, const char *csv_path) {
  (void)ctx, (void)sizes, (void)nsizes, (void)csv_path;
  fprintf(stderr, "amp-bench: --cpu needs the OpenMP versions, and this amp-bench was built "
                  "without them (cmake -DAMP_BENCH_OPENMP=ON, with a compiler that has OpenMP)\n");
  return 2;
}

#endif
