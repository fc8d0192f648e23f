/* runtime/exec/launch_assert.c: amp_assert's record (launch_assert.h,
 * kernels_cl/prelude/ampcl_assert.h).
 *
 * The record is ints: [0] failed asserts, [1] the number of line slots, [2 + line] the smallest
 * linear index (AMP order) of a work item that failed at that line, 0xffffffff for none. The
 * report is the smallest index over all lines (the smallest line on a tie), so it does not
 * depend on which work item ran first. The condition's text is read from the user's source at
 * that line. */
#include "exec/launch_assert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace_impl.h"

enum { REC_COUNT = 0, REC_SLOTS = 1, REC_LINES = 2 };

/* One slot per line of the source, and one for lines past it (an #include'd file's). */
static cl_int line_slots(const char *src) {
  cl_int n = 2;
  for (; *src && n < (1 << 20); src++)
    n += *src == '\n';
  return n;
}

amp_status amp__assert_begin(amp__launch_assert *a, const amp__launch_table *t, cl_kernel k) {
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  a->slots = line_slots(t->launch->kernel->program->source);
  size_t n = REC_LINES + (size_t)a->slots;
  cl_int *init = malloc(n * sizeof *init);
  if (!init)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "parallel_for_each(%s): out of memory", t->pool->name);
  init[REC_COUNT] = 0;
  init[REC_SLOTS] = a->slots;
  memset(init + REC_LINES, 0xff, (size_t)a->slots * sizeof *init);
  AMP__TRY(amp__context(t->acc, &ctx));
  cl_int err = CL_SUCCESS;
  a->record =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *init, init, &err);
  AMP__CL(err, "clCreateBuffer (amp_assert's record)");
  AMP__CL(clSetKernelArg(k, t->pool->nparams - 1, sizeof a->record, &a->record),
          "clSetKernelArg (amp_assert's record, AMP_ASSERTS)");
fail:
  free(init);
  return status;
}

/* The condition of the first amp_assert( on line `line` (1-based) of src, balanced parentheses,
 * into buf; "?" if none is found there. */
static void condition_at(const char *src, int line, char *buf, size_t cap) {
  snprintf(buf, cap, "?");
  for (int l = 1; src && l < line; l++)
    if (!(src = strchr(src, '\n')) || !*++src)
      return;
  const char *end = src ? strchr(src, '\n') : NULL;
  const char *at = src ? strstr(src, "amp_assert(") : NULL;
  if (!at || (end && at > end))
    return;
  at += strlen("amp_assert(");
  int depth = 1;
  size_t o = 0;
  for (const char *c = at; *c && o + 1 < cap; c++) {
    depth += (*c == '(') - (*c == ')');
    if (depth == 0)
      break;
    if (*c == '\n' || *c == '\t') {
      if (o && buf[o - 1] != ' ')
        buf[o++] = ' ';
      continue;
    }
    buf[o++] = *c;
  }
  buf[o] = '\0';
}

amp_status amp__assert_end(amp__launch_assert *a, cl_command_queue q, const amp__launch_table *t) {
  amp_status status = AMP_SUCCESS;
  const amp_launch *l = t->launch;
  cl_int *rec = NULL, head[REC_LINES];
  amp__traced tr = amp__trace_start();
  AMP__CL(
      clEnqueueReadBuffer(q, a->record, CL_TRUE, 0, sizeof head, head, 0, NULL, amp__trace_ev(&tr)),
      "clEnqueueReadBuffer (amp_assert's record: the kernel may have failed)");
  amp__trace_end(&tr, t->acc, q, "read (assert record)", sizeof head, "amp_assert's record");
  if (!head[REC_COUNT])
    return AMP_SUCCESS;
  if (!(rec = malloc((size_t)a->slots * sizeof *rec)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "parallel_for_each(%s): out of memory", t->pool->name);
  AMP__CL(clEnqueueReadBuffer(q, a->record, CL_TRUE, REC_LINES * sizeof *rec,
                              (size_t)a->slots * sizeof *rec, rec, 0, NULL, NULL),
          "clEnqueueReadBuffer (amp_assert's record)");
  int line = -1;
  cl_uint first = 0xffffffffu;
  for (cl_int s = 0; s < a->slots; s++)
    if ((cl_uint)rec[s] < first || (line < 0 && (cl_uint)rec[s] != 0xffffffffu)) {
      first = (cl_uint)rec[s];
      line = s;
    }
  /* the work item, AMP order: the last dimension varies fastest */
  const amp_extent e = l->domain;
  long long idx[AMP_MAX_RANK] = {0};
  unsigned long long rest = first;
  for (int d = e.rank - 1; d >= 0; d--) {
    idx[d] = (long long)(rest % (unsigned long long)e.dim[d]);
    rest /= (unsigned long long)e.dim[d];
  }
  char item[96];
  int o = snprintf(item, sizeof item, "(");
  for (int d = 0; d < e.rank && o > 0 && (size_t)o < sizeof item; d++)
    o += snprintf(item + o, sizeof item - (size_t)o, "%s%lld", d ? ", " : "", idx[d]);
  if (o > 0 && (size_t)o < sizeof item)
    snprintf(item + o, sizeof item - (size_t)o, ")");
  char cond[256], where[32] = "?";
  const amp_program *p = l->kernel->program;
  if (line >= 1 && line < a->slots - 1) {
    condition_at(p->source, line, cond, sizeof cond);
    snprintf(where, sizeof where, "%d", line);
  } else
    snprintf(cond, sizeof cond, "?"); /* a line of an #include'd file */
  unsigned count = (unsigned)head[REC_COUNT];
  AMP__FAIL(
      AMP_ERROR_ASSERT_FAILED,
      "parallel_for_each(%s): amp_assert(%s) failed in %s:%s at work item %s; %u failed "
      "assert%s in all (the first reported is the smallest work item, AMP order). The kernel "
      "ran to its end: the views it writes hold its results on the accelerator, and the host's "
      "copies are unchanged until a synchronize",
      t->pool->name, cond, p->label, where, item, count, count == 1 ? "" : "s");
fail:
  free(rec);
  return status;
}

void amp__assert_release(amp__launch_assert *a) {
  if (a->record)
    clReleaseMemObject(a->record);
  a->record = NULL;
}
