/* runtime/core/profiling.c: whether a queue records device times (OpenCL profiling).
 *
 * Every view's queue has profiling on unless the program says otherwise, because
 * amp_future_elapsed_ns and amp_blas_gemm's engine choice read device times from it. AMP_PROFILE=0
 * turns it off for every view made after (1 or unset: on; another value is an error naming it);
 * amp_accelerator_create_view_profiling chooses per view. AMP_TRACE wins over both: a trace
 * needs every command's device times, so with it set every queue profiles. */
#include <stdlib.h>
#include <string.h>

#include "core/env_parse.h"
#include "core/knobs.h"
#include "core/profiling.h"
#include "core/trace_impl.h"

amp_status amp__profiling_default(bool *out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  const char *env = amp__knob_get(AMP_KNOB_PROFILE);
  int on = amp__env_profile(env);
  *out = true;
  if (on == 1)
    return AMP_SUCCESS;
  if (on < 0)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: AMP_PROFILE=%s: expected 0 (off) or 1 (on)", fn,
              env);
  *out = false; /* amp__queue_properties still turns it on while tracing */
fail:
  return status;
}

cl_command_queue_properties amp__queue_properties(bool profiling) {
  return profiling || amp__trace_on() ? CL_QUEUE_PROFILING_ENABLE : 0;
}
