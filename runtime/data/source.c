/* runtime/data/source.c: the coherence protocol of data sources (docs/MODEL.md, docs/COHERENCE.md).
 *
 * Every data source has one *location* for the host and one per accelerator. Each location keeps
 * the set of byte ranges it holds the latest contents of ("valid"). Coherence is tracked per byte
 * range, not per buffer, so disjoint parts of one source may be written at different locations
 * and all of them survive.
 *
 * For any byte b and location L, b is in one of three states at L:
 *
 *              use on L (copy-in from a valid location, if any)
 *     INVALID ------------------------------------------------> VALID
 *        ^   <------------------------------------------------   |  \
 *        |      write at another location M != L (kernel),       |   \ write at L: L becomes
 *        |      refresh (L is an accelerator), discard_data       |   / the only VALID location
 *        |                                                        v  /
 *        +---------------------------------- (no location VALID: "discarded"; the next use
 *                                              copies nothing and makes its location VALID)
 *
 * Events implement the order of commands on each accelerator: `last_write` is the last command
 * that wrote the location's buffer (every write waits for the previous write and for the reads
 * since it, so last_write implies them all), `reads` are the commands that read it since. A
 * command that reads waits for last_write; a command that writes waits for last_write and reads.
 * Data cross between accelerators through the host, with blocking reads, so no event ever
 * crosses an OpenCL context. `host_readers` are copies that may still read host memory and
 * `host_writers` asynchronous copies back that may still write it: anything that overwrites host
 * memory, or hands it to the caller, waits for them first.
 *
 * All state of a source is guarded by its mutex; commands hold it from copy-in to enqueue. */
#include "core/alloc_limit.h"
#include "core/clobjects.h"
#include "core/trace_impl.h"
#include "data/host_spans.h"
#include "data/retire.h"
#include "data/scratch.h"
#include "data/source_steps.h"
#include "data/staging.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_event(cl_event *slot, cl_event e) {
  if (e)
    clRetainEvent(e);
  if (*slot)
    clReleaseEvent(*slot);
  *slot = e;
}

/* Appends to *deps what a command using location L must wait for: the last write, and, when the
 * command writes, the reads since (the ordering rule at the top of this file). 0 or -1. */
int amp__location_deps(amp__evlist *deps, const amp__location *L, int writes) {
  if (amp__evlist_push(deps, L->last_write))
    return -1;
  for (size_t k = 0; writes && k < L->reads.n; k++)
    if (amp__evlist_push(deps, L->reads.ev[k]))
      return -1;
  return 0;
}

/* Records that the command `ev` wrote location L: it is the new last write, and it came after
 * every read so far. */
void amp__location_record_write(amp__location *L, cl_event ev) {
  set_event(&L->last_write, ev);
  amp__evlist_clear(&L->reads);
}

/* Records that the command `ev`, on the in-order queue q, read location L. A later command on an
 * in-order queue implies the earlier ones, so L keeps one read per queue: the list stays as short
 * as the number of queues, however many kernels or copies read L. Returns -1 when out of memory
 * (the caller then waits for `ev`, which implies the reads dropped, or fails). */
int amp__location_record_read(amp__location *L, cl_command_queue q, cl_event ev) {
  amp__evlist_drop_queue(&L->reads, q);
  return amp__evlist_push(&L->reads, ev);
}

/* After a command wrote the whole of an array at its home: valid there and nowhere else. Returns
 * nonzero when out of memory. */
int amp__source_valid_only_at_home(amp__source *s) {
  amp__rangeset_clear(&s->host_valid);
  for (size_t a = 0; a < s->nloc; a++)
    if ((long)a != s->home)
      amp__rangeset_clear(&s->loc[a].valid);
  return amp__rangeset_add(&s->loc[s->home].valid, 0, s->bytes);
}

/* ---- the part of the source a view covers ------------------------------------------------ */

