/* runtime/data/host_spans.h: debug mode's list of host memory under live data sources (AMP rule
 * 10's warning; host_spans.c). */
#ifndef AMPCL_RUNTIME_HOST_SPANS_H
#define AMPCL_RUNTIME_HOST_SPANS_H

#include <stddef.h>

typedef struct amp__host_span amp__host_span;

/* Registers a source's host memory, warning on stderr when it overlaps another live source's
 * (unless both are read-only); returns its entry (NULL when out of memory: no warning then). */
amp__host_span *amp__host_span_add(const unsigned char *host, size_t bytes, int readonly);
/* Removes exactly that entry (two sources may start at the same address). */
void amp__host_span_remove(amp__host_span *dead);

#endif /* AMPCL_RUNTIME_HOST_SPANS_H */
