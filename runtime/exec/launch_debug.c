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
#include "exec/arg_mismatch.h"

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
  REC_SLOTS = 16,  /* robust mode: the dummy's slots, and their bytes */
  REC_SLOT_BYTES = 17,
  REC_BAD_VIEWS = 18, /* 2 ints: bit p set when the view at argument position p was misused */
  REC_POISON = 20,    /* AMP__POISON_LINES slots of 3 ints: line, view position, element offset */
  REC_INTS = 32,
  REC_DUMMY_BYTES = 128 /* the dummy element starts here (AMP__DEBUG_DUMMY ints) */
};

amp_status amp__debug_check_record(const amp__kernel_pool *pool, const amp__user_param *u,
                                   size_t arg) {
  amp_status status = AMP_SUCCESS;
  const amp__param *P = pool->params;
  if (!pool->checked || !P || !u->decl || !u->decl->debug_record)
    return AMP_SUCCESS;
  char nbuf[64];
  const char *pname = amp__strip_suffix(P[u->first].name, u->decl->name_suffix, nbuf, sizeof nbuf);
  cl_uint r = u->first + u->decl->params; /* the record's parameter */
  if (r >= pool->nparams || P[r].address != CL_KERNEL_ARG_ADDRESS_GLOBAL ||
      strcmp(P[r].type, "int*") != 0)
    AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
              "parallel_for_each(%s): argument %zu is a view, but parameter '%s' lacks the third "
              "parameter that debug mode (AMP_DEBUG) gives a view; declare it with AMP_VIEW(T, "
              "name) or AMP_CONST_VIEW(T, name), not by hand",
              pool->name, arg, pname);
fail:
  return status;
}

/* The view argument i passes to a parameter with a debug record, or NULL. */
static const amp_array_view *checked_view(const amp__launch_table *t, size_t i) {
  const amp__arg_kind *kind = t->arg[i].kind;
  return kind->debug_record && kind->view ? kind->view(&t->launch->args[i]) : NULL;
}

amp_status amp__debug_begin(amp__launch_debug *d, const amp__launch_table *t, cl_kernel k) {
  amp_status status = AMP_SUCCESS;
  const amp__kernel_pool *pool = t->pool;
  cl_context ctx;
  void *zeros = NULL;
  /* the dummy element must hold the largest element of any view, rounded up to 128 bytes so that
   * every vector type is aligned */
  size_t elem = 0;
  for (size_t i = 0; i < t->launch->nargs; i++)
    if (checked_view(t, i) && checked_view(t, i)->type.size > elem)
      elem = checked_view(t, i)->type.size;
  if (elem > ((size_t)1 << 20))
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): debug mode cannot check views of %zu-byte elements (its "
              "dummy element holds at most 1 MiB)",
              pool->name, elem);
  /* Debug mode: one dummy. Robust mode: a slot per work item, so that a bad read gives 0 whatever
   * others write (up to 4 MiB of slots; beyond, work items share them round robin). A slot is
   * the element's size rounded up to a power of two, the largest alignment its type can have. */
  size_t slot = 128, slots = 1;
  if (pool->checked == AMP__CHECKED_ROBUST) {
    for (slot = 4; slot < elem; slot *= 2)
      ;
    size_t items = amp_extent_size(t->launch->domain);
    slots = items < ((size_t)4 << 20) / slot ? items : ((size_t)4 << 20) / slot;
    slots = slots ? slots : 1;
  } else {
    slot = (elem + 127) / 128 * 128;
  }
  size_t bytes = REC_DUMMY_BYTES + slots * slot; /* at most 4 MiB + 1 MiB: no overflow */
  AMP__TRY(amp__context(t->acc, &ctx));
  if (!(zeros = calloc(1, bytes)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "parallel_for_each(%s): out of memory", pool->name);
  ((cl_int *)zeros)[REC_SLOTS] = (cl_int)slots;
  ((cl_int *)zeros)[REC_SLOT_BYTES] = (cl_int)slot;
  cl_int err = CL_SUCCESS;
  d->record = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, zeros, &err);
  AMP__CL(err, "clCreateBuffer (debug mode's record)");
  for (size_t i = 0; i < t->launch->nargs; i++)
    if (t->arg[i].kind->debug_record)
      AMP__CL(
          clSetKernelArg(k, t->arg[i].first + t->arg[i].kind->params, sizeof d->record, &d->record),
          "clSetKernelArg (debug mode's record)");
