/* bench/bench_ports.c: amp-bench --ports: classic OpenCL kernels, each one unchanged kernel file,
 * run end to end from host memory by raw OpenCL host code and by ampcl in the same process, on
 * the same device (ports.h), on queues of the same properties (profiling as AMP_PROFILE has it).
 * Both sides build their programs before timing; each run starts from
 * the same host data, is timed from the first buffer or view to the result in host memory and
 * the buffers released, and is checked against the host reference. Runs alternate which side
 * goes first. Printed: the median ms of each side, the ratio ampcl / raw, and the host lines of
 * each side's run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlation_cl.h"
#include "gemm_cl.h"
#include "jacobi2d_cl.h"
#include "mv_cl.h"
#include "opencl_port_cl.h"
#include <ampcl/opencl.h>

#include "ports.h"

const char *const port_kernel_names[PORTS][PORT_MAX_KERNELS] = {
    {"gemm"},
    {"conv2d"},
    {"jacobi_step", "jacobi_copy"},
    {"mv"},
    {"corr_mean", "corr_std", "corr_center", "corr_matrix"}};
static const char *const port_names[PORTS] = {"gemm", "conv2d", "jacobi2d", "mv", "correlation"};
static const char *const port_files[PORTS] = {
    "bench/ports/gemm.cl", "examples/opencl_port/opencl_port.cl", "bench/ports/jacobi2d.cl",
    "bench/ports/mv.cl", "bench/ports/correlation.cl"};
static const int default_n[PORTS] = {384, 2048, 1024, 2048, 384};
enum { JACOBI_STEPS = 10 };

static const char *port_text(int p) {
  const char *const text[PORTS] = {gemm_cl, opencl_port_cl, jacobi2d_cl, mv_cl, correlation_cl};
  return text[p];
}

/* The array holding port p's result, and its length. */
static float *result_of(int p, port_io *io, size_t *len) {
  size_t nn = (size_t)io->n * io->n;
  *len = p == PORT_MV ? (size_t)io->n : nn;
  return p == PORT_CONV2D ? io->b : p == PORT_JACOBI ? io->a : io->c;
}

static void env_release(raw_env *r, amp_env *a) {
  for (int p = 0; p < PORTS; p++) {
    for (int k = 0; k < PORT_MAX_KERNELS; k++) {
      if (r->k[p][k])
        clReleaseKernel(r->k[p][k]);
      amp_kernel_release(a->k[p][k]);
    }
    if (r->prog[p])
      clReleaseProgram(r->prog[p]);
    amp_program_release(a->prog[p]);
  }
  if (r->q)
    clReleaseCommandQueue(r->q);
  if (r->ctx)
    clReleaseContext(r->ctx);
}

/* Both sides' programs built and kernels made; 0, or 1 with the reason printed. */
static int env_create(bench_ctx *ctx, raw_env *r, amp_env *a) {
  cl_int err = CL_SUCCESS;
  a->av = ctx->av;
  if (amp_accelerator_get_cl_device(ctx->acc, &r->dev) != AMP_SUCCESS)
    return fprintf(stderr, "amp-bench: %s\n", amp_last_error()), 1;
  /* the raw queue as the view's: profiling on or off alike (AMP_PROFILE) */
  cl_command_queue vq = NULL;
  cl_command_queue_properties props = 0;
  if (amp_accelerator_view_get_cl_queue(ctx->av, &vq) != AMP_SUCCESS ||
      clGetCommandQueueInfo(vq, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) != CL_SUCCESS)
    return fprintf(stderr, "amp-bench: the view's queue: %s\n", amp_last_error()), 1;
  r->ctx = clCreateContext(NULL, 1, &r->dev, NULL, NULL, &err);
  if (err == CL_SUCCESS)
    r->q = clCreateCommandQueue(r->ctx, r->dev, props, &err);
  for (int p = 0; p < PORTS && err == CL_SUCCESS; p++) {
    const char *text = port_text(p);
    r->prog[p] = clCreateProgramWithSource(r->ctx, 1, &text, NULL, &err);
    if (err == CL_SUCCESS)
      err = clBuildProgram(r->prog[p], 1, &r->dev, NULL, NULL, NULL);
    if (amp_program_create(text, NULL, &a->prog[p]) != AMP_SUCCESS ||
        amp_program_build(a->prog[p], ctx->acc) != AMP_SUCCESS)
      return fprintf(stderr, "amp-bench: %s: %s\n", port_files[p], amp_last_error()), 1;
    for (int k = 0; k < PORT_MAX_KERNELS && port_kernel_names[p][k] && err == CL_SUCCESS; k++) {
      r->k[p][k] = clCreateKernel(r->prog[p], port_kernel_names[p][k], &err);
      if (amp_kernel_create(a->prog[p], port_kernel_names[p][k], &a->k[p][k]) != AMP_SUCCESS)
        return fprintf(stderr, "amp-bench: %s\n", amp_last_error()), 1;
    }
  }
  if (err != CL_SUCCESS)
    fprintf(stderr, "amp-bench: raw OpenCL setup failed (%d)\n", (int)err);
  return err != CL_SUCCESS;
}

