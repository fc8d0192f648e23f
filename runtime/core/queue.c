/* runtime/core/queue.c: accelerator views (in-order OpenCL queues) and completion futures (AMP
 * §3.3).
 */
#include <stdlib.h>
#include <string.h>

#include "core/accelerator_impl.h"
#include "core/clobjects.h"
#include "core/profiling.h"
#include "core/timestamps.h"
#include "core/trace_impl.h"

static amp_status new_view(amp_accelerator *acc, amp_queuing_mode mode, bool profiling,
                           int is_default, amp_accelerator_view **out) {
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  amp_accelerator_view *v = NULL;
  AMP__TRY(amp__context(acc, &ctx));
  v = amp__handle_alloc(sizeof *v);
  if (!v)
    AMP__TRY(amp__handle_alloc_status());
  cl_int err = CL_SUCCESS;
  const cl_command_queue_properties props = amp__queue_properties(profiling);
  v->queue = clCreateCommandQueue(ctx, acc->device, props, &err);
  AMP__CL(err, "clCreateCommandQueue");
  v->profiling = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
  is_default ? amp__clobj_process(AMP_CL_QUEUE, 1) : amp__clobj(AMP_CL_QUEUE, 1);
  v->magic = AMP__MAGIC_VIEW;
  v->refs = 1;
  v->is_default = is_default;
  v->acc = acc;
  v->mode = mode;
  *out = v;
  return AMP_SUCCESS;
fail:
  amp__handle_retire(v);
  return status;
}

amp_status amp_accelerator_default_view(amp_accelerator *acc, amp_accelerator_view **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(acc, AMP__MAGIC_ACCELERATOR, "accelerator");
  AMP__CHECK_OUT(out);
  if (acc->props.is_host)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "amp_accelerator_default_view: \"cpu\" is the host location: it has no queue and "
              "runs no kernels%s%s",
              *amp__no_device_reason() ? "; " : "", amp__no_device_reason());
  pthread_mutex_lock(&acc->lock);
  amp_accelerator_view *v = acc->default_view;
  pthread_mutex_unlock(&acc->lock);
  if (!v) {
    bool profiling;
    AMP__TRY(amp__profiling_default(&profiling, "amp_accelerator_default_view"));
    AMP__TRY(new_view(acc, AMP_QUEUING_MODE_AUTOMATIC, profiling, 1, &v));
    pthread_mutex_lock(&acc->lock);
    if (acc->default_view) { /* another thread won the race */
      clReleaseCommandQueue(v->queue);
      amp__clobj_process(AMP_CL_QUEUE, -1);
      free(v);
      v = acc->default_view;
    } else {
      acc->default_view = v;
    }
    pthread_mutex_unlock(&acc->lock);
  }
  *out = v;
fail:
  return status;
}

static amp_status create_view(amp_accelerator *acc, amp_queuing_mode mode, int profiling,
                              amp_accelerator_view **out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(acc, AMP__MAGIC_ACCELERATOR, "accelerator", fn));
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
  if (mode != AMP_QUEUING_MODE_AUTOMATIC && mode != AMP_QUEUING_MODE_IMMEDIATE)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: queuing mode %d is neither AMP_QUEUING_MODE_AUTOMATIC nor "
              "AMP_QUEUING_MODE_IMMEDIATE",
              fn, (int)mode);
  if (acc->props.is_host)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "%s: \"cpu\" is the host location: it has no queue and runs no kernels%s%s", fn,
              *amp__no_device_reason() ? "; " : "", amp__no_device_reason());
  bool on = profiling != 0;
  if (profiling < 0) /* as the process says */
    AMP__TRY(amp__profiling_default(&on, fn));
  AMP__TRY(new_view(acc, mode, on, 0, out));
fail:
  return status;
}

amp_status amp_accelerator_create_view(amp_accelerator *acc, amp_queuing_mode mode,
                                       amp_accelerator_view **out) {
  return create_view(acc, mode, -1, out, "amp_accelerator_create_view");
}

amp_status amp_accelerator_create_view_profiling(amp_accelerator *acc, amp_queuing_mode mode,
                                                 bool profiling, amp_accelerator_view **out) {
  return create_view(acc, mode, profiling, out, "amp_accelerator_create_view_profiling");
}

AMP__DEFINE_GETTER(amp_accelerator_view_get_profiling, amp_accelerator_view, AMP__MAGIC_VIEW,
                   "accelerator view", bool, h->profiling)

