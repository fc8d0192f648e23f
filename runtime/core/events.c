/* runtime/core/events.c: growable lists of retained events; waiting for them; and a future
 * that joins several events (a copy made of several commands, on several queues). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/clobjects.h"
#include "core/events.h"
#include "core/knobs.h"

int amp__evlist_push(amp__evlist *l, cl_event e) {
  if (!e)
    return 0;
  for (size_t i = 0; i < l->n; i++)
    if (l->ev[i] == e)
      return 0;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 8;
    cl_event *p = realloc(l->ev, cap * sizeof *p);
    if (!p)
      return -1;
    l->ev = p;
    l->cap = cap;
  }
  clRetainEvent(e);
  l->ev[l->n++] = e;
  return 0;
}

void amp__evlist_drop_queue(amp__evlist *l, cl_command_queue q) {
  size_t o = 0;
  for (size_t i = 0; i < l->n; i++) {
    cl_command_queue eq = NULL;
    if (clGetEventInfo(l->ev[i], CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL) == CL_SUCCESS &&
        eq == q)
      clReleaseEvent(l->ev[i]);
    else
      l->ev[o++] = l->ev[i];
  }
  l->n = o;
}

void amp__evlist_clear(amp__evlist *l) {
  for (size_t i = 0; i < l->n; i++)
    clReleaseEvent(l->ev[i]);
  l->n = 0;
}

void amp__evlist_free(amp__evlist *l) {
  amp__evlist_clear(l);
  free(l->ev);
  memset(l, 0, sizeof *l);
}

/* Whether commands on q wait for their own queue's events too (AMP_WAIT_OWN_QUEUE=1). */
static int own_queue_waits(void) {
  static _Atomic int cached = -1;
  int v = atomic_load(&cached);
  if (v < 0) {
    const char *s = amp__knob_get(AMP_KNOB_WAIT_OWN_QUEUE);
    v = s && strcmp(s, "1") == 0;
    atomic_store(&cached, v);
  }
  return v;
}

static int in_order(cl_command_queue q) {
  cl_command_queue_properties p = 0;
  return clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL) == CL_SUCCESS &&
         !(p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

size_t amp__waits_for(cl_event *ev, size_t n, cl_command_queue mine) {
  size_t keep = 0;
  int order = -1; /* whether `mine` is in order: asked once, when one of its events turns up */
  for (size_t i = 0; i < n; i++) {
    cl_command_queue q = NULL;
    cl_int st = CL_COMPLETE;
    /* A user event, or an event the driver no longer answers for: kept, untouched. Comparing the
     * handle touches no queue, which may be gone (a released view). */
    if (!ev[i] || clGetEventInfo(ev[i], CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL) != CL_SUCCESS ||
        !q) {
      ev[keep++] = ev[i];
      continue;
    }
    if (q == mine) { /* the queue's own order already makes the command wait for it */
      if (order < 0)
        order = !own_queue_waits() && in_order(mine);
      if (order) {
        cl_event e = ev[i]; /* to the tail: the caller's list still owns it */
        memmove(ev + i, ev + i + 1, (n - i - 1) * sizeof *ev);
        ev[n - 1] = e;
        n--, i--;
        continue;
      }
      ev[keep++] = ev[i];
      continue;
    }
    /* OpenCL 1.2 §5.13: before a command waits for events of another queue, that queue must have
     * been flushed, or the wait may never end; in automatic mode ampcl does not flush on enqueue.
     * A finished command needs nothing, and then its queue may be gone. */
    if (clGetEventInfo(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) ==
            CL_SUCCESS &&
        st != CL_COMPLETE && st >= 0)
      clFlush(q);
    ev[keep++] = ev[i];
  }
  return keep;
}

void amp__evlist_ready(amp__evlist *l, cl_command_queue mine) {
  size_t keep = amp__waits_for(l->ev, l->n, mine);
  for (size_t i = keep; i < l->n; i++)
    clReleaseEvent(l->ev[i]);
  l->n = keep;
}

/* Waits for one event; returns the OpenCL error the command failed with, or CL_SUCCESS. */
cl_int amp__event_wait(cl_event e) {
  cl_int st = CL_COMPLETE;
  clWaitForEvents(1, &e);
  if (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) != CL_SUCCESS)
    return CL_SUCCESS;
  return st < 0 ? st : CL_SUCCESS;
}

