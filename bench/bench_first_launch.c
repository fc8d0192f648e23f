/* bench/bench_first_launch.c: a kernel's first launch, ampcl against raw OpenCL (part of
 * --overhead).
 *
 * A classic OpenCL kernel file (`typedef float DATA_TYPE;`, a plain `__global DATA_TYPE *`
 * parameter) whose program is already built on both sides: ampcl's with amp_program_build, the raw
 * one with clBuildProgram; 1024 floats already on the device on both sides (an amp_array's view,
 * a cl_mem). Timed, per repeat: ampcl's amp_kernel_create, amp_parallel_for_each and the wait;
 * raw OpenCL's clCreateKernel, clSetKernelArg, the enqueue and clFinish. Each repeat uses a program
 * text of its own, so no build or kernel object is reused across repeats. Two rows: fresh code
 * (a new constant each time), which a driver that compiles at the first enqueue (POCL) compiles
 * inside the timed part on both sides alike; and code it has compiled before (its cache hit), where
 * only the runtimes' own work is left. The result is checked on both sides. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ampcl/opencl.h>
#include <stdio.h>

#include "bench.h"

enum { FL_N = 1024 };

static const char *fl_src = "#define FACTOR %d\n"
                            "#define SALT %ld\n"
                            "typedef float DATA_TYPE;\n"
                            "__kernel void scale(__global DATA_TYPE *a, DATA_TYPE s) {\n"
                            "  a[get_global_id(0)] *= s * FACTOR;\n"
                            "  if (get_global_id(0) == SALT) a[0] = 0;\n"
                            "}\n"
                            "/* %d */\n";

/* The program text of one side's repeat. Fresh code: FACTOR a new number, and SALT one no earlier
 * process used (beyond the range, so it changes the code, not the result), so that a driver
 * compiles the kernel at its first enqueue whatever its disk cache holds. Code compiled before:
 * FACTOR 1 and one SALT. */
static void fl_text(char *buf, size_t cap, int factor, int salt) {
  static long base;
  if (!base) /* another number in every process, so that no driver's disk cache holds the code */
    base = (long)(bench_now_ms() * 1000.0) % 1000000000L + 1000000L;
  snprintf(buf, cap, fl_src, factor, factor > 1 ? base + factor : 1000000L, salt);
}

/* The raw side of repeat r: ms of the first launch, or -1 with the reason printed. */
static double raw_first(cl_context c, cl_command_queue q, cl_device_id dev, const char *text,
                        int factor) {
  cl_int err = CL_SUCCESS;
  float h[FL_N];
  for (int i = 0; i < FL_N; i++)
    h[i] = (float)i;
  double ms = -1;
  cl_program p = clCreateProgramWithSource(c, 1, &text, NULL, &err);
  cl_mem buf = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof h, h, &err);
  if (!p || !buf || clBuildProgram(p, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS ||
      clFinish(q) != CL_SUCCESS)
    goto done;
  float s = 2.0f;
  size_t global = FL_N;
  double t0 = bench_now_ms();
  cl_kernel k = clCreateKernel(p, "scale", &err);
  if (!k || clSetKernelArg(k, 0, sizeof buf, &buf) != CL_SUCCESS ||
      clSetKernelArg(k, 1, sizeof s, &s) != CL_SUCCESS ||
      clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL) != CL_SUCCESS ||
      clFinish(q) != CL_SUCCESS) {
    if (k)
      clReleaseKernel(k);
    goto done;
  }
  ms = bench_now_ms() - t0;
  clReleaseKernel(k);
  if (clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL) != CL_SUCCESS ||
      h[FL_N - 1] != 2.0f * (float)factor * (FL_N - 1))
    ms = -1;
done:
  if (ms < 0)
    fprintf(stderr, "amp-bench: raw OpenCL's first launch failed or gave a wrong result\n");
  if (buf)
    clReleaseMemObject(buf);
  if (p)
    clReleaseProgram(p);
  return ms;
}

