/* throwaway: ptxas register counts of a kernel file built with options on the first NVIDIA GPU */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *slurp(const char *a, const char *b) {
  static char buf[1 << 20]; size_t n = 0;
  const char *f[2] = {a, b};
  for (int i = 0; i < 2; i++) { FILE *fp = fopen(f[i], "rb"); if (!fp) exit(2);
    n += fread(buf + n, 1, sizeof buf - n - 1, fp); fclose(fp); buf[n++] = '\n'; }
  buf[n] = 0; return buf;
}
int main(int argc, char **argv) {
  cl_platform_id ps[8]; cl_uint np; cl_device_id dev = 0;
  clGetPlatformIDs(8, ps, &np);
  for (cl_uint i = 0; i < np && !dev; i++) { char v[256]; clGetPlatformInfo(ps[i], CL_PLATFORM_VENDOR, 256, v, 0);
    if (strstr(v, "NVIDIA")) clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, 0); }
  if (!dev) return 77;
  cl_context ctx = clCreateContext(0, 1, &dev, 0, 0, 0);
  const char *src = slurp("kernels_cl/ampcl_prelude.h", argv[1]);
  for (int a = 2; a < argc; a++) {
    char opts[2048]; snprintf(opts, sizeof opts, "-I kernels_cl -DAMP_COMPUTE_CAPABILITY=90 -cl-nv-verbose %s", argv[a]);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, 0, 0);
    cl_int e = clBuildProgram(p, 1, &dev, opts, 0, 0);
    static char log[1 << 16]; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, 0);
    printf("== %s [%s] build %d\n", argv[1], argv[a], e);
    for (char *l = strtok(log, "\n"); l; l = strtok(0, "\n")) if (strstr(l, "ptxas info") || strstr(l, "error")) printf("%s\n", l);
    clReleaseProgram(p);
  }
  return 0;
}
