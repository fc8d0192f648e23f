/* examples/tutorial/tutorial.h: the one helper every step of docs/TUTORIAL.md uses.
 *
 * TRY(call) runs an ampcl call and, when it fails, prints where, the status and ampcl's reason
 * (amp_last_error names the argument, the limit, or gives the compiler's build log), then exits.
 * The library itself never exits; a small program may. */
#ifndef AMPCL_TUTORIAL_H
#define AMPCL_TUTORIAL_H

#include <ampcl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TRY(call)                                                                                  \
  do {                                                                                             \
    amp_status try_status_ = (call);                                                               \
    if (try_status_ != AMP_SUCCESS) {                                                              \
      fprintf(stderr, "%s:%d: %s failed: %s\n%s\n", __FILE__, __LINE__, #call,                     \
              amp_status_name(try_status_), amp_last_error());                                     \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* Milliseconds on a monotonic clock, for timing a step. */
static inline double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

#endif