/* ampcl's side: ms of the first launch, or -1 with the reason printed. */
static double amp_first(bench_ctx *ctx, const char *text, int factor) {
  static float h[FL_N];
  for (int i = 0; i < FL_N; i++)
    h[i] = (float)i;
  double ms = -1;
  amp_program *p = NULL;
  amp_kernel *k = NULL;
  amp_array *arr = NULL;
  amp_array_view *v = NULL;
  if (amp_program_create(text, NULL, &p) != AMP_SUCCESS ||
      amp_program_build(p, ctx->acc) != AMP_SUCCESS ||
      amp_array_create_from(ctx->av, amp_extent1(FL_N), AMP_FLOAT, h, &arr) != AMP_SUCCESS ||
      amp_array_view_of(arr, &v) != AMP_SUCCESS)
    goto done;
  double t0 = bench_now_ms();
  amp_arg args[] = {amp_arg_view(v), amp_arg_float(2.0f)};
  if (amp_kernel_create(p, "scale", &k) != AMP_SUCCESS ||
      amp_parallel_for_each(ctx->av, amp_extent1(FL_N), k, args, 2) != AMP_SUCCESS ||
      amp_accelerator_view_wait(ctx->av) != AMP_SUCCESS)
    goto done;
  ms = bench_now_ms() - t0;
  if (amp_copy_from_array(arr, h, sizeof h) != AMP_SUCCESS ||
      h[FL_N - 1] != 2.0f * (float)factor * (FL_N - 1))
    ms = -1;
done:
  if (ms < 0)
    fprintf(stderr, "amp-bench: ampcl's first launch failed or gave a wrong result: %s\n",
            amp_last_error());
  amp_array_view_release(v);
  amp_array_release(arr);
  amp_kernel_release(k);
  amp_program_release(p);
  return ms;
}

/* One row: repeats of both sides, fresh code or not; 0, or 1 with the reason printed. */
static int fl_row(bench_ctx *ctx, cl_context c, cl_command_queue q, cl_device_id dev, int fresh) {
  static int next_factor = 2;
  double amp_ms[BENCH_MAX_REPEATS], raw_ms[BENCH_MAX_REPEATS];
  char text[512];
  for (int r = 0; r < ctx->repeats; r++) {
    int fr = fresh ? next_factor++ : 1, fa = fresh ? next_factor++ : 1;
    fl_text(text, sizeof text, fr, 2 * r);
    raw_ms[r] = raw_first(c, q, dev, text, fr);
    fl_text(text, sizeof text, fa, 2 * r + 1);
    amp_ms[r] = amp_first(ctx, text, fa);
    if (raw_ms[r] < 0 || amp_ms[r] < 0)
      return 1;
  }
  bench_stats a = bench_stats_of(amp_ms, ctx->repeats), w = bench_stats_of(raw_ms, ctx->repeats);
  const char *what = fresh ? "fresh code (compiled at the first enqueue)" : "code compiled before";
  printf("%-44s %-6s %10.3f %10.3f %10.3f\n", what, "ampcl", a.median, a.min, a.max);
  printf("%-44s %-6s %10.3f %10.3f %10.3f\n", "", "raw", w.median, w.min, w.max);
  printf("%-44s %-6s %10.2fx\n", "", "ratio", a.median / w.median);
  return 0;
}

int bench_first_launch(bench_ctx *ctx, cl_context c, cl_command_queue q, cl_device_id dev) {
  printf("\nFirst launch of a built program's kernel (typedef float DATA_TYPE; a plain pointer), "
         "median of %d, ms.\nampcl: amp_kernel_create + amp_parallel_for_each + wait; raw: "
         "clCreateKernel + clSetKernelArg + enqueue + clFinish\n\n",
         ctx->repeats);
  printf("%-44s %-6s %10s %10s %10s\n", "", "", "median", "min", "max");
  return fl_row(ctx, c, q, dev, 1) || fl_row(ctx, c, q, dev, 0);
}
