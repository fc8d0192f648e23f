/* runtime/data/retire.h: device buffers of transient temporaries, kept for reuse (retire.c). */
#ifndef AMPCL_RUNTIME_RETIRE_H
#define AMPCL_RUNTIME_RETIRE_H

#include <stddef.h>

#include "core/error.h"
#include "core/events.h"

/* Takes `buf` (`bytes` long, on the accelerator at `index`) and the events in *uses (the commands
 * that still use it; *uses is left empty), without waiting for them. */
void amp__retire(size_t index, cl_mem buf, size_t bytes, amp__evlist *uses);

/* A retired buffer of exactly `bytes` on the accelerator at `index` whose commands have all
 * ended, now the caller's, or NULL when there is none. */
cl_mem amp__retire_take(size_t index, size_t bytes);

#endif