amp_status amp_default_view(amp_accelerator_view **out) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator *acc;
  AMP__TRY(amp_accelerator_get_default(&acc));
  if (acc->props.is_host)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "amp_default_view: the default accelerator is \"cpu\" (host memory), which runs no "
              "kernels: %s",
              *amp__no_device_reason()
                  ? amp__no_device_reason()
                  : "set AMP_DEFAULT_ACCELERATOR or call amp_accelerator_set_default with a device "
                    "path from amp-info");
  AMP__TRY(amp_accelerator_default_view(acc, out));
fail:
  return status;
}

amp_status amp_accelerator_view_get_accelerator(const amp_accelerator_view *view,
                                                amp_accelerator **out) {
  amp_status status = AMP__CHECK_GET(view, AMP__MAGIC_VIEW, "accelerator view", out);
  if (status == AMP_SUCCESS)
    *out = view->acc;
  return status;
}

AMP__DEFINE_GETTER(amp_accelerator_view_get_queuing_mode, amp_accelerator_view, AMP__MAGIC_VIEW,
                   "accelerator view", amp_queuing_mode, h->mode)

void amp__view_enqueued(amp_accelerator_view *view) {
  if (view->mode == AMP_QUEUING_MODE_IMMEDIATE)
    clFlush(view->queue);
}

amp_status amp_accelerator_view_flush(amp_accelerator_view *view) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_VIEW, "accelerator view");
  AMP__CL(clFlush(view->queue), "clFlush");
fail:
  return status;
}

amp_status amp_accelerator_view_wait(amp_accelerator_view *view) {
  amp_status status = AMP_SUCCESS;
  AMP__TRACE_BEGIN;
  AMP__CHECK(view, AMP__MAGIC_VIEW, "accelerator view");
  AMP__CL(clFinish(view->queue), "clFinish");
fail:
  AMP__TRACE_END("amp_accelerator_view_wait");
  return status;
}

amp_status amp_accelerator_view_create_marker(amp_accelerator_view *view, amp_future **out) {
  amp_status status = AMP_SUCCESS;
  cl_event ev = NULL;
  AMP__CHECK(view, AMP__MAGIC_VIEW, "accelerator view");
  AMP__CHECK_OUT(out);
  const uint64_t t = amp__trace_on() ? amp__trace_now() : 0;
  AMP__CL(clEnqueueMarkerWithWaitList(view->queue, 0, NULL, &ev), "clEnqueueMarkerWithWaitList");
  if (t)
    amp__trace_command(view->acc, view->queue, ev, "marker", 0,
                       "amp_accelerator_view_create_marker", NULL, t);
  AMP__TRY(amp__future_create(ev, 0, out));
  return AMP_SUCCESS;
fail:
  if (ev)
    clReleaseEvent(ev);
  return status;
}

amp_status amp_accelerator_view_retain(amp_accelerator_view *view) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_VIEW, "accelerator view");
  if (!view->is_default)
    atomic_fetch_add(&view->refs, 1);
fail:
  return status;
}

amp_status amp_accelerator_view_release(amp_accelerator_view *view) {
  amp_status status = AMP_SUCCESS;
  if (!view)
    return AMP_SUCCESS;
  AMP__CHECK(view, AMP__MAGIC_VIEW, "accelerator view");
  if (view->is_default)
    return AMP_SUCCESS;
  if (atomic_fetch_sub(&view->refs, 1) == 1) {
    cl_int err = clFinish(view->queue);
    amp__release_queue(view->queue);
    amp__handle_retire(view);
    AMP__CL(err, "clFinish (releasing an accelerator view)");
  }
fail:
  return status;
}

/* ---- futures ------------------------------------------------------------------------------ */

amp_status amp__future_create(cl_event event, int is_kernel, amp_future **out) {
  /* A future stands for submitted work: in automatic mode the command may still sit in its
   * queue, and polling (is_ready, then) does not submit it, so submit it here. User events (the
   * futures of host-side work) belong to no queue. */
  cl_command_queue q = NULL;
  if (clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL) == CL_SUCCESS && q)
    clFlush(q);
  amp_future *f = amp__handle_alloc(sizeof *f);
  if (!f)
    return amp__handle_alloc_status();
  f->magic = AMP__MAGIC_FUTURE;
  f->refs = 1;
  f->event = event;
  f->is_kernel = is_kernel;
  *out = f;
  return AMP_SUCCESS;
}

amp_status amp__future_create_span(cl_event start, cl_event event, amp_future **out) {
  amp_status status = amp__future_create(event, 1, out);
  if (status == AMP_SUCCESS)
    (*out)->start = start;
  return status;
}

