/* runtime/core/knobs.h: the AMP_* environment variables, asked by name from one table
 * (knobs.def), instead of each call site calling getenv. */
#ifndef AMPCL_RUNTIME_KNOBS_H
#define AMPCL_RUNTIME_KNOBS_H

#include "ampcl/status.h"

typedef enum {
#define AMP__KNOB(id, name, kind, lo, hi, range, dflt, audience, meaning) AMP_KNOB_##id,
#include "core/knobs.def"
#undef AMP__KNOB
  AMP__KNOB_COUNT
} amp__knob;

/* The knob's name, "AMP_...". */
const char *amp__knob_name(amp__knob k);

/* The knob's value: NULL when unset or empty, for a lab knob in a build without lab knobs
 * (AMP_LAB_KNOBS=OFF), and for a PATH knob in a setuid or setgid program (secure_getenv). */
const char *amp__knob_get(amp__knob k);

/* The table's range of an INT, ONOFF or BYTES knob. */
long long amp__knob_lo(amp__knob k);
long long amp__knob_hi(amp__knob k);

/* An INT or ONOFF knob as an int in the table's range, or dflt when unset; a value that is not a
 * whole number in the range fails with AMP_ERROR_INVALID_ARGUMENT: "fn: NAME=VALUE: expected LO ..
 * HI". amp__knob_int_in takes a narrower range where the call's own limits make one. */
amp_status amp__knob_int(amp__knob k, int dflt, int *out, const char *fn);
amp_status amp__knob_int_in(amp__knob k, int lo, int hi, int dflt, int *out, const char *fn);

#endif
