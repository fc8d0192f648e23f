/* runtime/data/staging_read.c: copies back into ordinary host memory, staged through the pinned
 * ring (staging.c says why staging is faster than the driver's own path, and when it is used).
 *
 * A blocking staged read empties each chunk of the ring on the calling thread, RING chunks
 * behind the one it enqueues. An asynchronous one (amp_array_view_synchronize_async, amp_copy_async
 * from a device) must return at once, so:
 *
 *   - every chunk's read is enqueued now, in order. The read of chunk c into ring buffer
 *     c % RING waits for a user event, "chunk c - RING has been emptied", so the in-order queue
 *     holds each later chunk, and every command the program enqueues after the copy, behind the
 *     chunks, exactly as behind one read;
 *   - a thread of the copy's own waits for each chunk's read in turn, copies the chunk into host
 *     memory through the stager's memcpy pool and sets the chunk's user event;
 *   - the event handed back is one more user event, complete when the last chunk is in host
 *     memory, or failed with the first error. Waiting for it, or passing it in a wait list, is
 *     waiting for the whole copy.
 *
 * The stager stays taken until the thread has emptied the last chunk: another staged copy to or
 * from the same accelerator waits for it (they would share the ring and the link anyway). If the
 * thread cannot be started, the calling thread empties the chunks before it returns: the copy is
 * then blocking, and as fast. A chunk that fails to enqueue fails the call at once, as a blocking
 * copy does: the chunks before it are emptied first, and the event is not handed out. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/trace_impl.h"
#include "data/staging_impl.h"

enum { RING = AMP__STAGING_RING };

typedef struct job {
  amp__stager *st;
  unsigned char *dst;
  size_t len, chunk;
  size_t n;          /* chunks enqueued */
  cl_event *read;    /* [n]: each chunk's read into the ring */
  cl_event *emptied; /* [n]: user events, chunk c is in host memory (made for c < n - RING) */
  cl_event done;     /* the user event handed back */
} job;

static void job_free(job *j) {
  for (size_t c = 0; c < j->n; c++) {
    if (j->read[c])
      clReleaseEvent(j->read[c]);
    if (j->emptied[c])
      clReleaseEvent(j->emptied[c]);
  }
  if (j->done)
    clReleaseEvent(j->done);
  free(j->read);
  free(j->emptied);
  free(j);
}

/* The status a finished command ended with (CL_COMPLETE, or its negative error). */
static cl_int finished(cl_event ev) {
  cl_int status = CL_COMPLETE;
  cl_int err = clWaitForEvents(1, &ev);
  if (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) !=
      CL_SUCCESS)
    status = err != CL_SUCCESS ? err : CL_INVALID_EVENT;
  return status < 0 ? status : err != CL_SUCCESS ? err : CL_COMPLETE;
}

/* Empties the enqueued chunks in order, then gives the stager back and sets `done`; `failed` is
 * the enqueue error that cut the copy short (CL_SUCCESS when every chunk is enqueued). */
static cl_int empty_chunks(job *j, cl_int failed) {
  cl_int err = CL_SUCCESS;
  for (size_t c = 0; c < j->n; c++) {
    cl_int status = finished(j->read[c]); /* wait even after an error: the ring is reused */
    if (err == CL_SUCCESS && status != CL_COMPLETE)
      err = status;
    if (err == CL_SUCCESS) {
      size_t off = c * j->chunk, n = j->len - off < j->chunk ? j->len - off : j->chunk;
      amp__stager_copy_back(j->st, j->dst + off, j->st->ptr[c % RING], n);
    }
    if (j->emptied[c]) /* a failed user event ends the reads that wait for it */
      clSetUserEventStatus(j->emptied[c], err == CL_SUCCESS ? CL_COMPLETE : err);
  }
  if (err == CL_SUCCESS)
    err = failed;
  amp__stager_give(j->st);
  if (j->done)
    clSetUserEventStatus(j->done, err == CL_SUCCESS ? CL_COMPLETE : err);
  job_free(j);
  return err;
}

static void *empty_chunks_thread(void *arg) {
  empty_chunks(arg, CL_SUCCESS);
  return NULL;
}

/* Enqueues chunk c's read into ring buffer c % RING: after the caller's wait list (the first
 * chunk), the buffer's last copy (a staged write that may still be reading it) and the chunk
 * that used the buffer before (its user event). */
static cl_int enqueue_chunk(job *j, amp_accelerator *acc, cl_command_queue q, cl_mem buf,
                            size_t offset, size_t c, cl_uint nw, const cl_event *wait) {
  amp__stager *st = j->st;
  int r = (int)(c % RING);
  size_t off = c * j->chunk, n = j->len - off < j->chunk ? j->len - off : j->chunk;
  cl_event list[2];
  cl_uint nl = 0;
  if (c == 0 && nw == 1)
    list[nl++] = wait[0];
  if (st->busy[r])
    list[nl++] = st->busy[r];
  if (c >= RING)
    list[nl++] = j->emptied[c - RING];
  const cl_event *use = list;
  if (c == 0 && nw > 1) { /* more than one event to wait for: wait on the host (rare) */
    cl_int err = clWaitForEvents(nw, wait);
    if (err != CL_SUCCESS)
      return err;
  }
  int fail = amp__stager_fail_after();
  uint64_t t = amp__trace_on() ? amp__trace_now() : 0;
  cl_int err = fail >= 0 && (int)c >= fail
                   ? CL_OUT_OF_RESOURCES
                   : clEnqueueReadBuffer(q, buf, CL_FALSE, offset + off, n, st->ptr[r], nl,
                                         nl ? use : NULL, &j->read[c]);
  if (err != CL_SUCCESS)
    return err;
  j->n = c + 1;
  amp__trace_command(acc, q, j->read[c], "read (staged chunk, asynchronous)", n, NULL, NULL, t);
  if (st->busy[r]) { /* the read waits for it: the ring's bookkeeping can forget it */
    clReleaseEvent(st->busy[r]);
    st->busy[r] = NULL;
  }
  clFlush(q);
  return CL_SUCCESS;
}

