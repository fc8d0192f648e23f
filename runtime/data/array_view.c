/* runtime/data/array_view.c: the public array_view calls (AMP §5.2). The protocol is in source.c.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/alloc_limit.h"
#include "core/trace_impl.h"
#include "data/source.h"

static amp_status check_type(amp_elem_type t, const char *fn) {
  if (t.kind < AMP_ELEM_INT32 || t.kind > AMP_ELEM_UINT64)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT, "%s: element kind %d is not an amp_elem_kind",
                          fn, (int)t.kind);
  if (t.size == 0)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT, "%s: element size is 0", fn);
  return AMP_SUCCESS;
}

/* A view with no data source gets its storage where it is first used: refuse at once a size that
 * no accelerator can allocate, rather than with an OpenCL error at the first launch. */
static amp_status check_fits_somewhere(size_t bytes, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator **list = NULL;
  size_t n = 0;
  uint64_t best = 0;
  const char *where = "";
  AMP__TRY(amp__accelerators(&list, &n));
  for (size_t i = 0; i < n; i++)
    if (amp__max_alloc(list[i]) > best) {
      best = amp__max_alloc(list[i]);
      where = list[i]->props.device_path;
    }
  if (best && bytes > best)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "%s: %zu bytes exceed the largest buffer any accelerator can allocate (%s: %llu "
              "bytes, CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
              fn, bytes, where, (unsigned long long)best);
fail:
  return status;
}

/* data may be NULL only for an empty view (no data source: the runtime allocates on first use). */
static amp_status create(amp_extent extent, amp_elem_type type, void *data, int readonly, int empty,
                         const char *fn, amp_array_view **out) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *v = NULL;
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
  if (!data && !empty)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: data is NULL (for a view with no data source, use "
              "amp_array_view_create_empty)",
              fn);
  if (!amp_extent_is_valid(extent))
    AMP__FAIL(
        AMP_ERROR_INVALID_COMPUTE_DOMAIN,
        "%s: extent of rank %d with dimensions %d x %d x %d is not valid (ampcl supports ranks "
        "1 to 3, and every dimension must be > 0)",
        fn, extent.rank, extent.dim[0], extent.dim[1], extent.dim[2]);
  AMP__TRY(check_type(type, fn));
  size_t n = amp_extent_size(extent); /* SIZE_MAX when the product overflows */
  if (n > (size_t)INT32_MAX)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "%s: an extent of %d x %d x %d (rank %d) is more elements than a view can index "
              "(2^31-1)",
              fn, extent.dim[0], extent.rank > 1 ? extent.dim[1] : 1,
              extent.rank > 2 ? extent.dim[2] : 1, extent.rank);
  if (n > SIZE_MAX / type.size)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "%s: %zu elements of %zu bytes do not fit in size_t (%zu bytes at most)", fn, n,
              type.size, (size_t)SIZE_MAX);
  if (empty)
    AMP__TRY(check_fits_somewhere(n * type.size, fn));
  v = amp__handle_alloc(sizeof *v);
  if (!v)
    AMP__TRY(amp__handle_alloc_status());
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
  amp__handle_retire(v);
  return status;
}

amp_status amp_array_view_create(amp_extent extent, amp_elem_type type, void *data,
                                 amp_array_view **out) {
  return create(extent, type, data, 0, 0, "amp_array_view_create", out);
}

amp_status amp_array_view_create_const(amp_extent extent, amp_elem_type type, const void *data,
                                       amp_array_view **out) {
  /* The cast is safe: a read-only source is never written (source.c never copies back to it). */
  return create(extent, type, (void *)(uintptr_t)data, 1, 0, "amp_array_view_create_const", out);
}

/* The last reference went: a view of a device array returns what it wrote elsewhere to the
 * array (rule 7), and the source loses a view (the last view of it frees it). */
static amp_status view_destroy(amp_array_view *view) {
  amp__source *s = view->src;
  const char *prev_reason = amp__trace_reason("copy back at the last release");
  amp_status home =
      s->home >= 0 && !view->read_only ? amp__source_sync_home(view, NULL) : AMP_SUCCESS;
  amp__handle_retire(view);
  amp_status status = amp__source_release(s);
  amp__trace_reason(prev_reason);
  return status != AMP_SUCCESS ? status : home;
}

AMP__DEFINE_REFCOUNT(amp_array_view, AMP__MAGIC_ARRAY_VIEW, "array view", view_destroy)

AMP__DEFINE_GETTER(amp_array_view_get_extent, amp_array_view, AMP__MAGIC_ARRAY_VIEW, "array view",
                   amp_extent, h->extent)

