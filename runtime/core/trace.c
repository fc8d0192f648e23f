/* runtime/core/trace.c: the timeline of ampcl/trace.h, written as Chrome trace-event JSON.
 *
 * Recording: each command's record keeps its event (retained), the host time just before it was
 * enqueued, its accelerator and queue, and copies of its strings. Host spans keep their times and
 * thread. Records go into one array under one lock, at most AMP_TRACE_MAX of them.
 *
 * Writing (amp_trace_flush, and at exit): each pending event is waited for and its profiling
 * times (QUEUED, START, END) read, then released. Device times are moved onto the host clock per
 * accelerator: QUEUED is stamped on the device's clock when the driver takes the command, at or
 * after the host's clock read just before the enqueue, so each command's host time - QUEUED is
 * the clocks' offset minus that lag. The largest difference (the command stamped soonest) is the
 * offset used; the spread of the differences is reported as the drift. One offset per accelerator
 * keeps each queue's order; a device time can come out early by at most the smallest lag. The file
 * is rewritten whole at each flush: a complete JSON document always, also if the program dies
 * later.
 *
 * A command without device times is not given any: where the accelerator's timestamps measure
 * nothing (amp__timestamps_usable, measured once per accelerator: Mesa's rusticl on llvmpipe), or
 * where the driver answered zeros for it, the command is placed on its queue's track at its host
 * enqueue time with no duration, its args say "device_time":"n/a", and it takes no part in the
 * clock alignment; the metadata says "device_time":"n/a" and why for such an accelerator.
 *
 * The file is chosen by the environment, so it is opened with care: AMP_TRACE is read with
 * secure_getenv through amp__env_secure (a setuid or setgid program ignores it: its caller does not
 * choose what it writes), and the file is opened without following a symbolic link at its last
 * component (a link planted there by another user would otherwise redirect the write), created with
 * mode 0644 when missing. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/env_parse.h"
#include "core/knobs.h"
#include "core/timestamps.h"
#include "core/trace_impl.h"

typedef struct record {
  int is_host;
  const char *kind; /* static */
  char *name, *shape, *reason;
  uint64_t bytes;
  const amp_accelerator *acc;
  cl_command_queue queue;
  cl_event ev;                   /* until resolved */
  uint64_t t_host;               /* host: start; command: host time before the enqueue */
  uint64_t t_host1;              /* host: end */
  cl_ulong queued, start, end;   /* device clock, once resolved */
  int resolved, failed, untimed; /* untimed: no device times (placed at host time, n/a) */
  unsigned long thread;          /* host: a small number per thread */
} record;

static struct {
  pthread_once_t once;
  int on;
  char *path;
  size_t max;
  pthread_mutex_t lock;
  record *r;
  size_t n, cap;
  uint64_t dropped;
  uint64_t t_start;
} T = {.once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER};

static _Atomic unsigned long next_thread = 1;
static _Thread_local unsigned long my_thread;
static _Thread_local const char *my_reason;

uint64_t amp__trace_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void at_exit(void) {
  if (amp_trace_flush() != AMP_SUCCESS)
    fprintf(stderr, "[ampcl] AMP_TRACE: writing %s at exit failed: %s\n", T.path, amp_last_error());
}

static void init(void) {
  const char *p = amp__knob_get(AMP_KNOB_TRACE);
  if (!p || !*p)
    return;
  T.path = strdup(p);
  T.max = amp__env_trace_max(amp__knob_get(AMP_KNOB_TRACE_MAX));
  T.t_start = amp__trace_now();
  T.on = T.path != NULL;
  if (T.on)
    atexit(at_exit);
}

int amp__trace_on(void) {
  pthread_once(&T.once, init);
  return T.on;
}

void amp__trace_end(amp__traced *r, const amp_accelerator *acc, cl_command_queue q,
                    const char *kind, uint64_t bytes, const char *name) {
  if (!r->ev)
    return;
  amp__trace_command(acc, q, r->ev, kind, bytes, name, NULL, r->t);
  clReleaseEvent(r->ev);
  r->ev = NULL;
}

bool amp_trace_enabled(void) {
  return amp__trace_on() != 0;
}

const char *amp__trace_reason(const char *reason) {
  const char *old = my_reason;
  my_reason = reason;
  return old;
}

