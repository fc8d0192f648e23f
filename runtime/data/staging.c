/* runtime/data/staging.c: host <-> accelerator copies at the speed of the link, from ordinary
 * memory.
 *
 * A GPU's DMA engines read and write only pinned (page-locked) host memory. Given ordinary
 * malloc'd memory, a driver copies it through a pinned buffer of its own, one piece at a time, on
 * one thread, at a fraction of what the link moves from pinned memory (lab/staging_probe.c
 * measures both). ampcl does that staging itself, faster, in two ways at once:
 *
 *   - the copy goes in chunks through a ring of RING pinned buffers, so the host fills chunk c+1
 *     while chunk c crosses the link (and, reading, empties chunk c while c+1..c+RING-1 cross);
 *   - the host side of each chunk is copied by several threads (a small pool per accelerator, so
 *     that several GPUs staging at once do not take turns): one core's memcpy moves less than the
 *     link does.
 *
 * The chunk lands in a buffer that stays in the host's caches, which is why this beats a plain
 * multi-threaded memcpy of the whole array. The default is 7/8 of the cores, at most 14, per
 * accelerator that stages (each GPU's pool starts with its first staged copy), counting the CPUs
 * the process may run on (its affinity mask: an MPI rank bound to one core gets one), so GPUs
 * staging at the same time run more copying threads than there are cores, which measured faster
 * than sharing them out. docs/TRANSFERS.md says what this gives; lab/NOTEBOOK.md how the sizes were
 * chosen.
 *
 * When: host memory that is not already pinned (amp_host_alloc's goes straight to the driver),
 * a copy of at least AMP_STAGING_MIN bytes, to or from a device that is not a CPU device (there
 * "pinned" memory is ordinary memory and the extra copy only costs). Copies in are staged here,
 * copies back in staging_read.c (an asynchronous one by a thread of its own). Settings, read once:
 * AMP_STAGING=0 turns it off, AMP_STAGING=force uses it for every size on every device (the tests
 * do, on POCL), AMP_STAGING_CHUNK (bytes) and AMP_STAGING_THREADS. If the pinned buffers cannot be
 * had, copies go straight to the driver.
 *
 * Transfer counters and the copies' events are as without staging: the callers count one command
 * per block, and the event returned is the last chunk's (the queue is in order). A chunk that
 * fails to enqueue fails the copy: the chunks before it finish first, host memory is left as it
 * was (write) or holds the newer device contents of the chunks done (read), and the caller marks
 * nothing valid. AMP_STAGING_FAIL_AFTER=N makes the chunk after the N-th fail (a test hook). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu_count.h"
#include "core/env_parse.h"
#include "core/knobs.h"
#include "core/trace_impl.h"
#include "data/host_memory.h"
#include "data/staging_impl.h"
#include "data/stream_copy.h"

enum { RING = AMP__STAGING_RING, MAX_THREADS = AMP__STAGING_MAX_THREADS };
#define AMP_STAGING_MIN ((size_t)8 << 20)
#define DEFAULT_CHUNK   ((size_t)16 << 20)

/* ---- settings ----------------------------------------------------------------------------- */
static struct {
  int mode; /* 0 off, 1 on (large copies, GPUs), 2 forced */
  size_t chunk;
  int threads;
  int stream; /* copies back with streaming stores (stream_copy.c) */
} cfg;
static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;

static void read_settings(void) {
  cfg.mode = amp__env_staging_mode(amp__knob_get(AMP_KNOB_STAGING));
  cfg.chunk = amp__env_staging_chunk(amp__knob_get(AMP_KNOB_STAGING_CHUNK), DEFAULT_CHUNK);
  /* the CPUs this process may use, not the machine's: an MPI rank bound to one core (mpirun's
   * default for one or two ranks) that started 14 copying threads there staged 4x slower than
   * with one (lab/NOTEBOOK.md, 2026-11-27) */
  long cores = amp__usable_cpus();
  long dflt = cores * 7 / 8 > 14 ? 14 : cores * 7 / 8; /* 14 of an H100 host's 16 were best */
  cfg.threads =
      amp__env_staging_threads(amp__knob_get(AMP_KNOB_STAGING_THREADS), (int)dflt, MAX_THREADS);
  const char *stream = amp__knob_get(AMP_KNOB_STAGING_STREAM);
  cfg.stream = !(stream && strcmp(stream, "0") == 0);
}

/* ---- the memcpy pool: the host side of a chunk, split over threads ------------------------- *
 * Each accelerator's stager has a pool of its own, used only under the stager's lock: staged
 * copies to two GPUs at once (a split over several GPUs, driven from a thread each) then copy their
 * chunks at the same time instead of taking turns with one pool. With one pool for the process,
 * two GPUs moved their data no faster together than one alone: the pool was the limit
 * (measured on two H100s; lab/NOTEBOOK.md). */
