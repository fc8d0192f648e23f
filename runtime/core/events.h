/* runtime/core/events.h: lists of OpenCL events, waiting on them, and joining them into one
 * future (events.c). */
#ifndef AMPCL_RUNTIME_EVENTS_H
#define AMPCL_RUNTIME_EVENTS_H

#include "core/accelerator_impl.h"

/* A growable list of retained events. */
typedef struct amp__evlist {
  cl_event *ev;
  size_t n, cap;
} amp__evlist;

int amp__evlist_push(amp__evlist *l, cl_event e); /* retains e; 0 ok, -1 out of memory */
/* Flushes the queues (other than `mine`) of the events a command is about to wait for. */
void amp__flush_producers(const cl_event *ev, size_t n, cl_command_queue mine);
void amp__evlist_clear(amp__evlist *l); /* releases every event */
/* Removes (and releases) the events of commands enqueued on queue q. */
void amp__evlist_drop_queue(amp__evlist *l, cl_command_queue q);
void amp__evlist_free(amp__evlist *l);

/* Waits for one event; returns the OpenCL error its command failed with, or CL_SUCCESS. */
cl_int amp__event_wait(cl_event e);
/* Waits for every event of the list, one at a time (the events may come from the contexts of
 * several accelerators, and one clWaitForEvents call may not mix contexts), and empties it.
 * Returns the first failure of a command waited for, or CL_SUCCESS. */
cl_int amp__evlist_wait(amp__evlist *l);
/* Whether every command of the list has ended (completed or failed, or can no longer be asked
 * about), without waiting. */
int amp__evlist_ended(const amp__evlist *l);
/* A future that is ready when every event in `l` is (at once when l is empty). */
amp_status amp__evlist_join(const amp__evlist *l, amp_future **out);

#endif /* AMPCL_RUNTIME_EVENTS_H */
