/* runtime/array_view.c: the public array_view calls (AMP §5.2). The protocol is in source.c. */
#include <stdint.h>
#include <stdlib.h>

#include "source.h"

static amp_status check_type(amp_elem_type t, const char *fn) {
  if (t.kind < AMP_ELEM_INT32 || t.kind > AMP_ELEM_STRUCT)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT, "%s: element kind %d is not an amp_elem_kind",
                          fn, (int)t.kind);
  if (t.size == 0)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT, "%s: element size is 0", fn);
  return AMP_SUCCESS;
}

static amp_status create(amp_extent extent, amp_elem_type type, void *data, int readonly,
                         const char *fn, amp_array_view **out) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *v = NULL;
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
  if (!data)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: data is NULL", fn);
  if (!amp_extent_is_valid(extent))
    AMP__FAIL(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
              "%s: extent of rank %d with dimensions %d x %d x %d is not valid (rank 1..3, every "
              "dimension > 0)",
              fn, extent.rank, extent.dim[0], extent.dim[1], extent.dim[2]);
  AMP__TRY(check_type(type, fn));
  size_t n = amp_extent_size(extent);
  if (n > SIZE_MAX / type.size || n > (size_t)INT32_MAX)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%s: %zu elements is more than a view can index (2^31-1)",
              fn, n);
  v = calloc(1, sizeof *v);
  if (!v)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
  AMP__TRY(amp__source_create(n * type.size, data, readonly, &v->src));
  v->magic = AMP__MAGIC_ARRAY_VIEW;
  v->refs = 1;
  v->type = type;
  v->extent = extent;
  v->read_only = readonly;
  v->offset = 0;
  /* row-major strides: the last dimension is contiguous */
  v->stride[extent.rank - 1] = 1;
  for (int d = extent.rank - 2; d >= 0; d--)
    v->stride[d] = v->stride[d + 1] * (size_t)extent.dim[d + 1];
  *out = v;
  return AMP_SUCCESS;
fail:
  free(v);
  return status;
}

amp_status amp_array_view_create(amp_extent extent, amp_elem_type type, void *data,
                                 amp_array_view **out) {
  return create(extent, type, data, 0, "amp_array_view_create", out);
}

amp_status amp_array_view_create_const(amp_extent extent, amp_elem_type type, const void *data,
                                       amp_array_view **out) {
  /* The cast is safe: a read-only source is never written (source.c never copies back to it). */
  return create(extent, type, (void *)(uintptr_t)data, 1, "amp_array_view_create_const", out);
}

amp_status amp_array_view_retain(amp_array_view *view) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  atomic_fetch_add(&view->refs, 1);
fail:
  return status;
}

amp_status amp_array_view_release(amp_array_view *view) {
  amp_status status = AMP_SUCCESS;
  if (!view)
    return AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  if (atomic_fetch_sub(&view->refs, 1) == 1) {
    amp__source *s = view->src;
    amp__handle_retire(view);
    AMP__TRY(amp__source_release(s));
  }
fail:
  return status;
}

amp_status amp_array_view_get_extent(const amp_array_view *view, amp_extent *out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_get_extent: out is NULL");
  *out = view->extent;
fail:
  return status;
}

amp_status amp_array_view_get_elem_type(const amp_array_view *view, amp_elem_type *out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_get_elem_type: out is NULL");
  *out = view->type;
fail:
  return status;
}

amp_status amp_array_view_is_read_only(const amp_array_view *view, bool *out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_is_read_only: out is NULL");
  *out = view->read_only != 0;
fail:
  return status;
}

amp_status amp_array_view_discard_data(amp_array_view *view) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  if (view->read_only)
    AMP__FAIL(AMP_ERROR_ACCESS_DENIED,
              "amp_array_view_discard_data: the view is read-only; its data cannot be discarded");
  AMP__TRY(amp__source_invalidate(view, 1));
fail:
  return status;
}

amp_status amp_array_view_synchronize(amp_array_view *view) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  AMP__TRY(amp__source_to_host(view, 0));
fail:
  return status;
}

amp_status amp_array_view_data(amp_array_view *view, void **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_data: out is NULL");
  AMP__TRY(amp__source_to_host(view, !view->read_only));
  *out = view->src->host + view->offset * view->type.size;
fail:
  return status;
}

amp_status amp_array_view_refresh(amp_array_view *view) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  AMP__TRY(amp__source_invalidate(view, 0));
fail:
  return status;
}

amp_status amp_array_view_wait(amp_array_view *view) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  AMP__TRY(amp__source_wait(view->src));
fail:
  return status;
}
