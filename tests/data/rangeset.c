/* rangeset: unit tests of runtime/data/rangeset.c, the byte-range sets behind the coherence
 * protocol.
 *
 * A location's "valid" set must stay sorted, disjoint and non-adjacent whatever the order of
 * adds and removes, or the runtime would copy too much or too little. Proves: add merges
 * overlapping and touching ranges (on either side, and across several); remove trims, splits and
 * deletes; missing and covered give the exact gaps and overlaps of a window; append merges with
 * the last range; empty ranges are no-ops; clear and free leave an empty set. */
#include "data/rangeset.h"
#include "check.h"

/* The set equals the n ranges given as lo0, hi0, lo1, hi1, ...; prints both on mismatch. */
static int set_is(const amp__rangeset *s, size_t n, const size_t *want) {
  int ok = s->n == n;
  for (size_t i = 0; ok && i < n; i++)
    ok = s->r[i].lo == want[2 * i] && s->r[i].hi == want[2 * i + 1];
  if (!ok) {
    fprintf(stderr, "  set {");
    for (size_t i = 0; i < s->n; i++)
      fprintf(stderr, " [%zu,%zu)", s->r[i].lo, s->r[i].hi);
    fprintf(stderr, " } expected {");
    for (size_t i = 0; i < n; i++)
      fprintf(stderr, " [%zu,%zu)", want[2 * i], want[2 * i + 1]);
    fprintf(stderr, " }\n");
  }
  return ok;
}
#define SET_IS(s, ...)                                                                             \
  CHECK(set_is((s), sizeof((size_t[]){__VA_ARGS__}) / sizeof(size_t) / 2, (size_t[]){__VA_ARGS__}))
#define SET_EMPTY(s) CHECK((s)->n == 0)

static void test_add(void) {
  amp__rangeset s = {0};
  CHECK_EQ_INT(amp__rangeset_add(&s, 10, 20), 0);
  SET_IS(&s, 10, 20);
  CHECK_EQ_INT(amp__rangeset_add(&s, 30, 40), 0); /* disjoint, after */
  SET_IS(&s, 10, 20, 30, 40);
  CHECK_EQ_INT(amp__rangeset_add(&s, 0, 5), 0); /* disjoint, before */
  SET_IS(&s, 0, 5, 10, 20, 30, 40);
  CHECK_EQ_INT(amp__rangeset_add(&s, 20, 25), 0); /* touches the end of [10,20) */
  SET_IS(&s, 0, 5, 10, 25, 30, 40);
  CHECK_EQ_INT(amp__rangeset_add(&s, 27, 30), 0); /* touches the start of [30,40) */
  SET_IS(&s, 0, 5, 10, 25, 27, 40);
  CHECK_EQ_INT(amp__rangeset_add(&s, 12, 14), 0); /* inside: no change */
  SET_IS(&s, 0, 5, 10, 25, 27, 40);
  CHECK_EQ_INT(amp__rangeset_add(&s, 25, 27), 0); /* fills a gap exactly: two ranges join */
  SET_IS(&s, 0, 5, 10, 40);
  CHECK_EQ_INT(amp__rangeset_add(&s, 3, 50), 0); /* overlaps both: one range */
  SET_IS(&s, 0, 50);
  CHECK_EQ_INT(amp__rangeset_add(&s, 7, 7), 0);   /* empty: no-op */
  CHECK_EQ_INT(amp__rangeset_add(&s, 60, 55), 0); /* reversed: no-op */
  SET_IS(&s, 0, 50);
  amp__rangeset_free(&s);
  CHECK(s.r == NULL && s.n == 0 && s.cap == 0);

  /* many ranges (growth beyond the first allocation), then one add swallows them all */
  for (size_t i = 0; i < 100; i++)
    amp__rangeset_add(&s, 1000 - 10 * i, 1000 - 10 * i + 5); /* added in decreasing order */
  CHECK_EQ_INT(s.n, 100);
  int sorted = 1;
  for (size_t i = 1; i < s.n; i++)
    sorted &= s.r[i - 1].hi < s.r[i].lo;
  CHECK(sorted);
  CHECK_EQ_INT(s.r[0].lo, 10);
  CHECK_EQ_INT(s.r[99].hi, 1005);
  amp__rangeset_add(&s, 9, 1006);
  SET_IS(&s, 9, 1006);
  amp__rangeset_free(&s);
}

