/* runtime/core/interop_event.c: OpenCL events and ampcl futures, both ways (ampcl/interop.h): a
 * caller's cl_event as a future, a future's cl_event handed out, and a view's later commands
 * ordered after a future. */
#include "ampcl/interop.h"
#include "core/accelerator_impl.h"

/* The event's context, or an error naming `fn` when OpenCL does not know the event. */
static amp_status event_context(cl_event event, const char *fn, cl_context *out) {
  cl_int err = clGetEventInfo(event, CL_EVENT_CONTEXT, sizeof *out, out, NULL);
  if (err != CL_SUCCESS)
    return amp__unknown_cl_object(fn, "event", event, "an event", "clGetEventInfo", err);
  return AMP_SUCCESS;
}

amp_status amp_future_create_from_cl_event(cl_event event, amp_future **out) {
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  if (!event || !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_future_create_from_cl_event: %s is NULL",
              !event ? "event" : "out");
  AMP__TRY(event_context(event, "amp_future_create_from_cl_event", &ctx));
  cl_command_type type = 0;
  clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
  clRetainEvent(event); /* the future's reference, released with it */
  /* a kernel's event carries a device time (amp_future_elapsed_ns), on a profiling queue */
  status = amp__future_create(event, type == CL_COMMAND_NDRANGE_KERNEL, out);
  if (status != AMP_SUCCESS)
    clReleaseEvent(event);
fail:
  return status;
}

amp_status amp_future_get_cl_event(amp_future *future, cl_event *out) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(AMP__CHECK_GET(future, AMP__MAGIC_FUTURE, "future", out));
  clRetainEvent(future->event); /* the caller's reference */
  *out = future->event;
fail:
  return status;
}

amp_status amp_accelerator_view_wait_for(amp_accelerator_view *view, amp_future *future) {
  amp_status status = AMP_SUCCESS;
  cl_context mine, theirs;
  AMP__CHECK(view, AMP__MAGIC_VIEW, "accelerator view");
  AMP__CHECK(future, AMP__MAGIC_FUTURE, "future");
  AMP__TRY(amp__context(view->acc, &mine));
  AMP__TRY(event_context(future->event, "amp_accelerator_view_wait_for", &theirs));
  if (theirs != mine) /* no command may wait for another context's event: wait here */
    return amp_future_wait(future);
  cl_int st = CL_COMPLETE;
  clGetEventInfo(future->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  if (st < 0) /* failed already: a barrier on it would fail every later command of the queue */
    return amp_future_wait(future);
  AMP__CL(clEnqueueBarrierWithWaitList(view->queue, 1, &future->event, NULL),
          "clEnqueueBarrierWithWaitList (amp_accelerator_view_wait_for)");
  amp__view_enqueued(view);
fail:
  return status;
}