AMP__DEFINE_GETTER(amp_array_view_get_elem_type, amp_array_view, AMP__MAGIC_ARRAY_VIEW,
                   "array view", amp_elem_type, h->type)

AMP__DEFINE_GETTER(amp_array_view_is_read_only, amp_array_view, AMP__MAGIC_ARRAY_VIEW, "array view",
                   bool, h->read_only != 0)

/* discard_data (discard 1) and refresh (discard 0): copies of the view's part become stale. */
static amp_status invalidate(amp_array_view *view, int discard, const char *fn) {
  amp_status status = amp__check_handle(view, AMP__MAGIC_ARRAY_VIEW, "array view", fn);
  if (status == AMP_SUCCESS && discard && view->read_only)
    status = amp__set_error(AMP_ERROR_ACCESS_DENIED,
                            "%s: the view is read-only; its data cannot be discarded", fn);
  return status == AMP_SUCCESS ? amp__source_invalidate(view, discard) : status;
}

amp_status amp_array_view_discard_data(amp_array_view *view) {
  return invalidate(view, 1, __func__);
}

typedef enum { SYNC, SYNC_ASYNC, WAIT } sync_op;

/* synchronize, synchronize_async (its future into *out) and wait: each a host span of the trace
 * named after `fn`, whose copies the trace gives `reason`. */
static amp_status sync_or_wait(amp_array_view *view, sync_op op, amp_future **out,
                               const char *reason, const char *fn) {
  AMP__TRACE_BEGIN;
  const char *prev_reason = amp__trace_reason(reason);
  amp_status status = amp__check_handle(view, AMP__MAGIC_ARRAY_VIEW, "array view", fn);
  if (status == AMP_SUCCESS && op == SYNC_ASYNC)
    status = amp__check_out(out, fn);
  if (status == AMP_SUCCESS)
    status = op == WAIT ? amp__source_wait(view->src)
                        : amp__source_sync_home(view, op == SYNC_ASYNC ? out : NULL);
  amp__trace_reason(prev_reason);
  AMP__TRACE_END(fn);
  return status;
}

amp_status amp_array_view_synchronize(amp_array_view *view) {
  return sync_or_wait(view, SYNC, NULL, "synchronize", __func__);
}

amp_status amp_array_view_synchronize_access(amp_array_view *view, amp_access_type access) {
  amp_status status = AMP_SUCCESS;
  AMP__TRACE_BEGIN;
  const char *prev_reason = amp__trace_reason("synchronize");
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  if (access != AMP_ACCESS_READ && access != AMP_ACCESS_WRITE && access != AMP_ACCESS_READ_WRITE)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "amp_array_view_synchronize_access: access %d is not an amp_access_type",
              (int)access);
  if (access != AMP_ACCESS_READ && view->read_only)
    AMP__FAIL(AMP_ERROR_ACCESS_DENIED,
              "amp_array_view_synchronize_access: the view is read-only; only AMP_ACCESS_READ is "
              "allowed");
  if (access == AMP_ACCESS_READ)
    AMP__TRY(amp__source_sync_home(view, NULL));
  else if (access == AMP_ACCESS_READ_WRITE)
    AMP__TRY(amp__source_to_host(view, 1));
  else
    AMP__TRY(amp__source_claim_host(view));
fail:
  amp__trace_reason(prev_reason);
  AMP__TRACE_END("amp_array_view_synchronize_access");
  return status;
}

amp_status amp_array_view_synchronize_async(amp_array_view *view, amp_future **out) {
  return sync_or_wait(view, SYNC_ASYNC, out, "synchronize_async", __func__);
}

amp_status amp_array_view_synchronize_to(amp_array_view *view, amp_accelerator_view *target) {
  amp_status status = AMP_SUCCESS;
  AMP__TRACE_BEGIN;
  const char *prev_reason = amp__trace_reason("synchronize_to");
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  AMP__CHECK(target, AMP__MAGIC_VIEW, "accelerator view");
  AMP__TRY(amp__source_push(view, target));
fail:
  amp__trace_reason(prev_reason);
  AMP__TRACE_END("amp_array_view_synchronize_to");
  return status;
}

/* AMP has view_as, reinterpret_as and data() on array_views of rank 1, and on arrays of any rank:
 * here, rank-1 views, and the whole view of a device array (amp_array_view_of). */
static amp_status check_flat_rank(const amp_array_view *v, const char *fn) {
  int whole_array = v->src->home >= 0 && v->offset == 0 &&
                    amp_extent_size(v->extent) * v->type.size == v->src->bytes;
  if (v->extent.rank != 1 && !whole_array)
    return amp__set_error(AMP_ERROR_RANK_MISMATCH,
                          "%s: the view has rank %d; as in C++ AMP, only views of rank 1 (and "
                          "the whole view of an array) can be reshaped, reinterpreted or give "
                          "data(): make a rank-1 view of the data first",
                          fn, v->extent.rank);
  return AMP_SUCCESS;
}

