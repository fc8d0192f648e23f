/* runtime/data/scratch.h: device buffers kept for reuse after their data died (scratch.c). */
#ifndef AMPCL_RUNTIME_SCRATCH_H
#define AMPCL_RUNTIME_SCRATCH_H

#include <stddef.h>

#include "core/error.h"

/* A kept buffer of exactly `bytes` on the accelerator at `index`, now the caller's (counted as
 * the user's again), or NULL when none is kept. */
cl_mem amp__scratch_take(size_t index, size_t bytes);

/* Keeps `buf` (`bytes` long, on the accelerator at `index`, idle: no command uses it any more)
 * for a later amp__scratch_take, or releases it when it is too large to keep. */
void amp__scratch_give(size_t index, cl_mem buf, size_t bytes);

#endif
