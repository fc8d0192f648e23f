/* runtime/exec/program_build.h: building a program for a device, and what a build is made of
 * (program_build.c). */
#ifndef AMPCL_RUNTIME_PROGRAM_BUILD_H
#define AMPCL_RUNTIME_PROGRAM_BUILD_H

#include "exec/program_cache.h"

/* Whether `name` is a file of the kernel prelude (embedded, but not a program of its own). */
int amp__prelude_has_part(const char *name);

/* The prelude's parts, joined once, as they go in front of every program; NULL only when out of
 * memory. */
const char *amp__prelude_text(void);

/* What ampcl adds to every build's options for `acc`: the device's compute capability as a macro
 * (the prelude's AMP_COMPUTE_CAPABILITY), its 64-bit atomics (AMP_INT64_ATOMICS), for checked
 * builds AMP_DEBUG or AMP_ROBUST, and, for a program whose
 * text uses fast_math_*, the mappings exec/math_accuracy.c measures on the device (a program that
 * does not use them neither waits for that measurement nor depends on it). */
#define AMP__DEVICE_DEFINES_MAX 512
void amp__device_defines(const amp_program *p, amp_accelerator *acc, int checked,
                         char out[AMP__DEVICE_DEFINES_MAX]);

/* Builds the entry's program for `acc` (p: a program that owns the entry, for its label and
 * options in messages); called with e->lock held. A failed build's error carries the log. */
amp_status amp__program_build_entry(struct amp__cache_entry *e, const amp_program *p,
                                    amp_accelerator *acc);

#endif /* AMPCL_RUNTIME_PROGRAM_BUILD_H */