amp_status amp_array_view_data(amp_array_view *view, void **out) {
  amp_status status = AMP_SUCCESS;
  AMP__TRACE_BEGIN;
  const char *prev_reason = amp__trace_reason("copy back for host access (data)");
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  AMP__CHECK_OUT(out);
  AMP__TRY(check_flat_rank(view, "amp_array_view_data"));
  AMP__TRY(amp__source_to_host(view, !view->read_only));
  *out = view->src->host + view->offset * view->type.size;
fail:
  amp__trace_reason(prev_reason);
  AMP__TRACE_END("amp_array_view_data");
  return status;
}

amp_status amp_array_view_refresh(amp_array_view *view) {
  return invalidate(view, 0, __func__);
}

amp_status amp_array_view_wait(amp_array_view *view) {
  return sync_or_wait(view, WAIT, NULL, "wait", __func__);
}

/* ---- views without a source, and views of views ----------------------------------------- */

amp_status amp_array_view_create_empty(amp_extent extent, amp_elem_type type,
                                       amp_array_view **out) {
  return create(extent, type, NULL, 0, 1, "amp_array_view_create_empty", out);
}

amp_status amp__array_view_create_empty(amp_extent extent, amp_elem_type type, const char *fn,
                                        amp_array_view **out) {
  return create(extent, type, NULL, 0, 1, fn, out);
}

amp_status amp__array_view_create_transient(amp_extent extent, amp_elem_type type, const char *fn,
                                            amp_array_view **out) {
  amp_status status = create(extent, type, NULL, 0, 1, fn, out);
  if (status == AMP_SUCCESS)
    (*out)->src->transient = 1;
  return status;
}

/* A new handle over the same source; the caller fills in the geometry. */
static amp_status derive(amp_array_view *from, amp_array_view **out, const char *fn) {
  (void)fn; /* the allocator records its own reason */
  amp_array_view *v = amp__handle_alloc(sizeof *v);
  if (!v)
    return amp__handle_alloc_status();
  *v = *from;
  v->refs = 1;
  amp__source_add_view(from->src);
  *out = v;
  return AMP_SUCCESS;
}

static int contiguous(const amp_array_view *v) {
  size_t expect = 1;
  for (int d = v->extent.rank - 1; d >= 0; d--) {
    if (v->stride[d] != expect)
      return 0;
    expect *= (size_t)v->extent.dim[d];
  }
  return 1;
}

/* The section of view at origin with extent, its errors naming fn. */
static amp_status section(amp_array_view *view, amp_index origin, amp_extent extent,
                          amp_array_view **out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(view, AMP__MAGIC_ARRAY_VIEW, "array view", fn));
  AMP__TRY(amp__check_out(out, fn));
  const amp_extent e = view->extent;
  if (origin.rank != e.rank || extent.rank != e.rank)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH,
              "%s: the view has rank %d but the origin has rank %d and the extent rank %d", fn,
              e.rank, origin.rank, extent.rank);
  if (!amp_extent_is_valid(extent))
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: the section's extent has a dimension <= 0", fn);
  for (int d = 0; d < e.rank; d++)
    if (origin.i[d] < 0 || extent.dim[d] > e.dim[d] - origin.i[d]) /* no int overflow */
      AMP__FAIL(AMP_ERROR_OUT_OF_RANGE,
                "%s: in dimension %d the section of %d elements from %d (ending at %lld) is "
                "outside the view's [0, %d)",
                fn, d, extent.dim[d], origin.i[d], (long long)origin.i[d] + extent.dim[d],
                e.dim[d]);
  AMP__TRY(derive(view, out, fn));
  size_t off = view->offset;
  for (int d = 0; d < e.rank; d++)
    off += (size_t)origin.i[d] * view->stride[d];
  (*out)->offset = off;
  (*out)->extent = extent;
fail:
  return status;
}

amp_status amp_array_view_section(amp_array_view *view, amp_index origin, amp_extent extent,
                                  amp_array_view **out) {
  return section(view, origin, extent, out, "amp_array_view_section");
}