amp_status amp__future_span(const amp_future *first, const amp_future *last, int from_start,
                            amp_future **out) {
  clRetainEvent(first->event); /* the span takes a reference to each event */
  clRetainEvent(last->event);
  amp_status status = amp__future_create_span(first->event, last->event, out);
  if (status != AMP_SUCCESS) {
    clReleaseEvent(first->event);
    clReleaseEvent(last->event);
    return status;
  }
  (*out)->from_start = from_start;
  return AMP_SUCCESS;
}

/* A negative execution status is the error the command failed with. */
static amp_status event_outcome(cl_event ev, const char *fn) {
  cl_int st = CL_COMPLETE;
  cl_int err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  if (err != CL_SUCCESS)
    return amp__set_error(amp__cl_status(err), "%s: clGetEventInfo failed (%d)", fn, (int)err);
  if (st < 0)
    return amp__set_error(amp__cl_status(st), "%s: the work failed on the device: %s (%d)%s", fn,
                          amp_status_name(amp__cl_status(st)), (int)st, amp__device_fault_hint(st));
  return AMP_SUCCESS;
}

amp_status amp_future_wait(amp_future *future) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(future, AMP__MAGIC_FUTURE, "future");
  AMP__TRACE_BEGIN;
  cl_int err = clWaitForEvents(1, &future->event);
  AMP__TRACE_END("amp_future_wait");
  if (future->async && future->async->status != AMP_SUCCESS) /* host-side work: its own reason */
    return amp__set_error(future->async->status, "%s",
                          future->async->reason ? future->async->reason
                                                : "asynchronous work failed");
  if (err != CL_SUCCESS && err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    AMP__CL(err, "clWaitForEvents");
  AMP__TRY(event_outcome(future->event, "amp_future_wait"));
fail:
  return status;
}

amp_status amp_future_is_ready(amp_future *future, bool *out) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(AMP__CHECK_GET(future, AMP__MAGIC_FUTURE, "future", out));
  cl_int st = CL_QUEUED;
  AMP__CL(clGetEventInfo(future->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL),
          "clGetEventInfo");
  *out = st == CL_COMPLETE || st < 0;
fail:
  return status;
}

typedef struct then_ctx {
  amp_future_callback cb;
  void *user;
} then_ctx;

cl_int amp__on_complete(cl_event e, void(CL_CALLBACK *fn)(cl_event, cl_int, void *), void *data) {
  cl_int st = CL_QUEUED;
  if (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) == CL_SUCCESS &&
      (st == CL_COMPLETE || st < 0)) {
    fn(e, st, data);
    return CL_SUCCESS;
  }
  return clSetEventCallback(e, CL_COMPLETE, fn, data);
}

static void CL_CALLBACK then_trampoline(cl_event ev, cl_int st, void *p) {
  (void)ev;
  then_ctx *c = p;
  c->cb(st < 0 ? amp__cl_status(st) : AMP_SUCCESS, c->user);
  free(c);
}

amp_status amp_future_then(amp_future *future, amp_future_callback callback, void *user_data) {
  amp_status status = AMP_SUCCESS;
  then_ctx *c = NULL;
  AMP__CHECK(future, AMP__MAGIC_FUTURE, "future");
  if (!callback)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_future_then: callback is NULL");
  c = malloc(sizeof *c);
  if (!c)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "amp_future_then: out of memory");
  c->cb = callback;
  c->user = user_data;
  AMP__CL(amp__on_complete(future->event, then_trampoline, c), "clSetEventCallback");
  return AMP_SUCCESS;
fail:
  free(c);
  return status;
}

/* The accelerator whose device ran the event's command, or NULL where that cannot be told. */
static amp_accelerator *event_accelerator(cl_event ev) {
  cl_command_queue q = NULL;
  cl_device_id d = NULL;
  amp_accelerator **list = NULL;
  size_t n = 0;
  if (clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL) != CL_SUCCESS || !q ||
      clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL) != CL_SUCCESS ||
      amp__accelerators(&list, &n) != AMP_SUCCESS)
    return NULL;
  for (size_t i = 0; i < n; i++)
    if (list[i]->device == d)
      return list[i];
  return NULL;
}

