/* runtime/data/copy.c: AMP's explicit copies (AMP §5.3): amp_copy_* between host memory, views
 * and arrays, blocking, and the _async forms, which return a future. Every copy is checked whole
 * (shapes, types, byte counts) before a byte moves. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ampcl/array.h"
#include "core/trace_impl.h"
#include "data/array_impl.h"
#include "data/elem_names.h"
#include "data/source.h"

/* ---- explicit copies ------------------------------------------------------------------------ */

static amp_status check_bytes(const amp_array *a, size_t bytes, const char *fn) {
  size_t have = a->whole->src->bytes;
  if (bytes != have)
    return amp__set_error(AMP_ERROR_EXTENT_MISMATCH,
                          "%s: %zu bytes given, but the array holds %zu bytes", fn, bytes, have);
  return AMP_SUCCESS;
}

/* Between host memory (`host`, `bytes` long) and the whole array: into it (to_array) or out of it.
 * `fn` names the public call in errors. */
static amp_status array_host_copy(amp_array *a, void *host, size_t bytes, int to_array,
                                  amp_future **fut, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(a, AMP__MAGIC_ARRAY, "array", fn));
  if (!host)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, to_array ? "src" : "dst");
  AMP__TRY(check_bytes(a, bytes, fn));
  /* on the array's own view, as AMP's copies to and from an array run on its accelerator_view */
  AMP__TRY(to_array ? amp__source_write_home(a->whole->src, a->view, host, fut)
                    : amp__source_read_home(a->whole->src, a->view, host, fut));
fail:
  return status;
}

/* The caller's source memory is only read (a copy into the array). */
static amp_status copy_in(const void *src, size_t bytes, amp_array *dst, amp_future **fut,
                          const char *fn) {
  return array_host_copy(dst, (void *)(uintptr_t)src, bytes, 1, fut, fn);
}

amp_status amp_copy_to_array(const void *src, size_t bytes, amp_array *dst) {
  return copy_in(src, bytes, dst, NULL, "amp_copy_to_array");
}
amp_status amp_copy_from_array(amp_array *src, void *dst, size_t bytes) {
  return array_host_copy(src, dst, bytes, 0, NULL, "amp_copy_from_array");
}

amp_status amp_copy_to_array_async(const void *src, size_t bytes, amp_array *dst,
                                   amp_future **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK_OUT(out);
  AMP__TRY(copy_in(src, bytes, dst, out, "amp_copy_to_array_async"));
fail:
  return status;
}

amp_status amp_copy_from_array_async(amp_array *src, void *dst, size_t bytes, amp_future **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK_OUT(out);
  AMP__TRY(array_host_copy(src, dst, bytes, 0, out, "amp_copy_from_array_async"));
fail:
  return status;
}

/* ---- argument checks of the copies, shared by the calls and their _async forms ------------- */

/* Copies keep element types and shapes: AMP copies never reinterpret bits (reinterpret_as does). */
static amp_status check_same_shape(amp_extent se, amp_elem_type st, amp_extent de, amp_elem_type dt,
                                   const char *what, const char *fn) {
  if (se.rank != de.rank)
    return amp__set_error(AMP_ERROR_EXTENT_MISMATCH,
                          "%s: the source %s has rank %d but the destination rank %d", fn, what,
                          se.rank, de.rank);
  if (!amp_extent_equal(se, de))
    return amp__set_error(AMP_ERROR_EXTENT_MISMATCH,
                          "%s: the source %s is %d x %d x %d but the destination %d x %d x %d "
                          "(shapes must be equal, not only sizes; use view_as to reshape)",
                          fn, what, se.dim[0], se.rank > 1 ? se.dim[1] : 1,
                          se.rank > 2 ? se.dim[2] : 1, de.dim[0], de.rank > 1 ? de.dim[1] : 1,
                          de.rank > 2 ? de.dim[2] : 1);
  if (st.kind != dt.kind || st.size != dt.size)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: the source %s holds %s (%zu bytes) but the destination %s (%zu "
                          "bytes); copies never convert or reinterpret elements (use "
                          "amp_array_view_reinterpret_as)",
                          fn, what, amp__elem_names_of(st.kind)->word, st.size,
                          amp__elem_names_of(dt.kind)->word, dt.size);
  return AMP_SUCCESS;
}

