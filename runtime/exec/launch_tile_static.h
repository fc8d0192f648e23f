/* runtime/exec/launch_tile_static.h: a launch's tile_static memory in total, checked before data
 * moves (launch_tile_static.c). */
#ifndef AMPCL_RUNTIME_LAUNCH_TILE_STATIC_H
#define AMPCL_RUNTIME_LAUNCH_TILE_STATIC_H

#include "exec/launch_table.h"

/* What the kernel declares plus the tile_static bytes its arguments ask for (__local buffers)
 * against the device's limits; k is the launch's cl_kernel, its arguments set. */
amp_status amp__check_tile_static(const amp__launch_table *t, cl_kernel k);

#endif /* AMPCL_RUNTIME_LAUNCH_TILE_STATIC_H */
