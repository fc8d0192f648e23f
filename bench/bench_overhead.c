/* bench/bench_overhead.c: what ampcl adds to a kernel launch.
 *
 * The same empty kernel is launched N times (default 10,000) two ways on the same device, each
 * followed by one wait at the end only. ampcl: amp_parallel_for_each on the accelerator's default
 * view, then amp_accelerator_view_wait. Raw: clEnqueueNDRangeKernel on a cl_kernel built here
 * with plain OpenCL, in a context and queue of our own (profiling on or off as the view's queue
 * has it: AMP_PROFILE), then clFinish. Both use a 1-D range of 1024 work-items and let the driver
 * pick the work-group size. The difference per launch is the runtime's cost: argument and domain
 * checks, the data model's bookkeeping, its lock, and the event it keeps per launch.
 *
 * The raw side runs on the accelerator's cl_device_id (ampcl/opencl.h). Both sides build their
 * program once; only the launches are timed. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ampcl/opencl.h>
#include <stdio.h>

#include "bench.h"

static const char *raw_src = "__kernel void empty(void) { }\n";

/* The raw side's context, queue and kernel, made once. */
typedef struct raw_setup {
  cl_context ctx;
  cl_command_queue q;
  cl_program prog;
  cl_kernel k;
} raw_setup;

static void raw_release(raw_setup *r) {
  if (r->k)
    clReleaseKernel(r->k);
  if (r->prog)
    clReleaseProgram(r->prog);
  if (r->q)
    clReleaseCommandQueue(r->q);
  if (r->ctx)
    clReleaseContext(r->ctx);
}

static void raw_failed(const char *what, cl_int err) {
  fprintf(stderr, "amp-bench: raw OpenCL: %s failed: %s (%d)\n", what,
          amp_status_name((amp_status)err), (int)err);
}

/* 0, or 1 with the reason printed. */
static int raw_create(cl_device_id dev, cl_command_queue_properties props, raw_setup *r) {
  cl_int err = CL_SUCCESS;
  const char *what = "clCreateContext";
  r->ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    goto fail;
  what = "clCreateCommandQueue";
  r->q = clCreateCommandQueue(r->ctx, dev, props, &err);
  if (err != CL_SUCCESS)
    goto fail;
  what = "clCreateProgramWithSource";
  r->prog = clCreateProgramWithSource(r->ctx, 1, &raw_src, NULL, &err);
  if (err != CL_SUCCESS)
    goto fail;
  what = "clBuildProgram";
  if ((err = clBuildProgram(r->prog, 1, &dev, NULL, NULL, NULL)) != CL_SUCCESS)
    goto fail;
  what = "clCreateKernel";
  r->k = clCreateKernel(r->prog, "empty", &err);
  if (err == CL_SUCCESS)
    return 0;
fail:
  raw_failed(what, err);
  return 1;
}

/* Launches the raw kernel `launches` times; returns total ms, or -1 with the reason printed. */
static double raw_launches(const raw_setup *r, int launches, int warmup) {
  cl_int err = CL_SUCCESS;
  const char *what = "clEnqueueNDRangeKernel";
  size_t global = 1024;
  for (int i = 0; i < warmup; i++)
    if ((err = clEnqueueNDRangeKernel(r->q, r->k, 1, NULL, &global, NULL, 0, NULL, NULL)) !=
        CL_SUCCESS)
      goto fail;
  if ((err = clFinish(r->q)) != CL_SUCCESS)
    goto fail;
  double t0 = bench_now_ms();
  for (int i = 0; i < launches; i++)
    if ((err = clEnqueueNDRangeKernel(r->q, r->k, 1, NULL, &global, NULL, 0, NULL, NULL)) !=
        CL_SUCCESS)
      goto fail;
  what = "clFinish";
  if ((err = clFinish(r->q)) != CL_SUCCESS)
    goto fail;
  return bench_now_ms() - t0;
fail:
  raw_failed(what, err);
  return -1;
}

/* The same through ampcl; returns total ms, or -1 with the reason printed. */
static double amp_launches(bench_ctx *ctx, amp_kernel *k, int launches, int warmup) {
  amp_status st;
  const char *what = "amp_parallel_for_each";
  for (int i = 0; i < warmup; i++)
    if ((st = amp_parallel_for_each(ctx->av, amp_extent1(1024), k, NULL, 0)) != AMP_SUCCESS)
      goto fail;
  what = "amp_accelerator_view_wait";
  if ((st = amp_accelerator_view_wait(ctx->av)) != AMP_SUCCESS)
    goto fail;
  double t0 = bench_now_ms();
  what = "amp_parallel_for_each";
  for (int i = 0; i < launches; i++)
    if ((st = amp_parallel_for_each(ctx->av, amp_extent1(1024), k, NULL, 0)) != AMP_SUCCESS)
      goto fail;
  what = "amp_accelerator_view_wait";
  if ((st = amp_accelerator_view_wait(ctx->av)) != AMP_SUCCESS)
    goto fail;
  return bench_now_ms() - t0;
fail:
  fprintf(stderr, "amp-bench: %s failed: %s: %s\n", what, amp_status_name(st), amp_last_error());
  return -1;
}

