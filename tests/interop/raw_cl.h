/* tests/interop/raw_cl.h: plain OpenCL for the interop tests, written as a program being ported
 * from OpenCL would: its own kernel, built in a context, run on a queue. */
#ifndef AMPCL_TESTS_RAW_CL_H
#define AMPCL_TESTS_RAW_CL_H

#include <ampcl/interop.h>

#include "check.h"

/* x[first + i] = x[first + i] * a + b for i < n: the caller's own kernel. */
static const char raw_axpb_src[] =
    "__kernel void raw_axpb(__global float *x, uint first, float a, float b) {\n"
    "  size_t i = first + get_global_id(0);\n"
    "  x[i] = x[i] * a + b;\n"
    "}\n";

/* The kernel raw_axpb built in ctx for dev, or NULL (a failed check, the build log printed). */
static inline cl_kernel raw_kernel(cl_context ctx, cl_device_id dev) {
  cl_int err = CL_SUCCESS;
  const char *src = raw_axpb_src;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK_EQ_INT(err, CL_SUCCESS);
  if (err != CL_SUCCESS)
    return NULL;
  err = clBuildProgram(p, 1, &dev, "", NULL, NULL);
  CHECK_EQ_INT(err, CL_SUCCESS);
  cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "raw_axpb", &err) : NULL;
  CHECK_EQ_INT(err, CL_SUCCESS);
  clReleaseProgram(p); /* the kernel keeps it */
  return k;
}

/* Enqueues raw_axpb over x[first, first + n) on q; its event in *ev (may be NULL). */
static inline cl_int raw_axpb(cl_command_queue q, cl_kernel k, cl_mem x, cl_uint first, size_t n,
                              float a, float b, cl_event *ev) {
  cl_int err = clSetKernelArg(k, 0, sizeof x, &x);
  err |= clSetKernelArg(k, 1, sizeof first, &first);
  err |= clSetKernelArg(k, 2, sizeof a, &a);
  err |= clSetKernelArg(k, 3, sizeof b, &b);
  if (err != CL_SUCCESS)
    return err;
  return clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, ev);
}

/* An ampcl kernel doing the same to a whole view: v[i] = v[i] * a + b. */
static const char amp_axpb_src[] =
    "__kernel void amp_axpb(AMP_VIEW(float, v), float a, float b) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(v, i[0]) = amp_at(v, i[0]) * a + b;\n"
    "}\n";

/* The OpenCL context and device under ampcl's view `av`; 0, or 1 with the reason printed. */
static inline int raw_objects_of(amp_accelerator_view *av, cl_context *ctx, cl_device_id *dev) {
  amp_accelerator *acc = test_acc_of(av);
  REQUIRE_OK(amp_accelerator_get_cl_context(acc, ctx));
  REQUIRE_OK(amp_accelerator_get_cl_device(acc, dev));
  return 0;
}

/* The start of a test's main: declares `av`, the default view, and `ctx` and `dev`, the OpenCL
 * context and device under it; a test without them ends at once, failed. */
#define REQUIRE_RAW_OBJECTS(av, ctx, dev)                                                          \
  REQUIRE_VIEW(av);                                                                                \
  cl_context ctx = NULL;                                                                           \
  cl_device_id dev = NULL;                                                                         \
  if (raw_objects_of(av, &ctx, &dev))                                                              \
  return 1

/* A buffer of n floats in ctx holding 0, 1, 2, ... (NULL when OpenCL refuses, a failed check). */
static inline cl_mem raw_iota_buffer(cl_context ctx, size_t n) {
  float *host = malloc(n * sizeof *host);
  cl_int err = CL_OUT_OF_HOST_MEMORY;
  for (size_t i = 0; host && i < n; i++)
    host[i] = (float)i;
  cl_mem buf = host ? clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                     n * sizeof *host, host, &err)
                    : NULL;
  CHECK_EQ_INT(err, CL_SUCCESS);
  free(host);
  return buf;
}

/* How many OpenCL objects of `kind` ampcl holds that the user's releases let go (ampcl/stats.h):
 * the portable way to see that ampcl took and dropped its own reference, where the reference
 * counts OpenCL reports include an implementation's own (they are for debugging only). -1 when
 * ampcl cannot say (a failed check). */
static inline long long amp_live(amp_cl_object_kind kind) {
  long long n = -1;
  CHECK_OK(amp_cl_objects_live(kind, &n, NULL));
  return n;
}

#endif /* AMPCL_TESTS_RAW_CL_H */
