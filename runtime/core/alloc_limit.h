/* runtime/core/alloc_limit.h: the largest single allocation an accelerator allows. */
#ifndef AMPCL_RUNTIME_ALLOC_LIMIT_H
#define AMPCL_RUNTIME_ALLOC_LIMIT_H

#include "core/accelerator_impl.h"

/* CL_DEVICE_MAX_MEM_ALLOC_SIZE of the accelerator (0 when unknown, and for the host). */
uint64_t amp__max_alloc(const amp_accelerator *acc);
/* AMP_ERROR_LIMIT_EXCEEDED, naming both sizes, when `bytes` exceed that limit. */
amp_status amp__check_alloc(const amp_accelerator *acc, size_t bytes, const char *fn);

#endif /* AMPCL_RUNTIME_ALLOC_LIMIT_H */
