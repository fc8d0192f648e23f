/* runtime/data/source_map.c: reading a view's data in place (amp_array_view_map_read): mapped
 * from the accelerator that holds the latest contents whole, or the host memory itself; while
 * mapped, nothing may write the data (amp__source_refuse_mapped). */
#include "core/trace_impl.h"
#include "data/source_steps.h"

amp_status amp__source_map_read(const amp_array_view *v, const void **out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp__source *s = v->src;
  amp__rangeset want = {0}, miss = {0};
  cl_event ev = NULL;
  pthread_mutex_lock(&s->lock);
  if (s->mapped)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: the view's data is mapped already; amp_array_view_unmap it first", fn);
  if (amp__view_ranges(v, &want))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  const size_t lo = want.n ? want.r[0].lo : 0, len = want.n ? want.r[want.n - 1].hi - lo : 0;
  /* where the latest contents are whole: the host first (no command at all), then a device */
  long where = -2;
  if (amp__rangeset_missing_all(&s->host_valid, &want, &miss))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  if (s->host && miss.n == 0)
    where = -1;
  for (size_t a = 0; where == -2 && a < s->nloc; a++) {
    if (!s->loc[a].buf)
      continue;
    if (amp__rangeset_missing_all(&s->loc[a].valid, &want, &miss))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
    if (miss.n == 0)
      where = (long)a;
  }
  if (where < 0) { /* on the host, or spread over several places: gathered on the host */
    AMP__TRY(amp__source_host_latest(s, &want));
    *out = s->host + lo;
  } else {
    amp__location *L = &s->loc[where];
    amp_accelerator_view *q;
    AMP__TRY(amp__queue_of((size_t)where, &q));
    cl_uint nw = L->last_write ? 1 : 0;
    amp__flush_producers(&L->last_write, nw, q->queue);
    cl_int err = CL_SUCCESS;
    const uint64_t t = amp__trace_on() ? amp__trace_now() : 0;
    void *p = clEnqueueMapBuffer(q->queue, L->buf, CL_TRUE, CL_MAP_READ, lo, len, nw,
                                 nw ? &L->last_write : NULL, &ev, &err);
    AMP__CL(err, "clEnqueueMapBuffer (amp_array_view_map_read)");
    if (t)
      amp__trace_command(q->acc, q->queue, ev, "map", len, "amp_array_view_map_read", NULL, t);
    if (!q->acc->props.supports_cpu_shared_memory) { /* the driver copied it for the host */
      amp__count_transfer(q->acc, AMP__TO_HOST, len);
    }
    s->map_loc = where;
    s->map_ptr = p;
    *out = p;
  }
  s->mapped = 1;
fail:
  if (ev)
    clReleaseEvent(ev);
  amp__rangeset_free(&want);
  amp__rangeset_free(&miss);
  pthread_mutex_unlock(&s->lock);
  return status;
}

amp_status amp__source_unmap(const amp_array_view *v, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp__source *s = v->src;
  pthread_mutex_lock(&s->lock);
  if (!s->mapped)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: the view's data is not mapped", fn);
  if (s->map_loc < 0) {
    s->mapped = 0;
  } else {
    amp_accelerator_view *q;
    AMP__TRY(amp__queue_of((size_t)s->map_loc, &q));
    AMP__CL(amp__source_unmap_locked(s, q), "clEnqueueUnmapMemObject (amp_array_view_unmap)");
  }
fail:
  pthread_mutex_unlock(&s->lock);
  return status;
}