static amp_status check_array_copy(amp_array *src, amp_array *dst, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(src, AMP__MAGIC_ARRAY, "array", fn));
  AMP__TRY(amp__check_handle(dst, AMP__MAGIC_ARRAY, "array", fn));
  AMP__TRY(check_same_shape(src->whole->extent, src->whole->type, dst->whole->extent,
                            dst->whole->type, "array", fn));
fail:
  return status;
}

static amp_status check_view_copy(amp_array_view *src, amp_array_view *dst, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(src, AMP__MAGIC_ARRAY_VIEW, "array view", fn));
  AMP__TRY(amp__check_handle(dst, AMP__MAGIC_ARRAY_VIEW, "array view", fn));
  AMP__TRY(check_same_shape(src->extent, src->type, dst->extent, dst->type, "view", fn));
  if (dst->read_only)
    AMP__FAIL(AMP_ERROR_ACCESS_DENIED, "%s: the destination view is read-only", fn);
fail:
  return status;
}

static amp_status check_view_bytes(const amp_array_view *v, size_t bytes, const char *fn) {
  size_t have = amp_extent_size(v->extent) * v->type.size;
  if (bytes != have)
    return amp__set_error(AMP_ERROR_EXTENT_MISMATCH,
                          "%s: %zu bytes given, but the view covers %zu bytes", fn, bytes, have);
  return AMP_SUCCESS;
}

/* Host memory to a view (to_view) or a view to host memory (!to_view). */
static amp_status check_host_copy(amp_array_view *v, const void *host, size_t bytes, int to_view,
                                  const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(v, AMP__MAGIC_ARRAY_VIEW, "array view", fn));
  if (!host)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, to_view ? "src" : "dst");
  if (to_view && v->read_only)
    AMP__FAIL(AMP_ERROR_ACCESS_DENIED, "%s: the destination view is read-only", fn);
  AMP__TRY(check_view_bytes(v, bytes, fn));
fail:
  return status;
}

/* Array to array: on one accelerator a device copy, left running behind a future for async_out;
 * between accelerators through the host, done before it returns (a ready future). */
static amp_status array_copy(amp_array *src, amp_array *dst, amp_future **async_out,
                             const char *fn) {
  amp_status status = AMP_SUCCESS;
  void *tmp = NULL;
  AMP__TRY(check_array_copy(src, dst, fn));
  amp__source *s = src->whole->src, *d = dst->whole->src;
  if (s != d && s->home == d->home)
    return amp__source_copy_device(s, d, dst->view, async_out);
  if (s != d) { /* different accelerators: through the host */
    tmp = malloc(s->bytes);
    if (!tmp)
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "%s: out of memory for %zu bytes", fn, s->bytes);
    AMP__TRY(amp__source_read_home(s, src->view, tmp, NULL));
    AMP__TRY(amp__source_write_home(d, dst->view, tmp, NULL));
  }
  if (async_out)
    AMP__TRY(amp__future_done(AMP_SUCCESS, async_out));
fail:
  free(tmp);
  return status;
}

amp_status amp_copy_array(amp_array *src, amp_array *dst) {
  return array_copy(src, dst, NULL, "amp_copy_array");
}

/* Copies between the view's part of host memory and a contiguous row-major buffer. */
static void rows_contiguous(amp_array_view *v, unsigned char *buf, int into_view) {
  const amp_extent e = v->extent;
  size_t es = v->type.size;
  size_t rows0 = e.rank >= 2 ? (size_t)e.dim[0] : 1, rows1 = e.rank == 3 ? (size_t)e.dim[1] : 1;
  size_t row = (size_t)e.dim[e.rank - 1] * es;
  for (size_t k = 0; k < rows0 * rows1; k++) {
    size_t i = k / rows1, j = k % rows1, at = v->offset;
    if (e.rank >= 2)
      at += i * v->stride[0];
    if (e.rank == 3)
      at += j * v->stride[1];
    unsigned char *h = v->src->host + at * es;
    if (into_view)
      memcpy(h, buf + k * row, row);
    else
      memcpy(buf + k * row, h, row);
  }
}

