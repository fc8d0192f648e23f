/* runtime/core/interop_view.c: an accelerator view over the caller's cl_context and
 * cl_command_queue (ampcl/interop.h). The device is the queue's, the profiling switch the
 * queue's own property; the caller's context becomes the accelerator's one context. */
#include "ampcl/interop.h"
#include "core/accelerator_impl.h"
#include "core/clobjects.h"

static const char *const fn = "amp_accelerator_view_create_from_cl";

/* What the caller's queue is: its context, device and properties, each as the queue answers. */
typedef struct queue_facts {
  cl_context context;
  cl_device_id device;
  cl_command_queue_properties props;
} queue_facts;

static amp_status ask_queue(cl_command_queue queue, queue_facts *q) {
  cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof q->context, &q->context, NULL);
  if (err == CL_SUCCESS)
    err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof q->device, &q->device, NULL);
  if (err == CL_SUCCESS)
    err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof q->props, &q->props, NULL);
  if (err != CL_SUCCESS)
    return amp__unknown_cl_object(fn, "queue", queue, "a command queue", "clGetCommandQueueInfo",
                                  err);
  return AMP_SUCCESS;
}

/* The accelerator of `device`, or an error saying the device is none of ampcl's. */
static amp_status accelerator_of(cl_device_id device, amp_accelerator **out) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator **list = NULL;
  size_t n = 0;
  AMP__TRY(amp__accelerators(&list, &n));
  for (size_t i = 0; i < n; i++)
    if (!list[i]->props.is_host && list[i]->device == device) {
      *out = list[i];
      return AMP_SUCCESS;
    }
  AMP__FAIL(AMP_ERROR_NOT_FOUND,
            "%s: the queue's device %p is none of ampcl's accelerators (a sub-device, or a "
            "device of a platform ampcl does not list; amp-info lists them)",
            fn, (void *)device);
fail:
  return status;
}

/* The caller's context becomes the accelerator's, unless ampcl made its own there already. */
static amp_status adopt_context(amp_accelerator *acc, cl_context context) {
  amp_status status = AMP_SUCCESS;
  pthread_mutex_lock(&acc->lock);
  if (!acc->context) {
    clRetainContext(context); /* kept for the life of the process, as ampcl's own would be */
    amp__clobj_process(AMP_CL_CONTEXT, 1);
    acc->context = context;
  } else if (acc->context != context) {
    status = amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: %s already has ampcl's own context %p, made at its first use, "
                            "and an accelerator has one context for the life of the process: "
                            "create the view from context %p before anything else uses %s, or "
                            "make the queue in ampcl's context (amp_accelerator_get_cl_context)",
                            fn, acc->props.device_path, (void *)acc->context, (void *)context,
                            acc->props.device_path);
  }
  pthread_mutex_unlock(&acc->lock);
  return status;
}

amp_status amp_accelerator_view_create_from_cl(cl_context context, cl_command_queue queue,
                                               amp_accelerator_view **out) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator *acc = NULL;
  queue_facts q;
  if (!context || !queue || !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
              !context ? "context"
              : !queue ? "queue"
                       : "out");
  AMP__TRY(ask_queue(queue, &q));
  if (q.context != context)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: the queue belongs to context %p, not to the context given (%p)", fn,
              (void *)q.context, (void *)context);
  if (q.props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "%s: the queue executes out of order (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); "
              "ampcl orders its commands on in-order queues: give it one made without that "
              "property",
              fn);
  AMP__TRY(accelerator_of(q.device, &acc));
  AMP__TRY(adopt_context(acc, context));
  amp_accelerator_view *v = amp__handle_alloc(sizeof *v);
  if (!v)
    AMP__TRY(amp__handle_alloc_status());
  clRetainCommandQueue(queue); /* released with the view (amp_accelerator_view_release) */
  amp__clobj(AMP_CL_QUEUE, 1);
  v->queue = queue;
  v->profiling = (q.props & CL_QUEUE_PROFILING_ENABLE) != 0;
  v->magic = AMP__MAGIC_VIEW;
  v->refs = 1;
  v->acc = acc;
  v->mode = AMP_QUEUING_MODE_AUTOMATIC;
  *out = v;
fail:
  return status;
}