static char *dup_or_null(const char *s) {
  return s ? strdup(s) : NULL;
}

/* A slot for one record (lock held), or NULL when full or out of memory (counted as dropped). */
static record *slot(void) {
  if (T.n == T.max) {
    T.dropped++;
    return NULL;
  }
  if (T.n == T.cap) {
    size_t cap = T.cap ? 2 * T.cap : 1024;
    if (cap > T.max)
      cap = T.max;
    record *g = realloc(T.r, cap * sizeof *g);
    if (!g) {
      T.dropped++;
      return NULL;
    }
    T.r = g;
    T.cap = cap;
  }
  record *r = &T.r[T.n++];
  memset(r, 0, sizeof *r);
  return r;
}

static unsigned long thread_no(void) {
  if (!my_thread)
    my_thread = atomic_fetch_add(&next_thread, 1);
  return my_thread;
}

void amp__trace_command(const amp_accelerator *acc, cl_command_queue q, cl_event ev,
                        const char *kind, uint64_t bytes, const char *name, const char *shape,
                        uint64_t enqueued) {
  if (!amp__trace_on() || !ev)
    return;
  pthread_mutex_lock(&T.lock);
  record *r = slot();
  if (r) {
    clRetainEvent(ev);
    r->kind = kind;
    r->name = dup_or_null(name);
    r->shape = dup_or_null(shape);
    r->reason = dup_or_null(my_reason);
    r->bytes = bytes;
    r->acc = acc;
    r->queue = q;
    r->ev = ev;
    r->t_host = enqueued;
  }
  pthread_mutex_unlock(&T.lock);
}

void amp__trace_host(const char *name, uint64_t t0, uint64_t t1) {
  if (!amp__trace_on())
    return;
  unsigned long th = thread_no();
  pthread_mutex_lock(&T.lock);
  record *r = slot();
  if (r) {
    r->is_host = 1;
    r->kind = "host";
    r->name = dup_or_null(name);
    r->t_host = t0;
    r->t_host1 = t1;
    r->thread = th;
    r->resolved = 1;
  }
  pthread_mutex_unlock(&T.lock);
}

/* ---- writing -------------------------------------------------------------------------------- */

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

/* The tracks: one per (accelerator, queue), numbered from 1000, in order of first appearance. */
typedef struct track {
  const amp_accelerator *acc;
  cl_command_queue q;
} track;

static int track_of(track *t, size_t *nt, const record *r) {
  for (size_t i = 0; i < *nt; i++)
    if (t[i].acc == r->acc && t[i].q == r->queue)
      return 1000 + (int)i;
  t[*nt].acc = r->acc;
  t[*nt].q = r->queue;
  return 1000 + (int)(*nt)++;
}

static void resolve(record *r) {
  cl_int e = clWaitForEvents(1, &r->ev);
  if (e == CL_SUCCESS)
    e = clGetEventProfilingInfo(r->ev, CL_PROFILING_COMMAND_QUEUED, sizeof r->queued, &r->queued,
                                NULL);
  if (e == CL_SUCCESS)
    e = clGetEventProfilingInfo(r->ev, CL_PROFILING_COMMAND_START, sizeof r->start, &r->start,
                                NULL);
  if (e == CL_SUCCESS)
    e = clGetEventProfilingInfo(r->ev, CL_PROFILING_COMMAND_END, sizeof r->end, &r->end, NULL);
  r->failed = e != CL_SUCCESS;
  /* NVIDIA's driver (580) answers zeros for a marker enqueued with a wait list: such a record is
   * placed at its host enqueue time, and kept out of the host-device alignment, which its QUEUED
   * of 0 would throw off by the whole clock (seen: device events 57 years after the host's). */
  r->untimed = r->start == 0 || r->queued == 0;
  clReleaseEvent(r->ev);
  r->ev = NULL;
  r->resolved = 1;
}

/* The accelerators of the recorded commands and whether their timestamps measure anything. */
typedef struct verdict {
  const amp_accelerator *acc;
  int usable;
  const char *why;
} verdict;

static const verdict *verdict_of(const verdict *v, size_t nv, const amp_accelerator *acc) {
  for (size_t i = 0; i < nv; i++)
    if (v[i].acc == acc)
      return &v[i];
  return NULL;
}

