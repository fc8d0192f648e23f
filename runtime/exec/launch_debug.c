/* runtime/exec/launch_debug.c: debug mode's checked launches (see launch_debug.h and
 * kernels_cl/prelude/ampcl_debug.h).
 *
 * C++ AMP's REF accelerator caught kernel bugs by running kernels slowly and carefully. ampcl's
 * debug mode catches the commonest one, an index outside a view: each launch gets a small record
 * buffer that every view's amp_at() checks write to, with a dummy element behind it that bad
 * accesses are sent to. The launch then waits for its kernel (debug launches are synchronous)
 * and reports the first bad access. */
#include "exec/launch_debug.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace_impl.h"
#include "data/source.h"

/* The record's layout, in ints; kernels_cl/prelude/ampcl_debug.h writes it. */
enum {
  REC_COUNT_LO = 0,
  REC_COUNT_HI = 1,
  REC_SEEN = 2,
  REC_VIEW = 3,
  REC_NIDX = 4,
  REC_IDX = 5, /* 3 ints */
  REC_LINE = 8,
  REC_DIMS = 9,
  REC_GLOBAL = 10, /* 3 ints, AMP order */
  REC_LOCAL = 13,  /* 3 ints, AMP order */
  REC_INTS = 16,
  REC_DUMMY_BYTES = 128 /* the dummy element starts here (AMP__DEBUG_DUMMY ints) */
};

const char *amp__view_param_name(const char *param, char *buf, size_t cap) {
  size_t n = strlen(param);
  if (n > 5 && strcmp(param + n - 5, "_data") == 0 && n - 5 < cap) {
    memcpy(buf, param, n - 5);
    buf[n - 5] = '\0';
    return buf;
  }
  return param;
}

cl_uint amp__debug_view_params(const amp__kernel_pool *pool) {
  return pool->checked ? 3 : 2;
}

cl_uint amp__arg_params(const amp__kernel_pool *pool, amp_arg_kind kind) {
  return kind == AMP_ARG_VIEW                                 ? amp__debug_view_params(pool)
         : kind == AMP_ARG_TEXTURE || kind == AMP_ARG_SAMPLER ? 2
                                                              : 1;
}

amp_status amp__debug_check_view(const amp__kernel_pool *pool, cl_uint p, size_t arg) {
  amp_status status = AMP_SUCCESS;
  const amp__param *P = pool->params;
  if (!pool->checked || !P)
    return AMP_SUCCESS;
  char nbuf[64];
  const char *pname = amp__view_param_name(P[p].name, nbuf, sizeof nbuf);
  if (p + 2 >= pool->nparams || P[p + 2].address != CL_KERNEL_ARG_ADDRESS_GLOBAL ||
      strcmp(P[p + 2].type, "int*") != 0)
    AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
              "parallel_for_each(%s): argument %zu is a view, but parameter '%s' lacks the third "
              "parameter that debug mode (AMP_DEBUG) gives a view; declare it with AMP_VIEW(T, "
              "name) or AMP_CONST_VIEW(T, name), not by hand",
              pool->name, arg, pname);
fail:
  return status;
}

amp_status amp__debug_begin(amp__launch_debug *d, amp_accelerator *acc, const amp_launch *launch,
                            const amp__kernel_pool *pool, cl_kernel k) {
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  void *zeros = NULL;
  /* the dummy element must hold the largest element of any view, rounded up to 128 bytes so that
   * every vector type is aligned */
  size_t elem = 0;
  for (size_t i = 0; i < launch->nargs; i++)
    if (launch->args[i].kind == AMP_ARG_VIEW && launch->args[i].u.view->type.size > elem)
      elem = launch->args[i].u.view->type.size;
  if (elem > ((size_t)1 << 20))
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): debug mode cannot check views of %zu-byte elements (its "
              "dummy element holds at most 1 MiB)",
              pool->name, elem);
  size_t bytes = REC_DUMMY_BYTES + (elem + 127) / 128 * 128;
  AMP__TRY(amp__context(acc, &ctx));
  if (!(zeros = calloc(1, bytes)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "parallel_for_each(%s): out of memory", pool->name);
  cl_int err = CL_SUCCESS;
  d->record = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, zeros, &err);
  AMP__CL(err, "clCreateBuffer (debug mode's record)");
  cl_uint p = 0;
  for (size_t i = 0; i < launch->nargs; i++) {
    if (launch->args[i].kind == AMP_ARG_VIEW)
      AMP__CL(clSetKernelArg(k, p + 2, sizeof d->record, &d->record),
              "clSetKernelArg (debug mode's record)");
    p += amp__arg_params(pool, launch->args[i].kind);
  }
