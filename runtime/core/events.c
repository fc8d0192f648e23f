/* runtime/core/events.c: growable lists of retained events; waiting for them; and a future
 * that joins several events (a copy made of several commands, on several queues). */
#include <stdlib.h>
#include <string.h>

#include "core/clobjects.h"
#include "core/events.h"

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

void amp__flush_producers(const cl_event *ev, size_t n, cl_command_queue mine) {
  /* OpenCL 1.2 §5.13: before a command waits for events of another queue, that queue must have
   * been flushed, or the wait may never end. In automatic mode ampcl does not flush on enqueue. */
  for (size_t i = 0; i < n; i++) {
    cl_command_queue q = NULL;
    cl_int st = CL_COMPLETE;
    /* Our own queue's commands (the usual case) and user events need nothing; comparing the
     * handle touches no queue, which may be gone (a released view). */
    if (!ev[i] || clGetEventInfo(ev[i], CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL) != CL_SUCCESS ||
        !q || q == mine)
      continue;
    /* A finished command needs nothing either, and then its queue may be gone. */
    if (clGetEventInfo(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) ==
            CL_SUCCESS &&
        st != CL_COMPLETE && st >= 0)
      clFlush(q);
  }
}

/* Waits for one event; returns the OpenCL error the command failed with, or CL_SUCCESS. A command
 * that has already ended (the usual case when a view is released after its synchronize) is not
 * waited for: its status says so without a call into the driver's wait. */
cl_int amp__event_wait(cl_event e) {
  cl_int st = CL_QUEUED;
  if (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) != CL_SUCCESS ||
      st > CL_COMPLETE) {
    clWaitForEvents(1, &e);
    if (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) != CL_SUCCESS)
      return CL_SUCCESS;
  }
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
