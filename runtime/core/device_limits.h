/* runtime/core/device_limits.h: AMP_DEVICE_LIMITS, every OpenCL device seen with fewer
 * capabilities than it has, so that the test suite proves ampcl and its tests on weaker devices
 * (docs/CHECKING.md, "Weaker devices"; tests/README.md).
 *
 * The value is a comma-separated list of items, each at most once:
 *   tile=N         (1..1024) the device's max_tile_size and max_tile_extent, and every kernel's
 *                  limit (CL_KERNEL_WORK_GROUP_SIZE, amp_kernel_limits), at most N
 *   kernel_tile=N  (1..1024) every kernel's reported limit at most N, the device's unchanged, and a
 *                  tiled launch above N refused at enqueue as a driver refuses a kernel whose
 *                  registers do not fit (CL_OUT_OF_RESOURCES): the tried-and-refused path of
 *                  exec/launch.c
 *   local=BYTES    (1..2^40) the device's tile_static memory (local_memory, and the most a kernel
 *                  may declare) at most BYTES
 *   fp64=0         no double precision (supports_double_precision and the limited kind false)
 *   images=0       no images: textures are refused (AMP_ERROR_UNSUPPORTED_FEATURE)
 *   profiling=0    the device's event timestamps unusable: amp_future_elapsed_ns fails
 *                  (AMP_ERROR_UNSUPPORTED_FEATURE)
 * fp64, images and profiling take 0 or 1 (1: as the device answers). Unset or "": no change.
 * Anything else is an error naming the variable and the item: every call that needs the list of
 * accelerators fails with it. The host "cpu" is never changed. */
#ifndef AMPCL_RUNTIME_DEVICE_LIMITS_H
#define AMPCL_RUNTIME_DEVICE_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "ampcl/opencl.h"

typedef struct amp__device_limits {
  size_t tile;        /* 0: the device's own */
  size_t kernel_tile; /* 0: the kernels' own */
  uint64_t local;     /* 0: the device's own */
  int no_fp64, no_images, no_profiling;
  int int64_atomics;  /* 0: as the device answers; else 1 + the level it is lowered to (0, 1, 2) */
  int no_nan_payload; /* arithmetic taken to drop NaN payloads (debug mode's poison check) */
  int no_arg_info;    /* the driver taken to give kernels no argument information */
} amp__device_limits;

/* Pure: what the value `v` (NULL when unset) asks for. 1 and *out; else 0, *out all "no change",
 * and why[cap] a sentence naming AMP_DEVICE_LIMITS, the item and what it expected. */
int amp__device_limits_parse(const char *v, amp__device_limits *out, char *why, size_t cap);

/* Reads AMP_DEVICE_LIMITS once (its parse is kept for every device): 1, or 0 with why[cap]. */
int amp__device_limits_check(char *why, size_t cap);

struct amp_accelerator;
/* Lowers a described OpenCL device's properties to the knob's limits (device_properties.c). */
void amp__device_limits_apply(struct amp_accelerator *a);

/* A kernel's reported limit on threads per tile (CL_KERNEL_WORK_GROUP_SIZE) on `a`, lowered. */
size_t amp__device_limits_kernel_tile(const struct amp_accelerator *a, size_t reported);

/* The simulated driver's answer to a launch with OpenCL local size `local` (NULL: not tiled):
 * CL_OUT_OF_RESOURCES for a tile above kernel_tile, else CL_SUCCESS (the real enqueue follows). */
cl_int amp__device_limits_enqueue(const struct amp_accelerator *a, const size_t *local);

#endif /* AMPCL_RUNTIME_DEVICE_LIMITS_H */