amp_status amp_array_view_section_from(amp_array_view *view, amp_index origin,
                                       amp_array_view **out) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_array_view_section_from";
  AMP__TRY(AMP__CHECK_GET(view, AMP__MAGIC_ARRAY_VIEW, "array view", out));
  const amp_extent e = view->extent;
  if (origin.rank != e.rank)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH, "%s: the view has rank %d but the origin rank %d", fn,
              e.rank, origin.rank);
  amp_extent rest = e;
  for (int d = 0; d < e.rank; d++) {
    if (origin.i[d] < 0 || origin.i[d] >= e.dim[d])
      AMP__FAIL(AMP_ERROR_OUT_OF_RANGE,
                "%s: in dimension %d the origin %d is outside the view's [0, %d), so the section "
                "to the view's end would hold no element",
                fn, d, origin.i[d], e.dim[d]);
    rest.dim[d] = e.dim[d] - origin.i[d];
  }
  AMP__TRY(section(view, origin, rest, out, fn));
fail:
  return status;
}

amp_status amp_array_view_project(amp_array_view *view, int i, amp_array_view **out) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_array_view_project";
  AMP__TRY(AMP__CHECK_GET(view, AMP__MAGIC_ARRAY_VIEW, "array view", out));
  const amp_extent e = view->extent;
  if (e.rank < 2)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH, "%s: a rank-1 view has no projection (it needs rank 2 or 3)",
              fn);
  if (i < 0 || i >= e.dim[0])
    AMP__FAIL(AMP_ERROR_OUT_OF_RANGE, "%s: index %d is outside [0, %d)", fn, i, e.dim[0]);
  AMP__TRY(derive(view, out, fn));
  amp_array_view *v = *out;
  v->offset = view->offset + (size_t)i * view->stride[0];
  v->extent.rank = e.rank - 1;
  for (int d = 0; d < AMP_MAX_RANK - 1; d++) {
    v->extent.dim[d] = e.dim[d + 1];
    v->stride[d] = view->stride[d + 1];
  }
  v->extent.dim[AMP_MAX_RANK - 1] = 1;
  v->stride[AMP_MAX_RANK - 1] = 1;
fail:
  return status;
}

amp_status amp_array_view_view_as(amp_array_view *view, amp_extent extent, amp_array_view **out) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_array_view_view_as";
  AMP__TRY(AMP__CHECK_GET(view, AMP__MAGIC_ARRAY_VIEW, "array view", out));
  AMP__TRY(check_flat_rank(view, fn));
  if (!contiguous(view))
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: the view's elements are not contiguous (a section of a wider view); reshape a "
              "rank-1 or whole view",
              fn);
  if (!amp_extent_is_valid(extent))
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: the new extent is not valid", fn);
  /* AMP: the new extent may cover fewer elements (a prefix), never more */
  if (amp_extent_size(extent) > amp_extent_size(view->extent))
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH,
              "%s: the new extent has %zu elements, more than the view's %zu (fewer are allowed)",
              fn, amp_extent_size(extent), amp_extent_size(view->extent));
  AMP__TRY(derive(view, out, fn));
  amp_array_view *v = *out;
  v->extent = extent;
  v->stride[extent.rank - 1] = 1;
  for (int d = extent.rank - 2; d >= 0; d--)
    v->stride[d] = v->stride[d + 1] * (size_t)extent.dim[d + 1];
fail:
  return status;
}

amp_status amp_array_view_reinterpret_as(amp_array_view *view, amp_elem_type type,
                                         amp_array_view **out) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_array_view_reinterpret_as";
  AMP__TRY(AMP__CHECK_GET(view, AMP__MAGIC_ARRAY_VIEW, "array view", out));
  AMP__TRY(check_type(type, fn));
  AMP__TRY(check_flat_rank(view, fn));
  if (!contiguous(view))
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: the view's elements are not contiguous", fn);
  size_t bytes = amp_extent_size(view->extent) * view->type.size;
  size_t first = view->offset * view->type.size;
  if (bytes % type.size != 0 || first % type.size != 0)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: %zu bytes starting at byte %zu do not divide into elements of %zu bytes", fn,
              bytes, first, type.size);
  if (bytes / type.size > (size_t)INT32_MAX || (first + bytes) / type.size > (size_t)INT32_MAX)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "%s: as elements of %zu bytes the data are %zu elements, more than a view can index "
              "(2^31-1)",
              fn, type.size, (first + bytes) / type.size);
  AMP__TRY(derive(view, out, fn));
  amp_array_view *v = *out;
  v->type = type;
  v->offset = first / type.size;
  v->extent = amp_extent1((int)(bytes / type.size));
  v->stride[0] = 1;
fail:
  return status;
}

amp_status amp_array_view_as_const(amp_array_view *view, amp_array_view **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_ARRAY_VIEW, "array view");
  AMP__CHECK_OUT(out);
  AMP__TRY(derive(view, out, "amp_array_view_as_const"));
  (*out)->read_only = 1;
fail:
  return status;
}
