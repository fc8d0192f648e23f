/* runtime/data/interop_lend.c: a view's buffer lent to the caller's OpenCL commands
 * (ampcl/interop.h). The loan opens like a kernel launch that writes the view (the copy-in of
 * amp__uses_acquire, a marker waiting for every command on the data) and closes like its end
 * (amp__uses_finish), with the caller's event as the command and the caller's word for what it
 * wrote. While it is open, the source's lent_loc refuses ampcl's writes (source.c). */
#include "ampcl/interop.h"
#include "data/source_steps.h"

static const char *const lend_fn = "amp_array_view_lend_cl_mem";
static const char *const return_fn = "amp_array_view_return_cl_mem";

static amp_status check_pair(const amp_array_view *view, const amp_accelerator_view *av,
                             const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(view, AMP__MAGIC_ARRAY_VIEW, "array view", fn));
  AMP__TRY(amp__check_handle(av, AMP__MAGIC_VIEW, "accelerator view", fn));
fail:
  return status;
}

/* A loan needs the data neither lent nor mapped already. */
static amp_status check_free(amp__source *s) {
  amp_status status = AMP_SUCCESS;
  pthread_mutex_lock(&s->lock);
  if (s->lent_loc >= 0)
    status = amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the view's data is lent already; amp_array_view_return_cl_mem "
                            "it first",
                            lend_fn);
  else if (s->mapped)
    status = amp__set_error(AMP_ERROR_ACCESS_DENIED,
                            "%s: the view's data is mapped for reading; amp_array_view_unmap it "
                            "first",
                            lend_fn);
  pthread_mutex_unlock(&s->lock);
  return status;
}

amp_status amp_array_view_lend_cl_mem(amp_array_view *view, amp_accelerator_view *av,
                                      cl_mem *buffer, size_t *offset, cl_event *ready) {
  amp_status status = AMP_SUCCESS;
  amp__use use = {.view = view, .write = 1}; /* the caller may write any of it */
  amp__evlist wait = {0};
  cl_event ev = NULL;
  AMP__TRY(check_pair(view, av, lend_fn));
  if (!buffer || !offset)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", lend_fn, !buffer ? "buffer" : "offset");
  AMP__TRY(check_free(view->src));
  AMP__TRY(amp__uses_acquire(av, &use, 1, &wait)); /* locked from here to amp__uses_finish */
  amp__flush_producers(wait.ev, wait.n, av->queue);
  cl_int err =
      clEnqueueMarkerWithWaitList(av->queue, (cl_uint)wait.n, wait.n ? wait.ev : NULL, &ev);
  if (err == CL_SUCCESS) {
    view->src->lent_loc = (long)av->acc->index;
    *buffer = amp__view_buffer(view, av->acc);
    *offset = view->offset * view->type.size;
  }
  amp__uses_finish(av, &use, 1, NULL); /* records nothing: the loan's end does */
  AMP__CL(err, "clEnqueueMarkerWithWaitList (amp_array_view_lend_cl_mem)");
  amp__view_enqueued(av);
  amp_array_view_retain(view); /* until the loan's end */
  if (ready) {
    *ready = ev; /* the caller's reference */
    ev = NULL;
  }
fail:
  if (ev)
    clReleaseEvent(ev);
  amp__evlist_free(&wait);
  return status;
}

/* The bytes of the view's elements [first, first + count) in row-major order: the view's ranges
 * hold its elements in that order, so the part is `first` elements in, `count` long. */
static int element_ranges(const amp_array_view *v, size_t first, size_t count, amp__rangeset *out) {
  amp__rangeset all = {0};
  int rc = amp__view_ranges(v, &all);
  size_t skip = first * v->type.size, take = count * v->type.size;
  for (size_t i = 0; rc == 0 && i < all.n && take; i++) {
    size_t len = all.r[i].hi - all.r[i].lo;
    if (skip >= len) {
      skip -= len;
      continue;
    }
    size_t n = len - skip < take ? len - skip : take;
    rc = amp__rangeset_append(out, all.r[i].lo + skip, all.r[i].lo + skip + n);
    skip = 0;
    take -= n;
  }
  amp__rangeset_free(&all);
  return rc;
}

