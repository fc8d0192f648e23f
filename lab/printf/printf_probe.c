/* lab/printf/printf_probe.c: how an OpenCL implementation orders and bounds kernel printf output.
 * Usage: printf_probe N [platform-substring]. Prints the device's CL_DEVICE_PRINTF_BUFFER_SIZE,
 * then runs a kernel in which each of N work items prints "item <i>", writing markers
 * "@ENQUEUED" (after clEnqueueNDRangeKernel, before any wait) and "@FINISHED" (after clFinish) to
 * stdout itself. run.sh counts the lines, where they appear against the markers, and their order.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src = "__kernel void p(void) { printf(\"item %d\\n\", (int)get_global_id(0)); }";

int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)atol(argv[1]) : 1000;
  cl_platform_id pl[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, pl, &np);
  for (cl_uint i = 0; i < np; i++) {
    char name[256];
    clGetPlatformInfo(pl[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (argc > 2 && !strstr(name, argv[2]))
      continue;
    cl_device_id d;
    if (clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL) != CL_SUCCESS)
      continue;
    size_t buf = 0;
    clGetDeviceInfo(d, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof buf, &buf, NULL);
    printf("@PLATFORM %s\n@PRINTF_BUFFER_SIZE %zu\n", name, buf);
    fflush(stdout);
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(c, d, 0, &err);
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &err);
    err = clBuildProgram(p, 1, &d, "", NULL, NULL);
    cl_kernel k = clCreateKernel(p, "p", &err);
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL);
    printf("@ENQUEUED %d\n", err);
    fflush(stdout);
    err = clFinish(q);
    printf("@FINISHED %d\n", err);
    fflush(stdout);
    return 0;
  }
  return 1;
}
