/* runtime/data/rangeset.h: sets of byte ranges, the unit of coherence bookkeeping.
 *
 * A rangeset is a sorted list of disjoint, non-adjacent half-open intervals [lo, hi). Each
 * location of a data source keeps one: the bytes it holds a valid copy of. */
#ifndef AMPCL_RUNTIME_RANGESET_H
#define AMPCL_RUNTIME_RANGESET_H

#include <stddef.h>

typedef struct amp__range {
  size_t lo, hi;
} amp__range;

typedef struct amp__rangeset {
  amp__range *r;
  size_t n, cap;
} amp__rangeset;

/* All return 0 on success, -1 when out of memory (the set is then unchanged). */
int amp__rangeset_add(amp__rangeset *s, size_t lo, size_t hi);
int amp__rangeset_remove(amp__rangeset *s, size_t lo, size_t hi);
/* Appends to *out the parts of [lo, hi) that s does NOT cover, in order. */
int amp__rangeset_missing(const amp__rangeset *s, size_t lo, size_t hi, amp__rangeset *out);
/* Appends to *out the parts of [lo, hi) that s covers, in order. */
int amp__rangeset_covered(const amp__rangeset *s, size_t lo, size_t hi, amp__rangeset *out);
/* s gains every range of t / loses every byte t covers: one merge pass, O(|s| + |t|). */
int amp__rangeset_add_all(amp__rangeset *s, const amp__rangeset *t);
int amp__rangeset_remove_all(amp__rangeset *s, const amp__rangeset *t);
/* *out becomes t minus s / t intersected with s, in one pass (out is cleared first). */
int amp__rangeset_missing_all(const amp__rangeset *s, const amp__rangeset *t, amp__rangeset *out);
int amp__rangeset_covered_all(const amp__rangeset *s, const amp__rangeset *t, amp__rangeset *out);
void amp__rangeset_clear(amp__rangeset *s);
void amp__rangeset_free(amp__rangeset *s);
/* Appends [lo, hi) to the end of s, merging with the last range when they touch. Ranges must be
 * appended in increasing order. */
int amp__rangeset_append(amp__rangeset *s, size_t lo, size_t hi);

#endif /* AMPCL_RUNTIME_RANGESET_H */
