/* prelude_first_enqueue: a fresh kernel's clCreateKernel + first enqueue + clFinish on the first
 * OpenCL device, ten times each way, alternating: its program plain, built with
 * -cl-kernel-arg-info, and with ampcl's prelude in front as well (argv[1]: the prelude's folder,
 * default kernels_cl/prelude). The first two runs recorded in prelude_first_enqueue.txt had only
 * the first and last variants. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
static char *slurp(const char *p) {
  FILE *f = fopen(p, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc(n + 1);
  fread(s, 1, n, f);
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
    snprintf(p, 512, "%s/%s.h", argc > 1 ? argv[1] : "kernels_cl/prelude", parts[i]);
    char *s = slurp(p);
    if (!s) {
      fprintf(stderr, "no %s\n", p);
      return 1;
    }
    strcat(prelude, s);
    strcat(prelude, "\n");
    free(s);
  }
  cl_platform_id pl;
  clGetPlatformIDs(1, &pl, NULL);
  cl_device_id d;
  clGetDeviceIDs(pl, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  cl_int e;
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  float h[1024] = {0};
  cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof h, h, &e);
  long base = (long)(now() * 1000) % 100000000 + 1000000;
  for (int r = 0; r < 10; r++)
    for (int withp = 0; withp < 3; withp++) {
      static char src[1 << 21];
      snprintf(
          src, sizeof src,
          "%s#define SALT %ld\ntypedef float DATA_TYPE;\n__kernel void scale(__global DATA_TYPE "
          "*a, DATA_TYPE s){ a[get_global_id(0)] *= s; if (get_global_id(0)==SALT) a[0]=0; }\n",
          withp == 2 ? prelude : "", base + r * 3 + withp);
      const char *sp = src;
      cl_program p = clCreateProgramWithSource(c, 1, &sp, NULL, &e);
      e = clBuildProgram(p, 1, &d, withp ? "-cl-kernel-arg-info" : NULL, NULL, NULL);
      if (e) {
        fprintf(stderr, "build %d\n", e);
        return 1;
      }
      double t0 = now();
      cl_kernel k = clCreateKernel(p, "scale", &e);
      float s = 2;
      size_t g = 1024;
      clSetKernelArg(k, 0, sizeof b, &b);
      clSetKernelArg(k, 1, sizeof s, &s);
      clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
      clFinish(q);
      printf("%s %.1f ms\n",
             withp == 2 ? "prelude+arginfo"
             : withp    ? "arginfo"
                        : "plain",
             now() - t0);
      clReleaseKernel(k);
      clReleaseProgram(p);
    }
  return 0;
}
