/* runtime/core/knobs.c: the table of AMP_* environment variables (knobs.def) and its one reader
 * (knobs_int.c turns a value into a number: it records errors, and error.c reads AMP_DEBUG here).
 */
#include "core/knobs.h"

#include <stdlib.h>

#include "core/env_parse.h"

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

long long amp__knob_lo(amp__knob k) {
  return (unsigned)k < AMP__KNOB_COUNT ? table[k].lo : 0;
}

long long amp__knob_hi(amp__knob k) {
  return (unsigned)k < AMP__KNOB_COUNT ? table[k].hi : 0;
}
