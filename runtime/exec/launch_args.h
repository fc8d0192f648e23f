/* runtime/exec/launch_args.h: a launch's arguments checked against its kernel's parameters
 * (launch_args.c). */
#ifndef AMPCL_RUNTIME_LAUNCH_ARGS_H
#define AMPCL_RUNTIME_LAUNCH_ARGS_H

#include "exec/launch_table.h"

/* Checks every argument of the table's launch, before anything moves: each on its own (live
 * handles), then against the kernel's parameters (their count, kinds, element types, const-ness,
 * sizes; every mismatch in one AMP_ERROR_KERNEL_ARGS or ACCESS_DENIED message), fp64, and the
 * textures together. Sets the table's write flags. */
amp_status amp__check_args(amp__launch_table *t);

#endif /* AMPCL_RUNTIME_LAUNCH_ARGS_H */