static void test_remove(void) {
  amp__rangeset s = {0};
  amp__rangeset_add(&s, 0, 100);
  CHECK_EQ_INT(amp__rangeset_remove(&s, 40, 60), 0); /* splits */
  SET_IS(&s, 0, 40, 60, 100);
  CHECK_EQ_INT(amp__rangeset_remove(&s, 0, 10), 0); /* trims the front */
  SET_IS(&s, 10, 40, 60, 100);
  CHECK_EQ_INT(amp__rangeset_remove(&s, 90, 200), 0); /* trims the back, past the end */
  SET_IS(&s, 10, 40, 60, 90);
  CHECK_EQ_INT(amp__rangeset_remove(&s, 40, 60), 0); /* exactly a gap: no change */
  SET_IS(&s, 10, 40, 60, 90);
  CHECK_EQ_INT(amp__rangeset_remove(&s, 30, 70), 0); /* across a gap: trims both */
  SET_IS(&s, 10, 30, 70, 90);
  CHECK_EQ_INT(amp__rangeset_remove(&s, 20, 20), 0); /* empty: no-op */
  SET_IS(&s, 10, 30, 70, 90);
  CHECK_EQ_INT(amp__rangeset_remove(&s, 10, 30), 0); /* exactly one range */
  SET_IS(&s, 70, 90);
  CHECK_EQ_INT(amp__rangeset_remove(&s, 0, 1000), 0); /* everything */
  SET_EMPTY(&s);
  CHECK_EQ_INT(amp__rangeset_remove(&s, 0, 10), 0); /* from an empty set */
  SET_EMPTY(&s);
  /* remove then add back restores one merged range */
  amp__rangeset_add(&s, 0, 64);
  amp__rangeset_remove(&s, 16, 32);
  amp__rangeset_add(&s, 16, 32);
  SET_IS(&s, 0, 64);
  amp__rangeset_free(&s);
}

static void test_missing_covered(void) {
  amp__rangeset s = {0}, out = {0};
  amp__rangeset_add(&s, 10, 20);
  amp__rangeset_add(&s, 30, 40);
  amp__rangeset_add(&s, 50, 60);

  CHECK_EQ_INT(amp__rangeset_missing(&s, 0, 70, &out), 0);
  SET_IS(&out, 0, 10, 20, 30, 40, 50, 60, 70);
  amp__rangeset_clear(&out);
  CHECK_EQ_INT(amp__rangeset_covered(&s, 0, 70, &out), 0);
  SET_IS(&out, 10, 20, 30, 40, 50, 60);
  amp__rangeset_clear(&out);

  /* a window starting and ending inside ranges */
  amp__rangeset_missing(&s, 15, 55, &out);
  SET_IS(&out, 20, 30, 40, 50);
  amp__rangeset_clear(&out);
  amp__rangeset_covered(&s, 15, 55, &out);
  SET_IS(&out, 15, 20, 30, 40, 50, 55);
  amp__rangeset_clear(&out);

  /* a window fully inside one range: nothing missing, all covered */
  amp__rangeset_missing(&s, 32, 38, &out);
  SET_EMPTY(&out);
  amp__rangeset_covered(&s, 32, 38, &out);
  SET_IS(&out, 32, 38);
  amp__rangeset_clear(&out);

  /* a window fully inside a gap: all missing, nothing covered */
  amp__rangeset_missing(&s, 21, 29, &out);
  SET_IS(&out, 21, 29);
  amp__rangeset_clear(&out);
  amp__rangeset_covered(&s, 20, 30, &out); /* touching both neighbours, but half-open */
  SET_EMPTY(&out);

  /* beyond the last range, and against an empty set */
  amp__rangeset_missing(&s, 60, 80, &out);
  SET_IS(&out, 60, 80);
  amp__rangeset_clear(&out);
  amp__rangeset empty = {0};
  amp__rangeset_missing(&empty, 5, 9, &out);
  SET_IS(&out, 5, 9);
  amp__rangeset_clear(&out);
  amp__rangeset_covered(&empty, 5, 9, &out);
  SET_EMPTY(&out);

  /* results are appended (merging), so several windows build one answer */
  amp__rangeset_missing(&s, 0, 10, &out);
  amp__rangeset_missing(&s, 20, 30, &out);
  SET_IS(&out, 0, 10, 20, 30);
  amp__rangeset_missing(&s, 30, 45, &out); /* 40..45 does not touch 20..30: a new range */
  SET_IS(&out, 0, 10, 20, 30, 40, 45);
  amp__rangeset_clear(&out);
  CHECK_EQ_INT(out.n, 0);

  amp__rangeset_free(&s);
  amp__rangeset_free(&out);
}