/* Appends the view's byte ranges, in increasing order, to *out. */
int amp__view_ranges(const amp_array_view *v, amp__rangeset *out) {
  const size_t es = v->type.size;
  const amp_extent e = v->extent;
  size_t d0 = (size_t)e.dim[0];
  size_t d1 = e.rank >= 2 ? (size_t)e.dim[1] : 1;
  size_t d2 = e.rank >= 3 ? (size_t)e.dim[2] : 1;
  size_t row = (e.rank == 1 ? d0 : e.rank == 2 ? d1 : d2) * es; /* contiguous innermost run */
  if (e.rank == 1)
    return amp__rangeset_append(out, v->offset * es, v->offset * es + row);
  /* Rows that follow each other in memory make one range: a whole view or a section of whole
   * rows is one range, not one per row (a range per row made the ranges of a large view cost
   * more than the launch itself). */
  const size_t plane = e.rank == 3 ? d1 * d2 : d1; /* elements under one index of dim 0 */
  const int planes_dense = e.rank == 2 || v->stride[1] == d2;
  if (planes_dense && v->stride[0] == plane)
    return amp__rangeset_append(out, v->offset * es, (v->offset + d0 * plane) * es);
  if (planes_dense && e.rank == 3) {
    for (size_t i = 0; i < d0; i++) {
      size_t first = v->offset + i * v->stride[0];
      if (amp__rangeset_append(out, first * es, (first + plane) * es))
        return -1;
    }
    return 0;
  }
  for (size_t i = 0; i < d0; i++) {
    for (size_t j = 0; j < (e.rank == 3 ? d1 : 1); j++) {
      size_t first = v->offset + i * v->stride[0] + (e.rank == 3 ? j * v->stride[1] : 0);
      if (amp__rangeset_append(out, first * es, first * es + row))
        return -1;
    }
  }
  return 0;
}

/* ---- locations, buffers and copies -------------------------------------------------------- */

/* The source is over memory of the caller's (not ampcl's own host storage, not none): only such
 * data is copied home at the last release, and only the buffers of other data are kept for reuse
 * (scratch.c). */
static int caller_memory(const amp__source *s) {
  return s->host && !s->owns_host;
}

amp_status amp__source_ensure_buffer(amp__source *s, amp_accelerator *acc) {
  amp_status status = AMP_SUCCESS;
  amp__location *L = &s->loc[acc->index];
  if (L->buf)
    return AMP_SUCCESS;
  cl_context ctx;
  AMP__TRY(amp__context(acc, &ctx));
  AMP__TRY(amp__check_alloc(acc, s->bytes, "allocating the data on the accelerator"));
  cl_int err = CL_SUCCESS;
  if (s->transient && (L->buf = amp__retire_take(acc->index, s->bytes)) != NULL)
    return AMP_SUCCESS; /* an earlier temporary's buffer, its commands ended (retire.c) */
  if (!caller_memory(s) && (L->buf = amp__scratch_take(acc->index, s->bytes)) != NULL)
    return AMP_SUCCESS; /* a kept buffer of the same size (scratch.c) */
  L->buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, s->bytes, NULL, &err);
  amp__clobj(AMP_CL_MEM, 1);
  if (err != CL_SUCCESS) {
    L->buf = NULL;
    amp__clobj(AMP_CL_MEM, -1); /* balances the count below */
    AMP__FAIL(amp__cl_status(err), "allocating %zu bytes on %s failed: %s (%d)", s->bytes,
              acc->props.device_path, amp_status_name(amp__cl_status(err)), (int)err);
  }
fail:
  return status;
}

/* The default view of the accelerator at `index` (for copies that need some queue there). */
amp_status amp__queue_of(size_t index, amp_accelerator_view **out) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator **list = NULL;
  size_t n = 0;
  AMP__TRY(amp__accelerators(&list, &n));
  AMP__TRY(amp_accelerator_default_view(list[index], out));
fail:
  return status;
}

/* With the lock held: AMP_ERROR_ACCESS_DENIED while the data is mapped for reading, for an
 * operation that would write it (`what`). */
amp_status amp__source_refuse_mapped(const amp__source *s, const char *what) {
  if (s->lent_loc >= 0)
    return amp__set_error(AMP_ERROR_ACCESS_DENIED,
                          "%s: the view's data is lent to OpenCL (amp_array_view_lend_cl_mem); "
                          "amp_array_view_return_cl_mem it first",
                          what);
  if (!s->mapped)
    return AMP_SUCCESS;
  return amp__set_error(AMP_ERROR_ACCESS_DENIED,
                        "%s: the view's data is mapped for reading (amp_array_view_map_read); "
                        "amp_array_view_unmap it first",
                        what);
}

/* Host storage for a source created without any (views of an extent, device arrays). */
static amp_status ensure_host(amp__source *s) {
  if (s->host)
    return AMP_SUCCESS;
  s->host = malloc(s->bytes);
  if (!s->host)
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory: %zu bytes of host storage",
                          s->bytes);
  s->owns_host = 1;
  return AMP_SUCCESS;
}

