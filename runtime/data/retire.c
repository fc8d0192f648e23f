/* runtime/data/retire.c: the device buffers of transient temporaries, kept for the next one.
 *
 * A transient temporary (amp__array_view_create_transient: amp_blas_gemm's scratch in
 * gemm_general.c, up to 128 MiB) is released as soon as the commands that use it are enqueued, so
 * that the call returns without waiting for them. OpenCL allows clReleaseMemObject then: the
 * buffer goes once those commands have ended. But NVIDIA's driver (580) does not return from
 * clReleaseMemObject while a kernel runs, whether or not the kernel uses the buffer
 * (lab/release_probe.c; lab/NOTEBOOK.md, 2026-11-27, "shared's copies"): a release in the middle
 * of a pipeline holds the releasing thread until the GPU is idle, and with it whatever that thread
 * would have started under the running kernels (amp-mpi-matmul's next copies).
 *
 * So such a buffer is not released. It comes here with the events of the commands that use it,
 * and the next transient temporary of the same size on the same accelerator takes it
 * (amp__retire_take, from source.c) once those commands have ended: a GEMM called again and again
 * on one shape allocates its scratch once. At most RETIRE_MAX buffers and RETIRE_MAX_BYTES bytes
 * are kept (a GEMM's scratch is at most 128 MiB a buffer, and a pipeline of GEMMs needs two
 * generations of it); beyond either the oldest are released after waiting for their commands,
 * which on NVIDIA waits for the GPU. Kept buffers count as kept by the process
 * (amp_cl_objects_live). Thread-safe. */
#include <pthread.h>

#include "core/clobjects.h"
#include "data/retire.h"

#define RETIRE_MAX       8
#define RETIRE_MAX_BYTES ((size_t)512 << 20)

typedef struct retired {
  cl_mem buf;
  size_t index, bytes;
  amp__evlist uses;
} retired;

static retired list[RETIRE_MAX + 1]; /* oldest first */
static size_t count, total;          /* buffers and their bytes */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Removes entry i, keeping the order. With the lock held. */
static retired take_at(size_t i) {
  retired r = list[i];
  for (size_t j = i + 1; j < count; j++)
    list[j - 1] = list[j];
  count--;
  total -= r.bytes;
  return r;
}

void amp__retire(size_t index, cl_mem buf, size_t bytes, amp__evlist *uses) {
  retired r = {buf, index, bytes, *uses}, old[RETIRE_MAX + 1];
  size_t nold = 0;
  *uses = (amp__evlist){0};
  amp__clobj(AMP_CL_MEM, -1);
  amp__clobj_process(AMP_CL_MEM, 1);
  pthread_mutex_lock(&lock);
  list[count++] = r;
  total += bytes;
  while (count > RETIRE_MAX || (count > 0 && total > RETIRE_MAX_BYTES))
    old[nold++] = take_at(0); /* the oldest first (r itself last, if alone it is too large) */
  pthread_mutex_unlock(&lock);
  for (size_t i = 0; i < nold; i++) {
    amp__evlist_wait(&old[i].uses);
    amp__evlist_free(&old[i].uses);
    clReleaseMemObject(old[i].buf);
    amp__clobj_process(AMP_CL_MEM, -1);
  }
}

cl_mem amp__retire_take(size_t index, size_t bytes) {
  retired got = {0};
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < count; i++)
    if (list[i].index == index && list[i].bytes == bytes && amp__evlist_ended(&list[i].uses)) {
      got = take_at(i);
      break;
    }
  pthread_mutex_unlock(&lock);
  if (!got.buf)
    return NULL;
  amp__evlist_free(&got.uses);
  amp__clobj_process(AMP_CL_MEM, -1);
  amp__clobj(AMP_CL_MEM, 1);
  return got.buf;
}
