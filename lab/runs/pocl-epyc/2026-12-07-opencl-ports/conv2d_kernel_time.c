/* conv2d_kernel_time: the 2-D convolution's kernel (argv[2], examples/opencl_port/opencl_port.cl)
 * on a 2048 x 2048 image, its device time from profiling events, built plain and as ampcl builds it
 * (the prelude of argv[1] in front, -cl-kernel-arg-info -DAMP_COMPUTE_CAPABILITY=0), alternating,
 * 20 timed launches each after one untimed. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *slurp(const char *p) {
  FILE *f = fopen(p, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc(n + 1);
  if (fread(s, 1, n, f) != (size_t)n)
    return NULL;
  s[n] = 0;
  fclose(f);
  return s;
}
int main(int argc, char **argv) {
  const char *parts[] = {"ampcl_prelude", "ampcl_atomics", "ampcl_index",  "ampcl_debug",
                         "ampcl_texture", "ampcl_assert",  "ampcl_random", "ampcl_collectives"};
  static char prelude[1 << 20];
  strcpy(prelude, "#define AMPCL_PRELUDE_EMBEDDED 1\n");
  for (int i = 0; i < 8; i++) {
    char p[512];
    snprintf(p, 512, "%s/%s.h", argv[1], parts[i]);
    strcat(prelude, slurp(p));
    strcat(prelude, "\n");
  }
  char *kern = slurp(argv[2]);
  cl_platform_id pl;
  clGetPlatformIDs(1, &pl, NULL);
  cl_device_id d;
  clGetDeviceIDs(pl, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  cl_int e;
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueue(c, d, CL_QUEUE_PROFILING_ENABLE, &e);
  int n = 2048;
  size_t bytes = (size_t)n * n * 4;
  float *h = malloc(bytes);
  for (size_t i = 0; i < (size_t)n * n; i++)
    h[i] = (float)(i % 100);
  cl_mem in = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h, &e);
  cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h, &e);
  cl_kernel ks[2];
  for (int v = 0; v < 2; v++) {
    static char src[1 << 21];
    snprintf(src, sizeof src, "%s#line 1 \"k.cl\"\n%s", v ? prelude : "", kern);
    const char *sp = src;
    cl_program p = clCreateProgramWithSource(c, 1, &sp, NULL, &e);
    if (clBuildProgram(p, 1, &d, v ? "-cl-kernel-arg-info -DAMP_COMPUTE_CAPABILITY=0" : NULL, NULL,
                       NULL)) {
      printf("build fail\n");
      return 1;
    }
    ks[v] = clCreateKernel(p, "conv2d", &e);
    clSetKernelArg(ks[v], 0, sizeof in, &in);
    clSetKernelArg(ks[v], 1, sizeof out, &out);
    clSetKernelArg(ks[v], 2, sizeof n, &n);
    clSetKernelArg(ks[v], 3, sizeof n, &n);
  }
  size_t g[2] = {n, n};
  double t[2][20];
  for (int r = 0; r < 21; r++)
    for (int v = 0; v < 2; v++) {
      cl_event ev;
      clEnqueueNDRangeKernel(q, ks[(v + r) % 2], 2, NULL, g, NULL, 0, NULL, &ev);
      clFinish(q);
      cl_ulong a, b;
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &a, NULL);
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &b, NULL);
      if (r)
        t[(v + r) % 2][r - 1] = (b - a) / 1e6;
      clReleaseEvent(ev);
    }
  for (int v = 0; v < 2; v++) {
    printf("%s:", v ? "prelude+options" : "plain");
    for (int r = 0; r < 20; r++)
      printf(" %.1f", t[v][r]);
    printf("\n");
  }
  return 0;
}
