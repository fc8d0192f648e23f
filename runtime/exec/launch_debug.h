/* runtime/exec/launch_debug.h: debug mode's checked launches (AMP_DEBUG set).
 *
 * A program built in debug mode (program.c adds -DAMP_DEBUG=1; kernels_cl/prelude/ampcl_debug.h)
 * gives every view a third kernel parameter, v_debug, and checks every amp_at() against the view's
 * extent. launch.c calls these helpers for a pool whose `checked` flag is set:
 *
 *   amp__debug_view_params(pool)      how many parameters a view fills (2, or 3 when checked)
 *   amp__debug_check_view(...)        the third parameter is there and is a global int*
 *   amp__debug_begin(...)             a zeroed record (and dummy element) for this launch, bound
 *                                     to every view's third parameter
 *   amp__debug_end(...)               waits for the kernel, reads the record, and turns a bad
 *                                     access into AMP_ERROR_OUT_OF_RANGE naming the view, the
 *                                     index, the source line and the work item
 *   amp__debug_release(...)           frees the record */
#ifndef AMPCL_RUNTIME_LAUNCH_DEBUG_H
#define AMPCL_RUNTIME_LAUNCH_DEBUG_H

#include "exec/program.h"

typedef struct amp__launch_debug {
  cl_mem record; /* NULL until amp__debug_begin */
} amp__launch_debug;

/* The number of kernel parameters one view fills in the pool's kernel. */
cl_uint amp__debug_view_params(const amp__kernel_pool *pool);
/* The number of kernel parameters an argument of this kind fills: a view's above, 2 for a texture
 * (the image and its shape) or a sampler (and its point-filtered twin), 1 for the others. */
cl_uint amp__arg_params(const amp__kernel_pool *pool, amp_arg_kind kind);

/* For a checked pool: parameter p + 2, after view argument `arg`'s buffer and shape at p and p + 1,
 * must be the view's v_debug (a __global int*). Succeeds at once for a plain pool or one without
 * parameter info. */
amp_status amp__debug_check_view(const amp__kernel_pool *pool, cl_uint p, size_t arg);

/* Creates the launch's record on acc and binds it to the v_debug parameter of every view among
 * the launch's arguments. */
amp_status amp__debug_begin(amp__launch_debug *d, amp_accelerator *acc, const amp_launch *launch,
                            const amp__kernel_pool *pool, cl_kernel k);

/* After the kernel is enqueued on q (of acc): waits for it, reads the record, and fails with
 * AMP_ERROR_OUT_OF_RANGE if it holds a bad access. */
amp_status amp__debug_end(amp__launch_debug *d, const amp_accelerator *acc, cl_command_queue q,
                          const amp_launch *launch, const amp__kernel_pool *pool);

/* Frees the record (safe on one never begun). */
void amp__debug_release(amp__launch_debug *d);

/* A view parameter's name as the user wrote it: AMP_VIEW(T, v) names the buffer "v_data". */
const char *amp__view_param_name(const char *param, char *buf, size_t cap);

#endif /* AMPCL_RUNTIME_LAUNCH_DEBUG_H */
