/* runtime/exec/launch.h: a kernel launch, for the runtime's own callers (launch.c). */
#ifndef AMPCL_RUNTIME_LAUNCH_H
#define AMPCL_RUNTIME_LAUNCH_H

#include "ampcl/kernel.h"

/* amp_parallel_for_each_ex, which also says whether the kernel reached the queue: *enqueued is 0
 * when the launch failed before (the build, a check, the driver's refusal: nothing ran and no data
 * moved for it), 1 when it failed after (a future that could not be made, debug mode's report) or
 * succeeded. amp_blas_gemm tries another GEMM plan only when nothing was enqueued. */
amp_status amp__launch(amp_accelerator_view *view, const amp_launch *launch, amp_future **done,
                       int *enqueued);

#endif /* AMPCL_RUNTIME_LAUNCH_H */