amp_status amp_future_elapsed_ns(amp_future *future, uint64_t *out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(future, AMP__MAGIC_FUTURE, "future");
  AMP__CHECK_OUT(out);
  if (future->host_ns) {
    *out = future->host_ns;
    return AMP_SUCCESS;
  }
  if (!future->is_kernel)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "amp_future_elapsed_ns: only futures of kernel launches carry a device time");
  AMP__TRY(amp_future_wait(future));
  cl_ulong t0 = 0, t1 = 0;
  cl_int end =
      clGetEventProfilingInfo(future->event, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
  if (end == CL_PROFILING_INFO_NOT_AVAILABLE)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "amp_future_elapsed_ns: the work ran on a view without profiling (AMP_PROFILE=0, or "
              "amp_accelerator_create_view_profiling(..., false, ...)): no device time was "
              "recorded");
  AMP__CL(end, "clGetEventProfilingInfo(END)");
  const char *why = "";
  amp_accelerator *acc = event_accelerator(future->event);
  if (acc && !amp__timestamps_usable(acc, &why))
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "amp_future_elapsed_ns: %s's event timestamps measure nothing (%s), so no device "
              "time is available there; time the work on the host",
              acc->props.device_path, why);
  if (future->start)
    AMP__CL(clGetEventProfilingInfo(future->start,
                                    future->from_start ? CL_PROFILING_COMMAND_START
                                                       : CL_PROFILING_COMMAND_END,
                                    sizeof t0, &t0, NULL),
            "clGetEventProfilingInfo(the work's start)");
  else
    AMP__CL(
        clGetEventProfilingInfo(future->event, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL),
        "clGetEventProfilingInfo(START)");
  if (t0 == 0 || t1 < t0)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "amp_future_elapsed_ns: the driver gave the work START %llu and END %llu ns, which "
              "measure nothing",
              (unsigned long long)t0, (unsigned long long)t1);
  *out = (uint64_t)(t1 - t0);
fail:
  return status;
}

/* The last reference went: its events and its host-side outcome. */
static amp_status future_destroy(amp_future *future) {
  amp_status status = AMP_SUCCESS;
  amp__async_release(future->async);
  clReleaseEvent(future->event);
  if (future->start)
    clReleaseEvent(future->start);
  amp__handle_retire(future);
  return status;
}

AMP__DEFINE_REFCOUNT(amp_future, AMP__MAGIC_FUTURE, "future", future_destroy)

/* ---- interop (ampcl/opencl.h) ------------------------------------------------------------- */

AMP__DEFINE_GETTER(amp_accelerator_view_get_cl_queue, amp_accelerator_view, AMP__MAGIC_VIEW,
                   "accelerator view", cl_command_queue, h->queue)

/* ---- host-side asynchronous work ----------------------------------------------------------- */

void amp__async_release(amp__async *a) {
  if (a && atomic_fetch_sub(&a->refs, 1) == 1) {
    free(a->reason);
    free(a);
  }
}

/* See accelerator.h. */
amp_status amp__any_context(cl_context *out) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator **list = NULL;
  size_t n = 0;
  AMP__TRY(amp__accelerators(&list, &n));
  for (size_t i = 0; i < n; i++) {
    pthread_mutex_lock(&list[i]->lock);
    cl_context c = list[i]->context;
    pthread_mutex_unlock(&list[i]->lock);
    if (c) {
      *out = c;
      return AMP_SUCCESS;
    }
  }
  AMP__TRY(amp__context(list[0], out)); /* the host "cpu" is always last, never first */
fail:
  return status;
}

amp_status amp__future_hand_over(cl_event *ev, amp_future **async_out) {
  amp_status status = AMP_SUCCESS;
  if (async_out) {
    AMP__TRY(amp__future_create(*ev, 0, async_out));
    *ev = NULL;
  }
fail:
  return status;
}

amp_status amp__future_done(amp_status outcome, amp_future **out) {
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  cl_event ev = NULL;
  /* The reason is this thread's last error, taken before anything below can replace it. */
  char *reason = outcome != AMP_SUCCESS ? strdup(amp_last_error()) : NULL;
  amp__async *a = calloc(1, sizeof *a);
  if (!a || (outcome != AMP_SUCCESS && !reason))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory recording an asynchronous copy's outcome");
  /* The future's event is a user event, which needs some context. */
  AMP__TRY(amp__any_context(&ctx));
  cl_int err = CL_SUCCESS;
  ev = clCreateUserEvent(ctx, &err);
  AMP__CL(err, "clCreateUserEvent");
  AMP__CL(clSetUserEventStatus(ev, outcome == AMP_SUCCESS ? CL_COMPLETE : (cl_int)outcome),
          "clSetUserEventStatus");
  AMP__TRY(amp__future_create(ev, 0, out));
  a->status = outcome;
  a->reason = reason;
  atomic_init(&a->refs, 1); /* the future's */
  (*out)->async = a;
  return AMP_SUCCESS;
fail:
  free(reason);
  free(a);
  if (ev)
    clReleaseEvent(ev);
  return status;
}
