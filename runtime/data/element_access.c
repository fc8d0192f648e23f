/* runtime/data/element_access.c: host access to one element of a view or an array of any rank
 * (AMP's av(i, j) and av[idx] on the host, which synchronise what they touch).
 *
 * The element is a view of its own for the coherence protocol: a view struct on the stack (never
 * a handle: an element loop must not use up handles) with the parent's source, strides and type,
 * the element's offset and an extent of ones. Reading makes its bytes valid in host memory, copying
 * in only those bytes from wherever the latest contents are; writing does the same, then marks
 * every accelerator's copy of those bytes stale, as a host write through amp_array_view_data
 * does, so the next use on an accelerator copies the new value in. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ampcl/array.h"
#include "core/trace_impl.h"
#include "data/array_impl.h"
#include "data/source.h"

/* "[3, 5]" or "[6, 9]": an index or an extent in AMP order. */
static void dims_text(int rank, const int *d, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < rank && o + 1 < cap; i++) {
    int w = snprintf(buf + o, cap - o, "%s%d", i ? ", " : "[", d[i]);
    if (w < 0)
      return;
    o += (size_t)w;
  }
  if (o + 2 < cap)
    memcpy(buf + o, "]", 2);
}

/* The element of v at index, as a view of one element. */
static amp_status element_of(const amp_array_view *v, amp_index index, const char *fn,
                             amp_array_view *one) {
  amp_status status = AMP_SUCCESS;
  const amp_extent e = v->extent;
  if (index.rank != e.rank)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH, "%s: the index has rank %d but the view has rank %d", fn,
              index.rank, e.rank);
  for (int d = 0; d < e.rank; d++)
    if (index.i[d] < 0 || index.i[d] >= e.dim[d]) {
      char it[48], et[48];
      dims_text(index.rank, index.i, it, sizeof it);
      dims_text(e.rank, e.dim, et, sizeof et);
      AMP__FAIL(AMP_ERROR_OUT_OF_RANGE,
                "%s: index %s is outside the view's extent %s (dimension %d: %d is not in [0, %d))",
                fn, it, et, d, index.i[d], e.dim[d]);
    }
  memset(one, 0, sizeof *one);
  one->src = v->src;
  one->type = v->type;
  one->read_only = v->read_only;
  one->offset = v->offset;
  one->extent.rank = e.rank;
  for (int d = 0; d < AMP_MAX_RANK; d++) {
    one->stride[d] = v->stride[d];
    one->extent.dim[d] = 1;
    if (d < e.rank)
      one->offset += (size_t)index.i[d] * v->stride[d];
  }
fail:
  return status;
}

/* Reads (write 0) or writes (write 1) the element at index of v, through buf. */
static amp_status host_access(amp_array_view *v, amp_index index, void *buf, int write,
                              const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_array_view one;
  const char *prev_reason =
      amp__trace_reason(write ? "host write of one element" : "host read of one element");
  if (!buf)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, write ? "value" : "out");
  if (write && v->read_only)
    AMP__FAIL(AMP_ERROR_ACCESS_DENIED, "%s: the view is read-only; its elements cannot be set", fn);
  AMP__TRY(element_of(v, index, fn, &one));
  AMP__TRY(amp__source_to_host(&one, write));
  unsigned char *at = one.src->host + one.offset * one.type.size;
  if (write)
    memcpy(at, buf, one.type.size);
  else
    memcpy(buf, at, one.type.size);
fail:
  amp__trace_reason(prev_reason);
  return status;
}

amp_status amp_array_view_get(amp_array_view *view, amp_index index, void *out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  status = host_access(view, index, out, 0, __func__);
fail:
  return status;
}

amp_status amp_array_view_set(amp_array_view *view, amp_index index, const void *value) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  status = host_access(view, index, (void *)(uintptr_t)value, 1, __func__);
fail:
  return status;
}

amp_status amp_array_get(amp_array *array, amp_index index, void *out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(array, AMP__MAGIC_ARRAY, "array");
  status = host_access(array->whole, index, out, 0, __func__);
fail:
  return status;
}

amp_status amp_array_set(amp_array *array, amp_index index, const void *value) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(array, AMP__MAGIC_ARRAY, "array");
  status = host_access(array->whole, index, (void *)(uintptr_t)value, 1, __func__);
fail:
  return status;
}
