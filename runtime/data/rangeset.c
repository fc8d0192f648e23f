/* runtime/data/rangeset.c: sorted disjoint byte ranges. */
#include "data/rangeset.h"

#include <stdlib.h>
#include <string.h>

static int reserve(amp__rangeset *s, size_t n) {
  if (n <= s->cap)
    return 0;
  size_t cap = s->cap ? s->cap * 2 : 4;
  while (cap < n)
    cap *= 2;
  amp__range *r = realloc(s->r, cap * sizeof *r);
  if (!r)
    return -1;
  s->r = r;
  s->cap = cap;
  return 0;
}

int amp__rangeset_append(amp__rangeset *s, size_t lo, size_t hi) {
  if (lo >= hi)
    return 0;
  if (s->n > 0 && s->r[s->n - 1].hi >= lo) {
    if (hi > s->r[s->n - 1].hi)
      s->r[s->n - 1].hi = hi;
    return 0;
  }
  if (reserve(s, s->n + 1))
    return -1;
  s->r[s->n].lo = lo;
  s->r[s->n].hi = hi;
  s->n++;
  return 0;
}

/* Rebuilds s as (s minus [lo,hi)) plus, when `add`, [lo,hi). */
static int rebuild(amp__rangeset *s, size_t lo, size_t hi, int add) {
  if (lo >= hi)
    return 0;
  amp__rangeset out = {0};
  if (reserve(&out, s->n + 2))
    return -1;
  int placed = !add;
  for (size_t i = 0; i < s->n; i++) {
    amp__range r = s->r[i];
    if (r.hi <= lo || r.lo >= hi) { /* untouched */
      if (!placed && r.lo >= hi) {
        amp__rangeset_append(&out, lo, hi);
        placed = 1;
      }
      amp__rangeset_append(&out, r.lo, r.hi);
      continue;
    }
    if (r.lo < lo)
      amp__rangeset_append(&out, r.lo, lo);
    if (!placed) {
      amp__rangeset_append(&out, lo, hi);
      placed = 1;
    }
    if (r.hi > hi)
      amp__rangeset_append(&out, hi, r.hi);
  }
  if (!placed)
    amp__rangeset_append(&out, lo, hi);
  free(s->r);
  *s = out;
  return 0;
}

int amp__rangeset_add(amp__rangeset *s, size_t lo, size_t hi) {
  return rebuild(s, lo, hi, 1);
}
int amp__rangeset_remove(amp__rangeset *s, size_t lo, size_t hi) {
  return rebuild(s, lo, hi, 0);
}

int amp__rangeset_missing(const amp__rangeset *s, size_t lo, size_t hi, amp__rangeset *out) {
  size_t at = lo;
  for (size_t i = 0; i < s->n && at < hi; i++) {
    amp__range r = s->r[i];
    if (r.hi <= at)
      continue;
    if (r.lo >= hi)
      break;
    if (r.lo > at && amp__rangeset_append(out, at, r.lo))
      return -1;
    at = r.hi;
  }
  if (at < hi && amp__rangeset_append(out, at, hi))
    return -1;
  return 0;
}

int amp__rangeset_covered(const amp__rangeset *s, size_t lo, size_t hi, amp__rangeset *out) {
  for (size_t i = 0; i < s->n; i++) {
    amp__range r = s->r[i];
    if (r.hi <= lo)
      continue;
    if (r.lo >= hi)
      break;
    if (amp__rangeset_append(out, r.lo > lo ? r.lo : lo, r.hi < hi ? r.hi : hi))
      return -1;
  }
  return 0;
}

void amp__rangeset_clear(amp__rangeset *s) {
  s->n = 0;
}

void amp__rangeset_free(amp__rangeset *s) {
  free(s->r);
  memset(s, 0, sizeof *s);
}

int amp__rangeset_add_all(amp__rangeset *s, const amp__rangeset *t) {
  if (t->n == 0)
    return 0;
  amp__rangeset out = {0};
  if (reserve(&out, s->n + t->n))
    return -1;
  size_t i = 0, j = 0;
  while (i < s->n || j < t->n) { /* merge by start; append merges what overlaps or touches */
    const amp__range *r =
        j >= t->n || (i < s->n && s->r[i].lo <= t->r[j].lo) ? &s->r[i++] : &t->r[j++];
    amp__rangeset_append(&out, r->lo, r->hi);
  }
  free(s->r);
  *s = out;
  return 0;
}

int amp__rangeset_remove_all(amp__rangeset *s, const amp__rangeset *t) {
  if (t->n == 0 || s->n == 0)
    return 0;
  amp__rangeset out = {0};
  if (reserve(&out, s->n + t->n))
    return -1;
  size_t j = 0;
  for (size_t i = 0; i < s->n; i++) {
    size_t lo = s->r[i].lo, hi = s->r[i].hi;
    while (j < t->n && t->r[j].hi <= lo) /* removals wholly before this range */
      j++;
    for (size_t k = j; k < t->n && t->r[k].lo < hi; k++) {
      if (t->r[k].lo > lo)
        amp__rangeset_append(&out, lo, t->r[k].lo);
      if (t->r[k].hi > lo)
        lo = t->r[k].hi;
      if (lo >= hi)
        break;
    }
    if (lo < hi)
      amp__rangeset_append(&out, lo, hi);
  }
  free(s->r);
  *s = out;
  return 0;
}

int amp__rangeset_missing_all(const amp__rangeset *s, const amp__rangeset *t, amp__rangeset *out) {
  amp__rangeset_clear(out);
  for (size_t i = 0; i < t->n; i++)
    if (amp__rangeset_append(out, t->r[i].lo, t->r[i].hi))
      return -1;
  return amp__rangeset_remove_all(out, s);
}

int amp__rangeset_covered_all(const amp__rangeset *s, const amp__rangeset *t, amp__rangeset *out) {
  amp__rangeset_clear(out);
  size_t i = 0, j = 0;
  while (i < s->n && j < t->n) { /* two sorted lists: emit each overlap, advance the earlier end */
    size_t lo = s->r[i].lo > t->r[j].lo ? s->r[i].lo : t->r[j].lo;
    size_t hi = s->r[i].hi < t->r[j].hi ? s->r[i].hi : t->r[j].hi;
    if (lo < hi && amp__rangeset_append(out, lo, hi))
      return -1;
    if (s->r[i].hi < t->r[j].hi)
      i++;
    else
      j++;
  }
  return 0;
}
