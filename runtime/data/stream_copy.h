/* runtime/data/stream_copy.h: a copy whose stores bypass the caches (stream_copy.c). */
#ifndef AMPCL_RUNTIME_STREAM_COPY_H
#define AMPCL_RUNTIME_STREAM_COPY_H

#include <stddef.h>

/* memcpy(dst, src, n), with the bulk of dst written by non-temporal (streaming) stores where the
 * processor has them (x86's SSE2), else memcpy itself. Every store is visible to other threads
 * when it returns. */
void amp__stream_copy(void *dst, const void *src, size_t n);

#endif /* AMPCL_RUNTIME_STREAM_COPY_H */
