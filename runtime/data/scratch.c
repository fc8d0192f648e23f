/* runtime/data/scratch.c: a few small device buffers kept after the data in them died.
 *
 * Allocating device memory is slow next to a small kernel: on a GPU the first launch on a new
 * buffer can spend longer in the driver than amp_reduce's whole kernel over a few million
 * elements. The algorithms (algorithms.h) make such buffers at every call (partial sums,
 * the scan's look-back state, the sort's counts), and so does any program that makes an empty
 * view per iteration. So when the last view of data with no caller's memory goes (an empty view,
 * a temporary), its buffer is kept here if it is at most SCRATCH_MAX_BYTES, and the next buffer of
 * exactly that size on that accelerator is taken from here instead of the driver.
 *
 * At most SCRATCH_SLOTS buffers (SCRATCH_SLOTS * SCRATCH_MAX_BYTES bytes in all, over every
 * accelerator) are kept; a new one evicts the oldest. Kept buffers count as kept for the life of
 * the process in amp_cl_objects_live (ampcl/stats.h). Their old contents stay: a new empty view's
 * contents are undefined in any case. Thread-safe. */
#include <pthread.h>

#include "core/clobjects.h"
#include "data/scratch.h"

#define SCRATCH_SLOTS     8
#define SCRATCH_MAX_BYTES ((size_t)4 << 20)

typedef struct slot {
  cl_mem buf; /* NULL: empty */
  size_t index, bytes;
  unsigned long long age; /* when it was kept: the smallest is evicted first */
} slot;

static slot slots[SCRATCH_SLOTS];
static unsigned long long clock_;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

cl_mem amp__scratch_take(size_t index, size_t bytes) {
  cl_mem got = NULL;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < SCRATCH_SLOTS && !got; i++)
    if (slots[i].buf && slots[i].index == index && slots[i].bytes == bytes) {
      got = slots[i].buf;
      slots[i].buf = NULL;
    }
  pthread_mutex_unlock(&lock);
  if (got) {
    amp__clobj_process(AMP_CL_MEM, -1);
    amp__clobj(AMP_CL_MEM, 1);
  }
  return got;
}

void amp__scratch_give(size_t index, cl_mem buf, size_t bytes) {
  amp__clobj(AMP_CL_MEM, -1);
  if (bytes > SCRATCH_MAX_BYTES) {
    clReleaseMemObject(buf);
    return;
  }
  cl_mem evicted = NULL;
  pthread_mutex_lock(&lock);
  int at = 0;
  for (int i = 0; i < SCRATCH_SLOTS; i++) {
    if (!slots[i].buf) {
      at = i;
      break;
    }
    if (slots[i].age < slots[at].age)
      at = i;
  }
  evicted = slots[at].buf;
  slots[at] = (slot){buf, index, bytes, ++clock_};
  pthread_mutex_unlock(&lock);
  amp__clobj_process(AMP_CL_MEM, 1);
  if (evicted) {
    clReleaseMemObject(evicted);
    amp__clobj_process(AMP_CL_MEM, -1);
  }
}
