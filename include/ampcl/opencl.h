/* ampcl/opencl.h: the OpenCL objects under ampcl's handles, for interoperation.
 *
 * Use these to call OpenCL or an OpenCL library (CLBlast, clFFT ...) directly on ampcl's devices
 * and queues, or to measure raw OpenCL beside ampcl. The objects belong to ampcl: do not release
 * them (retain them first if you keep them beyond the handle's life). Commands you enqueue on an
 * ampcl queue are ordered with ampcl's on that queue (queues are in order), but ampcl's coherence
 * bookkeeping does not see them: synchronise views before and after, or use ampcl/interop.h,
 * whose calls bring your objects in and lend a view's buffer out inside that bookkeeping.
 *
 * Not included by ampcl.h, so that the main headers do not need CL/cl.h. */
#ifndef AMPCL_OPENCL_H
#define AMPCL_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "accelerator.h"
#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The accelerator's OpenCL device and platform (AMP_ERROR_UNSUPPORTED_FEATURE for "cpu"). */
AMP_API amp_status amp_accelerator_get_cl_device(const amp_accelerator *acc, cl_device_id *out);
AMP_API amp_status amp_accelerator_get_cl_platform(const amp_accelerator *acc, cl_platform_id *out);

/* The OpenCL context all views of the accelerator share (created now if needed). */
AMP_API amp_status amp_accelerator_get_cl_context(amp_accelerator *acc, cl_context *out);

/* The view's in-order command queue (with CL_QUEUE_PROFILING_ENABLE unless the view does not
 * profile: amp_accelerator_view_get_profiling). */
AMP_API amp_status amp_accelerator_view_get_cl_queue(const amp_accelerator_view *view,
                                                     cl_command_queue *out);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_OPENCL_H */