static void copy_slice(amp__memcpy_pool *p, int i) {
  /* ceil(len / n) rounded up to whole cache lines: the slices cover every byte (rounding len / n
   * down first lost the last len % n bytes whenever len / n was already a multiple of 64) */
  size_t per = ((p->len + (size_t)p->n - 1) / (size_t)p->n + 63) & ~(size_t)63;
  size_t lo = per * (size_t)i, hi = lo + per > p->len ? p->len : lo + per;
  if (lo < hi && p->stream)
    amp__stream_copy(p->dst + lo, p->src + lo, hi - lo);
  else if (lo < hi)
    memcpy(p->dst + lo, p->src + lo, hi - lo);
}

static void *pool_worker(void *arg) {
  const amp__pool_slot *slot = arg;
  for (;;) { /* the workers live as long as the process, as the stager does */
    pthread_barrier_wait(&slot->pool->start);
    copy_slice(slot->pool, slot->i);
    pthread_barrier_wait(&slot->pool->done);
  }
  return NULL;
}

/* Starts the pool's threads; on any failure the pool stays single-threaded for good. */
static void pool_start(amp__memcpy_pool *p) {
  int n = cfg.threads;
  p->n = 1;
  if (n < 2 || pthread_barrier_init(&p->start, NULL, (unsigned)n) != 0)
    return;
  if (pthread_barrier_init(&p->done, NULL, (unsigned)n) != 0) {
    pthread_barrier_destroy(&p->start);
    return;
  }
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  for (int i = 1; i < n; i++) {
    pthread_t t;
    p->slot[i] = (amp__pool_slot){p, i};
    if (pthread_create(&t, &attr, pool_worker, &p->slot[i]) != 0) {
      /* the barriers count n threads; with fewer started, stay single-threaded for good (the
       * ones started wait at the barrier forever, harmlessly) */
      pthread_attr_destroy(&attr);
      return;
    }
  }
  pthread_attr_destroy(&attr);
  p->n = n;
}

/* Called with the stager's lock held: one chunk at a time per pool. */
static void pool_copy(amp__memcpy_pool *p, void *dst, const void *src, size_t len, int stream) {
  p->dst = dst;
  p->src = src;
  p->len = len;
  p->stream = stream;
  if (p->n < 2 || len < ((size_t)256 << 10)) {
    if (stream)
      amp__stream_copy(dst, src, len);
    else
      memcpy(dst, src, len);
    return;
  }
  pthread_barrier_wait(&p->start);
  copy_slice(p, 0);
  pthread_barrier_wait(&p->done);
}

/* ---- the ring of pinned buffers ------------------------------------------------------------- */
/* acc->stager of an accelerator whose buffers could not be had: not tried again. */
static amp__stager no_stager;

static amp__stager *stager_of(amp_accelerator *acc) {
  amp_accelerator_view *dv = NULL; /* maps the buffers; made here if the program never used it */
  if (!acc->stager && amp_accelerator_default_view(acc, &dv) != AMP_SUCCESS)
    dv = NULL;
  pthread_mutex_lock(&acc->lock);
  amp__stager *st = acc->stager;
  if (st) {
    pthread_mutex_unlock(&acc->lock);
    return st == &no_stager ? NULL : st;
  }
  st = calloc(1, sizeof *st);
  cl_context ctx = acc->context;
  int ok = st && ctx && dv;
  if (ok) {
    pthread_mutex_init(&st->lock, NULL);
    pthread_cond_init(&st->given, NULL);
    st->chunk = cfg.chunk;
  }
  for (int r = 0; ok && r < RING; r++) {
    cl_int err;
    st->buf[r] =
        clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, st->chunk, NULL, &err);
    if (err == CL_SUCCESS) {
      amp__traced tr = amp__trace_start();
      st->ptr[r] = clEnqueueMapBuffer(dv->queue, st->buf[r], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                      st->chunk, 0, NULL, amp__trace_ev(&tr), &err);
      amp__trace_end(&tr, acc, dv->queue, "map", st->chunk, "staging ring (pinned buffer)");
    }
    ok = err == CL_SUCCESS;
  }
  if (!ok) { /* no staging on this accelerator: copies go straight to the driver */
    if (st)
      for (int r = 0; r < RING; r++)
        if (st->buf[r]) {
          if (st->ptr[r])
            clEnqueueUnmapMemObject(dv->queue, st->buf[r], st->ptr[r], 0, NULL, NULL);
          clReleaseMemObject(st->buf[r]);
        }
    if (dv)
      clFinish(dv->queue);
    free(st);
    st = NULL;
    if (amp__debug_enabled())
      fprintf(stderr, "[ampcl] %s: no pinned staging buffers; host copies go to the driver\n",
              acc->props.device_path);
  }
  acc->stager = st ? st : &no_stager;
  pthread_mutex_unlock(&acc->lock);
  return st;
}