amp_status amp_copy_view(amp_array_view *src, amp_array_view *dst) {
  amp_status status = AMP_SUCCESS;
  unsigned char *tmp = NULL;
  AMP__TRY(check_view_copy(src, dst, "amp_copy_view"));
  /* Latest source contents to the host and out into a temporary buffer (views of one source may
   * overlap, with any strides, so no row is overwritten before it is read). Only then does the
   * destination's part become host-owned (its device copies dropped) and get overwritten there:
   * a failure before that point leaves dst as it was. The next use elsewhere copies it in
   * (rule 2). */
  AMP__TRY(amp__source_to_host(src, 0));
  const size_t bytes = amp_extent_size(src->extent) * src->type.size;
  if (!(tmp = malloc(bytes ? bytes : 1)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "amp_copy_view: out of memory for %zu bytes", bytes);
  rows_contiguous(src, tmp, 0);
  AMP__TRY(amp__source_claim_host(dst));
  rows_contiguous(dst, tmp, 1);
fail:
  free(tmp);
  return status;
}

amp_status amp_copy_to_view(const void *src, size_t bytes, amp_array_view *dst) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(check_host_copy(dst, src, bytes, 1, "amp_copy_to_view"));
  AMP__TRY(amp__source_claim_host(dst)); /* the host now owns the part; nothing to fetch */
  rows_contiguous(dst, (unsigned char *)(uintptr_t)src, 1);
fail:
  return status;
}

amp_status amp_copy_from_view(amp_array_view *src, void *dst, size_t bytes) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(check_host_copy(src, dst, bytes, 0, "amp_copy_from_view"));
  AMP__TRY(amp__source_to_host(src, 0)); /* the latest contents, wherever they are */
  rows_contiguous(src, dst, 0);
fail:
  return status;
}

/* ---- asynchronous copies of views ----------------------------------------------------------
 * A view copy moves bytes through the coherence protocol and host memory, so it is done in the
 * call, in order with every call before and after it (a copy left to another thread would take its
 * place only when that thread ran, after later calls); the future is ready at once and reports the
 * copy's outcome. Argument errors come back from the call itself. */

amp_status amp_copy_view_async(amp_array_view *src, amp_array_view *dst, amp_future **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK_OUT(out);
  AMP__TRY(check_view_copy(src, dst, "amp_copy_view_async"));
  AMP__TRY(amp__future_done(amp_copy_view(src, dst), out));
fail:
  return status;
}

/* Host memory into a view (to_view) or out of it. */
static amp_status view_host_async(amp_array_view *v, void *host, size_t bytes, int to_view,
                                  amp_future **out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK_OUT(out);
  AMP__TRY(check_host_copy(v, host, bytes, to_view, fn));
  AMP__TRY(amp__future_done(
      to_view ? amp_copy_to_view(host, bytes, v) : amp_copy_from_view(v, host, bytes), out));
fail:
  return status;
}

amp_status amp_copy_to_view_async(const void *src, size_t bytes, amp_array_view *dst,
                                  amp_future **out) {
  return view_host_async(dst, (void *)(uintptr_t)src, bytes, 1, out, "amp_copy_to_view_async");
}

amp_status amp_copy_from_view_async(amp_array_view *src, void *dst, size_t bytes,
                                    amp_future **out) {
  return view_host_async(src, dst, bytes, 0, out, "amp_copy_from_view_async");
}

/* A device copy left running on the destination's view, in both arrays' order. */
amp_status amp_copy_array_async(amp_array *src, amp_array *dst, amp_future **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK_OUT(out);
  AMP__TRY(array_copy(src, dst, out, "amp_copy_array_async"));
fail:
  return status;
}
