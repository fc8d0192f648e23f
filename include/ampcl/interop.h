/* ampcl/interop.h: the caller's own OpenCL objects inside ampcl, and ampcl's data lent to OpenCL.
 *
 * ampcl/opencl.h lends ampcl's device, context and queue out. This header goes both ways, so that
 * a program ported from OpenCL can mix its own kernels and libraries (CLBlast ...) with ampcl on
 * the same data, without copies ampcl's coherence bookkeeping does not know about:
 *
 *   - an accelerator view over the caller's cl_context and cl_command_queue;
 *   - an amp_array over the caller's cl_mem (a buffer or a sub-buffer), in the coherence protocol;
 *   - a view's current cl_mem lent to the caller's commands, with what they wrote told back;
 *   - a caller's cl_event as an amp_future, and the cl_event behind an amp_future.
 *
 * Who owns what: ampcl retains every OpenCL object it is given and releases only that reference;
 * whatever it hands out the caller must not release unless the call says it was retained for the
 * caller. docs/INTEROP.md has the rules, the ordering and an example.
 *
 * Not included by ampcl.h, so that the main headers do not need CL/cl.h. */
#ifndef AMPCL_INTEROP_H
#define AMPCL_INTEROP_H

#include "array.h"
#include "array_view.h"
#include "opencl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An accelerator view whose queue is the caller's `queue`, on the caller's `context`. The device
 * is the queue's; it must be one of ampcl's accelerators (not a sub-device), and the queue must
 * belong to `context` and be in order (ampcl's ordering relies on it). The view profiles exactly
 * when the queue was created with CL_QUEUE_PROFILING_ENABLE (amp_accelerator_view_get_profiling).
 *
 * From this call on, the accelerator's one OpenCL context is `context`: every view, array, buffer
 * and program ampcl makes on that accelerator lives in it, so the caller's kernels and buffers and
 * ampcl's share memory. An accelerator has one context for the life of the process, so the call
 * fails (AMP_ERROR_INVALID_ARGUMENT) once ampcl has made its own on that device; call it before
 * anything else uses the accelerator, or make your objects in ampcl's context instead
 * (amp_accelerator_get_cl_context). ampcl retains the queue and the context; releasing the view
 * waits for the queue (clFinish) and drops ampcl's reference to it. */
AMP_API amp_status amp_accelerator_view_create_from_cl(cl_context context, cl_command_queue queue,
                                                       amp_accelerator_view **out);

/* An array over the caller's `buffer` (a cl_mem buffer or sub-buffer) on `view`'s accelerator,
 * holding `extent` elements of `type` in its first bytes, row-major. The buffer's current contents
 * are the array's: nothing is copied. extent's size times type.size (overflow-checked) must fit
 * in the buffer's CL_MEM_SIZE; its flags must allow kernels to read and write it and the host to
 * reach it (no CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY or CL_MEM_HOST_* limit); and it must belong to
 * the accelerator's context (the view made by amp_accelerator_view_create_from_cl, or a buffer
 * made in amp_accelerator_get_cl_context's).
 *
 * The array is a device array in every way (ampcl/array.h): views of it (amp_array_view_of) are
 * coherent with the buffer, and what a kernel writes stays in the buffer. ampcl retains the
 * buffer and, when the array's last view goes, releases only that reference: the caller's buffer
 * remains valid and holds the array's latest contents (parts written on another accelerator are
 * copied into it first). The caller may use the buffer directly
 * between ampcl's commands through amp_array_view_lend_cl_mem (below), which keeps the ordering. */
AMP_API amp_status amp_array_create_from_cl_mem(amp_accelerator_view *view, cl_mem buffer,
                                                amp_extent extent, amp_elem_type type,
                                                amp_array **out);

/* What the caller's commands did to a lent view (amp_array_view_return_cl_mem). */
typedef enum amp_cl_written {
  AMP_CL_WROTE_NOTHING, /* only read it */
  AMP_CL_WROTE_ALL,     /* may have written any element of the view */
  AMP_CL_WROTE_RANGE    /* wrote elements [first, first + count) of the view, in memory order */
} amp_cl_written;

/* Lends the OpenCL buffer that holds `view`'s data on `av`'s accelerator to the caller's commands:
 * the view's latest contents are made current there first (copied in as a kernel launch would,
 * only what the buffer lacks), *buffer gets the buffer (ampcl's: do not release it) and *offset
 * the byte offset of the view's element 0 in it. The view's elements lie in the buffer as in the
 * view's source, row-major: a section's rows are as far apart as its source's rows.
 *
 * Ordering: commands the caller enqueues on av's queue after this call run after ampcl's commands
 * on the data. For commands on another queue of the same context, `ready` (may be NULL) gets an
 * event to wait for, retained for the caller (release it).
 *
 * Until amp_array_view_return_cl_mem, ampcl refuses to write the data (kernels writing the view,
 * copies into it, discard_data, write access on the host: AMP_ERROR_ACCESS_DENIED) and refuses
 * a second loan; ampcl may still read it. The view is retained until the return. */
AMP_API amp_status amp_array_view_lend_cl_mem(amp_array_view *view, amp_accelerator_view *av,
                                              cl_mem *buffer, size_t *offset, cl_event *ready);

/* Ends the loan of amp_array_view_lend_cl_mem, made with the same view and accelerator view, and
 * tells ampcl what the caller's commands wrote (`first` and `count` in elements of the view, for
 * AMP_CL_WROTE_RANGE only; 0 otherwise). Written elements become valid only in that buffer: the
 * host's copy is stale, and a later synchronize copies them back. `done` is the event of the
 * caller's last command on the data; NULL when all of them were enqueued on av's queue (ampcl then
 * enqueues a marker there). ampcl's later commands on the data wait for it. A refused call (bad
 * range, a `done` of another context, a read-only view written) leaves the loan open. */
AMP_API amp_status amp_array_view_return_cl_mem(amp_array_view *view, amp_accelerator_view *av,
                                                amp_cl_written written, size_t first, size_t count,
                                                cl_event done);

/* A future for the caller's `event`: amp_future_wait, _is_ready and _then work on it, and
 * amp_future_wait returns the failure of the command behind it. For a kernel's event,
 * amp_future_elapsed_ns gives its device time when its queue profiles (it fails, saying why,
 * otherwise, and for other commands). ampcl retains the event; releasing the future releases that
 * reference only. */
AMP_API amp_status amp_future_create_from_cl_event(cl_event event, amp_future **out);

/* The OpenCL event behind `future` (a kernel's, a copy's, a marker's; a user event for work done
 * on the host), retained for the caller: release it with clReleaseEvent. */
AMP_API amp_status amp_future_get_cl_event(amp_future *future, cl_event *out);

/* Every command enqueued on `view` after this call starts after `future` is ready. On the device
 * (a barrier waiting for the event) when the event belongs to the view's context; otherwise the
 * call waits for it here. Returns the work's failure when it has failed already (or fails while
 * waited for here), enqueueing nothing. */
AMP_API amp_status amp_accelerator_view_wait_for(amp_accelerator_view *view, amp_future *future);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_INTEROP_H */
