/* runtime/blas/gemm_split_workspace.c: amp_blas_gemm_multi's pinned workspaces.
 *
 * One pinned region per accelerator (allocated on it, so its copies are the link's own), kept
 * between calls: the largest asked for of each; a concurrent call makes its own. A region that
 * waits in the cache counts as kept for the process in amp_cl_objects_live, as scratch.c's
 * buffers do (no call of the user's releases it); one a call uses counts as the user's. */
#include <pthread.h>
#include <string.h>

#include "blas/gemm_split.h"
#include "core/clobjects.h"

/* A region goes into the cache (into = 1) or out of it: its count moves with it. */
static void ws_count(int into) {
  amp__clobj(AMP_CL_MEM, into ? -1 : 1);
  amp__clobj_process(AMP_CL_MEM, into ? 1 : -1);
}

static pthread_mutex_t ws_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ws_entry {
  amp_accelerator *acc;
  void *ptr;
  size_t bytes;
  int busy;
} ws_cache[MAX_PARTS];

amp_status amp__gemm_split_ws_get(amp_accelerator *acc, size_t bytes, void **out) {
  void *old = NULL;
  pthread_mutex_lock(&ws_lock);
  for (size_t i = 0; i < MAX_PARTS; i++) {
    struct ws_entry *e = &ws_cache[i];
    if (e->acc != acc || !e->ptr || e->busy)
      continue;
    if (e->bytes >= bytes) {
      e->busy = 1;
      *out = e->ptr;
      pthread_mutex_unlock(&ws_lock);
      ws_count(0);
      return AMP_SUCCESS;
    }
    old = e->ptr;
    memset(e, 0, sizeof *e);
    break;
  }
  pthread_mutex_unlock(&ws_lock);
  if (old) {
    ws_count(0);
    amp_host_free(old);
  }
  return amp_host_alloc(acc, bytes, out);
}

void amp__gemm_split_ws_put(amp_accelerator *acc, void *ptr, size_t bytes) {
  struct ws_entry *empty = NULL;
  int kept = 0;
  pthread_mutex_lock(&ws_lock);
  for (size_t i = 0; i < MAX_PARTS && ptr; i++) {
    struct ws_entry *e = &ws_cache[i];
    if (e->ptr == ptr) {
      e->busy = 0;
      ptr = NULL;
      kept = 1;
    } else if (e->ptr && e->acc == acc) {
      empty = NULL; /* acc has its region: this one goes */
      break;
    } else if (!e->ptr && !empty) {
      empty = e;
    }
  }
  if (ptr && empty) {
    *empty = (struct ws_entry){acc, ptr, bytes, 0};
    ptr = NULL;
    kept = 1;
  }
  pthread_mutex_unlock(&ws_lock);
  if (kept)
    ws_count(1);
  amp_host_free(ptr);
}
