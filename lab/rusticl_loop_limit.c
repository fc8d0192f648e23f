/* lab/rusticl_loop_limit.c: how many loop iterations one work-item may run. Written for Mesa's
 * rusticl on llvmpipe, whose kernels stop looping after 65535 iterations without an error (found
 * when amp_reduce summed 2^26 ones to 67,107,872, issue 55); it runs on any OpenCL device.
 *
 * On the first device of the first platform (the loader's order: `. .rusticl/env.sh` makes that
 * rusticl), one work-item counts a loop of `n` iterations for n = 1000, 65535, 65536 and 100000,
 * and then, in the same work-item, a nest of 300 x 300 iterations: out[0] is the first count,
 * out[1] the second. A device without the limit prints n and 90000 for each; llvmpipe prints
 * min(n, 65535) and, once the first loop has used the 65535 up, 1 for the nest; after a loop of
 * 1000 the nest counts 64108 (the limit is per work-item, for all its loops together, the outer
 * loop's iterations counted too). Exits 1 when a count is short. Not installed.
 *
 *   rusticl-loop-limit */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>

static const char *source = "__kernel void count(__global int *out, int n) {\n"
                            "  int c = 0;\n"
                            "  for (int i = 0; i < n; i++)\n"
                            "    c += 1 + (i == -7); /* not a loop the compiler can count */\n"
                            "  out[0] = c;\n"
                            "  int d = 0;\n"
                            "  for (int i = 0; i < 300; i++)\n"
                            "    for (int j = 0; j < n / n * 300; j++)\n"
                            "      d += 1;\n"
                            "  out[1] = d;\n"
                            "}\n";

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device\n");
    return 77;
  }
  char name[256] = "";
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  if (clBuildProgram(p, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "build failed\n");
    return 1;
  }
  cl_kernel k = clCreateKernel(p, "count", &err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * sizeof(cl_int), NULL, &err);
  printf("%s\n", name);
  int short_count = 0;
  static const cl_int ns[] = {1000, 65535, 65536, 100000};
  for (int i = 0; i < 4; i++) {
    cl_int got[2] = {0, 0};
    size_t one = 1;
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof ns[i], &ns[i]);
    if (clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL) != CL_SUCCESS) {
      fprintf(stderr, "launch failed\n");
      return 1;
    }
    printf("loop of %6d: counted %6d; then a nest of 300 x 300: counted %5d\n", ns[i], got[0],
           got[1]);
    short_count += got[0] != ns[i] || got[1] != 90000;
  }
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return short_count ? 1 : 0;
}
