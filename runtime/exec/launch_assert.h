/* runtime/exec/launch_assert.h: amp_assert's record (kernels_cl/prelude/ampcl_assert.h), in and
 * out of debug mode.
 *
 * A kernel whose last parameter is AMP_ASSERTS (pool->asserts) gets a record per launch: a count
 * of failed asserts and, per line of the user's source, the smallest linear work-item index that
 * failed there. launch.c calls these for such a kernel only.
 *
 *   amp__assert_begin(...)   a fresh record, bound to the last parameter
 *   amp__assert_end(...)     waits for the kernel (reads the count), and turns a failure into
 *                            AMP_ERROR_ASSERT_FAILED naming the condition, FILE:LINE and the
 *                            first failing work item (AMP order)
 *   amp__assert_release(...) frees the record */
#ifndef AMPCL_RUNTIME_LAUNCH_ASSERT_H
#define AMPCL_RUNTIME_LAUNCH_ASSERT_H

#include "exec/launch_table.h"

typedef struct amp__launch_assert {
  cl_mem record; /* NULL until amp__assert_begin */
  cl_int slots;  /* line slots in the record */
} amp__launch_assert;

amp_status amp__assert_begin(amp__launch_assert *a, const amp__launch_table *t, cl_kernel k);
amp_status amp__assert_end(amp__launch_assert *a, cl_command_queue q, const amp__launch_table *t);
void amp__assert_release(amp__launch_assert *a);

#endif /* AMPCL_RUNTIME_LAUNCH_ASSERT_H */
