/* runtime/exec/local_report.h: how a driver's CL_KERNEL_LOCAL_MEM_SIZE relates to the tile_static
 * memory a kernel declares, measured once per device (local_report.c). */
#ifndef AMPCL_RUNTIME_LOCAL_REPORT_H
#define AMPCL_RUNTIME_LOCAL_REPORT_H

#include "ampcl/opencl.h"

/* The factor by which the driver's CL_KERNEL_LOCAL_MEM_SIZE overstates the __local arrays a kernel
 * declares on device (1 where it reports them as they are, or where the measurement is not
 * conclusive). Measured at the first call per device by building, in context, two kernels that
 * declare 1 KiB and 4 KiB: a factor k > 1 is returned only when the driver reports exactly k times
 * both. Mesa's rusticl 22.3 on llvmpipe reports twice (docs/IMPLEMENTATIONS.md). Never fails:
 * a probe that does not build leaves the factor at 1. */
cl_ulong amp__local_report_factor(cl_context context, cl_device_id device);

/* What a kernel declares, from what the driver reports for it (reported / the factor). */
cl_ulong amp__declared_local(cl_context context, cl_device_id device, cl_ulong reported);

#endif /* AMPCL_RUNTIME_LOCAL_REPORT_H */
