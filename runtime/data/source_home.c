/* runtime/data/source_home.c: device arrays' side of the coherence protocol: a source whose home
 * is an accelerator, and the whole copies between it and caller memory or another array. */
#include "core/trace_impl.h"
#include "data/source_steps.h"
#include "data/staging.h"

amp_status amp__source_make_array(amp__source *s, amp_accelerator *acc) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__source_ensure_buffer(s, acc));
  s->home = (long)acc->index;
  if (amp__rangeset_add(&s->loc[acc->index].valid, 0, s->bytes))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
fail:
  return status;
}

/* The newest contents of all of s, wherever views wrote them, brought home first. */
static amp_status fetch_all_home(amp__source *s) {
  amp__rangeset all = {0};
  amp_status status = amp__rangeset_append(&all, 0, s->bytes)
                          ? amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory")
                          : amp__source_fetch_home(s, &all, 0);
  amp__rangeset_free(&all);
  return status;
}

/* After a command (ev) that wrote the whole of L, s's home copy: the write recorded, the source
 * valid only there, and ev handed to async_out as its future. */
static amp_status wrote_home(amp__source *s, amp__location *L, cl_event *ev,
                             amp_future **async_out) {
  amp__location_record_write(L, *ev);
  if (amp__source_valid_only_at_home(s))
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  return amp__future_hand_over(ev, async_out);
}

/* What a command with a wait list holds until it is over: that list and its own event (NULL once
 * its future has it). */
static void release_command(amp__evlist *deps, cl_event ev) {
  if (ev)
    clReleaseEvent(ev);
  amp__evlist_free(deps);
}

amp_status amp__source_write_home(amp__source *s, amp_accelerator_view *q, const void *src,
                                  amp_future **async_out) {
  amp_status status = AMP_SUCCESS;
  amp__evlist deps = {0};
  cl_event ev = NULL;
  pthread_mutex_lock(&s->lock);
  AMP__TRY(amp__source_refuse_mapped(s, "a copy into the array"));
  amp__location *L = &s->loc[s->home];
  if (amp__location_deps(&deps, L, 1))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  amp__flush_producers(deps.ev, deps.n, q->queue);
  AMP__CL(amp__host_write(q->acc, q->queue, L->buf, async_out ? CL_FALSE : CL_TRUE, 0, s->bytes,
                          src, (cl_uint)deps.n, deps.n ? deps.ev : NULL, &ev),
          "clEnqueueWriteBuffer (host to array)");
  amp__count_transfer(q->acc, AMP__TO_DEVICE, s->bytes);
  amp__view_enqueued(q); /* an immediate view (the array's own may be one) submits it now */
  AMP__TRY(wrote_home(s, L, &ev, async_out));
fail:
  release_command(&deps, ev);
  pthread_mutex_unlock(&s->lock);
  return status;
}

amp_status amp__source_read_home(amp__source *s, amp_accelerator_view *q, void *dst,
                                 amp_future **async_out) {
  amp_status status = AMP_SUCCESS;
  cl_event ev = NULL;
  pthread_mutex_lock(&s->lock);
  AMP__TRY(fetch_all_home(s));
  amp__location *L = &s->loc[s->home];
  cl_uint nw = L->last_write ? 1 : 0;
  amp__flush_producers(&L->last_write, nw, q->queue);
  AMP__CL(amp__host_read(q->acc, q->queue, L->buf, async_out ? CL_FALSE : CL_TRUE, 0, s->bytes, dst,
                         nw, nw ? &L->last_write : NULL, &ev),
          "clEnqueueReadBuffer (array to host)");
  amp__count_transfer(q->acc, AMP__TO_HOST, s->bytes);
  amp__view_enqueued(q);
  if (amp__location_record_read(L, q->queue, ev))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  AMP__TRY(amp__future_hand_over(&ev, async_out));
fail:
  if (ev)
    clReleaseEvent(ev);
  pthread_mutex_unlock(&s->lock);
  return status;
}

/* Same-accelerator array to array copy, in device memory, on q (the destination array's view),
 * its event the future for async_out. Locks both (in address order). */
amp_status amp__source_copy_device(amp__source *src, amp__source *dst, amp_accelerator_view *q,
                                   amp_future **async_out) {
  amp_status status = AMP_SUCCESS;
  amp__evlist deps = {0};
  cl_event ev = NULL;
  amp__source *first = src < dst ? src : dst, *second = src < dst ? dst : src;
  pthread_mutex_lock(&first->lock);
  pthread_mutex_lock(&second->lock);
  AMP__TRY(amp__source_refuse_mapped(dst, "a copy into the array"));
  AMP__TRY(fetch_all_home(src));
  amp__location *S = &src->loc[src->home], *D = &dst->loc[dst->home];
  if (amp__location_deps(&deps, S, 0) || amp__location_deps(&deps, D, 1))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  amp__flush_producers(deps.ev, deps.n, q->queue);
  uint64_t t_enq = amp__trace_on() ? amp__trace_now() : 0;
  AMP__CL(clEnqueueCopyBuffer(q->queue, S->buf, D->buf, 0, 0, src->bytes, (cl_uint)deps.n,
                              deps.n ? deps.ev : NULL, &ev),
          "clEnqueueCopyBuffer (array to array)");
  amp__trace_command(q->acc, q->queue, ev, "copy", src->bytes, NULL, NULL, t_enq);
  amp__count_transfer(q->acc, AMP__DEVICE_COPY, src->bytes);
  amp__view_enqueued(q);
  if (amp__location_record_read(S, q->queue, ev))
    amp__event_wait(ev); /* out of memory: then it is over before anyone writes */
  AMP__TRY(wrote_home(dst, D, &ev, async_out));
fail:
  release_command(&deps, ev);
  pthread_mutex_unlock(&second->lock);
  pthread_mutex_unlock(&first->lock);
  return status;
}
