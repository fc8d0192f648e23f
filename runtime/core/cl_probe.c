/* runtime/core/cl_probe.c: the plain-OpenCL scaffolding of the runtime's one-off measurements on a
 * device: how accurate native_* is (exec/math_accuracy.c), whether timestamps measure anything
 * (core/timestamps.c), whether half-float images read right (data/texture_probe.c), how large a
 * kernel's parameters are (exec/param_size.c). A probe runs outside ampcl's launch path (some run
 * inside a build), on a queue of its own, and keeps nothing: a program, a kernel and a few memory
 * objects, made and released as one. */
#include "core/cl_probe.h"

#include <string.h>

int amp__cl_probe_begin(amp_accelerator *acc, const char *src, const char *options,
                        const char *kname, cl_command_queue_properties queue_props,
                        amp__cl_probe *p) {
  memset(p, 0, sizeof *p);
  cl_int err = CL_SUCCESS;
  if (amp__context(acc, &p->ctx) != AMP_SUCCESS)
    return -1;
  p->device = acc->device;
  p->queue = clCreateCommandQueue(p->ctx, p->device, queue_props, &err);
  if (err != CL_SUCCESS || !src)
    return err == CL_SUCCESS ? 0 : -1;
  p->program = clCreateProgramWithSource(p->ctx, 1, &src, NULL, &err);
  if (err != CL_SUCCESS ||
      clBuildProgram(p->program, 1, &p->device, options ? options : "", NULL, NULL) != CL_SUCCESS)
    return -1;
  p->kernel = clCreateKernel(p->program, kname, &err);
  return err == CL_SUCCESS ? 0 : -1;
}

cl_mem amp__cl_probe_keep(amp__cl_probe *p, cl_mem mem) {
  if (mem && p->nmem == AMP__PROBE_MEMS) {
    clReleaseMemObject(mem);
    return NULL;
  }
  if (mem)
    p->mem[p->nmem++] = mem;
  return mem;
}

cl_mem amp__cl_probe_buffer(amp__cl_probe *p, cl_mem_flags flags, size_t bytes, void *host) {
  cl_int err = CL_SUCCESS;
  cl_mem b = clCreateBuffer(p->ctx, flags, bytes, host, &err);
  return amp__cl_probe_keep(p, err == CL_SUCCESS ? b : NULL);
}

void amp__cl_probe_release_mems(amp__cl_probe *p) {
  while (p->nmem > 0)
    clReleaseMemObject(p->mem[--p->nmem]);
}

void amp__cl_probe_end(amp__cl_probe *p) {
  amp__cl_probe_release_mems(p);
  if (p->kernel)
    clReleaseKernel(p->kernel);
  if (p->program)
    clReleaseProgram(p->program);
  if (p->queue)
    clReleaseCommandQueue(p->queue);
  memset(p, 0, sizeof *p);
}
