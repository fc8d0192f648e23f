/* runtime/exec/param_size.c: the sizes of a kernel's parameter types, for the launch checks.
 *
 * OpenCL reports a parameter's type by name only. For built-in types the size follows from the
 * name; for structs, unions and typedefs of them it does not, so when a kernel has such a
 * parameter ampcl asks the compiler: it builds the program once more with one probe kernel added,
 * which writes sizeof of every parameter's type (the pointee's, for pointers), and runs it on one
 * work-item. This happens once per kernel and device, when its pool is made, and only for kernels
 * with a struct type among their parameters. If the probe cannot be built or run, the sizes stay
 * unknown (0) and the launch checks what names alone allow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace_impl.h"
#include "exec/param_type.h"
#include "exec/program.h"

/* The parameter's type as the compiler wrote it, without the pointer's '*' (malloc'd), or NULL. */
static char *pointee(cl_kernel k, cl_uint i) {
  size_t n = 0;
  if (clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, 0, NULL, &n) != CL_SUCCESS || !n)
    return NULL;
  char *t = calloc(n + 1, 1);
  if (!t || clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, n, t, NULL) != CL_SUCCESS) {
    free(t);
    return NULL;
  }
  size_t len = strlen(t);
  while (len && (t[len - 1] == '*' || t[len - 1] == ' '))
    t[--len] = '\0';
  return t;
}

/* Types sizeof cannot be asked of in a probe. */
static int opaque(const char *t) {
  return strstr(t, "image") || strstr(t, "sampler") || strstr(t, "event_t") || !*t;
}

/* Builds text + probe and runs it; fills sizes[] (0 where unknown). */
static void run_probe(const char *text, const char *options, amp_accelerator *acc, char **types,
                      cl_uint n, size_t *sizes) {
  cl_context ctx;
  amp_accelerator_view *q;
  if (amp__context(acc, &ctx) != AMP_SUCCESS ||
      amp_accelerator_default_view(acc, &q) != AMP_SUCCESS)
    return;
  size_t cap = strlen(text) + 128;
  for (cl_uint i = 0; i < n; i++)
    cap += (types[i] ? strlen(types[i]) : 0) + 48;
  char *src = malloc(cap);
  if (!src)
    return;
  size_t o = (size_t)snprintf(src, cap,
                              "%s\n__kernel void amp__sizeof_probe(__global ulong *o) {\n", text);
  for (cl_uint i = 0; i < n; i++)
    if (types[i] && !opaque(types[i]))
      o += (size_t)snprintf(src + o, cap - o, "  o[%u] = sizeof(%s);\n", i, types[i]);
  snprintf(src + o, cap - o, "}\n");
  cl_int err = CL_SUCCESS;
  const char *s = src;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  cl_kernel k = NULL;
  cl_mem buf = NULL;
  cl_ulong *out = calloc(n ? n : 1, sizeof *out);
  if (err == CL_SUCCESS && out &&
      clBuildProgram(prog, 1, &acc->device, options, NULL, NULL) == CL_SUCCESS)
    k = clCreateKernel(prog, "amp__sizeof_probe", &err);
  if (k)
    buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (n ? n : 1) * sizeof *out,
                         out, &err);
  size_t one = 1;
  amp__traced tk = amp__trace_start(), tr = amp__trace_start();
  if (buf && clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS &&
      clEnqueueNDRangeKernel(q->queue, k, 1, NULL, &one, NULL, 0, NULL, amp__trace_ev(&tk)) ==
          CL_SUCCESS &&
      clEnqueueReadBuffer(q->queue, buf, CL_TRUE, 0, n * sizeof *out, out, 0, NULL,
                          amp__trace_ev(&tr)) == CL_SUCCESS)
    for (cl_uint i = 0; i < n; i++)
      sizes[i] = (size_t)out[i];
  amp__trace_end(&tk, acc, q->queue, "kernel", 0, "ampcl parameter-size probe");
  amp__trace_end(&tr, acc, q->queue, "read (probe result)", n * sizeof *out,
                 "ampcl parameter-size probe");
  if (buf)
    clReleaseMemObject(buf);
  if (k)
    clReleaseKernel(k);
  if (prog)
    clReleaseProgram(prog);
  free(out);
  free(src);
}

void amp__param_sizes(cl_kernel k, const char *text, const char *options, amp_accelerator *acc,
                      amp__param *params, cl_uint n) {
  if (!params || !n)
    return;
  char **types = calloc(n, sizeof *types);
  size_t *sizes = calloc(n, sizeof *sizes);
  int need = 0;
  for (cl_uint i = 0; types && sizes && i < n; i++) {
    types[i] = pointee(k, i);
    char *flat = types[i] ? strdup(types[i]) : NULL;
    if (flat) { /* "unsigned int" -> "uint" for the built-in table */
      char *w = flat;
      for (char *c = flat; *c; c++)
        if (*c != ' ')
          *w++ = *c;
      *w = '\0';
      if (strncmp(flat, "unsigned", 8) == 0 && flat[8]) {
        flat[0] = 'u';
        memmove(flat + 1, flat + 8, strlen(flat + 8) + 1);
      }
      params[i].size = amp__builtin_type_size(flat);
      need |= !params[i].size && !opaque(flat);
      free(flat);
    }
  }
  if (need && types && sizes) {
    run_probe(text, options, acc, types, n, sizes);
    for (cl_uint i = 0; i < n; i++)
      if (!params[i].size)
        params[i].size = sizes[i];
  }
  for (cl_uint i = 0; types && i < n; i++)
    free(types[i]);
  free(types);
  free(sizes);
}