/* The loan's arguments, checked before anything changes (the loan stays open on a refusal). */
static amp_status check_return(const amp_array_view *view, const amp_accelerator_view *av,
                               amp_cl_written written, size_t first, size_t count, cl_event done) {
  amp_status status = AMP_SUCCESS;
  const size_t n = amp_extent_size(view->extent);
  if (view->src->lent_loc != (long)av->acc->index)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: the view's data is not lent on %s (amp_array_view_lend_cl_mem first, with an "
              "accelerator view of the same accelerator)",
              return_fn, av->acc->props.device_path);
  if (written != AMP_CL_WROTE_NOTHING && written != AMP_CL_WROTE_ALL &&
      written != AMP_CL_WROTE_RANGE)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: written is %d, not AMP_CL_WROTE_NOTHING, AMP_CL_WROTE_ALL or AMP_CL_WROTE_RANGE",
              return_fn, (int)written);
  if (written == AMP_CL_WROTE_RANGE && (first > n || count > n - first))
    AMP__FAIL(AMP_ERROR_OUT_OF_RANGE,
              "%s: the range written, %zu elements from element %zu, goes past the view's %zu "
              "elements",
              return_fn, count, first, n);
  if (written != AMP_CL_WROTE_NOTHING && view->read_only)
    AMP__FAIL(AMP_ERROR_ACCESS_DENIED,
              "%s: the view is read-only, but written is %s; its data must not have changed",
              return_fn, written == AMP_CL_WROTE_ALL ? "AMP_CL_WROTE_ALL" : "AMP_CL_WROTE_RANGE");
  if (done) {
    cl_context theirs = NULL, mine = NULL;
    cl_int err = clGetEventInfo(done, CL_EVENT_CONTEXT, sizeof theirs, &theirs, NULL);
    if (err != CL_SUCCESS)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: done (%p) is not an event OpenCL knows (%d)",
                return_fn, (void *)done, (int)err);
    AMP__TRY(amp__context(av->acc, &mine));
    if (theirs != mine)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                "%s: done (%p) belongs to context %p, not to the accelerator's context %p",
                return_fn, (void *)done, (void *)theirs, (void *)mine);
  }
fail:
  return status;
}

/* With the lock held: the caller's commands only read the data; `ev` joins the reads. */
static int record_read(amp__location *L, cl_event ev) {
  cl_command_queue q = NULL;
  clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL);
  return q ? amp__location_record_read(L, q, ev) : amp__evlist_push(&L->reads, ev);
}

amp_status amp_array_view_return_cl_mem(amp_array_view *view, amp_accelerator_view *av,
                                        amp_cl_written written, size_t first, size_t count,
                                        cl_event done) {
  amp_status status = AMP_SUCCESS;
  amp__use use = {.view = view, .write = 0};
  cl_event ev = done;
  AMP__TRY(check_pair(view, av, return_fn));
  amp__source *s = view->src;
  pthread_mutex_lock(&s->lock);
  status = check_return(view, av, written, first, count, done);
  if (status == AMP_SUCCESS && !done) {
    cl_int err = clEnqueueMarkerWithWaitList(av->queue, 0, NULL, &ev);
    if (err != CL_SUCCESS)
      status = amp__set_error(amp__cl_status(err), "%s: clEnqueueMarkerWithWaitList failed (%d)",
                              return_fn, (int)err);
  }
  use.write = written == AMP_CL_WROTE_ALL || (written == AMP_CL_WROTE_RANGE && count > 0);
  if (status == AMP_SUCCESS && use.write &&
      (written == AMP_CL_WROTE_ALL ? amp__view_ranges(view, &use.ranges)
                                   : element_ranges(view, first, count, &use.ranges)))
    status = amp__set_error(AMP_ERROR_OUT_OF_MEMORY,
                            "%s: out of memory tracking ranges (the loan "
                            "stays open)",
                            return_fn);
  if (status != AMP_SUCCESS) {
    amp__rangeset_free(&use.ranges);
    pthread_mutex_unlock(&s->lock);
    if (ev != done && ev)
      clReleaseEvent(ev);
    return status;
  }
  s->lent_loc = -1;
  if (use.write) {
    amp__uses_finish(av, &use, 1, ev); /* written parts valid only here; unlocks */
  } else {
    if (record_read(&s->loc[av->acc->index], ev))
      amp__event_wait(ev); /* out of memory: the read is over, nothing to remember */
    pthread_mutex_unlock(&s->lock);
    amp__rangeset_free(&use.ranges);
  }
  amp__view_enqueued(av);
  if (ev != done)
    clReleaseEvent(ev);
  amp_array_view_release(view); /* the loan's reference */
fail:
  return status;
}
