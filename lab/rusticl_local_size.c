/* lab/rusticl_local_size.c: does CL_KERNEL_LOCAL_MEM_SIZE say what a kernel's __local arrays
 * take, and does a kernel run whose arrays fit the device while the reported size does not?
 * Written for Mesa's rusticl (issue 48), where ampcl's tile_static check refused kernels that
 * declare half of CL_DEVICE_LOCAL_MEM_SIZE or more; it runs on any OpenCL device.
 *
 * On the first device of the first platform (`. .rusticl/env.sh` makes that rusticl), for each
 * size N of a statically declared __local int array (N bytes), and once for a kernel with no
 * __local array but a __local argument of N bytes, it prints: the CL_KERNEL_LOCAL_MEM_SIZE the
 * driver reports (for the argument: after clSetKernelArg), the status of a launch of one
 * work-group of 64 work-items, and whether every work-item read back what the others wrote (each
 * element i gets 7i + 3 before a barrier; each work-item then checks a stride of elements written
 * by others, from the top of the array down, so memory smaller than asked would show up as wrong
 * values). Not installed.
 *
 *   rusticl-local-size */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>

#define THREADS 64

#define BODY                                                                                       \
  "  const int l = get_local_id(0), s = get_local_size(0);\n"                                      \
  "  for (int i = l; i < n; i += s) buf[i] = 7 * i + 3;\n"                                         \
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"                                                              \
  "  int ok = 1;\n"                                                                                \
  "  for (int i = n - 1 - l; i >= 0; i -= s) ok &= buf[i] == 7 * i + 3;\n"                         \
  "  out[get_global_id(0)] = ok;\n"

static const char *source =
    "#ifdef STATIC_INTS\n"
    "__kernel void fixed(__global int *out) {\n"
    "  __local int buf[STATIC_INTS]; const int n = STATIC_INTS;\n" BODY "}\n"
    "#else\n"
    "__kernel void sized(__global int *out, __local int *buf, int n) {\n" BODY "}\n"
    "#endif\n";

/* One launch of THREADS work-items; *right: how many found every element right. */
static cl_int launch(cl_command_queue q, cl_kernel k, cl_mem out, int *right) {
  size_t g = THREADS, l = THREADS;
  int h[THREADS] = {0};
  *right = 0;
  cl_int e = clEnqueueWriteBuffer(q, out, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
  if (e == CL_SUCCESS)
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
  if (e == CL_SUCCESS)
    e = clFinish(q);
  if (e == CL_SUCCESS)
    e = clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
  for (int i = 0; e == CL_SUCCESS && i < THREADS; i++)
    *right += h[i] == 1;
  return e;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id dev;
  cl_int e = clGetPlatformIDs(1, &platform, NULL);
  if (e == CL_SUCCESS)
    e = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
  if (e != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device (error %d)\n", e);
    return 77;
  }
  char name[256] = "", version[64] = "";
  cl_ulong device_local = 0;
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof version, version, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof device_local, &device_local, NULL);
  printf("device %s, driver %s, CL_DEVICE_LOCAL_MEM_SIZE %llu\n", name, version,
         (unsigned long long)device_local);
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, THREADS * sizeof(int), NULL, &e);
  const int sizes[] = {1024, 4096, 8192, 16384, 16388, 20480, 24576, 32768, 36864};
  for (int pass = 0; pass < 2; pass++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const int bytes = sizes[s], ints = bytes / 4;
      char opts[64] = "";
      if (pass == 0)
        snprintf(opts, sizeof opts, "-DSTATIC_INTS=%d", ints);
      cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &e);
      cl_int built = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
      cl_kernel k = built == CL_SUCCESS ? clCreateKernel(p, pass ? "sized" : "fixed", &e) : NULL;
      cl_ulong reported = 0;
      cl_int st = built, right = 0;
      if (k) {
        clSetKernelArg(k, 0, sizeof out, &out);
        if (pass) {
          clSetKernelArg(k, 1, (size_t)bytes, NULL);
          clSetKernelArg(k, 2, sizeof ints, &ints);
        }
        clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof reported, &reported,
                                 NULL);
        int r = 0;
        st = launch(q, k, out, &r);
        right = r;
        clReleaseKernel(k);
      }
      printf("%-9s %6d bytes: CL_KERNEL_LOCAL_MEM_SIZE %6llu (%.2fx), launch %d, %d of %d "
             "work-items right\n",
             pass ? "argument" : "declared", bytes, (unsigned long long)reported,
             (double)reported / bytes, st, right, THREADS);
      clReleaseProgram(p);
    }
  clReleaseMemObject(out);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}
