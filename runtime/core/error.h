/* runtime/core/error.h: recording why a call failed, and the one way out of a function.
 *
 * Pattern used throughout the runtime:
 *
 *   amp_status status = AMP_SUCCESS;
 *   if (!ok) AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_x: size %d is not positive", n);
 *   AMP__CL(clFinish(q), "clFinish");          // an OpenCL call: its own code, and its name
 *   AMP__TRY(amp__other(...));                 // already recorded its reason: pass it on
 *   ...
 * fail:
 *   cleanup;
 *   return status;
 */
#ifndef AMPCL_RUNTIME_ERROR_H
#define AMPCL_RUNTIME_ERROR_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#ifndef CL_PLATFORM_NOT_FOUND_KHR /* cl_khr_icd; not in every CL/cl.h */
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

#include "ampcl/status.h"

/* Records the reason (printf-style) for this thread and returns `status`. With AMP_DEBUG=1 in
 * the environment it is also printed to stderr. */
amp_status amp__set_error(amp_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends text to this thread's current reason (used to attach build logs). */
void amp__append_error(const char *text);

/* The amp_status for an OpenCL error code: the same number when ampcl knows it, otherwise
 * AMP_ERROR_OPENCL. */
amp_status amp__cl_status(cl_int err);

/* True when AMP_DEBUG is set to something other than "0". */
int amp__debug_enabled(void);

/* For an OpenCL error that a kernel's bad memory access leaves behind (CL_OUT_OF_RESOURCES,
 * CL_INVALID_COMMAND_QUEUE, a failed command in a wait list), outside debug mode: the advice to
 * run with AMP_DEBUG=1, as text to append to a message ("; ..."); otherwise "". */
const char *amp__device_fault_hint(cl_int err);

/* A caller's OpenCL object (ampcl/interop.h) that OpenCL does not know, as `call` answered err:
 * AMP_ERROR_INVALID_ARGUMENT, "fn: what %p is not `kind` OpenCL knows (call: STATUS, err)", kind
 * with its article ("an event"). */
amp_status amp__unknown_cl_object(const char *fn, const char *what, const void *object,
                                  const char *kind, const char *call, cl_int err);

#define AMP__FAIL(st, ...)                                                                         \
  do {                                                                                             \
    status = amp__set_error((st), __VA_ARGS__);                                                    \
    goto fail;                                                                                     \
  } while (0)

#define AMP__TRY(expr)                                                                             \
  do {                                                                                             \
    status = (expr);                                                                               \
    if (status != AMP_SUCCESS)                                                                     \
      goto fail;                                                                                   \
  } while (0)

#define AMP__CL(call, what)                                                                        \
  do {                                                                                             \
    cl_int amp__e = (call);                                                                        \
    if (amp__e != CL_SUCCESS)                                                                      \
      AMP__FAIL(amp__cl_status(amp__e), "%s failed: %s (%d)%s", (what),                            \
                amp_status_name(amp__cl_status(amp__e)), (int)amp__e,                              \
                amp__device_fault_hint(amp__e));                                                   \
  } while (0)

#endif /* AMPCL_RUNTIME_ERROR_H */
