/* runtime/exec/debug_poison.c: debug mode's check of discarded data after a kernel
 * (launch_debug.h).
 *
 * A launch in debug mode has acquire fill every part of its views that is valid nowhere (discarded
 * with amp_array_view_discard_data) with the poison of data/poison.c. Once the kernel has ended,
 * the parts of the views it wrote are read back here: an element still holding the poison, or a
 * NaN made from it, was read before it was written (tmp[i] += ...) or never written, and the
 * launch fails naming the view's argument, its parameter and the element's index. This reads
 * only the poisoned parts, in slices, and only in debug mode.
 *
 * "A NaN made from it" needs arithmetic that keeps a NaN's payload, which IEEE 754 recommends but
 * not every device does (NVIDIA's fp32 returns its canonical NaN). So each accelerator is asked
 * once, with a kernel that adds 1 to the poison: where the payload is lost, any NaN left in a
 * poisoned float or double element counts, and the report says so. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cl_probe.h"
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

/* Whether q's device keeps the poison's payload through an addition, in float (dbl 0) or double:
 * 1 or -1, measured once per accelerator. Where the question itself fails, 1: only the exact
 * poison counts, as on a device that keeps payloads. */
static int measure_payload(amp_accelerator_view *q, int dbl) {
  static const char *const src[2] = {
      "__kernel void k(__global float *a) { a[1] = a[0] + 1.0f; }\n",
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "__kernel void k(__global double *a) { a[1] = a[0] + 1.0; }\n"};
  const size_t size = dbl ? 8 : 4, one = 1;
  unsigned char a[16];
  amp__poison_fill_host(a, sizeof a, size);
  amp__cl_probe p;
  int ok = amp__cl_probe_begin(q->acc, src[dbl], "", "k", 0, &p) == 0;
  cl_mem m =
      ok ? amp__cl_probe_buffer(&p, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 2 * size, a) : NULL;
  ok =
      m && clSetKernelArg(p.kernel, 0, sizeof m, &m) == CL_SUCCESS &&
      clEnqueueNDRangeKernel(p.queue, p.kernel, 1, NULL, &one, NULL, 0, NULL, NULL) == CL_SUCCESS &&
      clEnqueueReadBuffer(p.queue, m, CL_TRUE, 0, 2 * size, a, 0, NULL, NULL) == CL_SUCCESS;
  amp__cl_probe_end(&p);
  return !ok || amp__is_poison(a + size, size) ? 1 : -1;
}

/* Whether a NaN without the poison's payload in an element of kind `type` counts as the poison
 * here: a float or double element on a device that loses payloads. */
static int any_nan_counts(amp_accelerator_view *q, amp_elem_type type) {
  int dbl = type.kind == AMP_ELEM_DOUBLE;
  if (!(type.kind == AMP_ELEM_FLOAT && type.size == 4) && !(dbl && type.size == 8))
    return 0;
  int known = atomic_load(&q->acc->nan_payload[dbl]);
  if (!known) { /* two threads may both measure; they store the same answer */
    known = measure_payload(q, dbl);
    atomic_store(&q->acc->nan_payload[dbl], known);
  }
  return known < 0;
}

static int is_nan(const unsigned char *e, size_t size) {
  if (size == 4) {
    uint32_t b;
    memcpy(&b, e, 4);
    return (b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu);
  }
  uint64_t b;
  memcpy(&b, e, 8);
  return (b & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (b & 0x000FFFFFFFFFFFFFull);
}

/* The first byte offset in [lo, hi) of buf whose element holds the poison (or, with any_nan, any
 * NaN), or hi. */
static amp_status first_poisoned(cl_command_queue q, cl_mem buf, size_t lo, size_t hi, size_t size,
                                 int any_nan, unsigned char *tmp, size_t *at) {
  amp_status status = AMP_SUCCESS;
  *at = hi;
  size_t step = SLICE / size * size;
  for (size_t o = lo; o < hi && *at == hi; o += step) {
    size_t n = hi - o < step ? hi - o : step;
    AMP__CL(clEnqueueReadBuffer(q, buf, CL_TRUE, o, n, tmp, 0, NULL, NULL),
            "clEnqueueReadBuffer (debug mode's check of discarded data)");
    for (size_t e = 0; e + size <= n; e += size)
      if (amp__is_poison(tmp + e, size) || (any_nan && is_nan(tmp + e, size))) {
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

/* " (first found by line 12 of <file> at element [3])" for each line the kernel record noted an
 * access on to an element of argument i that still holds the poison, or "". */
static void culprit_lines(cl_command_queue q, cl_mem buf, const amp__launch_table *t,
                          const amp__launch_debug *d, size_t i, const amp__use *u, int any_nan,
                          char *out, size_t cap) {
  size_t o = 0, size = u->view->type.size, found = 0;
  out[0] = '\0';
  for (int s = 0; s < AMP__POISON_LINES; s++) {
    const cl_int *slot = d->poison[s];
    unsigned char e[64];
    if (!slot[0] || (size_t)slot[1] != i || slot[2] < 0 || size > sizeof e ||
        clEnqueueReadBuffer(q, buf, CL_TRUE, (size_t)slot[2] * size, size, e, 0, NULL, NULL) !=
            CL_SUCCESS ||
        !(amp__is_poison(e, size) || (any_nan && is_nan(e, size))))
      continue;
    char idx[96];
    index_text(u->view, (size_t)slot[2] * size, idx, sizeof idx);
    if (o < cap)
      o += (size_t)snprintf(out + o, cap - o, "%s line %d at element %s",
                            found++ ? "," : "; found by", (int)slot[0], idx);
  }
  if (found && o < cap)
    snprintf(out + o, cap - o, " of %s", t->launch->kernel->program->label);
}

static amp_status report(const amp__launch_table *t, const amp__use *u, size_t at, int any_nan,
                         const char *lines) {
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
      "or never wrote it%s%s. Discarded data are undefined: do not discard a view the kernel reads "
      "or writes only in part",
      t->pool->name, i, pname, idx, pname,
      any_nan ? " (this device's arithmetic does not keep a NaN's payload, so any NaN there "
                "counts: a NaN the kernel computed itself looks the same)"
              : "",
      lines);
}

amp_status amp__debug_poison_check(amp_accelerator_view *q, const amp__launch_table *t,
                                   const amp__launch_debug *d, const amp__use *uses, size_t n) {
  amp_status status = AMP_SUCCESS;
  unsigned char *tmp = NULL;
  for (size_t k = 0; k < n; k++) {
    const amp__use *u = &uses[k];
    if (!u->write || !u->poisoned.n || !u->view->type.size)
      continue;
    if (!tmp && !(tmp = malloc(SLICE)))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    cl_mem buf = amp__view_buffer(u->view, q->acc);
    int any_nan = any_nan_counts(q, u->view->type);
    for (size_t r = 0; r < u->poisoned.n; r++) {
      size_t at = 0, hi = u->poisoned.r[r].hi;
      AMP__TRY(first_poisoned(q->queue, buf, u->poisoned.r[r].lo, hi, u->view->type.size, any_nan,
                              tmp, &at));
      if (at < hi) {
        char lines[400];
        culprit_lines(q->queue, buf, t, d, arg_of(t, u), u, any_nan, lines, sizeof lines);
        AMP__TRY(report(t, u, at, any_nan, lines));
      }
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