int bench_overhead(bench_ctx *ctx, int launches, const char *csv_path) {
  cl_device_id dev = NULL;
  if (amp_accelerator_get_cl_device(ctx->acc, &dev) != AMP_SUCCESS) {
    fprintf(stderr, "amp-bench: no cl_device_id for %s: %s\n", ctx->props.device_path,
            amp_last_error());
    return 1;
  }
  raw_setup raw = {0};
  amp_program *prog = NULL;
  amp_kernel *k = NULL;
  int rc = 1;
  cl_command_queue vq = NULL;
  cl_command_queue_properties props = 0;
  bool profiling = false;
  if (amp_accelerator_view_get_cl_queue(ctx->av, &vq) != AMP_SUCCESS ||
      amp_accelerator_view_get_profiling(ctx->av, &profiling) != AMP_SUCCESS ||
      clGetCommandQueueInfo(vq, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) != CL_SUCCESS) {
    fprintf(stderr, "amp-bench: the view's queue: %s\n", amp_last_error());
    goto done;
  }
  if (raw_create(dev, props, &raw))
    goto done;
  if (amp_program_create(raw_src, NULL, &prog) != AMP_SUCCESS ||
      amp_kernel_create(prog, "empty", &k) != AMP_SUCCESS) {
    fprintf(stderr, "amp-bench: the empty kernel: %s\n", amp_last_error());
    goto done;
  }
  int warmup = ctx->warmup > 0 ? 100 : 0;
  double amp_ms[BENCH_MAX_REPEATS], raw_ms[BENCH_MAX_REPEATS];
  for (int r = 0; r < ctx->repeats; r++) {
    fprintf(stderr, "[%d/%d] overhead %d launches ...\n", r + 1, ctx->repeats, launches);
    /* interleaved, so drifts of the clock or the device hit both alike */
    raw_ms[r] = raw_launches(&raw, launches, warmup);
    amp_ms[r] = amp_launches(ctx, k, launches, warmup);
    if (raw_ms[r] < 0 || amp_ms[r] < 0)
      goto done;
  }
  bench_stats a = bench_stats_of(amp_ms, ctx->repeats), w = bench_stats_of(raw_ms, ctx->repeats);
  double us = 1e3 / launches;
  printf("\nLaunch overhead on %s: %d launches of an empty kernel (1024 work-items), one wait at "
         "the end; median of %d; queues with profiling %s\n\n",
         ctx->props.device_path, launches, ctx->repeats, profiling ? "on" : "off (AMP_PROFILE=0)");
  printf("%-34s %12s %12s %12s\n", "", "us/launch", "min", "max");
  printf("%-34s %12.3f %12.3f %12.3f\n", "amp_parallel_for_each", a.median * us, a.min * us,
         a.max * us);
  printf("%-34s %12.3f %12.3f %12.3f\n", "clEnqueueNDRangeKernel (raw)", w.median * us, w.min * us,
         w.max * us);
  printf("%-34s %12.3f\n", "difference (ampcl's cost)", (a.median - w.median) * us);
  if (csv_path) {
    FILE *f = fopen(csv_path, "w");
    if (!f) {
      fprintf(stderr, "amp-bench: cannot write %s\n", csv_path);
      goto done;
    }
    fprintf(f, "workload,impl,launches,us_per_launch_median,us_per_launch_min,"
               "us_per_launch_max,device\n");
    fprintf(f, "overhead,ampcl,%d,%.4f,%.4f,%.4f,%s\n", launches, a.median * us, a.min * us,
            a.max * us, ctx->props.device_path);
    fprintf(f, "overhead,raw-opencl,%d,%.4f,%.4f,%.4f,%s\n", launches, w.median * us, w.min * us,
            w.max * us, ctx->props.device_path);
    fclose(f);
  }
  rc = bench_first_launch(ctx, raw.ctx, raw.q, dev);
done:
  amp_kernel_release(k);
  amp_program_release(prog);
  raw_release(&raw);
  return rc;
}
