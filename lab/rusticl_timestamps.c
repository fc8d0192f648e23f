/* lab/rusticl_timestamps.c: what an implementation's profiling events say, beside the host's
 * clock, for a kernel and a buffer write. Written for Mesa's rusticl (issue 48), whose
 * CL_DEVICE_PROFILING_TIMER_RESOLUTION is 0; it runs on any OpenCL device.
 *
 * On the first device of the first platform (the loader's order: `. .rusticl/env.sh` makes that
 * rusticl), it runs a busy kernel (each of 65536 work-items loops `iters` times) for three sizes
 * of `iters`, and one 64 MiB clEnqueueWriteBuffer, each on a profiling queue and each waited for
 * alone. For each it prints the four timestamps (QUEUED, SUBMIT, START, END) as returned, their
 * differences, and the host's wall time from the enqueue to the end of clFinish. A plausible
 * event has QUEUED <= SUBMIT <= START <= END, END - START > 0 and no larger than the host's time,
 * and, as each event is waited for before the next is enqueued, its QUEUED is not before the
 * previous event's END (a clock that advances). Not installed.
 *
 *   rusticl-timestamps */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char *source = "__kernel void busy(__global float *out, int iters) {\n"
                            "  float x = (float)get_global_id(0) * 1e-6f;\n"
                            "  for (int i = 0; i < iters; i++) x = x * 0.999f + 0.5f;\n"
                            "  out[get_global_id(0)] = x;\n"
                            "}\n";

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

/* The previous event's END, for the check that the clock advances from event to event. */
static cl_ulong previous_end;

/* Prints one event's timestamps, their differences and the host's time; 1 when implausible. */
static int report(const char *what, cl_event ev, double host_ns) {
  cl_ulong t[4] = {0, 0, 0, 0};
  const cl_profiling_info info[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  cl_int e = CL_SUCCESS;
  for (int i = 0; i < 4 && e == CL_SUCCESS; i++)
    e = clGetEventProfilingInfo(ev, info[i], sizeof t[i], &t[i], NULL);
  if (e != CL_SUCCESS) {
    printf("%-22s clGetEventProfilingInfo: error %d\n", what, e);
    return 1;
  }
  int ordered = t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3];
  double run = (double)(t[3] - t[2]);
  int advances = t[0] >= previous_end;
  int plausible = ordered && advances && t[3] > t[2] && run <= host_ns;
  previous_end = t[3];
  printf("%-22s queued %llu submit %llu start %llu end %llu | submit-queued %lld start-submit "
         "%lld end-start %lld ns | host %.0f ns | %s\n",
         what, (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2],
         (unsigned long long)t[3], (long long)(t[1] - t[0]), (long long)(t[2] - t[1]),
         (long long)(t[3] - t[2]), host_ns,
         plausible  ? "plausible"
         : advances ? "IMPLAUSIBLE"
                    : "IMPLAUSIBLE (queued before the last end)");
  return !plausible;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int e = clGetPlatformIDs(1, &platform, NULL);
  if (e == CL_SUCCESS)
    e = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (e != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device (error %d)\n", e);
    return 77;
  }
  char name[256] = "", version[256] = "", pname[256] = "";
  size_t resolution = 0;
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof version, version, NULL);
  clGetDeviceInfo(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof resolution, &resolution,
                  NULL);
  printf("platform %s, device %s, driver %s\nCL_DEVICE_PROFILING_TIMER_RESOLUTION %zu ns\n", pname,
         name, version, resolution);

  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &e);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &e);
  if (e != CL_SUCCESS || clBuildProgram(prog, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "the probe's kernel did not build\n");
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "busy", &e);
  const size_t n = 65536, bytes = (size_t)64 << 20;
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
  float *host = calloc(bytes / sizeof(float), sizeof(float));
  if (e != CL_SUCCESS || !host) {
    fprintf(stderr, "no 64 MiB buffer\n");
    return 1;
  }
  clSetKernelArg(k, 0, sizeof out, &out);
  int bad = 0;
  const int iters[3] = {1, 1000, 20000};
  for (int r = 0; r < 3; r++) {
    cl_event ev;
    clSetKernelArg(k, 1, sizeof iters[r], &iters[r]);
    double t0 = now_ns();
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &ev);
    clFinish(q);
    double host_ns = now_ns() - t0;
    char what[64];
    snprintf(what, sizeof what, "kernel, %d iters", iters[r]);
    if (e != CL_SUCCESS) {
      printf("%s: enqueue error %d\n", what, e);
      bad = 1;
      continue;
    }
    bad |= report(what, ev, host_ns);
    clReleaseEvent(ev);
  }
  cl_event ev;
  double t0 = now_ns();
  e = clEnqueueWriteBuffer(q, out, CL_FALSE, 0, bytes, host, 0, NULL, &ev);
  clFinish(q);
  double host_ns = now_ns() - t0;
  if (e == CL_SUCCESS) {
    bad |= report("write, 64 MiB", ev, host_ns);
    clReleaseEvent(ev);
  }
  free(host);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  printf("%s\n", bad ? "some events' timestamps are implausible" : "every event is plausible");
  return 0;
}
