/* runtime/core/device_properties.h: an OpenCL device, or the host, as an amp_accelerator
 * (device_properties.c). */
#ifndef AMPCL_RUNTIME_DEVICE_PROPERTIES_H
#define AMPCL_RUNTIME_DEVICE_PROPERTIES_H

#include "core/accelerator_impl.h"

/* A string property of platform p (malloc'd): "" when the driver gives none; NULL only when out of
 * memory. */
char *amp__platform_string(cl_platform_id p, cl_platform_info what);

/* A new accelerator (list position `index`) for device d of platform p: its device path `path`,
 * its properties and limits as the driver reports them (lowered by AMP_DEVICE_LIMITS); NULL when
 * out of memory. */
amp_accelerator *amp__describe_device(cl_platform_id p, cl_device_id d, const char *path,
                                      const char *platform_name, size_t index);

/* The host "cpu" accelerator (list position `index`); NULL when out of memory. */
amp_accelerator *amp__describe_host(size_t index);

#endif /* AMPCL_RUNTIME_DEVICE_PROPERTIES_H */
