/* ampcl/kernel_limits.h: what one kernel may do on one accelerator.
 *
 * C++ AMP only promises 1024 threads per tile. OpenCL lets a device lower that per kernel: a
 * kernel that uses many registers (private memory) or much tile_static (__local) memory may be
 * limited to fewer threads per tile than the device's maximum (CL_KERNEL_WORK_GROUP_SIZE), and a
 * kernel compiled with reqd_work_group_size accepts only that tile. amp_kernel_limits reports
 * these numbers so a program can choose its tile before it launches; a launch whose tile is over
 * the kernel's limit is refused with AMP_ERROR_LIMIT_EXCEEDED and a message giving both limits.
 *
 * Threads: may be called from any thread. */
#ifndef AMPCL_KERNEL_LIMITS_H
#define AMPCL_KERNEL_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "accelerator.h"
#include "export.h"
#include "kernel.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The limits of one kernel on one accelerator. */
typedef struct amp_kernel_limits_info {
  size_t max_tile_threads;        /* CL_KERNEL_WORK_GROUP_SIZE, at most device_max_tile_threads: the
                                     most threads per tile for it */
  size_t device_max_tile_threads; /* the device's max_tile_size (AMP's 1024 at most) */
  size_t preferred_multiple;      /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: tile sizes
                                     that are a multiple of it run best (the warp or SIMD width) */
  uint64_t private_bytes;         /* CL_KERNEL_PRIVATE_MEM_SIZE: private memory per thread */
  uint64_t static_local_bytes;    /* CL_KERNEL_LOCAL_MEM_SIZE with no __local argument set: the
                                     tile_static memory the kernel declares itself (divided by
                                     the factor a driver is measured to overstate it by) */
  uint64_t device_local_bytes;    /* CL_DEVICE_LOCAL_MEM_SIZE: tile_static memory per tile (on
                                     NVIDIA, static_local_bytes may exceed it: docs/KERNELS.md) */
  int required_tile[3];           /* reqd_work_group_size in AMP order (dimension 0 first, the
                                     slowest varying), or all 0 when the kernel has none */
  int required_rank;              /* how many entries of required_tile count (1..3), 0 if none */
} amp_kernel_limits_info;

/* Fills *out with `kernel`'s limits on `acc`, building its program there first if needed (so a
 * build failure gives AMP_ERROR_BUILD_FAILED with the log). NULL arguments give
 * AMP_ERROR_INVALID_ARGUMENT; the host "cpu" accelerator, which runs no kernels, gives
 * AMP_ERROR_UNSUPPORTED naming it. *out is left unchanged on any error. */
AMP_API amp_status amp_kernel_limits(amp_kernel *kernel, amp_accelerator *acc,
                                     amp_kernel_limits_info *out);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_KERNEL_LIMITS_H */
