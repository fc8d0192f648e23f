/* runtime/data/host_memory.c: pinned host memory (amp_host_alloc / amp_host_free), and the
 * question the staged copies ask of any host pointer: is it pinned already? */
#include <pthread.h>
#include <stdlib.h>

#include "ampcl/array.h"
#include "core/alloc_limit.h"
#include "core/clobjects.h"
#include "core/trace_impl.h"
#include "data/host_memory.h"

/* ---- pinned host memory -----------------------------------------------------------------------
 */

typedef struct pinned {
  void *ptr;
  size_t bytes;
  cl_mem buf;
  cl_command_queue queue;
  const amp_accelerator *acc;
  struct pinned *next;
} pinned;

static pthread_mutex_t pinned_lock = PTHREAD_MUTEX_INITIALIZER;
static pinned *pinned_head;

int amp__host_pinned(const void *ptr, size_t len) {
  const unsigned char *p = ptr;
  int found = 0;
  pthread_mutex_lock(&pinned_lock);
  for (const pinned *q = pinned_head; q && !found; q = q->next)
    found =
        p >= (const unsigned char *)q->ptr && p + len <= (const unsigned char *)q->ptr + q->bytes;
  pthread_mutex_unlock(&pinned_lock);
  return found;
}

amp_status amp_host_alloc(amp_accelerator *acc, size_t bytes, void **out) {
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  amp_accelerator_view *q;
  pinned *p = NULL;
  AMP__CHECK(acc, AMP__MAGIC_ACCELERATOR, "accelerator");
  if (!out || !bytes)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_host_alloc: %s", out ? "bytes is 0" : "out is NULL");
  AMP__TRY(amp__check_alloc(acc, bytes, "amp_host_alloc"));
  AMP__TRY(amp__context(acc, &ctx));
  AMP__TRY(amp_accelerator_default_view(acc, &q));
  p = calloc(1, sizeof *p);
  if (!p)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "amp_host_alloc: out of memory");
  cl_int err = CL_SUCCESS;
  p->buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
  AMP__CL(err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
  amp__clobj(AMP_CL_MEM, 1);
  p->queue = q->queue;
  p->acc = acc;
  p->bytes = bytes;
  amp__traced tr = amp__trace_start();
  p->ptr = clEnqueueMapBuffer(q->queue, p->buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                              NULL, amp__trace_ev(&tr), &err);
  amp__trace_end(&tr, acc, q->queue, "map", bytes, "pinned host memory (amp_host_alloc)");
  AMP__CL(err, "clEnqueueMapBuffer (pinned host memory)");
  pthread_mutex_lock(&pinned_lock);
  p->next = pinned_head;
  pinned_head = p;
  pthread_mutex_unlock(&pinned_lock);
  *out = p->ptr;
  return AMP_SUCCESS;
fail:
  if (p && p->buf)
    clReleaseMemObject(p->buf);
  if (p && p->buf)
    amp__clobj(AMP_CL_MEM, -1);
  free(p);
  return status;
}

amp_status amp_host_free(void *ptr) {
  amp_status status = AMP_SUCCESS;
  if (!ptr)
    return AMP_SUCCESS;
  pthread_mutex_lock(&pinned_lock);
  pinned **pp = &pinned_head;
  while (*pp && (*pp)->ptr != ptr)
    pp = &(*pp)->next;
  pinned *p = *pp;
  if (p)
    *pp = p->next;
  pthread_mutex_unlock(&pinned_lock);
  if (!p)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "amp_host_free: %p was not allocated by amp_host_alloc (or was freed already)", ptr);
  cl_event ev = NULL;
  const uint64_t t = amp__trace_on() ? amp__trace_now() : 0;
  cl_int err = clEnqueueUnmapMemObject(p->queue, p->buf, p->ptr, 0, NULL, &ev);
  if (ev && t)
    amp__trace_command(p->acc, p->queue, ev, "unmap", p->bytes,
                       "pinned host memory (amp_host_free)", NULL, t);
  if (ev) {
    cl_int w = clWaitForEvents(1, &ev);
    err = err != CL_SUCCESS ? err : w;
    clReleaseEvent(ev);
  }
  amp__release_mem(p->buf);
  free(p);
  AMP__CL(err, "amp_host_free: unmapping the pinned memory");
fail:
  return status;
}
