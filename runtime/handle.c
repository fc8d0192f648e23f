/* runtime/handle.c: handle checks and the quarantine of released handles. */
#include "handle.h"

#include <pthread.h>
#include <stdlib.h>

amp_status amp__check_handle(const void *h, uint32_t magic, const char *what, const char *fn) {
  if (!h)
    return amp__set_error(AMP_ERROR_INVALID_HANDLE, "%s: the %s is NULL", fn, what);
  uint32_t m = *(const uint32_t *)h;
  if (m == magic)
    return AMP_SUCCESS;
  if (m == AMP__MAGIC_DEAD)
    return amp__set_error(AMP_ERROR_INVALID_HANDLE, "%s: the %s was already released", fn, what);
  return amp__set_error(AMP_ERROR_INVALID_HANDLE, "%s: the handle is not a %s", fn, what);
}

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static void *q_ring[AMP__QUARANTINE];
static size_t q_next;

void amp__handle_retire(void *h) {
  if (!h)
    return;
  *(uint32_t *)h = AMP__MAGIC_DEAD;
  pthread_mutex_lock(&q_lock);
  void *old = q_ring[q_next];
  q_ring[q_next] = h;
  q_next = (q_next + 1) % AMP__QUARANTINE;
  pthread_mutex_unlock(&q_lock);
  free(old);
}
