/* runtime/exec/launch_args.h: a launch's arguments against its kernel's parameters
 * (launch_args.c). */
#ifndef AMPCL_RUNTIME_LAUNCH_ARGS_H
#define AMPCL_RUNTIME_LAUNCH_ARGS_H

#include "data/source.h"
#include "exec/program.h"

/* Checks every argument against the kernel's parameters (their count, kinds, element types,
 * const-ness, sizes) and fills uses (room for nargs) with the views and whether each is written.
 * Every mismatch is reported in one AMP_ERROR_KERNEL_ARGS (or ACCESS_DENIED) message. */
amp_status amp__check_args(const amp_launch *l, const amp_accelerator *acc,
                           const amp__kernel_pool *pool, amp__use *uses, size_t *nuses);

/* Sets every argument but the views' buffers on k, and checks tile_static memory in total. */
amp_status amp__set_scalar_args(const amp_launch *l, cl_kernel k, const amp_accelerator *acc,
                                const amp__kernel_pool *pool);

#endif /* AMPCL_RUNTIME_LAUNCH_ARGS_H */
