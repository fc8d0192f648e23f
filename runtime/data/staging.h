/* runtime/data/staging.h: copies between host memory and an accelerator's buffer, staged through
 * pinned memory when that is faster (staging.c says when and why).
 *
 * Both calls have the shape of clEnqueue{Write,Read}Buffer, plus the accelerator, and return an
 * OpenCL status. When they stage, the host memory has been read (write) or written (read) when
 * they return, and *ev (if asked for) is the event of the last chunk: the queue is in order, so
 * it completes with the whole copy. */
#ifndef AMPCL_RUNTIME_STAGING_H
#define AMPCL_RUNTIME_STAGING_H

#include "core/accelerator_impl.h"

/* An accelerator's ring of pinned staging buffers (amp_accelerator.stager), made at its first
 * staged copy and kept, like its context, for the life of the process. */
typedef struct amp__stager amp__stager;

cl_int amp__host_write(amp_accelerator *acc, cl_command_queue q, cl_mem buf, cl_bool blocking,
                       size_t offset, size_t len, const void *host, cl_uint nw,
                       const cl_event *wait, cl_event *ev);
cl_int amp__host_read(amp_accelerator *acc, cl_command_queue q, cl_mem buf, cl_bool blocking,
                      size_t offset, size_t len, void *host, cl_uint nw, const cl_event *wait,
                      cl_event *ev);

#endif /* AMPCL_RUNTIME_STAGING_H */
