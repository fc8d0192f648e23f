/* runtime/data/staging_impl.h: the stager's parts, shared by the blocking copies (staging.c) and
 * the copies back (staging_read.c). Not a contract for anything outside data/. */
#ifndef AMPCL_RUNTIME_STAGING_IMPL_H
#define AMPCL_RUNTIME_STAGING_IMPL_H

#include <pthread.h>

#include "data/staging.h"

enum { AMP__STAGING_RING = 4, AMP__STAGING_MAX_THREADS = 32 };

/* ---- the memcpy pool: the host side of a chunk, split over threads ------------------------- *
 * Each accelerator's stager has a pool of its own, used only by the copy that holds the stager:
 * staged copies to two GPUs at once (a split over several GPUs, driven from a thread each) then
 * copy their chunks at the same time instead of taking turns with one pool. With one pool for the
 * process, two GPUs moved their data no faster together than one alone: the pool was the limit
 * (measured on two H100s; lab/NOTEBOOK.md). */
typedef struct amp__memcpy_pool amp__memcpy_pool;
typedef struct amp__pool_slot { /* what worker i is given */
  amp__memcpy_pool *pool;
  int i;
} amp__pool_slot;

struct amp__memcpy_pool {
  int n; /* threads, the caller included; 0: not started yet; 1: no pool */
  pthread_barrier_t start, done;
  unsigned char *dst;
  const unsigned char *src;
  size_t len;
  int stream; /* the slices are copied by amp__stream_copy (a copy back), else memcpy */
  amp__pool_slot slot[AMP__STAGING_MAX_THREADS];
};

struct amp__stager {
  /* one staged copy at a time per accelerator (they share the link and the ring): `taken` under
   * `lock`, so that the thread that finishes an asynchronous copy can give the stager back */
  pthread_mutex_t lock;
  pthread_cond_t given;
  int taken;
  size_t chunk;
  amp__memcpy_pool pool; /* its threads start with the first staged copy */
  cl_mem buf[AMP__STAGING_RING];
  unsigned char *ptr[AMP__STAGING_RING];
  cl_event busy[AMP__STAGING_RING]; /* the last copy that used each buffer */
};

/* The stager to use for a copy of `len` bytes at `host` to or from `acc`, or NULL: the copy goes
 * straight to the driver (staging off, a small copy, a CPU device, pinned memory, no buffers). */
amp__stager *amp__stager_wanted(amp_accelerator *acc, const void *host, size_t len);

/* Takes the stager for one staged copy (waiting while another copy holds it), starting its memcpy
 * pool at the first; any thread may give it back. */
void amp__stager_take(amp__stager *st);
void amp__stager_give(amp__stager *st);

/* memcpy through the stager's pool (by the thread that holds the stager). */
void amp__stager_copy(amp__stager *st, void *dst, const void *src, size_t len);
/* The same for a copy back into the caller's memory: streaming stores (stream_copy.c) unless
 * AMP_STAGING_STREAM=0. */
void amp__stager_copy_back(amp__stager *st, void *dst, const void *src, size_t len);

/* Waits until ring buffer r is free (its last copy done) and forgets that copy's event. */
cl_int amp__stager_wait_free(amp__stager *st, int r);

/* AMP_STAGING_FAIL_AFTER: the chunk after the N-th fails to enqueue (a test hook); -1 when unset.
 */
int amp__stager_fail_after(void);

/* After a failed chunk: the chunks before it finish (they read or write the ring), then `err` goes
 * back. */
cl_int amp__stager_settle(amp__stager *st, cl_int err);

/* The copy without staging, traced (an event is asked for when tracing even if the caller wants
 * none). `write`: host to device. */
cl_int amp__stager_direct(amp_accelerator *acc, cl_command_queue q, cl_mem buf, cl_bool blocking,
                          size_t offset, size_t len, void *host, cl_uint nw, const cl_event *wait,
                          cl_event *ev, int write);

#endif /* AMPCL_RUNTIME_STAGING_IMPL_H */
