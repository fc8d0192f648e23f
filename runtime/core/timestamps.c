/* runtime/core/timestamps.c: whether an accelerator's event timestamps measure anything.
 *
 * OpenCL requires every command of a profiling queue to carry timestamps, but not every
 * implementation fills them with device times: Mesa's rusticl on llvmpipe answers with times that
 * measure nothing, and an example then printed "kernel 0.000 ms ... speedup 3372912x". So no
 * driver's timestamps are taken on trust. Once per accelerator, the first time a device time is
 * asked for, a copy of COPY_BYTES between two buffers is timed on a queue of its own, by the host
 * around it and by its event. The timestamps are usable when START and END are nonzero, END is
 * after START, the copy's device time is no longer than the host saw (plus SLACK_NS: the host's
 * clock and the device's differ by their reading), and it is not faster than FASTEST_BYTES_PER_S
 * (no memory moves 100 TB/s). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/accelerator_impl.h"
#include "core/timestamps.h"

enum { COPY_BYTES = 16 << 20 };
#define SLACK_NS            1000000.0
#define FASTEST_BYTES_PER_S 1e14

static double host_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* 1 usable, -1 not (why written), 0 the probe itself could not run (nothing is concluded). */
static int measure_timestamps(amp_accelerator *acc, char *why, size_t cap) {
  cl_context ctx = NULL;
  cl_command_queue q = NULL;
  cl_mem a = NULL, b = NULL;
  cl_event ev = NULL;
  cl_int err = CL_SUCCESS;
  int verdict = 0;
  const cl_uint zero = 0;
  if (amp__context(acc, &ctx) != AMP_SUCCESS)
    return 0;
  q = clCreateCommandQueue(ctx, acc->device, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err == CL_SUCCESS)
    a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, COPY_BYTES, NULL, &err);
  if (err == CL_SUCCESS)
    b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, COPY_BYTES, NULL, &err);
  if (err != CL_SUCCESS ||
      clEnqueueFillBuffer(q, a, &zero, sizeof zero, 0, COPY_BYTES, 0, NULL, NULL) != CL_SUCCESS ||
      clFinish(q) != CL_SUCCESS)
    goto done;
  double h0 = host_ns();
  if (clEnqueueCopyBuffer(q, a, b, 0, 0, COPY_BYTES, 0, NULL, &ev) != CL_SUCCESS ||
      clFinish(q) != CL_SUCCESS)
    goto done;
  double host = host_ns() - h0;
  cl_ulong t0 = 0, t1 = 0;
  if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) != CL_SUCCESS ||
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS) {
    snprintf(why, cap, "a timed %d MiB copy has no START or END time", COPY_BYTES >> 20);
    verdict = -1;
    goto done;
  }
  double dev = t1 > t0 ? (double)(t1 - t0) : 0.0;
  if (t0 == 0 || t1 == 0 || t1 <= t0 || dev > host + SLACK_NS ||
      (double)COPY_BYTES / (dev * 1e-9) > FASTEST_BYTES_PER_S) {
    snprintf(why, cap,
             "a %d MiB copy that took %.3f ms on the host reported START %llu and END %llu ns "
             "(%.6f ms)",
             COPY_BYTES >> 20, host * 1e-6, (unsigned long long)t0, (unsigned long long)t1,
             dev * 1e-6);
    verdict = -1;
  } else {
    verdict = 1;
  }
done:
  if (ev)
    clReleaseEvent(ev);
  if (b)
    clReleaseMemObject(b);
  if (a)
    clReleaseMemObject(a);
  if (q)
    clReleaseCommandQueue(q);
  return verdict;
}

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

int amp__timestamps_usable(amp_accelerator *acc, const char **why) {
  int known = atomic_load(&acc->timestamps);
  if (!known) {
    pthread_mutex_lock(&probe_lock);
    known = atomic_load(&acc->timestamps);
    if (!known) {
      char text[256] = "";
      known = measure_timestamps(acc, text, sizeof text);
      char *kept = known < 0 ? strdup(text) : NULL;
      if (known < 0)
        acc->timestamps_why = kept ? kept : "(no memory to keep what was measured)";
      if (known)
        atomic_store(&acc->timestamps, known);
    }
    pthread_mutex_unlock(&probe_lock);
  }
  if (why)
    *why = known < 0 ? acc->timestamps_why : "";
  return known >= 0; /* a probe that could not run concludes nothing: the event's own times stand */
}
