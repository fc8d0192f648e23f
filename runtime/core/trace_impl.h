/* runtime/core/trace_impl.h: what the runtime tells the tracer (ampcl/trace.h; trace.c). Every hook
 * is one branch when tracing is off. */
#ifndef AMPCL_RUNTIME_TRACE_H
#define AMPCL_RUNTIME_TRACE_H

#include <stdint.h>

#include "ampcl/trace.h"
#include "core/accelerator_impl.h"

/* Nonzero when AMP_TRACE is set. */
int amp__trace_on(void);

/* Host clock in nanoseconds (CLOCK_MONOTONIC). */
uint64_t amp__trace_now(void);

/* A command enqueued on `q` of `acc` with event `ev` (retained here until the flush). `kind` is a
 * static string ("write", "read", "copy", "kernel", "gemm", "map", "unmap", "marker"); `name` and
 * `shape` may be NULL; `enqueued` is the host time just before the enqueue. The reason is this
 * thread's current one (amp__trace_reason). */
void amp__trace_command(const amp_accelerator *acc, cl_command_queue q, cl_event ev,
                        const char *kind, uint64_t bytes, const char *name, const char *shape,
                        uint64_t enqueued);

/* The shape around an enqueue that needs no event of its own:
 *   amp__traced tr = amp__trace_start();
 *   clEnqueueX(..., amp__trace_ev(&tr));
 *   amp__trace_end(&tr, acc, q, "map", bytes, "pinned host memory (amp_host_alloc)");
 * With tracing off amp__trace_ev is NULL (the driver makes no event) and amp__trace_end does
 * nothing; on, the command is recorded and the event released. */
typedef struct amp__traced {
  cl_event ev;
  uint64_t t;
} amp__traced;
static inline amp__traced amp__trace_start(void) {
  amp__traced r = {NULL, amp__trace_on() ? amp__trace_now() : 0};
  return r;
}
static inline cl_event *amp__trace_ev(amp__traced *r) {
  return r->t ? &r->ev : NULL;
}
void amp__trace_end(amp__traced *r, const amp_accelerator *acc, cl_command_queue q,
                    const char *kind, uint64_t bytes, const char *name);

/* A span of host time of this thread: an ampcl call that may wait. */
void amp__trace_host(const char *name, uint64_t t0, uint64_t t1);

/* Why the commands this thread enqueues next happen ("copy in for kernel k", "synchronize"), until
 * the next call; NULL clears it. Returns the previous reason, to restore. */
const char *amp__trace_reason(const char *reason);

/* For a function with one exit (`fail:`): AMP__TRACE_BEGIN at the top, AMP__TRACE_END(name) at
 * the exit. */
#define AMP__TRACE_BEGIN const uint64_t amp__trace_t0 = amp__trace_on() ? amp__trace_now() : 0
#define AMP__TRACE_END(name)                                                                       \
  do {                                                                                             \
    if (amp__trace_t0)                                                                             \
      amp__trace_host((name), amp__trace_t0, amp__trace_now());                                    \
  } while (0)

#endif /* AMPCL_RUNTIME_TRACE_H */
