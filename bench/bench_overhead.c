/* bench/bench_overhead.c: what ampcl adds to a kernel launch.
 *
 * The same empty kernel is launched N times (default 10,000) two ways on the same device, each
 * followed by one wait at the end only:
 *   ampcl   amp_parallel_for_each on the accelerator's default view, then
 * amp_accelerator_view_wait; raw     clEnqueueNDRangeKernel on a cl_kernel built here with plain
 * OpenCL, in a context and queue of our own (profiling enabled, as ampcl's queues are), then
 * clFinish. Both use a 1-D range of 1024 work-items and let the driver pick the work-group size.
 * The difference per launch is the runtime's cost: argument and domain checks, the data model's
 * bookkeeping, its lock, and the event it keeps per launch.
 *
 * The cl_device_id is found from the accelerator's position: ampcl lists OpenCL devices in
 * platform order, CL_DEVICE_TYPE_ALL within a platform (ampcl/accelerator.h), so the k-th device
 * met walking clGetPlatformIDs / clGetDeviceIDs is ampcl's k-th accelerator; its name and
 * platform name are compared to be sure. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const char *raw_src = "__kernel void empty(void) { }\n";

static cl_device_id find_device(const bench_ctx *ctx) {
  size_t count = 0, want = (size_t)-1;
  amp_accelerator_count(&count);
  for (size_t i = 0; i < count; i++) {
    amp_accelerator *a = NULL;
    if (amp_accelerator_get(i, &a) == AMP_SUCCESS && a == ctx->acc)
      want = i;
  }
  cl_uint np = 0;
  if (want == (size_t)-1 || clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0)
    return NULL;
  cl_platform_id plats[32];
  if (np > 32)
    np = 32;
  clGetPlatformIDs(np, plats, NULL);
  size_t seen = 0;
  for (cl_uint p = 0; p < np; p++) {
    cl_uint nd = 0;
    cl_device_id devs[64];
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
      continue;
    if (nd > 64)
      nd = 64;
    for (cl_uint d = 0; d < nd; d++, seen++) {
      if (seen != want)
        continue;
      char name[256] = "", pname[256] = "";
      clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof name, name, NULL);
      clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
      if (strcmp(name, ctx->props.name) == 0 && strcmp(pname, ctx->props.platform_name) == 0)
        return devs[d];
      fprintf(stderr, "amp-bench: device %zu is \"%s\" on \"%s\", not the accelerator's \"%s\"\n",
              want, name, pname, ctx->props.name);
      return NULL;
    }
  }
  return NULL;
}

/* Launches the raw kernel `launches` times; returns total ms, or -1 with the reason printed. */
static double raw_launches(cl_device_id dev, int launches, int warmup) {
  cl_int err = CL_SUCCESS;
  cl_context ctx = NULL;
  cl_command_queue q = NULL;
  cl_program prog = NULL;
  cl_kernel k = NULL;
  double ms = -1;
  const char *what = "clCreateContext";
  size_t global = 1024;
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    goto done;
  what = "clCreateCommandQueue";
  q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err != CL_SUCCESS)
    goto done;
  what = "clCreateProgramWithSource";
  prog = clCreateProgramWithSource(ctx, 1, &raw_src, NULL, &err);
  if (err != CL_SUCCESS)
    goto done;
  what = "clBuildProgram";
  if ((err = clBuildProgram(prog, 1, &dev, NULL, NULL, NULL)) != CL_SUCCESS)
    goto done;
  what = "clCreateKernel";
  k = clCreateKernel(prog, "empty", &err);
  if (err != CL_SUCCESS)
    goto done;
  what = "clEnqueueNDRangeKernel";
  for (int i = 0; i < warmup; i++)
    if ((err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL)) != CL_SUCCESS)
      goto done;
  if ((err = clFinish(q)) != CL_SUCCESS)
    goto done;
  double t0 = bench_now_ms();
  for (int i = 0; i < launches; i++)
    if ((err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL)) != CL_SUCCESS)
      goto done;
  what = "clFinish";
  if ((err = clFinish(q)) != CL_SUCCESS)
    goto done;
  ms = bench_now_ms() - t0;
