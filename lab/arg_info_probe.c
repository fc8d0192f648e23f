/* arg-info-probe: what CL_KERNEL_ARG_TYPE_NAME and CL_KERNEL_ARG_NAME a driver reports for a
 * kernel declared by a prototype before its definition, beside the same kernel without one
 * (tests/embed/launchers.cl declares `views` so; on NVIDIA's OpenCL a float view given for its
 * int parameter was not refused), and beside a kernel without parameters (the same file has one:
 * the likelier cause, runtime/exec/program_build.c). Plain OpenCL; every device of every platform.
 *   cc -O2 -o arg-info-probe lab/arg_info_probe.c -lOpenCL && ./arg-info-probe */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

static const char *body =
    "__kernel void views(__global const int *in, __global int *out, int domain, int av) {\n"
    "  int i = get_global_id(0);\n"
    "  out[i] = in[i] * domain + av;\n"
    "}\n";
static const char *proto =
    "__kernel void views(__global const int *in, __global int *out, int domain, int av);\n";
/* a kernel without parameters: NVIDIA's driver 580 emitted PTX that ptxas refused for one under
 * -cl-kernel-arg-info, and ampcl then builds the whole program without argument information
 * (runtime/exec/program_build.c) */
static const char *noparams = "__kernel void nothing(void) {}\n";

/* with_proto: 0 the kernel alone, 1 after its prototype, 2 beside a kernel without parameters */
static void ask(cl_context ctx, cl_device_id dev, int with_proto) {
  const char *src[2] = {with_proto == 2 ? noparams : proto, body};
  static const char *const what[] = {"alone", "after a prototype", "beside nothing(void)"};
  cl_int err = CL_SUCCESS;
  cl_program p =
      clCreateProgramWithSource(ctx, with_proto ? 2 : 1, with_proto ? src : &src[1], NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &dev, "-cl-kernel-arg-info", NULL, NULL);
  cl_kernel k = err ? NULL : clCreateKernel(p, "views", &err);
  printf("  %s: build/kernel %d\n", what[with_proto], (int)err);
  for (cl_uint i = 0; k && i < 4; i++) {
    char type[64] = "", name[64] = "";
    cl_kernel_arg_address_qualifier aq = 0;
    cl_kernel_arg_type_qualifier tq = 0;
    cl_int e1 = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
    cl_int e2 = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
    cl_int e3 = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL);
    cl_int e4 = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL);
    printf("    arg %u: type %d '%s', name %d '%s', address %d 0x%x, qualifier %d 0x%x\n", i,
           (int)e1, type, (int)e2, name, (int)e3, (unsigned)aq, (int)e4, (unsigned)tq);
  }
  if (k)
    clReleaseKernel(k);
  clReleaseProgram(p);
}

int main(void) {
  cl_platform_id pl[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, pl, &np);
  for (cl_uint a = 0; a < np; a++) {
    cl_device_id dev[8];
    cl_uint nd = 0;
    if (clGetDeviceIDs(pl[a], CL_DEVICE_TYPE_ALL, 8, dev, &nd) != CL_SUCCESS)
      continue;
    for (cl_uint d = 0; d < nd; d++) {
      char dn[128] = "";
      clGetDeviceInfo(dev[d], CL_DEVICE_NAME, sizeof dn, dn, NULL);
      printf("%s\n", dn);
      cl_context ctx = clCreateContext(NULL, 1, &dev[d], NULL, NULL, NULL);
      ask(ctx, dev[d], 0);
      ask(ctx, dev[d], 1);
      ask(ctx, dev[d], 2);
      clReleaseContext(ctx);
    }
  }
  return 0;
}
