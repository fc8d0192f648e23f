/* runtime/exec/param_size.c: the sizes of a kernel's parameter types, for the launch checks.
 *
 * OpenCL reports a parameter's type by name only. For built-in types the size follows from the
 * name, and for typedefs and one-token macros of them (`typedef float DATA_TYPE;`,
 * `#define real float`, `-Dreal=float`) from the name they stand for (param_type.c): no probe.
 * For structs and unions (and typedefs of them) it does not, so ampcl asks the compiler: once per
 * build, when the program is built (amp__program_build_entry, so amp_program_build pays it and
 * never a launch), it builds the program once more with one probe kernel added, which writes
 * sizeof of every such type of every kernel of the program, and runs it on one work-item. The
 * sizes stay with the build (amp__type_sizes); the kernels' pools read them. AMP_TRACE shows the
 * probe as a host span "ampcl parameter-size probe (program build)" and its kernel and read. If the
 * probe cannot be built or run, the sizes stay unknown (0) and a launch checks what names alone
 * allow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace_impl.h"
#include "exec/param_type.h"
#include "exec/program_cache.h"

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

/* The size of a type as the compiler names it, from its name, the typedefs and macros of the
 * build's text and the macros of its options; 0 for a struct (or unknown). */
static size_t size_by_name(const char *type, const struct amp__cache_entry *e) {
  char *flat = malloc(strlen(type) + 1), *w = flat;
  if (!flat)
    return 0;
  for (const char *c = type; *c; c++)
    if (*c != ' ')
      *w++ = *c;
  *w = '\0';
  char *canon = amp__canonical_type(e->text, flat);
  char *opt = canon ? amp__canonical_type(e->options, canon) : NULL;
  size_t size = opt ? amp__builtin_type_size(opt) : 0;
  free(opt);
  free(canon);
  free(flat);
  return size;
}

/* Builds text + a probe writing sizeof of each of the n types and runs it; fills sizes[] (0 where
 * unknown). */
static void run_probe(const char *text, const char *options, amp_accelerator *acc,
                      amp__type_size *types, size_t n) {
  cl_context ctx;
  amp_accelerator_view *q;
  if (amp__context(acc, &ctx) != AMP_SUCCESS ||
      amp_accelerator_default_view(acc, &q) != AMP_SUCCESS)
    return;
  size_t cap = strlen(text) + 128;
  for (size_t i = 0; i < n; i++)
    cap += strlen(types[i].type) + 48;
  char *src = malloc(cap);
  cl_ulong *out = calloc(n, sizeof *out);
  if (!src || !out) {
    free(src);
    free(out);
    return;
  }
  size_t o = (size_t)snprintf(src, cap,
                              "%s\n__kernel void amp__sizeof_probe(__global ulong *o) {\n", text);
  for (size_t i = 0; i < n; i++)
    o += (size_t)snprintf(src + o, cap - o, "  o[%zu] = sizeof(%s);\n", i, types[i].type);
  snprintf(src + o, cap - o, "}\n");
  cl_int err = CL_SUCCESS;
  const char *s = src;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  cl_kernel k = NULL;
  cl_mem buf = NULL;
  if (err == CL_SUCCESS && clBuildProgram(prog, 1, &acc->device, options, NULL, NULL) == CL_SUCCESS)
    k = clCreateKernel(prog, "amp__sizeof_probe", &err);
  if (k)
    buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *out, out, &err);
  size_t one = 1;
  amp__traced tk = amp__trace_start(), tr = amp__trace_start();
  if (buf && clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS &&
      clEnqueueNDRangeKernel(q->queue, k, 1, NULL, &one, NULL, 0, NULL, amp__trace_ev(&tk)) ==
          CL_SUCCESS &&
      clEnqueueReadBuffer(q->queue, buf, CL_TRUE, 0, n * sizeof *out, out, 0, NULL,
                          amp__trace_ev(&tr)) == CL_SUCCESS)
    for (size_t i = 0; i < n; i++)
      types[i].size = (size_t)out[i];
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

/* Adds `type` to the list unless it is there; takes ownership. Returns 0 when out of memory. */
static int add_type(amp__type_sizes *ts, char *type) {
  for (size_t i = 0; i < ts->n; i++)
    if (strcmp(ts->v[i].type, type) == 0) {
      free(type);
      return 1;
    }
  amp__type_size *v = realloc(ts->v, (ts->n + 1) * sizeof *v);
  if (!v) {
    free(type);
    return 0;
  }
  ts->v = v;
  ts->v[ts->n++] = (amp__type_size){type, 0};
  return 1;
}

/* The struct types among kernel k's parameters, added to ts. */
static void collect_structs(cl_kernel k, const struct amp__cache_entry *e, amp__type_sizes *ts) {
  cl_uint n = 0;
  if (clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL) != CL_SUCCESS)
    return;
  for (cl_uint i = 0; i < n; i++) {
    char *t = pointee(k, i);
    if (t && !opaque(t) && !size_by_name(t, e))
      add_type(ts, t);
    else
      free(t);
  }
}

void amp__probe_struct_sizes(struct amp__cache_entry *e, amp_accelerator *acc) {
  cl_uint nk = 0;
  if (clCreateKernelsInProgram(e->program, 0, NULL, &nk) != CL_SUCCESS || !nk)
    return;
  cl_kernel *ks = calloc(nk, sizeof *ks);
  if (!ks || clCreateKernelsInProgram(e->program, nk, ks, NULL) != CL_SUCCESS) {
    free(ks);
    return;
  }
  for (cl_uint i = 0; i < nk; i++) {
    collect_structs(ks[i], e, &e->struct_sizes);
    clReleaseKernel(ks[i]);
  }
  free(ks);
  if (e->struct_sizes.n) {
    const uint64_t t0 = amp__trace_on() ? amp__trace_now() : 0;
    run_probe(e->text, e->options, acc, e->struct_sizes.v, e->struct_sizes.n);
    if (t0)
      amp__trace_host("ampcl parameter-size probe (program build)", t0, amp__trace_now());
  }
}

void amp__type_sizes_free(amp__type_sizes *ts) {
  for (size_t i = 0; i < ts->n; i++)
    free(ts->v[i].type);
  free(ts->v);
  ts->v = NULL;
  ts->n = 0;
}

void amp__param_sizes(cl_kernel k, const struct amp__cache_entry *e, amp__param *params,
                      cl_uint n) {
  for (cl_uint i = 0; params && i < n; i++) {
    char *t = pointee(k, i);
    if (!t)
      continue;
    params[i].size = opaque(t) ? 0 : size_by_name(t, e);
    for (size_t j = 0; !params[i].size && j < e->struct_sizes.n; j++)
      if (strcmp(e->struct_sizes.v[j].type, t) == 0)
        params[i].size = e->struct_sizes.v[j].size;
    free(t);
  }
}
