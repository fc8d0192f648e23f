/* runtime/exec/launch_debug.h: debug mode's checked launches (AMP_DEBUG set).
 *
 * A program built in debug mode (program_build.c adds -DAMP_DEBUG=1;
 * kernels_cl/prelude/ampcl_debug.h) gives every view a third kernel parameter, v_debug, and checks
 * every amp_at() against the view's extent. launch.c calls these helpers for a pool whose `checked`
 * flag is set. They read the launch's table (launch_table.h): an argument whose kind has a debug
 * record (arg_kinds.h: debug_record, the views) has one more OpenCL parameter after its own, the
 * record.
 *
 *   amp__debug_check_record(...)      a parameter declared by such a kind has its record, a
 *                                     global int*, and was not declared by hand without it
 *   amp__debug_begin(...)             a zeroed record (and dummy element) for this launch, bound
 *                                     to every such argument's record parameter
 *   amp__debug_end(...)               waits for the kernel, reads the record, and turns a bad
 *                                     access into AMP_ERROR_OUT_OF_RANGE naming the view, the
 *                                     index, the source line and the work item
 *   amp__debug_release(...)           frees the record */
#ifndef AMPCL_RUNTIME_LAUNCH_DEBUG_H
#define AMPCL_RUNTIME_LAUNCH_DEBUG_H

#include "exec/arg_kinds.h"

enum { AMP__POISON_LINES = 4 };
typedef struct amp__launch_debug {
  cl_mem record; /* NULL until amp__debug_begin */
  /* from the record, once the kernel has ended: the first accesses that found an element holding
   * the poison, one per source line: the line (0: none), the view's argument position, the
   * element's offset in the view's buffer */
  cl_int poison[AMP__POISON_LINES][3];
} amp__launch_debug;

/* For a checked pool with parameter info: the user's parameter u, declared by a kind with a debug
 * record, must be followed by that record (a __global int*); `arg` numbers u among the kernel's
 * parameters. Succeeds at once for any other parameter, a plain pool or one without parameter
 * info. */
amp_status amp__debug_check_record(const amp__kernel_pool *pool, const amp__user_param *u,
                                   size_t arg);

/* Creates the launch's record on the table's accelerator and binds it to the record parameter of
 * every argument whose kind has one (a view's v_debug). */
amp_status amp__debug_begin(amp__launch_debug *d, const amp__launch_table *t, cl_kernel k);

/* After the kernel is enqueued on q (of the table's accelerator): waits for it, reads the record,
 * and fails with AMP_ERROR_OUT_OF_RANGE if it holds a bad access. */
amp_status amp__debug_end(amp__launch_debug *d, cl_command_queue q, const amp__launch_table *t);

/* Frees the record (safe on one never begun). */
void amp__debug_release(amp__launch_debug *d);

/* Debug mode, once the kernel has ended: the parts of the written views that acquire poisoned
 * (discarded data, data/poison.c) read back; an element still holding the poison fails the launch,
 * naming the view's argument, its parameter and the element, and the kernel lines whose access
 * found the poison in an element that still holds it (d's, from amp__debug_end; debug_poison.c). */
amp_status amp__debug_poison_check(amp_accelerator_view *q, const amp__launch_table *t,
                                   const amp__launch_debug *d, const amp__use *uses, size_t n);
/* Frees the uses' poisoned ranges. */
void amp__uses_poison_free(amp__use *uses, size_t n);

#endif /* AMPCL_RUNTIME_LAUNCH_DEBUG_H */