/* Waits until ring buffer r is free. */
cl_int amp__stager_wait_free(amp__stager *st, int r) {
  cl_int err = CL_SUCCESS;
  if (st->busy[r]) {
    err = clWaitForEvents(1, &st->busy[r]);
    clReleaseEvent(st->busy[r]);
    st->busy[r] = NULL;
  }
  return err;
}

void amp__stager_take(amp__stager *st) {
  pthread_mutex_lock(&st->lock);
  while (st->taken)
    pthread_cond_wait(&st->given, &st->lock);
  st->taken = 1;
  if (st->pool.n == 0) /* the stager is calloc'd: 0 until started */
    pool_start(&st->pool);
  pthread_mutex_unlock(&st->lock);
}

void amp__stager_give(amp__stager *st) {
  pthread_mutex_lock(&st->lock);
  st->taken = 0;
  pthread_cond_signal(&st->given);
  pthread_mutex_unlock(&st->lock);
}

void amp__stager_copy(amp__stager *st, void *dst, const void *src, size_t len) {
  pool_copy(&st->pool, dst, src, len, 0);
}

void amp__stager_copy_back(amp__stager *st, void *dst, const void *src, size_t len) {
  pool_copy(&st->pool, dst, src, len, cfg.stream);
}

int amp__stager_fail_after(void) {
  return amp__env_staging_fail_after(amp__knob_get(AMP_KNOB_STAGING_FAIL_AFTER));
}

amp__stager *amp__stager_wanted(amp_accelerator *acc, const void *host, size_t len) {
  pthread_once(&cfg_once, read_settings);
  if (cfg.mode == 0 || !acc->device)
    return NULL;
  if (cfg.mode == 1 && (len < AMP_STAGING_MIN || acc->props.is_emulated))
    return NULL;
  if (amp__host_pinned(host, len))
    return NULL;
  return stager_of(acc);
}

/* After a failed chunk: the chunks before it finish (they read or write the ring), then the
 * error goes back. */
cl_int amp__stager_settle(amp__stager *st, cl_int err) {
  for (int r = 0; r < RING; r++)
    amp__stager_wait_free(st, r);
  return err;
}

/* The direct path, traced: when tracing, an event is asked for even if the caller wants none. */
cl_int amp__stager_direct(amp_accelerator *acc, cl_command_queue q, cl_mem buf, cl_bool blocking,
                          size_t offset, size_t len, void *host, cl_uint nw, const cl_event *wait,
                          cl_event *ev, int write) {
  cl_event own = NULL, *use = ev ? ev : amp__trace_on() ? &own : NULL;
  uint64_t t = amp__trace_on() ? amp__trace_now() : 0;
  cl_int err = write ? clEnqueueWriteBuffer(q, buf, blocking, offset, len, host, nw, wait, use)
                     : clEnqueueReadBuffer(q, buf, blocking, offset, len, host, nw, wait, use);
  if (err == CL_SUCCESS && use)
    amp__trace_command(acc, q, *use, write ? "write" : "read", len, NULL, NULL, t);
  if (own)
    clReleaseEvent(own);
  return err;
}

cl_int amp__host_write(amp_accelerator *acc, cl_command_queue q, cl_mem buf, cl_bool blocking,
                       size_t offset, size_t len, const void *host, cl_uint nw,
                       const cl_event *wait, cl_event *ev) {
  amp__stager *st = amp__stager_wanted(acc, host, len);
  if (!st)
    return amp__stager_direct(acc, q, buf, blocking, offset, len, (void *)(uintptr_t)host, nw, wait,
                              ev, 1);
  const unsigned char *src = host;
  int fail = amp__stager_fail_after();
  cl_int err = CL_SUCCESS;
  amp__stager_take(st);
  for (size_t done = 0, c = 0; done < len; done += st->chunk, c++) {
    int r = (int)(c % RING);
    size_t n = len - done < st->chunk ? len - done : st->chunk;
    if ((err = amp__stager_wait_free(st, r)) != CL_SUCCESS)
      break;
    amp__stager_copy(st, st->ptr[r], src + done, n);
    uint64_t t = amp__trace_on() ? amp__trace_now() : 0;
    err = fail >= 0 && (int)c >= fail
              ? CL_OUT_OF_RESOURCES
              : clEnqueueWriteBuffer(q, buf, CL_FALSE, offset + done, n, st->ptr[r],
                                     c == 0 ? nw : 0, c == 0 ? wait : NULL, &st->busy[r]);
    if (err != CL_SUCCESS) {
      st->busy[r] = NULL;
      break;
    }
    amp__trace_command(acc, q, st->busy[r], "write (staged chunk)", n, NULL, NULL, t);
    clFlush(q);
    if (done + n == len && ev) {
      clRetainEvent(st->busy[r]);
      *ev = st->busy[r];
    }
  }
  if (err != CL_SUCCESS)
    err = amp__stager_settle(st, err);
  else if (blocking)
    err = clFinish(q);
  amp__stager_give(st);
  return err;
}
