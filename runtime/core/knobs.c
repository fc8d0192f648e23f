/* runtime/core/knobs.c: the table of AMP_* environment variables (knobs.def) and its one reader. */
#include "core/knobs.h"

#include <stdlib.h>

#include "core/env_parse.h"
#include "core/error.h"

#ifndef AMP_LAB_KNOBS
#define AMP_LAB_KNOBS 1
#endif

enum { KIND_INT, KIND_ONOFF, KIND_WORDS, KIND_BYTES, KIND_PATH, KIND_TEXT };
enum { AUD_USER, AUD_LAB };

static const struct {
  const char *name;
  int kind, audience;
  long long lo, hi;
} table[] = {
#define AMP__KNOB(id, name, kind, lo, hi, range, dflt, audience, meaning)                          \
  {name, KIND_##kind, AUD_##audience, (long long)(lo), (long long)(hi)},
#include "core/knobs.def"
#undef AMP__KNOB
};

const char *amp__knob_name(amp__knob k) {
  return (unsigned)k < AMP__KNOB_COUNT ? table[k].name : "AMP_?";
}

const char *amp__knob_get(amp__knob k) {
  if ((unsigned)k >= AMP__KNOB_COUNT || (!AMP_LAB_KNOBS && table[k].audience == AUD_LAB))
    return NULL;
  const char *v =
      table[k].kind == KIND_PATH ? amp__env_secure(table[k].name) : getenv(table[k].name);
  return v && *v ? v : NULL;
}

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
  long long lo = (unsigned)k < AMP__KNOB_COUNT ? table[k].lo : 0;
  long long hi = (unsigned)k < AMP__KNOB_COUNT ? table[k].hi : 0;
  return amp__knob_int_in(k, (int)lo, hi > 0x7fffffff ? 0x7fffffff : (int)hi, dflt, out, fn);
}
