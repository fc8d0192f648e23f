/* lab/release_probe.c: which host calls wait for a kernel that is still running on another queue?
 * Issue 34: in amp-mpi-matmul's `shared` algorithm the copy of step s + 1 (on a second queue, from
 * a thread of its own) started only when step s's product had ended. This probe, in plain OpenCL
 * on the first GPU (or the first device), runs a kernel of about 100 ms on queue A and, while it
 * runs, times on the host:
 *   release   clReleaseMemObject of a buffer the kernel uses;
 *   release other  clReleaseMemObject of a buffer the kernel does not use;
 *   create    clCreateBuffer of a new buffer, a non-blocking write into it on queue B, clFlush;
 *   write     the same write into a buffer made and used before the kernel started;
 * and says, from the events' profiling times, whether each write ran under the kernel.
 *
 *   release-probe [MiB per buffer, default 256] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static const char *src = "__kernel void spin(__global float *x, int iters) {\n"
                         "  size_t i = get_global_id(0);\n"
                         "  float v = x[i];\n"
                         "  for (int k = 0; k < iters; k++) v = v * 0.9999f + 1.0f;\n"
                         "  x[i] = v;\n"
                         "}\n";

#define CHECK(e)                                                                                   \
  do {                                                                                             \
    cl_int e_ = (e);                                                                               \
    if (e_ != CL_SUCCESS) {                                                                        \
      fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #e, e_);                              \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

static cl_ulong stamp(cl_event e, cl_profiling_info what) {
  cl_ulong t = 0;
  clGetEventProfilingInfo(e, what, sizeof t, &t, NULL);
  return t;
}

static cl_device_id pick(void) {
  cl_platform_id p[8];
  cl_uint np = 0;
  cl_device_id d = NULL;
  if (clGetPlatformIDs(8, p, &np) != CL_SUCCESS)
    return NULL;
  for (cl_uint i = 0; i < np && !d; i++)
    if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS)
      d = NULL;
  for (cl_uint i = 0; i < np && !d; i++)
    if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL) != CL_SUCCESS)
      d = NULL;
  return d;
}

int main(int argc, char **argv) {
  size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 256, bytes = mib << 20, n = bytes / 4;
  size_t chunk = (size_t)16 << 20;
  cl_int err;
  cl_device_id dev = pick();
  if (!dev || mib < 16 || mib > 4096) {
    fprintf(stderr, "no OpenCL device, or MiB outside 16 .. 4096\n");
    return 1;
  }
  char name[256] = "";
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue qa = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  cl_command_queue qb = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "spin", &err);
  CHECK(err);
  float *host = calloc(chunk / 4, 4);
  if (!host)
    return 1;
  /* calibrate the kernel to about 100 ms */
  int iters = 256;
  double ms = 0;
  for (int round = 0; round < 8 && ms < 80; round++) {
    cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    CHECK(clEnqueueFillBuffer(qa, x, &(float){0}, 4, 0, bytes, 0, NULL, NULL));
    CHECK(clSetKernelArg(k, 0, sizeof x, &x));
    CHECK(clSetKernelArg(k, 1, sizeof iters, &iters));
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(qa, k, 1, NULL, &n, NULL, 0, NULL, &ev));
    CHECK(clFinish(qa));
    ms = (double)(stamp(ev, CL_PROFILING_COMMAND_END) - stamp(ev, CL_PROFILING_COMMAND_START)) *
         1e-6;
    clReleaseEvent(ev);
    clReleaseMemObject(x);
    if (ms < 80)
      iters = (int)(iters * (ms > 1 ? 100 / ms : 16));
  }
  printf("device %s, buffers of %zu MiB, kernel %.1f ms (%d iterations)\n", name, mib, ms, iters);
  for (int test = 0; test < 4; test++) {
    cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    cl_mem old = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    CHECK(clEnqueueFillBuffer(qa, x, &(float){0}, 4, 0, bytes, 0, NULL, NULL));
    CHECK(clEnqueueFillBuffer(qb, old, &(float){0}, 4, 0, bytes, 0, NULL, NULL));
    CHECK(clFinish(qa));
    CHECK(clFinish(qb));
    CHECK(clSetKernelArg(k, 0, sizeof x, &x));
    CHECK(clSetKernelArg(k, 1, sizeof iters, &iters));
    cl_event kev, wev = NULL;
    double t0 = now_ms();
    CHECK(clEnqueueNDRangeKernel(qa, k, 1, NULL, &n, NULL, 0, NULL, &kev));
    CHECK(clFlush(qa));
    double t1 = now_ms();
    const char *what = test == 0   ? "release"
                       : test == 1 ? "create+write"
                       : test == 2 ? "write"
                                   : "release other";
    cl_mem y = NULL;
    if (test == 0) {
      CHECK(clReleaseMemObject(x));
      x = NULL;
    } else if (test == 3) {
      CHECK(clReleaseMemObject(old));
      old = NULL;
    } else {
      y = test == 1 ? clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err) : old;
      CHECK(err);
      CHECK(clEnqueueWriteBuffer(qb, y, CL_FALSE, 0, chunk, host, 0, NULL, &wev));
      CHECK(clFlush(qb));
    }
    double t2 = now_ms();
    CHECK(clFinish(qb));
    double t3 = now_ms();
    CHECK(clFinish(qa));
    double t4 = now_ms();
    printf("%-13s the call took %8.2f ms; queue B done after %8.2f ms; the kernel after %8.2f ms",
           what, t2 - t1, t3 - t1, t4 - t0);
    if (wev) {
      double ks = (double)stamp(kev, CL_PROFILING_COMMAND_START),
             ke = (double)stamp(kev, CL_PROFILING_COMMAND_END),
             we = (double)stamp(wev, CL_PROFILING_COMMAND_END);
      printf("; the write ended %.2f ms after the kernel's start, %s", (we - ks) * 1e-6,
             we < ke ? "under the kernel" : "after the kernel");
      clReleaseEvent(wev);
    }
    printf("\n");
    clReleaseEvent(kev);
    if (x)
      clReleaseMemObject(x);
    if (y && y != old)
      clReleaseMemObject(y);
    if (old)
      clReleaseMemObject(old);
  }
  free(host);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(qa);
  clReleaseCommandQueue(qb);
  clReleaseContext(ctx);
  return 0;
}
