/* runtime/core/knobs_int.c: an INT or ONOFF knob as a number in its range, a bad value an error
 * naming it (knobs.h). */
#include <stdlib.h>

#include "core/error.h"
#include "core/knobs.h"

amp_status amp__knob_int_in(amp__knob k, int lo, int hi, int dflt, int *out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  const char *env = amp__knob_get(k);
  *out = dflt;
  if (env) {
    char *end = NULL;
    long v = strtol(env, &end, 10);
    if (*end || v < lo || v > hi)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s=%s: expected %d .. %d", fn, amp__knob_name(k),
                env, lo, hi);
    *out = (int)v;
  }
fail:
  return status;
}

amp_status amp__knob_int(amp__knob k, int dflt, int *out, const char *fn) {
  long long lo = amp__knob_lo(k), hi = amp__knob_hi(k);
  return amp__knob_int_in(k, (int)lo, hi > 0x7fffffff ? 0x7fffffff : (int)hi, dflt, out, fn);
}
