/* runtime/data/host_spans.c: rule 10: two top-level views over the same host memory are not
 * coherent with each other. With AMP_DEBUG set, ampcl keeps a list of the host memory under live
 * sources and warns when a new top-level view overlaps one (a likely bug: take a section of the
 * first view instead), unless both are read-only: neither is ever written, so there is nothing for
 * them to disagree on (a split over several accelerators gives each its own read-only view of a
 * shared input). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "data/host_spans.h"

struct amp__host_span {
  const unsigned char *lo, *hi;
  int readonly;
  struct amp__host_span *next;
};

static pthread_mutex_t spans_lock = PTHREAD_MUTEX_INITIALIZER;
static amp__host_span *spans;

/* Registers a source's host memory; returns its entry (NULL when out of memory: no warning then).
 */
amp__host_span *amp__host_span_add(const unsigned char *host, size_t bytes, int readonly) {
  amp__host_span *n = malloc(sizeof *n);
  if (!n)
    return NULL;
  n->lo = host;
  n->hi = host + bytes;
  n->readonly = readonly;
  pthread_mutex_lock(&spans_lock);
  for (amp__host_span *h = spans; h; h = h->next)
    if (n->lo < h->hi && h->lo < n->hi && !(n->readonly && h->readonly))
      fprintf(stderr,
              "[ampcl] warning: a new array view covers host memory [%p, %p) that another live "
              "view's data source already covers; the two are not coherent with each other (AMP "
              "rule 10): make one view and take sections of it\n",
              (const void *)n->lo, (const void *)n->hi);
  n->next = spans;
  spans = n;
  pthread_mutex_unlock(&spans_lock);
  return n;
}

/* Removes exactly the source's own entry (two sources may start at the same address). */
void amp__host_span_remove(amp__host_span *dead) {
  pthread_mutex_lock(&spans_lock);
  for (amp__host_span **pp = &spans; *pp; pp = &(*pp)->next)
    if (*pp == dead) {
      *pp = dead->next;
      free(dead);
      break;
    }
  pthread_mutex_unlock(&spans_lock);
}
