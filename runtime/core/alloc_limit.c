/* runtime/core/alloc_limit.c: CL_DEVICE_MAX_MEM_ALLOC_SIZE, checked before a buffer is asked
 * for, so an allocation too large for the device is refused with both sizes named. */
#include "core/alloc_limit.h"

uint64_t amp__max_alloc(const amp_accelerator *acc) {
  return acc->max_alloc; /* read when the device was described; 0 for the host */
}

amp_status amp__check_alloc(const amp_accelerator *acc, size_t bytes, const char *fn) {
  uint64_t max_alloc = amp__max_alloc(acc);
  if (max_alloc && bytes > max_alloc)
    return amp__set_error(AMP_ERROR_LIMIT_EXCEEDED,
                          "%s: %zu bytes exceed the largest buffer %s can allocate "
                          "(CL_DEVICE_MAX_MEM_ALLOC_SIZE, %llu bytes)",
                          fn, bytes, acc->props.device_path, (unsigned long long)max_alloc);
  return AMP_SUCCESS;
}
