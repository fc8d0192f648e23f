/* runtime/core/profiling.h: the profiling switch of queues (profiling.c). */
#ifndef AMPCL_RUNTIME_PROFILING_H
#define AMPCL_RUNTIME_PROFILING_H

#include <stdbool.h>

#include "core/error.h"

/* Whether views profile when the program does not say: AMP_PROFILE (unset or 1: yes; 0: no;
 * amp__queue_properties overrides both while tracing). Another value of AMP_PROFILE is
 * AMP_ERROR_INVALID_ARGUMENT from `fn`. */
amp_status amp__profiling_default(bool *out, const char *fn);

/* The properties of a view's new queue: profiling when asked or when tracing. */
cl_command_queue_properties amp__queue_properties(bool profiling);

#endif
