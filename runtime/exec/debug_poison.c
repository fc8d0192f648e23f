/* runtime/exec/debug_poison.c: debug mode's check of discarded data after a kernel
 * (launch_debug.h).
 *
 * A launch in debug mode has acquire fill every part of its views that is valid nowhere (discarded
 * with amp_array_view_discard_data) with the poison of data/poison.c. Once the kernel has ended,
 * the parts of the views it wrote are read back here: an element still holding the poison, or a
 * NaN made from it, was read before it was written (tmp[i] += ...) or never written, and the
 * launch fails naming the view's argument, its parameter and the element's index. This reads
 * only the poisoned parts, in slices, and only in debug mode. */
#include <stdio.h>
#include <stdlib.h>

#include "exec/arg_kinds.h"
#include "exec/arg_mismatch.h"
#include "exec/launch_debug.h"

enum { SLICE = 1 << 20 };

/* The view's index of the element at byte b of its source, as "[i][j]". */
static void index_text(const amp_array_view *v, size_t b, char *buf, size_t cap) {
  size_t rel = b / v->type.size - v->offset;
  if (v->extent.rank == 1)
    snprintf(buf, cap, "[%zu]", rel);
  else if (v->extent.rank == 2)
    snprintf(buf, cap, "[%zu][%zu]", rel / v->stride[0], rel % v->stride[0]);
  else
    snprintf(buf, cap, "[%zu][%zu][%zu]", rel / v->stride[0], rel % v->stride[0] / v->stride[1],
             rel % v->stride[1]);
}

/* The first byte offset in [lo, hi) of buf whose element holds the poison, or hi. */
static amp_status first_poisoned(cl_command_queue q, cl_mem buf, size_t lo, size_t hi, size_t size,
                                 unsigned char *tmp, size_t *at) {
  amp_status status = AMP_SUCCESS;
  *at = hi;
  size_t step = SLICE / size * size;
  for (size_t o = lo; o < hi && *at == hi; o += step) {
    size_t n = hi - o < step ? hi - o : step;
    AMP__CL(clEnqueueReadBuffer(q, buf, CL_TRUE, o, n, tmp, 0, NULL, NULL),
            "clEnqueueReadBuffer (debug mode's check of discarded data)");
    for (size_t e = 0; e + size <= n; e += size)
      if (amp__is_poison(tmp + e, size)) {
        *at = o + e;
        break;
      }
  }
fail:
  return status;
}

/* The argument passing use u's view, written, or nargs. */
static size_t arg_of(const amp__launch_table *t, const amp__use *u) {
  for (size_t i = 0; i < t->launch->nargs; i++) {
    const amp__arg_kind *kind = t->arg[i].kind;
    if (kind->view && t->arg[i].write && kind->view(&t->launch->args[i]) == u->view)
      return i;
  }
  return t->launch->nargs;
}

static amp_status report(const amp__launch_table *t, const amp__use *u, size_t at) {
  size_t i = arg_of(t, u);
  char idx[96], nbuf[64];
  index_text(u->view, at, idx, sizeof idx);
  const char *pname = "?";
  if (t->pool->params && i < t->launch->nargs)
    pname = amp__strip_suffix(t->pool->params[t->arg[i].first].name, t->arg[i].kind->name_suffix,
                              nbuf, sizeof nbuf);
  return amp__set_error(
      AMP_ERROR_INVALID_ARGUMENT,
      "parallel_for_each(%s): debug mode: argument %zu (parameter '%s') was discarded, and after "
      "the kernel its element %s still holds the poison debug mode fills discarded data with, or a "
      "NaN made from it: the kernel read the element before writing it (such as '%s[i] += ...') "
      "or never wrote it. Discarded data are undefined: do not discard a view the kernel reads "
      "or writes only in part",
      t->pool->name, i, pname, idx, pname);
}

amp_status amp__debug_poison_check(amp_accelerator_view *q, const amp__launch_table *t,
                                   const amp__use *uses, size_t n) {
  amp_status status = AMP_SUCCESS;
  unsigned char *tmp = NULL;
  for (size_t k = 0; k < n; k++) {
    const amp__use *u = &uses[k];
    if (!u->write || !u->poisoned.n || !u->view->type.size)
      continue;
    if (!tmp && !(tmp = malloc(SLICE)))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    cl_mem buf = amp__view_buffer(u->view, q->acc);
    for (size_t r = 0; r < u->poisoned.n; r++) {
      size_t at = 0, hi = u->poisoned.r[r].hi;
      AMP__TRY(
          first_poisoned(q->queue, buf, u->poisoned.r[r].lo, hi, u->view->type.size, tmp, &at));
      if (at < hi)
        AMP__TRY(report(t, u, at));
    }
  }
fail:
  free(tmp);
  return status;
}

void amp__uses_poison_free(amp__use *uses, size_t n) {
  for (size_t k = 0; k < n; k++)
    amp__rangeset_free(&uses[k].poisoned);
}