/* Every accelerator with a command recorded so far, each asked once whether its timestamps
 * measure anything. The question may time a copy (the first time for an accelerator), which takes
 * the accelerator's own locks, so it is asked without holding T.lock: a thread that enqueues holds
 * those while it records. *nv = 0 when out of memory (every accelerator then counts as usable). */
static verdict *verdicts(size_t *nv) {
  *nv = 0;
  pthread_mutex_lock(&T.lock);
  size_t n = T.n;
  verdict *v = calloc(n + 1, sizeof *v);
  for (size_t i = 0; v && i < n; i++)
    if (!T.r[i].is_host && !verdict_of(v, *nv, T.r[i].acc))
      v[(*nv)++].acc = T.r[i].acc;
  pthread_mutex_unlock(&T.lock);
  for (size_t i = 0; i < *nv; i++) /* acc is only read here; the verdict is cached in it */
    v[i].usable = amp__timestamps_usable((amp_accelerator *)v[i].acc, &v[i].why);
  return v;
}

/* Per accelerator: its clock's offset (host - device), from its commands, and the drift seen. */
typedef struct align {
  const amp_accelerator *acc;
  int64_t offset, low, drift;
} align;

/* Resolves the first n records' events (with T.lock held); marks those of an accelerator whose
 * timestamps measure nothing (ver: nv verdicts) untimed; and aligns each accelerator's clock with
 * the host's from its timed commands, into al (*nal of them). */
static void align_clocks(size_t n, const verdict *ver, size_t nv, align *al, size_t *nal) {
  for (size_t i = 0; i < n; i++) {
    record *r = &T.r[i];
    if (r->is_host)
      continue;
    if (!r->resolved)
      resolve(r);
    const verdict *v = verdict_of(ver, nv, r->acc); /* NULL: recorded since, not asked: usable */
    if (v && !v->usable)
      r->untimed = 1; /* its times measure nothing: placed at host time, n/a */
    if (r->failed || r->untimed)
      continue;
    /* host - QUEUED = the true offset minus how late the driver stamped QUEUED: the largest
     * difference is the best estimate, and the spread of the differences is the drift */
    int64_t d = (int64_t)r->t_host - (int64_t)r->queued;
    size_t a = 0;
    while (a < *nal && al[a].acc != r->acc)
      a++;
    if (a == *nal) {
      al[*nal].acc = r->acc;
      al[*nal].offset = al[*nal].low = d;
      (*nal)++;
    } else {
      if (d > al[a].offset)
        al[a].offset = d;
      if (d < al[a].low)
        al[a].low = d;
      al[a].drift = al[a].offset - al[a].low;
    }
  }
}

/* The trace file (AMP_TRACE), truncated, into *out; never through a symbolic link. */
static amp_status open_trace(FILE **out) {
  FILE *f = NULL;
  int fd = open(T.path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0 || !(f = fdopen(fd, "w"))) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    return amp__set_error(
        AMP_ERROR_INVALID_ARGUMENT,
        "amp_trace_flush: cannot write the trace file \"%s\" (AMP_TRACE): %s", T.path,
        e == ELOOP ? "it is a symbolic link, which ampcl does not follow" : strerror(e));
  }
  *out = f;
  return AMP_SUCCESS;
}

/* One record as a complete event ("X"): a host span on its thread's track, a command on its
 * queue's track (tracks: *nt so far) at its device time moved onto the host clock (al), or at its
 * host enqueue time without a duration when untimed. */
