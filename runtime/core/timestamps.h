/* runtime/core/timestamps.h: whether an accelerator's event timestamps measure anything
 * (timestamps.c). */
#ifndef AMPCL_RUNTIME_TIMESTAMPS_H
#define AMPCL_RUNTIME_TIMESTAMPS_H

struct amp_accelerator;

/* Whether acc's event timestamps can be read as device times: measured once per accelerator, with
 * a timed copy on a queue of its own (timestamps.c says what passes). Returns 1 or 0; with 0, `why`
 * (may be NULL) points at what was measured, for messages. */
int amp__timestamps_usable(struct amp_accelerator *acc, const char **why);

#endif
