/* lab/ffma_ceiling.c: the most FP32 (and FP64) multiply-adds a GPU does through OpenCL, from
 * registers with no memory traffic: the ceiling any OpenCL GEMM kernel runs under, measured in the
 * same call as the GEMMs it bounds (lab/gpu_gemm_copyback.sh). Each work item runs 16 independent
 * chains of fma, ITER steps each; 2 flops per fma; the kernel's time from OpenCL events, median of
 * 5 after a warm-up. Plain OpenCL; the first GPU of every platform.
 *   cc -O2 -o ffma-ceiling lab/ffma_ceiling.c -lOpenCL && ./ffma-ceiling */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 4096
static const char *src =
    "#ifdef DOUBLE\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\ntypedef double T;\n#else\n"
    "typedef float T;\n#endif\n"
    "__kernel void chains(__global T *out, T m, T a) {\n"
    "  T x0 = get_global_id(0), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5,\n"
    "    x6 = x0 + 6, x7 = x0 + 7, x8 = x0 + 8, x9 = x0 + 9, xa = x0 + 10, xb = x0 + 11,\n"
    "    xc = x0 + 12, xd = x0 + 13, xe = x0 + 14, xf = x0 + 15;\n"
    "  for (int i = 0; i < ITER; i++) {\n"
    "    x0 = fma(x0, m, a); x1 = fma(x1, m, a); x2 = fma(x2, m, a); x3 = fma(x3, m, a);\n"
    "    x4 = fma(x4, m, a); x5 = fma(x5, m, a); x6 = fma(x6, m, a); x7 = fma(x7, m, a);\n"
    "    x8 = fma(x8, m, a); x9 = fma(x9, m, a); xa = fma(xa, m, a); xb = fma(xb, m, a);\n"
    "    xc = fma(xc, m, a); xd = fma(xd, m, a); xe = fma(xe, m, a); xf = fma(xf, m, a);\n"
    "  }\n"
    "  out[get_global_id(0)] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + xa + xb + xc +\n"
    "                         xd + xe + xf;\n"
    "}\n";

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void run(cl_context ctx, cl_device_id dev, cl_command_queue q, int dbl) {
  char opts[96];
  snprintf(opts, sizeof opts, "-DITER=%d%s", ITER, dbl ? " -DDOUBLE" : "");
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  if (clBuildProgram(p, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
    printf("  %s: build failed\n", dbl ? "double" : "float");
    clReleaseProgram(p);
    return;
  }
  cl_kernel k = clCreateKernel(p, "chains", &err);
  cl_uint cus = 0;
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  size_t local = 256, global = (size_t)cus * 2048 * 4; /* many waves of full SMs */
  size_t esz = dbl ? sizeof(double) : sizeof(float);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, global * esz, NULL, &err);
  double dm = 0.999999, da = 1e-7;
  float fm = 0.999999f, fa = 1e-7f;
  clSetKernelArg(k, 0, sizeof out, &out);
  clSetKernelArg(k, 1, esz, dbl ? (void *)&dm : (void *)&fm);
  clSetKernelArg(k, 2, esz, dbl ? (void *)&da : (void *)&fa);
  double t[6];
  for (int r = 0; r < 6; r++) {
    cl_event ev;
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev);
    clWaitForEvents(1, &ev);
    cl_ulong s = 0, e = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
    t[r] = (double)(e - s) * 1e-9;
    clReleaseEvent(ev);
  }
  qsort(t + 1, 5, sizeof t[0], cmp);
  double flops = 2.0 * 16 * ITER * (double)global;
  printf("  %s fma from registers: %.1f TFLOP/s (median %.3f ms, %u compute units)\n",
         dbl ? "double" : "float", flops / t[3] * 1e-12, t[3] * 1e3, cus);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

int main(void) {
  cl_platform_id pl[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, pl, &np);
  for (cl_uint a = 0; a < np; a++) {
    cl_device_id dev;
    if (clGetDeviceIDs(pl[a], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
      continue;
    char name[128] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("%s\n", name);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    run(ctx, dev, q, 0);
    run(ctx, dev, q, 1);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
  }
  return 0;
}