/* Host data of one port: the inputs as made, the reference, and the arrays a run uses. */
typedef struct port_data {
  port_io first, ref, work;
  void *scratch;
} port_data;

static void data_free(port_data *d) {
  port_io *ios[] = {&d->first, &d->ref, &d->work};
  for (int i = 0; i < 3; i++) {
    bench_data_free(ios[i]->a);
    bench_data_free(ios[i]->b);
    bench_data_free(ios[i]->c);
  }
  free(d->scratch);
}

static void data_reset(port_io *to, const port_io *from) {
  size_t bytes = (size_t)from->n * from->n * sizeof(float);
  memcpy(to->a, from->a, bytes);
  memcpy(to->b, from->b, bytes);
  memcpy(to->c, from->c, bytes);
}

static void data_make(int p, int n, port_data *d) {
  size_t nn = (size_t)n * n, bytes = nn * sizeof(float);
  port_io *ios[] = {&d->first, &d->ref, &d->work};
  for (int i = 0; i < 3; i++) {
    *ios[i] = (port_io){n, JACOBI_STEPS, bench_data_alloc(bytes), bench_data_alloc(bytes),
                        bench_data_alloc(bytes)};
  }
  bench_fill_float(d->first.a, nn, 11 + (uint64_t)p);
  bench_fill_float(d->first.b, nn, 23 + (uint64_t)p);
  bench_fill_float(d->first.c, nn, 37 + (uint64_t)p);
  d->scratch = malloc((nn + 2 * (size_t)n) * sizeof(double));
  data_reset(&d->ref, &d->first);
  port_reference(p, &d->ref, d->scratch);
}

/* One run of one side from the first data, checked; its ms, or -1 when it failed. */
static double run_one(bench_ctx *ctx, raw_env *r, amp_env *a, int p, port_data *d, int amp) {
  (void)ctx;
  data_reset(&d->work, &d->first);
  double t0 = bench_now_ms();
  if (amp ? port_amp_run(a, p, &d->work) : port_raw_run(r, p, &d->work))
    return -1;
  double ms = bench_now_ms() - t0;
  size_t len = 0;
  float *got = result_of(p, &d->work, &len), *want = result_of(p, &d->ref, &len);
  if (bench_inject_error)
    got[len / 2] += 1.0f + 2 * got[len / 2];
  double err = port_max_error(got, want, len);
  if (err > 1) {
    fprintf(stderr,
            "amp-bench: %s (%s) differs from the host reference: worst error %.3g times "
            "the tolerance\n",
            port_names[p], amp ? "ampcl" : "raw OpenCL", err);
    return -1;
  }
  return ms;
}

/* Port p at size n: warm-up runs, then repeats alternating which side goes first; prints its row
 * and appends it to csv (may be NULL). 0, or 1 when a run failed or differed. */