done:
  if (ms < 0)
    fprintf(stderr, "amp-bench: raw OpenCL: %s failed with %d\n", what, (int)err);
  if (k)
    clReleaseKernel(k);
  if (prog)
    clReleaseProgram(prog);
  if (q)
    clReleaseCommandQueue(q);
  if (ctx)
    clReleaseContext(ctx);
  return ms;
}

/* The same through ampcl; returns total ms, or -1 with the reason printed. */
static double amp_launches(bench_ctx *ctx, int launches, int warmup) {
  amp_program *prog = NULL;
  amp_kernel *k = NULL;
  amp_status st;
  double ms = -1;
  const char *what = "amp_program_create";
  if ((st = amp_program_create(raw_src, NULL, &prog)) != AMP_SUCCESS)
    goto done;
  what = "amp_kernel_create";
  if ((st = amp_kernel_create(prog, "empty", &k)) != AMP_SUCCESS)
    goto done;
  what = "amp_parallel_for_each";
  for (int i = 0; i < warmup; i++)
    if ((st = amp_parallel_for_each(ctx->av, amp_extent1(1024), k, NULL, 0)) != AMP_SUCCESS)
      goto done;
  if ((st = amp_accelerator_view_wait(ctx->av)) != AMP_SUCCESS)
    goto done;
  double t0 = bench_now_ms();
  for (int i = 0; i < launches; i++)
    if ((st = amp_parallel_for_each(ctx->av, amp_extent1(1024), k, NULL, 0)) != AMP_SUCCESS)
      goto done;
  what = "amp_accelerator_view_wait";
  if ((st = amp_accelerator_view_wait(ctx->av)) != AMP_SUCCESS)
    goto done;
  ms = bench_now_ms() - t0;
done:
  if (ms < 0)
    fprintf(stderr, "amp-bench: %s failed: %s: %s\n", what, amp_status_name(st), amp_last_error());
  amp_kernel_release(k);
  amp_program_release(prog);
  return ms;
}

int bench_overhead(bench_ctx *ctx, int launches, const char *csv_path) {
  cl_device_id dev = find_device(ctx);
  if (!dev) {
    fprintf(stderr, "amp-bench: no cl_device_id for %s\n", ctx->props.device_path);
    return 1;
  }
  int warmup = ctx->warmup > 0 ? 100 : 0;
  double amp_ms[BENCH_MAX_REPEATS], raw_ms[BENCH_MAX_REPEATS];
  for (int r = 0; r < ctx->repeats; r++) {
    fprintf(stderr, "[%d/%d] overhead %d launches ...\n", r + 1, ctx->repeats, launches);
    /* interleaved, so drifts of the clock or the device hit both alike */
    raw_ms[r] = raw_launches(dev, launches, warmup);
    amp_ms[r] = amp_launches(ctx, launches, warmup);
    if (raw_ms[r] < 0 || amp_ms[r] < 0)
      return 1;
  }
  bench_stats a = bench_stats_of(amp_ms, ctx->repeats), w = bench_stats_of(raw_ms, ctx->repeats);
  double us = 1e3 / launches;
  printf("\nLaunch overhead on %s: %d launches of an empty kernel (1024 work-items), one wait at "
         "the end; median of %d\n\n",
         ctx->props.device_path, launches, ctx->repeats);
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
      return 1;
    }
    fprintf(f, "workload,impl,launches,us_per_launch_median,us_per_launch_min,"
               "us_per_launch_max,device\n");
    fprintf(f, "overhead,ampcl,%d,%.4f,%.4f,%.4f,%s\n", launches, a.median * us, a.min * us,
            a.max * us, ctx->props.device_path);
    fprintf(f, "overhead,raw-opencl,%d,%.4f,%.4f,%.4f,%s\n", launches, w.median * us, w.min * us,
            w.max * us, ctx->props.device_path);
    fclose(f);
  }
  return 0;
}
