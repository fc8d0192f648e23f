/* runtime/data/copy.c: AMP's explicit copies (AMP §5.3): amp_copy_* between host memory, views
 * and arrays, blocking and on a worker thread (the _async forms, which return a future). Every
 * copy is checked whole (shapes, types, byte counts) before a byte moves. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ampcl/array.h"
#include "core/trace_impl.h"
#include "data/array_impl.h"
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

static const char *kind_name(amp_elem_kind k) {
  static const char *names[] = {"?",      "int32",  "uint32", "float",
                                "double", "struct", "int64",  "uint64"};
  return k >= AMP_ELEM_INT32 && k <= AMP_ELEM_UINT64 ? names[k] : "?";
}

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
                          fn, what, kind_name(st.kind), st.size, kind_name(dt.kind), dt.size);
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

amp_status amp_copy_array(amp_array *src, amp_array *dst) {
  amp_status status = AMP_SUCCESS;
  void *tmp = NULL;
  AMP__TRY(check_array_copy(src, dst, "amp_copy_array"));
  amp__source *s = src->whole->src, *d = dst->whole->src;
  if (s == d)
    return AMP_SUCCESS;
  if (s->home == d->home) {
    AMP__TRY(amp__source_copy_device(s, d, dst->view));
  } else { /* different accelerators: through the host */
    tmp = malloc(s->bytes);
    if (!tmp)
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "amp_copy_array: out of memory for %zu bytes", s->bytes);
    AMP__TRY(amp__source_read_home(s, src->view, tmp, NULL));
    AMP__TRY(amp__source_write_home(d, dst->view, tmp, NULL));
  }
fail:
  free(tmp);
  return status;
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

/* ---- asynchronous copies on a worker thread ----------------------------------------------------
 * The worker holds references to the handles it uses, so the caller may release theirs at once. */

typedef enum { VIEW_TO_VIEW, HOST_TO_VIEW, VIEW_TO_HOST, ARRAY_TO_ARRAY } copy_kind;

typedef struct copy_job {
  copy_kind kind;
  amp_array_view *sv, *dv;
  amp_array *sa, *da;
  const void *src;
  void *dst;
  size_t bytes;
} copy_job;

static amp_status copy_job_run(void *p) {
  copy_job *j = p;
  switch (j->kind) {
  case VIEW_TO_VIEW:
    return amp_copy_view(j->sv, j->dv);
  case HOST_TO_VIEW:
    return amp_copy_to_view(j->src, j->bytes, j->dv);
  case VIEW_TO_HOST:
    return amp_copy_from_view(j->sv, j->dst, j->bytes);
  default:
    return amp_copy_array(j->sa, j->da);
  }
}

/* Drops the worker's references; the last release of a view may copy data home (rule 7), and
 * its status is the job's if the copy itself succeeded. */
static amp_status copy_job_done(void *p) {
  copy_job *j = p;
  amp_status st[4] = {amp_array_view_release(j->sv), amp_array_view_release(j->dv),
                      amp_array_release(j->sa), amp_array_release(j->da)};
  free(j);
  for (int i = 0; i < 4; i++)
    if (st[i] != AMP_SUCCESS)
      return st[i];
  return AMP_SUCCESS;
}

/* Checks what the synchronous call would check first, so argument errors come back at once and
 * not at the wait. */
static amp_status start_copy(copy_job *tmpl, amp_future **out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  copy_job *j = NULL;
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
  *out = NULL;
  switch (tmpl->kind) {
  case VIEW_TO_VIEW:
    AMP__TRY(check_view_copy(tmpl->sv, tmpl->dv, fn));
    break;
  case HOST_TO_VIEW:
    AMP__TRY(check_host_copy(tmpl->dv, tmpl->src, tmpl->bytes, 1, fn));
    break;
  case VIEW_TO_HOST:
    AMP__TRY(check_host_copy(tmpl->sv, tmpl->dst, tmpl->bytes, 0, fn));
    break;
  default:
    AMP__TRY(check_array_copy(tmpl->sa, tmpl->da, fn));
  }
  j = malloc(sizeof *j);
  if (!j)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
  *j = *tmpl;
  if (j->sv)
    amp_array_view_retain(j->sv);
  if (j->dv)
    amp_array_view_retain(j->dv);
  if (j->sa)
    amp_array_retain(j->sa);
  if (j->da)
    amp_array_retain(j->da);
  return amp__run_async(copy_job_run, copy_job_done, j, out); /* it owns j from here */
fail:
  return status;
}

amp_status amp_copy_view_async(amp_array_view *src, amp_array_view *dst, amp_future **out) {
  copy_job t = {VIEW_TO_VIEW, src, dst, NULL, NULL, NULL, NULL, 0};
  return start_copy(&t, out, "amp_copy_view_async");
}

amp_status amp_copy_to_view_async(const void *src, size_t bytes, amp_array_view *dst,
                                  amp_future **out) {
  copy_job t = {HOST_TO_VIEW, NULL, dst, NULL, NULL, src, NULL, bytes};
  return start_copy(&t, out, "amp_copy_to_view_async");
}

amp_status amp_copy_from_view_async(amp_array_view *src, void *dst, size_t bytes,
                                    amp_future **out) {
  copy_job t = {VIEW_TO_HOST, src, NULL, NULL, NULL, NULL, dst, bytes};
  return start_copy(&t, out, "amp_copy_from_view_async");
}

amp_status amp_copy_array_async(amp_array *src, amp_array *dst, amp_future **out) {
  copy_job t = {ARRAY_TO_ARRAY, NULL, NULL, src, dst, NULL, NULL, 0};
  return start_copy(&t, out, "amp_copy_array_async");
}
