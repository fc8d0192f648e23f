/* conv2d_phases.c: the 2-D convolution of examples/opencl_port end to end, raw OpenCL and ampcl
 * alternating for 201 repeats in one process, each phase timed (README.md beside it). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ampcl.h>
#include <ampcl/opencl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
static char *slurp(const char *p) {
  FILE *f = fopen(p, "rb");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *s = malloc(n + 1);
  fread(s, 1, n, f);
  s[n] = 0;
  fclose(f);
  return s;
}
static int cmp(const void *a, const void *b) {
  double x = *(double *)a, y = *(double *)b;
  return x < y ? -1 : x > y;
}
enum { R = 201, P = 5 };
static double med(double *v) {
  double t[R];
  memcpy(t, v, sizeof t);
  qsort(t, R, sizeof(double), cmp);
  return t[R / 2];
}
static double mn(double *v) {
  double m = v[0];
  for (int i = 1; i < R; i++)
    if (v[i] < m)
      m = v[i];
  return m;
}
int main(int argc, char **argv) {
  int n = 2048;
  size_t bytes = (size_t)n * n * 4;
  float *a = malloc(bytes), *b = malloc(bytes);
  for (size_t i = 0; i < (size_t)n * n; i++) {
    a[i] = (float)(i % 13);
    b[i] = 1;
  }
  char *src = slurp(argc > 1 ? argv[1] : "examples/opencl_port/opencl_port.cl");
  amp_accelerator *acc;
  amp_accelerator_get_default(&acc);
  amp_accelerator_view *av;
  amp_accelerator_default_view(acc, &av);
  cl_device_id dev;
  amp_accelerator_get_cl_device(acc, &dev);
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, NULL);
  cl_program pr = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, NULL);
  clBuildProgram(pr, 1, &dev, "", NULL, NULL);
  cl_kernel k = clCreateKernel(pr, "conv2d", NULL);
  amp_program *ap;
  amp_program_create(src, NULL, &ap);
  amp_program_build(ap, acc);
  amp_kernel *ak;
  amp_kernel_create(ap, "conv2d", &ak);
  double raw[P][R], amp[P][R];
  for (int r = -2; r < R; r++) {
    double t0 = now();
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, NULL),
           out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, NULL);
    clEnqueueWriteBuffer(q, in, CL_FALSE, 0, bytes, a, 0, NULL, NULL);
    clEnqueueWriteBuffer(q, out, CL_FALSE, 0, bytes, b, 0, NULL, NULL);
    double t1 = now();
    clSetKernelArg(k, 0, sizeof in, &in);
    clSetKernelArg(k, 1, sizeof out, &out);
    clSetKernelArg(k, 2, 4, &n);
    clSetKernelArg(k, 3, 4, &n);
    size_t g[2] = {n, n};
    clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL);
    double t2 = now();
    clEnqueueReadBuffer(q, out, CL_TRUE, 0, bytes, b, 0, NULL, NULL);
    double t3 = now();
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    double t4 = now();
    if (r >= 0) {
      raw[0][r] = t1 - t0;
      raw[1][r] = t2 - t1;
      raw[2][r] = t3 - t2;
      raw[3][r] = t4 - t3;
      raw[4][r] = t4 - t0;
    }
    t0 = now();
    amp_array_view *vi, *vo;
    amp_array_view_create_const(amp_extent2(n, n), AMP_FLOAT, a, &vi);
    amp_array_view_create(amp_extent2(n, n), AMP_FLOAT, b, &vo);
    t1 = now();
    amp_arg args[] = {amp_arg_view(vi), amp_arg_view(vo), amp_arg_int(n), amp_arg_int(n)};
    if (amp_parallel_for_each_ndrange(av, ak, 2, g, NULL, args, 4, NULL) != AMP_SUCCESS) {
      printf("%s\n", amp_last_error());
      return 1;
    }
    t2 = now();
    amp_array_view_synchronize(vo);
    t3 = now();
    amp_array_view_release(vi);
    amp_array_view_release(vo);
    t4 = now();
    if (r >= 0) {
      amp[0][r] = t1 - t0;
      amp[1][r] = t2 - t1;
      amp[2][r] = t3 - t2;
      amp[3][r] = t4 - t3;
      amp[4][r] = t4 - t0;
    }
  }
  const char *names[P] = {"create+writes enq / views", "launch enq / launch call",
                          "read / synchronize", "release", "total"};
  for (int p = 0; p < P; p++)
    printf("%-28s raw med %7.2f min %7.2f | amp med %7.2f min %7.2f\n", names[p], med(raw[p]),
           mn(raw[p]), med(amp[p]), mn(amp[p]));
  return 0;
}
