/* runtime/exec/local_report.c: the factor by which a driver's CL_KERNEL_LOCAL_MEM_SIZE overstates
 * a kernel's declared __local arrays, measured once per device.
 *
 * ampcl holds a launch's tile_static memory (what the kernel declares plus its __local arguments)
 * to CL_DEVICE_LOCAL_MEM_SIZE, reading the declared part from CL_KERNEL_LOCAL_MEM_SIZE. Mesa's
 * rusticl 22.3 reports twice what a kernel declares (lab/rusticl_local_size.c: 2048 for 1 KiB,
 * 65536 for 32 KiB) and runs it in what it declares, so kernels of 16 to 32 KiB were refused on a
 * 32 KiB device. The factor is measured, not assumed from the driver's name: two probe kernels
 * declare 1 KiB and 4 KiB, and only a report of exactly k times both counts. */
#include <pthread.h>
#include <stddef.h>

#include "exec/local_report.h"

#define PROBE_SMALL 1024
#define PROBE_LARGE 4096
#define MAX_DEVICES 64

static const char *probe_source = "__kernel void amp_local_probe_small(__global int *out) {\n"
                                  "  __local int b[256];\n"
                                  "  b[get_local_id(0) % 256] = (int)get_global_id(0);\n"
                                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                  "  out[get_global_id(0)] = b[255 - get_local_id(0) % 256];\n"
                                  "}\n"
                                  "__kernel void amp_local_probe_large(__global int *out) {\n"
                                  "  __local int b[1024];\n"
                                  "  b[get_local_id(0) % 1024] = (int)get_global_id(0);\n"
                                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                  "  out[get_global_id(0)] = b[1023 - get_local_id(0) % 1024];\n"
                                  "}\n";

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  cl_device_id device;
  cl_ulong factor;
} known[MAX_DEVICES];
static size_t nknown;

/* CL_KERNEL_LOCAL_MEM_SIZE of kernel name in prog, or 0 when it cannot be read. */
static cl_ulong reported(cl_program prog, cl_device_id device, const char *name) {
  cl_int err;
  cl_ulong bytes = 0;
  cl_kernel k = clCreateKernel(prog, name, &err);
  if (err != CL_SUCCESS)
    return 0;
  if (clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof bytes, &bytes, NULL) !=
      CL_SUCCESS)
    bytes = 0;
  clReleaseKernel(k);
  return bytes;
}

static cl_ulong measure(cl_context context, cl_device_id device) {
  cl_int err;
  cl_ulong factor = 1;
  cl_program prog = clCreateProgramWithSource(context, 1, &probe_source, NULL, &err);
  if (err != CL_SUCCESS)
    return 1;
  if (clBuildProgram(prog, 1, &device, "", NULL, NULL) == CL_SUCCESS) {
    cl_ulong small = reported(prog, device, "amp_local_probe_small");
    cl_ulong large = reported(prog, device, "amp_local_probe_large");
    if (small > PROBE_SMALL && small % PROBE_SMALL == 0 &&
        large == small / PROBE_SMALL * PROBE_LARGE)
      factor = small / PROBE_SMALL;
  }
  clReleaseProgram(prog);
  return factor;
}

cl_ulong amp__local_report_factor(cl_context context, cl_device_id device) {
  if (!context || !device)
    return 1;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < nknown; i++)
    if (known[i].device == device) {
      cl_ulong f = known[i].factor;
      pthread_mutex_unlock(&lock);
      return f;
    }
  /* measured under the lock: a second thread waits for the first one's answer */
  cl_ulong f = measure(context, device);
  if (nknown < MAX_DEVICES) {
    known[nknown].device = device;
    known[nknown].factor = f;
    nknown++;
  }
  pthread_mutex_unlock(&lock);
  return f;
}

cl_ulong amp__declared_local(cl_context context, cl_device_id device, cl_ulong reported_bytes) {
  return reported_bytes / amp__local_report_factor(context, device);
}