fail:
  free(zeros);
  return status;
}

/* "[a, b, c]" of the first n ints of v. */
static void format_index(char *buf, size_t cap, const cl_int *v, int n) {
  size_t o = (size_t)snprintf(buf, cap, "[");
  for (int d = 0; d < n && o < cap; d++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%d", d ? ", " : "", (int)v[d]);
  if (o < cap)
    snprintf(buf + o, cap - o, "]");
}

amp_status amp__debug_end(amp__launch_debug *d, const amp_accelerator *acc, cl_command_queue q,
                          const amp_launch *launch, const amp__kernel_pool *pool) {
  amp_status status = AMP_SUCCESS;
  cl_int rec[REC_INTS];
  amp__traced tr = amp__trace_start();
  AMP__CL(
      clEnqueueReadBuffer(q, d->record, CL_TRUE, 0, sizeof rec, rec, 0, NULL, amp__trace_ev(&tr)),
      "clEnqueueReadBuffer (debug mode's record: the kernel may have failed)");
  amp__trace_end(&tr, acc, q, "read (debug record)", sizeof rec, "AMP_DEBUG's record");
  if (!rec[REC_SEEN])
    return AMP_SUCCESS;
  unsigned long long count =
      ((unsigned long long)(cl_uint)rec[REC_COUNT_HI] << 32) | (cl_uint)rec[REC_COUNT_LO];
  size_t arg = (size_t)rec[REC_VIEW];
  const amp_array_view *v = arg < launch->nargs && launch->args[arg].kind == AMP_ARG_VIEW
                                ? launch->args[arg].u.view
                                : NULL;
  /* the view's name: its parameter's, without "_data" */
  char nbuf[64] = "?";
  const char *name = nbuf;
  cl_uint p = 0;
  for (size_t i = 0; i < launch->nargs && i < arg; i++)
    p += amp__arg_params(pool, launch->args[i].kind);
  if (pool->params && p < pool->nparams)
    name = amp__view_param_name(pool->params[p].name, nbuf, sizeof nbuf);
  int nidx = rec[REC_NIDX] < 1 ? 1 : rec[REC_NIDX] > 3 ? 3 : rec[REC_NIDX];
  int dims = rec[REC_DIMS] < 1 ? 1 : rec[REC_DIMS] > 3 ? 3 : rec[REC_DIMS];
  char idx[64], ext[64] = "?", gid[64], where[160] = "";
  format_index(idx, sizeof idx, &rec[REC_IDX], nidx);
  format_index(gid, sizeof gid, &rec[REC_GLOBAL], dims);
  if (v) {
    cl_int e[AMP_MAX_RANK];
    for (int k = 0; k < v->extent.rank; k++)
      e[k] = v->extent.dim[k];
    format_index(ext, sizeof ext, e, v->extent.rank);
  }
  if (launch->tiled) {
    cl_int tile[AMP_MAX_RANK];
    char tbuf[64], lbuf[64];
    for (int k = 0; k < dims; k++)
      tile[k] = launch->tile[k] > 0 ? rec[REC_GLOBAL + k] / launch->tile[k] : 0;
    format_index(tbuf, sizeof tbuf, tile, dims);
    format_index(lbuf, sizeof lbuf, &rec[REC_LOCAL], dims);
    snprintf(where, sizeof where, " (tile %s, local %s)", tbuf, lbuf);
  }
  char rank_note[96] = "";
  if (v && nidx != v->extent.rank)
    snprintf(rank_note, sizeof rank_note, " (%d index%s for a rank-%d view)", nidx,
             nidx == 1 ? "" : "es", v->extent.rank);
  AMP__FAIL(AMP_ERROR_OUT_OF_RANGE,
            "parallel_for_each(%s): out-of-bounds access to view '%s' (argument %zu, extent %s): "
            "index %s%s at line %d of the kernel source, by work item %s%s; %llu bad access%s "
            "in all. Debug mode sent them to a dummy element, so no memory outside the views "
            "changed, but the kernel's results are not to be trusted",
            pool->name, name, arg, ext, idx, rank_note, (int)rec[REC_LINE], gid, where, count,
            count == 1 ? "" : "es");
fail:
  return status;
}

void amp__debug_release(amp__launch_debug *d) {
  if (d->record)
    clReleaseMemObject(d->record);
  d->record = NULL;
}