fail:
  free(zeros);
  return status;
}

/* The name of the view at argument position arg: its parameter's, without "_data". */
static const char *view_name(const amp__launch_table *t, size_t arg, char *buf, size_t cap) {
  const amp__kernel_pool *pool = t->pool;
  snprintf(buf, cap, "?");
  if (arg < t->launch->nargs && pool->params && t->arg[arg].first < pool->nparams)
    return amp__strip_suffix(pool->params[t->arg[arg].first].name, t->arg[arg].kind->name_suffix,
                             buf, cap);
  return buf;
}

/* ", and also views 'b' (argument 2), ..." for every other view the record marks as misused. */
static void other_views(const amp__launch_table *t, const cl_int *rec, size_t first, char *buf,
                        size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (size_t arg = 0; arg < t->launch->nargs && arg < 64 && o < cap; arg++) {
    if (arg == first || !((cl_uint)rec[REC_BAD_VIEWS + arg / 32] >> (arg % 32) & 1u))
      continue;
    char nbuf[64];
    o += (size_t)snprintf(buf + o, cap - o, "%s'%s' (argument %zu)",
                          o ? ", " : "; bad accesses to views ",
                          view_name(t, arg, nbuf, sizeof nbuf), arg);
  }
  if (o)
    snprintf(buf + (o < cap ? o : cap - 1), o < cap ? cap - o : 1, " too");
}

/* "[a, b, c]" of the first n ints of v. */
static void format_index(char *buf, size_t cap, const cl_int *v, int n) {
  size_t o = (size_t)snprintf(buf, cap, "[");
  for (int d = 0; d < n && o < cap; d++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%d", d ? ", " : "", (int)v[d]);
  if (o < cap)
    snprintf(buf + o, cap - o, "]");
}

amp_status amp__debug_end(amp__launch_debug *d, cl_command_queue q, const amp__launch_table *t) {
  amp_status status = AMP_SUCCESS;
  const amp_launch *launch = t->launch;
  const amp__kernel_pool *pool = t->pool;
  const amp_accelerator *acc = t->acc;
  cl_int rec[REC_INTS];
  amp__traced tr = amp__trace_start();
  AMP__CL(
      clEnqueueReadBuffer(q, d->record, CL_TRUE, 0, sizeof rec, rec, 0, NULL, amp__trace_ev(&tr)),
      "clEnqueueReadBuffer (debug mode's record: the kernel may have failed)");
  amp__trace_end(&tr, acc, q, "read (debug record)", sizeof rec, "AMP_DEBUG's record");
  memcpy(d->poison, &rec[REC_POISON], sizeof d->poison);
  if (!rec[REC_SEEN])
    return AMP_SUCCESS;
  unsigned long long count =
      ((unsigned long long)(cl_uint)rec[REC_COUNT_HI] << 32) | (cl_uint)rec[REC_COUNT_LO];
  size_t arg = (size_t)rec[REC_VIEW];
  const amp_array_view *v = arg < launch->nargs ? checked_view(t, arg) : NULL;
  char nbuf[64], others[512];
  const char *name = view_name(t, arg, nbuf, sizeof nbuf);
  other_views(t, rec, arg, others, sizeof others);
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
            "index %s%s at line %d of %s, by work item %s%s; %llu bad access%s in all%s. Debug "
            "mode sent them to a dummy element, so no memory outside the views changed, but the "
            "kernel's results are not to be trusted",
            pool->name, name, arg, ext, idx, rank_note, (int)rec[REC_LINE],
            launch->kernel->program->label, gid, where, count, count == 1 ? "" : "es", others);
fail:
  return status;
}

void amp__debug_release(amp__launch_debug *d) {
  if (d->record)
    clReleaseMemObject(d->record);
  d->record = NULL;
}