static int port_row(bench_ctx *ctx, raw_env *r, amp_env *a, int p, int n, FILE *csv, FILE *each) {
  port_data d = {0};
  data_make(p, n, &d);
  double raw_ms[BENCH_MAX_REPEATS], amp_ms[BENCH_MAX_REPEATS];
  int failed = run_one(ctx, r, a, p, &d, 0) < 0 || run_one(ctx, r, a, p, &d, 1) < 0;
  for (int i = 0; i < ctx->repeats && !failed; i++) {
    int amp_first = i % 2;
    double t1 = run_one(ctx, r, a, p, &d, amp_first), t2 = run_one(ctx, r, a, p, &d, !amp_first);
    raw_ms[i] = amp_first ? t2 : t1;
    amp_ms[i] = amp_first ? t1 : t2;
    failed = t1 < 0 || t2 < 0;
  }
  for (int i = 0; each && !failed && i < ctx->repeats; i++)
    fprintf(each, "%s,%d,%d,%s,%.4f,%.4f\n", port_names[p], n, i, i % 2 ? "ampcl" : "raw",
            raw_ms[i], amp_ms[i]);
  data_free(&d);
  if (failed) {
    printf("%-12s %6d  FAILED (see above)\n", port_names[p], n);
    return 1;
  }
  bench_stats w = bench_stats_of(raw_ms, ctx->repeats), m = bench_stats_of(amp_ms, ctx->repeats);
  /* Each repeat runs both sides back to back, so the median of the repeats' own ratios is the
   * estimate a burst of load on a shared machine moves least (it hits one pair, not one side). */
  double pair_ratio[BENCH_MAX_REPEATS];
  for (int i = 0; i < ctx->repeats; i++)
    pair_ratio[i] = amp_ms[i] / raw_ms[i];
  double paired = bench_stats_of(pair_ratio, ctx->repeats).median;
  printf("%-12s %6d %10.2f %10.2f %8.2fx %8.2fx %9d %9d  %s\n", port_names[p], n, w.median,
         m.median, m.median / w.median, paired, port_raw_lines(p), port_amp_lines(p),
         port_files[p]);
  if (csv)
    fprintf(csv, "%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%d,%s\n", port_names[p], n, w.median,
            w.min, m.median, m.min, m.median / w.median, paired, port_raw_lines(p),
            port_amp_lines(p), ctx->props.device_path);
  return 0;
}

int bench_ports(bench_ctx *ctx, int n_all, const char *csv_path, const char *each_path) {
  raw_env r = {0};
  amp_env a = {0};
  int rc = 1;
  FILE *csv = NULL, *each = NULL;
  if (env_create(ctx, &r, &a))
    goto done;
  if ((csv_path && !(csv = fopen(csv_path, "w"))) ||
      (each_path && !(each = fopen(each_path, "w")))) {
    fprintf(stderr, "amp-bench: cannot write %s\n", csv_path && !csv ? csv_path : each_path);
    goto done;
  }
  if (each)
    fprintf(each, "port,n,repeat,first,raw_ms,ampcl_ms\n");
  if (csv)
    fprintf(csv, "port,n,raw_ms_median,raw_ms_min,ampcl_ms_median,ampcl_ms_min,ratio,"
                 "paired_ratio,raw_lines,ampcl_lines,device\n");
  printf("\nClassic OpenCL kernels, unchanged, end to end from host memory on %s; median of %d "
         "runs, ms (Jacobi: %d time steps); ratio: ampcl's median over raw's, paired: the median "
         "of each repeat's own ratio (both sides run back to back)\n\n",
         ctx->props.device_path, ctx->repeats, JACOBI_STEPS);
  printf("%-12s %6s %10s %10s %9s %9s %9s %9s  %s\n", "port", "n", "raw", "ampcl", "ratio",
         "paired", "raw lines", "amp lines", "kernel file");
  rc = 0;
  for (int p = 0; p < PORTS; p++)
    rc |= port_row(ctx, &r, &a, p, n_all > 0 ? n_all : default_n[p], csv, each);
done:
  if (csv)
    fclose(csv);
  if (each)
    fclose(each);
  env_release(&r, &a);
  return rc;
}