static cl_int read_async(amp__stager *st, amp_accelerator *acc, cl_command_queue q, cl_mem buf,
                         size_t offset, size_t len, void *host, cl_uint nw, const cl_event *wait,
                         cl_event *ev) {
  const size_t chunks = (len + st->chunk - 1) / st->chunk;
  cl_int err = CL_SUCCESS;
  job *j = calloc(1, sizeof *j);
  if (j) {
    j->read = calloc(chunks, sizeof *j->read);
    j->emptied = calloc(chunks, sizeof *j->emptied);
  }
  if (!j || !j->read || !j->emptied) {
    if (j)
      job_free(j);
    amp__stager_give(st);
    return CL_OUT_OF_HOST_MEMORY;
  }
  j->st = st;
  j->dst = host;
  j->len = len;
  j->chunk = st->chunk;
  j->done = clCreateUserEvent(acc->context, &err);
  for (size_t c = 0; err == CL_SUCCESS && c < chunks; c++) {
    if (c + RING < chunks) /* a later chunk will wait for this one to be emptied */
      j->emptied[c] = clCreateUserEvent(acc->context, &err);
    if (err == CL_SUCCESS)
      err = enqueue_chunk(j, acc, q, buf, offset, c, nw, wait);
  }
  if (err != CL_SUCCESS) { /* empty what was enqueued, here, and report the failure */
    for (size_t c = j->n; c < chunks; c++)
      if (j->emptied[c]) { /* no read waits for these: end them for the release */
        clSetUserEventStatus(j->emptied[c], err);
        clReleaseEvent(j->emptied[c]);
        j->emptied[c] = NULL;
      }
    empty_chunks(j, err);
    return err;
  }
  if (ev) {
    clRetainEvent(j->done);
    *ev = j->done;
  }
  pthread_t t;
  pthread_attr_t attr;
  int started = 0;
  if (pthread_attr_init(&attr) == 0) {
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    started = pthread_create(&t, &attr, empty_chunks_thread, j) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!started) /* no thread: the copy completes here */
    return empty_chunks(j, CL_SUCCESS);
  return CL_SUCCESS;
}

cl_int amp__host_read(amp_accelerator *acc, cl_command_queue q, cl_mem buf, cl_bool blocking,
                      size_t offset, size_t len, void *host, cl_uint nw, const cl_event *wait,
                      cl_event *ev) {
  amp__stager *st = amp__stager_wanted(acc, host, len);
  if (!st)
    return amp__stager_direct(acc, q, buf, blocking, offset, len, host, nw, wait, ev, 0);
  if (!blocking) {
    amp__stager_take(st);
    return read_async(st, acc, q, buf, offset, len, host, nw, wait, ev);
  }
  unsigned char *dst = host;
  const size_t chunk = st->chunk, nchunks = (len + chunk - 1) / chunk;
  int fail = amp__stager_fail_after();
  cl_int err = CL_SUCCESS;
  amp__stager_take(st);
  /* chunks 0..RING-1 start crossing; then each chunk emptied frees its buffer for chunk+RING */
  for (size_t c = 0; c < nchunks && err == CL_SUCCESS; c++) {
    int r = (int)(c % RING);
    size_t off = c * chunk, n = len - off < chunk ? len - off : chunk;
    if (c >= RING) { /* empty the chunk that used this buffer before */
      size_t poff = (c - RING) * chunk;
      if ((err = amp__stager_wait_free(st, r)) != CL_SUCCESS)
        break;
      amp__stager_copy_back(st, dst + poff, st->ptr[r], chunk);
    } else if ((err = amp__stager_wait_free(st, r)) != CL_SUCCESS) {
      break;
    }
    uint64_t t = amp__trace_on() ? amp__trace_now() : 0;
    err = fail >= 0 && (int)c >= fail
              ? CL_OUT_OF_RESOURCES
              : clEnqueueReadBuffer(q, buf, CL_FALSE, offset + off, n, st->ptr[r], c == 0 ? nw : 0,
                                    c == 0 ? wait : NULL, &st->busy[r]);
    if (err != CL_SUCCESS) {
      st->busy[r] = NULL;
    } else {
      amp__trace_command(acc, q, st->busy[r], "read (staged chunk)", n, NULL, NULL, t);
      clFlush(q);
    }
  }
  /* the last RING chunks (or fewer) */
  size_t first_left = nchunks > RING ? nchunks - RING : 0;
  for (size_t c = first_left; c < nchunks && err == CL_SUCCESS; c++) {
    int r = (int)(c % RING);
    size_t off = c * chunk, n = len - off < chunk ? len - off : chunk;
    if (ev && c + 1 == nchunks && st->busy[r]) {
      clRetainEvent(st->busy[r]);
      *ev = st->busy[r];
    }
    if ((err = amp__stager_wait_free(st, r)) != CL_SUCCESS)
      break;
    amp__stager_copy_back(st, dst + off, st->ptr[r], n);
  }
  if (err != CL_SUCCESS)
    err = amp__stager_settle(st, err);
  amp__stager_give(st);
  return err;
}