/* Before host memory is overwritten or handed to the caller: no copy may still use it. */
static cl_int wait_host_idle(amp__source *s) {
  cl_int a = amp__evlist_wait(&s->host_readers), b = amp__evlist_wait(&s->host_writers);
  return a != CL_SUCCESS ? a : b;
}

/* Waits for the asynchronous copies back. If one failed, the host bytes it was to bring are not
 * the latest after all: the host stops counting as valid wherever an accelerator holds the data,
 * so the next fetch reads them again (with a blocking read, whose failure is then reported). */
static void settle_host_writers(amp__source *s) {
  if (amp__evlist_wait(&s->host_writers) == CL_SUCCESS)
    return;
  for (size_t a = 0; a < s->nloc; a++)
    amp__rangeset_remove_all(&s->host_valid, &s->loc[a].valid);
}

/* ---- blocks: how ranges are copied --------------------------------------------------------- *
 * A section whose rows are not contiguous (a column block of a matrix) is a list of ranges of one
 * length at a constant pitch. Such a run is copied with one rectangular command
 * (clEnqueue{Read,Write}BufferRect) instead of one command per row. */
typedef struct amp__block {
  size_t first, len;   /* the first range: [first, first + len) */
  size_t pitch, count; /* `count` ranges, `pitch` bytes apart (pitch 0 when count is 1) */
} amp__block;

/* The block that starts at range i of s, in a buffer of `bytes` bytes; returns the index of the
 * range after it. A rectangle's rows, counted from the buffer's start at its pitch, end within the
 * buffer: NVIDIA's OpenCL refuses (CL_INVALID_VALUE) a rectangle whose last whole row of `pitch`
 * bytes would pass the buffer's end, even where the bytes it copies do not, so such a last row is
 * left to a block of its own. */
static size_t next_block(const amp__rangeset *s, size_t i, size_t bytes, amp__block *b) {
  const amp__range *r = s->r;
  b->first = r[i].lo;
  b->len = r[i].hi - r[i].lo;
  b->pitch = 0;
  b->count = 1;
  if (i + 1 < s->n && r[i + 1].hi - r[i + 1].lo == b->len) {
    size_t p = r[i + 1].lo - r[i].lo; /* > len: ranges are disjoint and not adjacent */
    if (b->first % p + b->len <= p) { /* every row lies within one pitch: a proper rectangle */
      size_t j = i + 1;
      while (j < s->n && r[j].hi - r[j].lo == b->len && r[j].lo - r[j - 1].lo == p)
        j++;
      if ((b->first / p + (j - i)) * p > bytes)
        j--; /* the last row's whole pitch passes the end: it goes in the next block */
      if (j - i >= 2) {
        b->pitch = p;
        b->count = j - i;
        return j;
      }
    }
  }
  return i + 1;
}

/* Enqueues the copy of a block between host memory (laid out like the buffer) and a buffer. */
static cl_int enqueue_block(amp_accelerator *acc, cl_command_queue q, cl_mem buf, int to_device,
                            cl_bool blocking, const amp__block *b, unsigned char *host, cl_uint nw,
                            const cl_event *wait, cl_event *ev) {
  if (b->count == 1) /* staged through pinned memory where that is faster (staging.c) */
    return to_device ? amp__host_write(acc, q, buf, blocking, b->first, b->len, host + b->first, nw,
                                       wait, ev)
                     : amp__host_read(acc, q, buf, blocking, b->first, b->len, host + b->first, nw,
                                      wait, ev);
  const size_t origin[3] = {b->first % b->pitch, b->first / b->pitch, 0};
  const size_t region[3] = {b->len, b->count, 1};
  if (amp__trace_on()) { /* the same command, with an event for the trace */
    cl_event own = NULL, *use = ev ? ev : &own;
    uint64_t t = amp__trace_now();
    cl_int err = to_device ? clEnqueueWriteBufferRect(q, buf, blocking, origin, origin, region,
                                                      b->pitch, 0, b->pitch, 0, host, nw, wait, use)
                           : clEnqueueReadBufferRect(q, buf, blocking, origin, origin, region,
                                                     b->pitch, 0, b->pitch, 0, host, nw, wait, use);
    if (err == CL_SUCCESS)
      amp__trace_command(acc, q, *use, to_device ? "write (rectangle)" : "read (rectangle)",
                         (uint64_t)b->len * b->count, NULL, NULL, t);
    if (own)
      clReleaseEvent(own);
    return err;
  }
  return to_device ? clEnqueueWriteBufferRect(q, buf, blocking, origin, origin, region, b->pitch, 0,
                                              b->pitch, 0, host, nw, wait, ev)
                   : clEnqueueReadBufferRect(q, buf, blocking, origin, origin, region, b->pitch, 0,
                                             b->pitch, 0, host, nw, wait, ev);
}