static void test_append(void) {
  amp__rangeset s = {0};
  CHECK_EQ_INT(amp__rangeset_append(&s, 0, 4), 0);
  CHECK_EQ_INT(amp__rangeset_append(&s, 4, 8), 0); /* touches: merged */
  SET_IS(&s, 0, 8);
  CHECK_EQ_INT(amp__rangeset_append(&s, 6, 10), 0); /* overlaps: merged */
  SET_IS(&s, 0, 10);
  CHECK_EQ_INT(amp__rangeset_append(&s, 2, 5), 0); /* inside the last: no change */
  SET_IS(&s, 0, 10);
  CHECK_EQ_INT(amp__rangeset_append(&s, 12, 16), 0); /* a gap: new range */
  SET_IS(&s, 0, 10, 12, 16);
  CHECK_EQ_INT(amp__rangeset_append(&s, 20, 20), 0); /* empty: no-op */
  SET_IS(&s, 0, 10, 12, 16);
  /* the rows of a 4x4 section of an 8-wide float matrix: 4 separate runs of 16 bytes */
  amp__rangeset rows = {0};
  for (size_t i = 0; i < 4; i++)
    amp__rangeset_append(&rows, (i * 8 + 2) * 4, (i * 8 + 6) * 4);
  SET_IS(&rows, 8, 24, 40, 56, 72, 88, 104, 120);
  /* full rows of the same matrix: one contiguous run */
  amp__rangeset_clear(&rows);
  for (size_t i = 0; i < 4; i++)
    amp__rangeset_append(&rows, i * 32, (i + 1) * 32);
  SET_IS(&rows, 0, 128);
  amp__rangeset_free(&rows);
  amp__rangeset_free(&s);
}

/* The one-pass set operations agree with range-by-range ones, on random sets over 0..200. */
static unsigned rnd_state = 12345;
static unsigned rnd(unsigned n) {
  rnd_state = rnd_state * 1103515245u + 12345u;
  return (rnd_state >> 16) % n;
}
static void random_set(amp__rangeset *s) {
  amp__rangeset_clear(s);
  for (unsigned k = rnd(8); k > 0; k--) {
    size_t lo = rnd(200), len = 1 + rnd(30);
    amp__rangeset_add(s, lo, lo + len);
  }
}
static int same(const amp__rangeset *a, const amp__rangeset *b) {
  if (a->n != b->n)
    return 0;
  for (size_t i = 0; i < a->n; i++)
    if (a->r[i].lo != b->r[i].lo || a->r[i].hi != b->r[i].hi)
      return 0;
  return 1;
}

/* s changed by t with a whole-set operation (`all`: add_all, remove_all) into got, against want, s
 * changed range by range with the operation's one-range form (`one`): 1 when they agree. */
static int same_changed(const amp__rangeset *s, const amp__rangeset *t,
                        int (*one)(amp__rangeset *, size_t, size_t),
                        int (*all)(amp__rangeset *, const amp__rangeset *), amp__rangeset *want,
                        amp__rangeset *got) {
  amp__rangeset_clear(want);
  for (size_t i = 0; i < s->n; i++)
    amp__rangeset_add(want, s->r[i].lo, s->r[i].hi);
  for (size_t i = 0; i < t->n; i++)
    one(want, t->r[i].lo, t->r[i].hi);
  amp__rangeset_clear(got);
  amp__rangeset_add_all(got, s);
  all(got, t);
  return same(got, want);
}

/* The same for the queries of s that collect the parts of t into a set (missing, covered). */
static int same_found(const amp__rangeset *s, const amp__rangeset *t,
                      int (*one)(const amp__rangeset *, size_t, size_t, amp__rangeset *),
                      int (*all)(const amp__rangeset *, const amp__rangeset *, amp__rangeset *),
                      amp__rangeset *want, amp__rangeset *got) {
  amp__rangeset_clear(want);
  for (size_t i = 0; i < t->n; i++)
    one(s, t->r[i].lo, t->r[i].hi, want);
  all(s, t, got);
  return same(got, want);
}

static void test_set_operations(void) {
  amp__rangeset s = {0}, t = {0}, want = {0}, got = {0};
  int bad = 0;
  for (int round = 0; round < 500; round++) {
    random_set(&s);
    random_set(&t);
    /* s + t, s - t, t not covered by s, and t covered by s */
    bad += !same_changed(&s, &t, amp__rangeset_add, amp__rangeset_add_all, &want, &got);
    bad += !same_changed(&s, &t, amp__rangeset_remove, amp__rangeset_remove_all, &want, &got);
    bad += !same_found(&s, &t, amp__rangeset_missing, amp__rangeset_missing_all, &want, &got);
    bad += !same_found(&s, &t, amp__rangeset_covered, amp__rangeset_covered_all, &want, &got);
  }
  CHECK_EQ_INT(bad, 0);
  amp__rangeset_free(&s);
  amp__rangeset_free(&t);
  amp__rangeset_free(&want);
  amp__rangeset_free(&got);
}

int main(void) {
  test_set_operations();
  test_add();
  test_remove();
  test_missing_covered();
  test_append();
  return check_done();
}