/* Waits for every event of the list, one at a time (the events of a source come from the contexts
 * of several accelerators, and one clWaitForEvents call may not mix contexts), and empties it.
 * Returns the first failure of a command waited for, or CL_SUCCESS. */
cl_int amp__evlist_wait(amp__evlist *l) {
  cl_int first = CL_SUCCESS;
  for (size_t i = 0; i < l->n; i++) {
    cl_int st = amp__event_wait(l->ev[i]);
    if (first == CL_SUCCESS)
      first = st;
  }
  amp__evlist_clear(l);
  return first;
}

int amp__evlist_ended(const amp__evlist *l) {
  for (size_t i = 0; i < l->n; i++) {
    cl_int st = CL_COMPLETE;
    if (clGetEventInfo(l->ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) ==
            CL_SUCCESS &&
        st > CL_COMPLETE)
      return 0;
  }
  return 1;
}

/* Completes a user event once every event of a list has completed. */
typedef struct join_ctx {
  _Atomic int left;
  _Atomic int failed;
  cl_event user;
} join_ctx;

static void CL_CALLBACK join_one(cl_event e, cl_int st, void *p) {
  (void)e;
  join_ctx *j = p;
  if (st < 0)
    atomic_store(&j->failed, st);
  if (atomic_fetch_sub(&j->left, 1) == 1) {
    int f = atomic_load(&j->failed);
    clSetUserEventStatus(j->user, f < 0 ? f : CL_COMPLETE);
    clReleaseEvent(j->user);
    free(j);
  }
}

/* A future that is ready when every event in `l` is (and at once when l is empty). One event
 * is the future's own event. Several are joined by a user event that callbacks count down;
 * their commands' queues are flushed, since OpenCL runs a callback only once its command has
 * run, which it promises only for flushed commands (POCL runs commands as they are enqueued,
 * oclgrind only when their queue is flushed or waited on). */
amp_status amp__evlist_join(const amp__evlist *l, amp_future **out) {
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  join_ctx *j = NULL;
  if (l->n == 1) {
    clRetainEvent(l->ev[0]);
    status = amp__future_create(l->ev[0], 0, out); /* flushes the event's queue */
    if (status != AMP_SUCCESS)
      clReleaseEvent(l->ev[0]);
    return status;
  }
  AMP__TRY(amp__any_context(&ctx)); /* a user event may live in any context */
  cl_int err = CL_SUCCESS;
  cl_event user = clCreateUserEvent(ctx, &err);
  AMP__CL(err, "clCreateUserEvent");
  if (l->n == 0) {
    clSetUserEventStatus(user, CL_COMPLETE);
  } else {
    j = malloc(sizeof *j);
    if (!j) {
      clSetUserEventStatus(user, CL_COMPLETE);
      clReleaseEvent(user);
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    atomic_init(&j->left, (int)l->n);
    atomic_init(&j->failed, 0);
    clRetainEvent(user);
    j->user = user;
    /* An event that has already completed is counted down here (oclgrind never calls a
     * callback set on a completed event); where a callback cannot be set, wait and count the
     * event down at once: the future must become ready either way. */
    for (size_t i = 0; i < l->n; i++)
      if (amp__on_complete(l->ev[i], join_one, j) != CL_SUCCESS)
        join_one(l->ev[i], amp__event_wait(l->ev[i]), j);
    for (size_t i = 0; i < l->n; i++) {
      cl_command_queue q = NULL;
      if (clGetEventInfo(l->ev[i], CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL) == CL_SUCCESS && q)
        clFlush(q);
    }
  }
  status = amp__future_create(user, 0, out);
  if (status != AMP_SUCCESS)
    clReleaseEvent(user);
fail:
  return status;
}
