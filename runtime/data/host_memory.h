/* runtime/data/host_memory.h: pinned host memory (host_memory.c). */
#ifndef AMPCL_RUNTIME_HOST_MEMORY_H
#define AMPCL_RUNTIME_HOST_MEMORY_H

#include <stddef.h>

/* [p, p + len) lies in memory from amp_host_alloc: copies from and to it need no staging. */
int amp__host_pinned(const void *p, size_t len);

#endif /* AMPCL_RUNTIME_HOST_MEMORY_H */
