/* runtime/exec/math_accuracy.h: fast_math_* held to ampcl's stated bound on every device. */
#ifndef AMPCL_EXEC_MATH_ACCURACY_H
#define AMPCL_EXEC_MATH_ACCURACY_H

#include "core/accelerator_impl.h"

#include <stddef.h>

/* Appends to `out` (capacity `cap`, NUL-terminated) the build options that map the fast_math_*
 * functions whose native_* built-in misses ampcl's fast bound on `acc` to the precise built-in.
 * The first call for an accelerator measures its native_* functions (or reads the measurement
 * kept on disk for that device, driver and CPU); math_accuracy.c says how. Returns the number of
 * characters it would have written, as snprintf does. */
size_t amp__fast_math_options(amp_accelerator *acc, char *out, size_t cap);

#endif