static void write_event(FILE *f, const record *r, track *tracks, size_t *nt, const align *al) {
  double ts, dur;
  int tid;
  if (r->is_host) {
    tid = (int)r->thread;
    ts = (double)(r->t_host - T.t_start) / 1e3;
    dur = (double)(r->t_host1 - r->t_host) / 1e3;
  } else if (r->untimed) {
    tid = track_of(tracks, nt, r);
    ts = (double)(r->t_host - T.t_start) / 1e3;
    dur = 0;
  } else {
    size_t a = 0;
    while (al[a].acc != r->acc)
      a++;
    int64_t start = (int64_t)r->start + al[a].offset - (int64_t)T.t_start;
    tid = track_of(tracks, nt, r);
    ts = (double)start / 1e3;
    dur = (double)(r->end > r->start ? r->end - r->start : 0) / 1e3;
  }
  fprintf(f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"cat\":", tid, ts,
          dur);
  json_string(f, r->kind);
  fprintf(f, ",\"name\":");
  json_string(f, r->name ? r->name : r->kind);
  fprintf(f, ",\"args\":{");
  if (r->is_host) {
    fprintf(f, "\"thread\":%lu", r->thread);
  } else {
    fprintf(f, "\"accelerator\":");
    json_string(f, r->acc->props.device_path);
    fprintf(f, ",\"bytes\":%llu", (unsigned long long)r->bytes);
    if (r->shape) {
      fprintf(f, ",\"shape\":");
      json_string(f, r->shape);
    }
    if (r->reason) {
      fprintf(f, ",\"reason\":");
      json_string(f, r->reason);
    }
    if (r->untimed)
      fprintf(f, ",\"device_time\":\"n/a\"");
    else
      fprintf(f, ",\"queued_to_start_us\":%.3f", (double)(r->start - r->queued) / 1e3);
  }
  fprintf(f, "}}");
}

/* The names of the tracks: each queue's ("<device path> queue <i>") and each host thread's. */
static void write_track_names(FILE *f, const track *tracks, size_t nt) {
  for (size_t t = 0; t < nt; t++) {
    fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":",
            1000 + (int)t);
    char label[256];
    snprintf(label, sizeof label, "%s queue %zu", tracks[t].acc->props.device_path, t);
    json_string(f, label);
    fprintf(f, "}}");
  }
  for (unsigned long th = 1; th < atomic_load(&next_thread); th++)
    fprintf(f,
            ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%lu,\"name\":\"thread_name\",\"args\":{\"name\":"
            "\"host thread %lu\"}}",
            th, th);
}

/* The document's end: the counts, each accelerator's clock offset and drift, and "n/a" with why
 * for each accelerator whose timestamps measure nothing. */
static void write_metadata(FILE *f, size_t n, const align *al, size_t nal, const verdict *ver,
                           size_t nv) {
  fprintf(f, "\n],\"metadata\":{\"events\":%zu,\"dropped\":%llu,\"max_events\":%zu", n,
          (unsigned long long)T.dropped, T.max);
  for (size_t a = 0; a < nal; a++) {
    fprintf(f, ",");
    json_string(f, al[a].acc->props.device_path);
    fprintf(f, ":{\"clock_offset_ns\":%lld,\"clock_drift_ns\":%lld}", (long long)al[a].offset,
            (long long)al[a].drift);
  }
  for (size_t i = 0; i < nv; i++) {
    if (ver[i].usable)
      continue;
    fprintf(f, ",");
    json_string(f, ver[i].acc->props.device_path);
    fprintf(f, ":{\"device_time\":\"n/a\",\"why\":");
    json_string(f, ver[i].why);
    fprintf(f, "}");
  }
  fprintf(f, "}}\n");
}

amp_status amp_trace_flush(void) {
  if (!amp__trace_on())
    return AMP_SUCCESS;
  amp_status status = AMP_SUCCESS;
  size_t nv = 0;
  verdict *ver = verdicts(&nv);
  pthread_mutex_lock(&T.lock);
  size_t n = T.n;
  track *tracks = calloc(n + 1, sizeof *tracks);
  align *al = calloc(n + 1, sizeof *al);
  size_t nal = 0, nt = 0;
  FILE *f = NULL;
  if (!tracks || !al) {
    status = amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "amp_trace_flush: out of memory");
    goto done;
  }
  align_clocks(n, ver, nv, al, &nal);
  status = open_trace(&f);
  if (status != AMP_SUCCESS)
    goto done;
  fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"ampcl\"}}");
  for (size_t i = 0; i < n; i++)
    if (T.r[i].is_host || !T.r[i].failed)
      write_event(f, &T.r[i], tracks, &nt, al);
  write_track_names(f, tracks, nt);
  write_metadata(f, n, al, nal, ver, nv);
  if (fclose(f) != 0)
    status = amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                            "amp_trace_flush: writing the trace file \"%s\" failed", T.path);
  f = NULL;
done:
  pthread_mutex_unlock(&T.lock);
  free(tracks);
  free(al);
  free(ver);
  return status;
}
