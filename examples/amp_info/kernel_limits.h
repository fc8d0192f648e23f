/* amp-info --kernel FILE [--options "..."]: prints each kernel's tile limits per accelerator. */
#ifndef AMP_INFO_KERNEL_LIMITS_H
#define AMP_INFO_KERNEL_LIMITS_H

/* Returns the exit status: 0, or 1 when the file cannot be read or built, or a kernel fails. */
int amp_info_kernel_limits(const char *path, const char *options);

#endif