/* Copy of a block from accelerator `acc`'s buffer into host memory: blocking, or with `async`
 * left running and recorded in host_writers. */
static amp_status copy_to_host(amp__source *s, amp_accelerator *acc, const amp__block *b,
                               int async) {
  amp_status status = AMP_SUCCESS;
  amp__location *L = &s->loc[acc->index];
  amp_accelerator_view *dv;
  cl_event ev = NULL;
  AMP__TRY(amp_accelerator_default_view(acc, &dv));
  AMP__TRY(ensure_host(s));
  /* Copies in from host memory on this read's own queue run before it (every ampcl queue is in
   * order), so the read cannot overwrite bytes they still read: only other queues' are waited
   * for. Waiting for them on the host held this read back until they had ended, and with it the
   * flush of the kernel enqueued after them (on NVIDIA's OpenCL, where a pageable write ends
   * about 100 us after it is enqueued). */
  amp__evlist_drop_queue(&s->host_readers, dv->queue);
  if (async)
    amp__evlist_wait(&s->host_readers); /* no copy may still read the bytes we overwrite */
  else
    wait_host_idle(s);
  cl_uint nw = L->last_write ? 1 : 0;
  amp__flush_producers(&L->last_write, nw, dv->queue);
  AMP__CL(enqueue_block(acc, dv->queue, L->buf, 0, async ? CL_FALSE : CL_TRUE, b, s->host, nw,
                        nw ? &L->last_write : NULL, async ? &ev : NULL),
          "clEnqueueReadBuffer (device to host)");
  if (ev) {
    clFlush(dv->queue);
    int oom = amp__evlist_push(&s->host_writers, ev) || amp__location_record_read(L, dv->queue, ev);
    clReleaseEvent(ev);
    if (oom)
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  amp__count_transfer(acc, AMP__TO_HOST, b->len * b->count); /* the caller marks the host valid */
fail:
  return status;
}

/* Makes host memory hold the latest contents of every range in `want`, copying from the
 * accelerators that hold them. Ranges valid nowhere (discarded) are left as they are. */
static amp_status fetch_to_host(amp__source *s, const amp__rangeset *want, int async) {
  amp_status status = AMP_SUCCESS;
  amp__rangeset miss = {0}, part = {0};
  amp_accelerator **list = NULL;
  size_t nacc = 0;
  AMP__TRY(amp__accelerators(&list, &nacc));
  if (amp__rangeset_missing_all(&s->host_valid, want, &miss))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking host ranges");
  for (size_t a = 0; a < s->nloc && miss.n; a++) {
    amp__location *L = &s->loc[a];
    if (!L->buf || !L->valid.n)
      continue;
    if (amp__rangeset_covered_all(&L->valid, &miss, &part))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
    for (size_t i = 0; i < part.n;) {
      amp__block b;
      i = next_block(&part, i, s->bytes, &b);
      AMP__TRY(copy_to_host(s, list[a], &b, async));
    }
    if (amp__rangeset_add_all(&s->host_valid, &part))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking host ranges");
    amp__rangeset_remove_all(&miss, &part);
  }
fail:
  amp__rangeset_free(&miss);
  amp__rangeset_free(&part);
  return status;
}

/* Makes accelerator q->acc hold the latest contents of `want` in its buffer (rule 2). */
static amp_status copy_in(amp__source *s, amp_accelerator_view *q, const amp__rangeset *want) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator *acc = q->acc;
  amp__location *L = &s->loc[acc->index];
  amp__rangeset miss = {0}, from_host = {0};
  AMP__TRY(amp__source_ensure_buffer(s, acc));
  if (amp__rangeset_missing_all(&L->valid, want, &miss))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  if (!miss.n)
    goto fail; /* cached: nothing to copy */
  /* Parts that only other accelerators hold come to the host first (after any copy back still
   * landing there). */
  settle_host_writers(s);
  AMP__TRY(fetch_to_host(s, &miss, 0));
  if (amp__rangeset_covered_all(&s->host_valid, &miss, &from_host))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  for (size_t i = 0; i < from_host.n;) {
    amp__block b;
    i = next_block(&from_host, i, s->bytes, &b);
    amp__evlist deps = {0};
    if (amp__location_deps(&deps, L, 1)) {
      amp__evlist_free(&deps);
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    cl_event ev = NULL;
    amp__flush_producers(deps.ev, deps.n, q->queue);
    cl_int err = enqueue_block(acc, q->queue, L->buf, 1, CL_FALSE, &b, s->host, (cl_uint)deps.n,
                               deps.n ? deps.ev : NULL, &ev);
    amp__evlist_free(&deps);
    AMP__CL(err, "clEnqueueWriteBuffer (host to device)");
    amp__count_transfer(acc, AMP__TO_DEVICE, b.len * b.count);
    amp__location_record_write(L, ev);
    int oom = amp__evlist_push(&s->host_readers, ev);
    clReleaseEvent(ev);
    if (oom) {
      clWaitForEvents(1, &L->last_write);
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    }
  }
  /* What came from the host is valid here now. Parts valid nowhere (discarded) stay valid nowhere:
   * a command that only reads them must not make the buffer's undefined bytes count as the
   * latest contents, or they would be copied back over host memory. A command that writes them
   * makes them valid here (amp__uses_finish). */
  if (amp__rangeset_add_all(&L->valid, &from_host))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
fail:
  amp__rangeset_free(&miss);
  amp__rangeset_free(&from_host);
  return status;
}

/* ---- commands using views ----------------------------------------------------------------- */

static int cmp_ptr(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
  return x < y ? -1 : x > y;
}

/* The distinct sources of the uses, sorted by address (the lock order). */
static size_t distinct_sources(amp__use *uses, size_t n, amp__source **out) {
  for (size_t i = 0; i < n; i++)
    out[i] = uses[i].view->src;
  qsort(out, n, sizeof *out, cmp_ptr);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (m == 0 || out[m - 1] != out[i])
      out[m++] = out[i];
  return m;
}

static void unlock_all(amp__source **srcs, size_t m) {
  for (size_t i = 0; i < m; i++)
    pthread_mutex_unlock(&srcs[i]->lock);
}

amp_status amp__uses_acquire(amp_accelerator_view *q, amp__use *uses, size_t n, amp__evlist *wait) {
  amp_status status = AMP_SUCCESS;
  amp__source *stack_srcs[16];
  amp__source **srcs = n <= 16 ? stack_srcs : malloc(n * sizeof *srcs);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    memset(&uses[i].ranges, 0, sizeof uses[i].ranges);
  if (!srcs)
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  m = distinct_sources(uses, n, srcs);
  for (size_t i = 0; i < m; i++)
    pthread_mutex_lock(&srcs[i]->lock);
  for (size_t i = 0; i < n; i++) {
    amp_array_view *v = uses[i].view;
    amp__source *s = v->src;
    amp__location *L = &s->loc[q->acc->index];
    if (uses[i].write)
      AMP__TRY(amp__source_refuse_mapped(s, "a kernel writing the view"));
    if (amp__view_ranges(v, &uses[i].ranges))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
    AMP__TRY(copy_in(s, q, &uses[i].ranges));
    if (amp__location_deps(wait, L, uses[i].write))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  if (srcs != stack_srcs)
    free(srcs);
  return AMP_SUCCESS;
fail:
  for (size_t i = 0; i < n; i++)
    amp__rangeset_free(&uses[i].ranges);
  unlock_all(srcs, m);
  if (srcs != stack_srcs)
    free(srcs);
  return status;
}

void amp__uses_finish(amp_accelerator_view *q, amp__use *uses, size_t n, cl_event done) {
  amp__source *stack_srcs[16];
  amp__source **srcs = n <= 16 ? stack_srcs : malloc(n * sizeof *srcs);
  size_t a = q->acc->index;
  for (size_t i = 0; done && i < n; i++) {
    amp_array_view *v = uses[i].view;
    amp__source *s = v->src;
    amp__location *L = &s->loc[a];
    if (uses[i].write) {
      amp__location_record_write(L, done);
      /* Rule 5: the written part is now valid only here. */
      if (amp__rangeset_add_all(&L->valid, &uses[i].ranges))
        amp__event_wait(done); /* out of memory: keep the old state; nothing is lost but tracking */
      amp__rangeset_remove_all(&s->host_valid, &uses[i].ranges);
      for (size_t o = 0; o < s->nloc; o++)
        if (o != a)
          amp__rangeset_remove_all(&s->loc[o].valid, &uses[i].ranges);
    } else if (L->last_write != done) {
      if (amp__location_record_read(L, q->queue, done))
        clWaitForEvents(1, &done); /* out of memory: the read is over, nothing to remember */
    }
  }
  for (size_t i = 0; i < n; i++)
    amp__rangeset_free(&uses[i].ranges);
  if (srcs) {
    size_t m = distinct_sources(uses, n, srcs);
    unlock_all(srcs, m);
    if (srcs != stack_srcs)
      free(srcs);
  } else { /* out of memory for the list: unlock one by one, once each */
    for (size_t i = 0; i < n; i++) {
      int seen = 0;
      for (size_t k = 0; k < i; k++)
        seen |= uses[k].view->src == uses[i].view->src;
      if (!seen)
        pthread_mutex_unlock(&uses[i].view->src->lock);
    }
  }
}

cl_mem amp__view_buffer(const amp_array_view *view, const amp_accelerator *acc) {
  return view->src->loc[acc->index].buf;
}

/* ---- host-side operations ----------------------------------------------------------------- */

/* Waits for every command that touches the source. Called with the lock held. */
static cl_int wait_all(amp__source *s) {
  cl_int first = wait_host_idle(s);
  for (size_t a = 0; a < s->nloc; a++) {
    amp__location *L = &s->loc[a];
    cl_int w = L->last_write ? amp__event_wait(L->last_write) : CL_SUCCESS;
    cl_int r = amp__evlist_wait(&L->reads);
    if (first == CL_SUCCESS)
      first = w != CL_SUCCESS ? w : r;
  }
  return first;
}

amp_status amp__source_create(size_t bytes, void *host, int readonly, amp__source **out) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator **list = NULL;
  size_t nacc = 0;
  AMP__TRY(amp__accelerators(&list, &nacc));
  amp__source *s = calloc(1, sizeof *s);
  amp__location *loc = calloc(nacc, sizeof *loc);
  if (!s || !loc || (host && amp__rangeset_add(&s->host_valid, 0, bytes))) {
    free(s);
    free(loc);
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory creating an array view");
  }
  pthread_mutex_init(&s->lock, NULL);
  s->views = 1;
  s->host = host;
  s->host_readonly = readonly;
  s->home = -1;
  s->bytes = bytes;
  s->nloc = nacc;
  s->loc = loc;
  s->map_loc = -1;
  s->lent_loc = -1;
  if (host && amp__debug_enabled())
    s->debug_span = amp__host_span_add(host, bytes, readonly);
  *out = s;
fail:
  return status;
}

void amp__source_add_view(amp__source *s) {
  atomic_fetch_add(&s->views, 1);
}

/* Makes `want` valid at the home location: the host, or the accelerator of a device array. */
amp_status amp__source_fetch_home(amp__source *s, const amp__rangeset *want, int async) {
  amp_status status = AMP_SUCCESS;
  if (s->home < 0)
    return fetch_to_host(s, want, async);
  amp_accelerator_view *q;
  AMP__TRY(amp__queue_of((size_t)s->home, &q));
  AMP__TRY(copy_in(s, q, want));
fail:
  return status;
}

/* Unmaps what s->map_ptr maps on q's accelerator (source_map.c maps); writers wait for it. */
cl_int amp__source_unmap_locked(amp__source *s, amp_accelerator_view *q) {
  amp__location *L = &s->loc[s->map_loc];
  cl_event ev = NULL;
  const uint64_t t = amp__trace_on() ? amp__trace_now() : 0;
  cl_int err = clEnqueueUnmapMemObject(q->queue, L->buf, s->map_ptr, 0, NULL, &ev);
  if (ev) {
    if (t)
      amp__trace_command(q->acc, q->queue, ev, "unmap", 0, "amp_array_view_unmap", NULL, t);
    clFlush(q->queue);
    if (amp__location_record_read(L, q->queue, ev))
      amp__event_wait(ev); /* out of memory: then it is over before anyone writes */
    clReleaseEvent(ev);
  }
  s->mapped = 0;
  s->map_loc = -1;
  s->map_ptr = NULL;
  return err;
}

/* Rule 7: the last view of a source is going; newer data elsewhere come home. */
amp_status amp__source_release(amp__source *s) {
  amp_status status = AMP_SUCCESS;
  if (atomic_fetch_sub(&s->views, 1) != 1)
    return AMP_SUCCESS;
  pthread_mutex_lock(&s->lock);
  /* The last view of a caller's host memory brings its contents home (rule 7). A view with no
   * caller's memory (amp_array_view_create_empty, the algorithms' temporaries) has nowhere to
   * bring them: its host storage, if any, dies with it. */
  if (!s->host_readonly && s->home < 0 && caller_memory(s)) {
    amp__rangeset all = {0};
    if (amp__rangeset_append(&all, 0, s->bytes) == 0)
      status = fetch_to_host(s, &all, 0);
    amp__rangeset_free(&all);
  }
  if (s->mapped && s->map_loc >= 0) { /* released while mapped: unmap, then free */
    amp_accelerator_view *q = NULL;
    if (amp__queue_of((size_t)s->map_loc, &q) == AMP_SUCCESS)
      amp__source_unmap_locked(s, q);
  }
  /* a transient temporary whose data never reached host memory: its buffers go to retire.c with
   * the commands that still use them, for the next such temporary, so nothing here waits */
  const int nowait = s->transient && !s->host && !s->mapped;
  if (!nowait)
    wait_all(s);
  /* its buffers may serve the next such data, unless the caller owns them */
  const int scratch = !caller_memory(s) && !s->wrapped;
  for (size_t a = 0; a < s->nloc; a++) {
    amp__location *L = &s->loc[a];
    if (L->buf && nowait) {
      if (amp__evlist_push(&L->reads, L->last_write))
        amp__event_wait(L->last_write); /* out of memory: the write ends before the buffer goes */
      amp__retire(a, L->buf, s->bytes, &L->reads);
      L->buf = NULL;
    }
    set_event(&L->last_write, NULL);
    amp__evlist_free(&L->reads);
    amp__rangeset_free(&L->valid);
    if (L->buf && scratch && !nowait)
      amp__scratch_give(a, L->buf, s->bytes); /* idle: wait_all above */
    else if (L->buf) {
      amp__release_mem(L->buf);
    }
  }
  amp__evlist_free(&s->host_readers);
  amp__evlist_free(&s->host_writers);
  amp__rangeset_free(&s->host_valid);
  if (s->debug_span)
    amp__host_span_remove(s->debug_span);
  if (s->owns_host)
    free(s->host);
  pthread_mutex_unlock(&s->lock);
  pthread_mutex_destroy(&s->lock);
  free(s->loc);
  free(s);
  return status;
}

/* Host access to the view's part (synchronize read, data()): `exclusive` (read-write) also drops
 * the accelerators' copies, since the caller may now write the memory. */
/* With the lock held: host memory holds the latest contents of `want`, and no copy is still
 * reading or writing it. */
amp_status amp__source_host_latest(amp__source *s, const amp__rangeset *want) {
  amp_status status = AMP_SUCCESS;
  settle_host_writers(s);
  AMP__TRY(fetch_to_host(s, want, 0));
  AMP__TRY(ensure_host(s));
  wait_host_idle(s);
  if (amp__rangeset_add_all(&s->host_valid, want))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
fail:
  return status;
}

/* Every accelerator's copy of `want` is stale: the host (or nowhere) holds its latest contents. */
static void stale_on_devices(amp__source *s, const amp__rangeset *want) {
  for (size_t a = 0; a < s->nloc; a++)
    amp__rangeset_remove_all(&s->loc[a].valid, want);
}

amp_status amp__source_to_host(const amp_array_view *v, int exclusive) {
  amp_status status = AMP_SUCCESS;
  amp__source *s = v->src;
  amp__rangeset want = {0};
  pthread_mutex_lock(&s->lock);
  if (exclusive)
    AMP__TRY(amp__source_refuse_mapped(s, "write access to the view on the host"));
  if (amp__view_ranges(v, &want))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  AMP__TRY(amp__source_host_latest(s, &want));
  if (exclusive)
    stale_on_devices(s, &want);
fail:
  pthread_mutex_unlock(&s->lock);
  amp__rangeset_free(&want);
  return status;
}

amp_status amp__source_sync_home(const amp_array_view *v, amp_future **async_out) {
  amp_status status = AMP_SUCCESS;
  amp__source *s = v->src;
  amp__rangeset want = {0};
  amp__evlist pending = {0};
  pthread_mutex_lock(&s->lock);
  if (amp__view_ranges(v, &want))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  if (!async_out && s->home < 0) { /* as amp__source_to_host */
    AMP__TRY(amp__source_host_latest(s, &want));
    goto fail;
  }
  if (!async_out)
    settle_host_writers(s);
  AMP__TRY(amp__source_fetch_home(s, &want, async_out != NULL));
  if (s->home < 0) {
    AMP__TRY(ensure_host(s));
    if (amp__rangeset_add_all(&s->host_valid, &want))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  }
  if (async_out) {
    if (s->home >= 0 && s->loc[s->home].last_write &&
        amp__evlist_push(&pending, s->loc[s->home].last_write))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    /* The copies back just started, and those of an earlier synchronize_async that may still be
     * writing this part, are all in host_writers: the future is ready when they are done. */
    for (size_t i = 0; i < s->host_writers.n; i++)
      if (amp__evlist_push(&pending, s->host_writers.ev[i]))
        AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    /* Whatever the future stands for must be submitted, or waiting for it may never end. */
    amp__flush_producers(pending.ev, pending.n, NULL);
    AMP__TRY(amp__evlist_join(&pending, async_out));
  }
fail:
  pthread_mutex_unlock(&s->lock);
  amp__rangeset_free(&want);
  amp__evlist_free(&pending);
  return status;
}

amp_status amp__source_push(const amp_array_view *v, amp_accelerator_view *q) {
  amp_status status = AMP_SUCCESS;
  amp__source *s = v->src;
  amp__rangeset want = {0};
  pthread_mutex_lock(&s->lock);
  if (amp__view_ranges(v, &want))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  AMP__TRY(copy_in(s, q, &want));
  amp__view_enqueued(q);
fail:
  pthread_mutex_unlock(&s->lock);
  amp__rangeset_free(&want);
  return status;
}

amp_status amp__source_claim_host(const amp_array_view *v) {
  amp_status status = AMP_SUCCESS;
  amp__source *s = v->src;
  amp__rangeset want = {0};
  pthread_mutex_lock(&s->lock);
  AMP__TRY(amp__source_refuse_mapped(s, "write access to the view on the host"));
  if (amp__view_ranges(v, &want))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  AMP__TRY(ensure_host(s));
  wait_all(s); /* kernels still writing this part must not land on top of the caller's data */
  if (amp__rangeset_add_all(&s->host_valid, &want))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  stale_on_devices(s, &want);
fail:
  pthread_mutex_unlock(&s->lock);
  amp__rangeset_free(&want);
  return status;
}

/* discard_data (discard = 1: no location keeps a valid copy) and refresh (discard = 0: the host
 * becomes the only valid copy). */
amp_status amp__source_invalidate(const amp_array_view *v, int discard) {
  amp_status status = AMP_SUCCESS;
  amp__source *s = v->src;
  amp__rangeset want = {0};
  pthread_mutex_lock(&s->lock);
  AMP__TRY(amp__source_refuse_mapped(s, discard ? "amp_array_view_discard_data"
                                                : "amp_array_view_refresh"));
  if (!discard && (s->home >= 0 || !caller_memory(s)))
    goto fail; /* refresh: only caller-owned host memory can have been written directly (rule 9) */
  if (amp__view_ranges(v, &want))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  if (!discard)
    wait_host_idle(s);
  stale_on_devices(s, &want);
  if (discard)
    amp__rangeset_remove_all(&s->host_valid, &want);
  else if (amp__rangeset_add_all(&s->host_valid, &want)) /* refresh: s->host is set (above) */
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
fail:
  pthread_mutex_unlock(&s->lock);
  amp__rangeset_free(&want);
  return status;
}

amp_status amp__source_wait(amp__source *s) {
  pthread_mutex_lock(&s->lock);
  cl_int err = wait_all(s);
  pthread_mutex_unlock(&s->lock);
  if (err != CL_SUCCESS)
    return amp__set_error(amp__cl_status(err),
                          "a kernel or copy using the view's data failed on the device: %s (%d)",
                          amp_status_name(amp__cl_status(err)), (int)err);
  return AMP_SUCCESS;
}
