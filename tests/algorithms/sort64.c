/* algo_sort64: amp_sort and amp_sort_by_key with 64-bit keys (AMP_UINT64, AMP_INT64, AMP_DOUBLE)
 * and 64-bit values (also under 32-bit keys), against a stable host sort (qsort with the original
 * position as the tiebreak): sizes that are no multiple of the tile (1, 2, 1023, 1025, 3001,
 * 100003), random keys with many repeats, the extremes (INT64_MIN / MAX, UINT64_MAX, -0.0 / +0.0,
 * infinities, NaNs of either sign, the largest and the smallest doubles), all-equal, sorted and
 * reversed keys, and bad input (values of another length, types neither sort takes, a read-only
 * view): refused with the argument named, the host data unchanged. */
#include "algorithms/algo_check.h"

#include <float.h>
#include <stdint.h>

static uint64_t dbits(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}

static double bitsd(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}

static float bitsf(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

static size_t kind_size(amp_elem_kind k) {
  return k == AMP_ELEM_UINT32 || k == AMP_ELEM_INT32 || k == AMP_ELEM_FLOAT ? 4 : 8;
}

static amp_elem_type type_of(amp_elem_kind k) {
  amp_elem_type t = {k, kind_size(k)};
  return t;
}

/* A number's place among NaNs: negative NaNs first, positive NaNs last (ALGORITHMS.md). */
static int nan_class(double x) {
  return isnan(x) ? (signbit(x) ? 0 : 2) : 1;
}

/* The host order of two keys of kind k, given as their bits; -0.0 before +0.0. */
static int key_cmp(amp_elem_kind k, uint64_t a, uint64_t b) {
  switch (k) {
  case AMP_ELEM_UINT64:
  case AMP_ELEM_UINT32:
    return (a > b) - (a < b);
  case AMP_ELEM_INT64:
    return ((int64_t)a > (int64_t)b) - ((int64_t)a < (int64_t)b);
  case AMP_ELEM_INT32:
    return ((int32_t)(uint32_t)a > (int32_t)(uint32_t)b) -
           ((int32_t)(uint32_t)a < (int32_t)(uint32_t)b);
  default: {
    double x = k == AMP_ELEM_FLOAT ? (double)bitsf((uint32_t)a) : bitsd(a);
    double y = k == AMP_ELEM_FLOAT ? (double)bitsf((uint32_t)b) : bitsd(b);
    if (nan_class(x) != nan_class(y))
      return nan_class(x) - nan_class(y);
    if (isnan(x) || x == y)
      return !!signbit(y) - !!signbit(x);
    return (x > y) - (x < y);
  }
  }
}

typedef struct rec {
  uint64_t key, val; /* bits, in the low bytes for 32-bit kinds */
  uint32_t pos;
} rec;

static amp_elem_kind cmp_kind;

static int rec_cmp(const void *pa, const void *pb) {
  const rec *a = pa, *b = pb;
  int c = key_cmp(cmp_kind, a->key, b->key);
  return c ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

enum { RANDOM, ALL_EQUAL, SORTED, REVERSED };

/* Key i of n (its bits) of kind k in the given pattern. */
static uint64_t make_key(amp_elem_kind k, int pattern, int i, int n) {
  uint64_t h = test_hash64((uint64_t)i * 0x9e3779b97f4a7c15ULL + (uint64_t)k);
  int64_t at = pattern == SORTED ? i - n / 2 : pattern == REVERSED ? n / 2 - i : 7;
  if (pattern == RANDOM && h % 4 == 0)
    h = test_hash64(h % 7); /* many repeats */
  if (k == AMP_ELEM_UINT64) {
    static const uint64_t ext[] = {0, UINT64_MAX, 1ULL << 63, (1ULL << 63) - 1, 1ULL << 32};
    if (pattern != RANDOM)
      return (uint64_t)(at + n) * 0x100000001ULL;
    return i % 41 == 3 ? ext[(i / 41) % 5] : h;
  }
  if (k == AMP_ELEM_INT64) {
    static const int64_t ext[] = {INT64_MIN, INT64_MAX, -1, 0, INT64_MIN + 1};
    if (pattern != RANDOM)
      return (uint64_t)(at * 0x100000001LL);
    return i % 41 == 3 ? (uint64_t)ext[(i / 41) % 5] : h;
  }
  if (k == AMP_ELEM_DOUBLE) {
    static const uint64_t nan_pos = 0x7ff8000000000000ULL, nan_neg = 0xfff8000000000000ULL;
    const double ext[] = {-0.0,    0.0,      INFINITY,     -INFINITY,
                          DBL_MAX, -DBL_MAX, DBL_TRUE_MIN, -DBL_TRUE_MIN};
    if (pattern != RANDOM)
      return dbits((double)at * 1.0e10 + 0.25);
    if (i % 41 == 3)
      return dbits(ext[(i / 41) % 8]);
    if (i % 67 == 5)
      return (i / 67) % 2 ? nan_pos : nan_neg;
    return dbits(ldexp((double)((int64_t)(h % 20001u) - 10000) / 7.0, (int)(h >> 40) % 200 - 100));
  }
  /* 32-bit keys (with 64-bit values): repeats and both signs */
  if (k == AMP_ELEM_FLOAT) {
    float f = pattern != RANDOM ? (float)at * 0.5f : (float)((int)(h % 201u) - 100) / 3.0f;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
  }
  return pattern != RANDOM ? (uint32_t)(at * 3) : (uint32_t)(h % 1000u) - 500u;
}

/* Value i of kind v (its bits): position-derived, with bits above 32 set for 64-bit kinds. */
static uint64_t make_val(amp_elem_kind v, int i) {
  switch (v) {
  case AMP_ELEM_DOUBLE:
    return dbits((double)i + 0.5);
  case AMP_ELEM_FLOAT: {
    float f = (float)i;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
  }
  case AMP_ELEM_INT64:
    return (uint64_t)(-(int64_t)i * 0x100000007LL);
  case AMP_ELEM_UINT64:
    return ((uint64_t)i << 37) | (uint64_t)i;
  default:
    return (uint32_t)i;
  }
}

static void put(unsigned char *p, size_t size, int i, uint64_t bits) {
  if (size == 4) {
    uint32_t b = (uint32_t)bits;
    memcpy(p + (size_t)i * 4, &b, 4);
  } else {
    memcpy(p + (size_t)i * 8, &bits, 8);
  }
}

static uint64_t get(const unsigned char *p, size_t size, int i) {
  if (size == 4) {
    uint32_t b;
    memcpy(&b, p + (size_t)i * 4, 4);
    return b;
  }
  uint64_t b;
  memcpy(&b, p + (size_t)i * 8, 8);
  return b;
}

/* Sorts n keys of kind k in `pattern` on the device (with values of kind v, or none when v is 0)
 * and compares every key's and value's bits with the stable host sort. */
static void check_sort(amp_accelerator_view *av, amp_elem_kind k, amp_elem_kind v, int pattern,
                       int n) {
  size_t ks = kind_size(k), vs = v ? kind_size(v) : 0;
  unsigned char *keys = malloc((size_t)n * ks), *vals = v ? malloc((size_t)n * vs) : NULL;
  rec *want = malloc((size_t)n * sizeof *want);
  for (int i = 0; i < n; i++) {
    want[i].key = make_key(k, pattern, i, n);
    want[i].val = v ? make_val(v, i) : 0;
    want[i].pos = (uint32_t)i;
    put(keys, ks, i, want[i].key);
    if (v)
      put(vals, vs, i, want[i].val);
  }
  cmp_kind = k;
  qsort(want, (size_t)n, sizeof *want, rec_cmp);
  amp_array_view *kv = NULL, *vv = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(n), type_of(k), keys, &kv));
  if (v) {
    CHECK_OK(amp_array_view_create(amp_extent1(n), type_of(v), vals, &vv));
    CHECK_OK(amp_sort_by_key(av, kv, vv));
    CHECK_OK(amp_array_view_synchronize(vv));
  } else {
    CHECK_OK(amp_sort(av, kv));
  }
  CHECK_OK(amp_array_view_synchronize(kv));
  int bad = -1;
  for (int i = 0; i < n && bad < 0; i++)
    if (get(keys, ks, i) != want[i].key || (v && get(vals, vs, i) != want[i].val))
      bad = i;
  if (bad >= 0)
    fprintf(stderr,
            "sort64 key kind %d value kind %d pattern %d n %d: pair %d is (%016llx, %016llx), "
            "want (%016llx, %016llx)\n",
            (int)k, (int)v, pattern, n, bad, (unsigned long long)get(keys, ks, bad),
            v ? (unsigned long long)get(vals, vs, bad) : 0ULL, (unsigned long long)want[bad].key,
            (unsigned long long)want[bad].val);
  CHECK(bad < 0);
  amp_array_view_release(kv);
  amp_array_view_release(vv);
  FREE_ALL(keys, vals, want);
}

/* Bad input: refused with the argument named, nothing written. */
static int check_refusals(amp_accelerator_view *av) {
  enum { N = 300 };
  static uint64_t k[N], k0[N], v[N], v0[N];
  for (int i = 0; i < N; i++) {
    k[i] = k0[i] = test_hash64((uint64_t)i);
    v[i] = v0[i] = (uint64_t)i;
  }
  amp_array_view *kv = NULL, *vv = NULL, *short_v = NULL, *ro = NULL, *sv = NULL, *two = NULL;
  /* one view of each array; the others are views of those (AMP rule 10) */
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_UINT64, k, &kv));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT64, v, &vv));
  REQUIRE_OK(amp_array_view_section(vv, amp_index1(0), amp_extent1(N - 1), &short_v));
  REQUIRE_OK(amp_array_view_as_const(vv, &ro));
  REQUIRE_OK(amp_array_view_reinterpret_as(vv, ((amp_elem_type){AMP_ELEM_STRUCT, 16}), &sv));
  REQUIRE_OK(amp_array_view_view_as(kv, amp_extent2(N / 3, 3), &two));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_STATUS(amp_sort_by_key(av, kv, short_v), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("keys has 300 elements and values 299");
  CHECK_STATUS(amp_sort(av, sv), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("keys holds elements of kind 5 (AMP_STRUCT(T))");
  CHECK_MSG("AMP_INT64 or AMP_UINT64");
  CHECK_STATUS(amp_sort_by_key(av, kv, sv), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("values holds");
  CHECK_STATUS(amp_sort(av, ro), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_sort_by_key(av, kv, ro), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_sort(av, two), AMP_ERROR_RANK_MISMATCH);
  CHECK_STATUS(amp_sort_by_key(av, kv, kv), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("same data");
  CHECK_EQ_INT(test_transfers(), 0);
  CHECK(memcmp(k, k0, sizeof k) == 0);
  CHECK(memcmp(v, v0, sizeof v) == 0);
  /* a good call on the same views still works */
  CHECK_OK(amp_sort_by_key(av, kv, vv));
  CHECK_OK(amp_array_view_synchronize(kv));
  int sorted = 1;
  for (int i = 1; i < N; i++)
    sorted &= k[i - 1] <= k[i];
  CHECK(sorted);
  RELEASE_VIEWS(two, sv, ro, short_v, vv, kv);
  return 0;
}

int main(void) {
  REQUIRE_VIEW_PROPS(av, props);
  int fp64 = props.supports_double_precision, full = test_full();
  static const int sizes[] = {1, 2, 1023, 1025, 3001, 100003};
  static const amp_elem_kind key_kinds[] = {AMP_ELEM_UINT64, AMP_ELEM_INT64, AMP_ELEM_DOUBLE};
  /* Each key type goes with one type of values: two of them 64-bit (the ushort rank table of
   * sort.cl), one 32-bit. Every pair is a build of the sort's kernels (about half a second each on
   * POCL), so only test_full() meets every value type with every key type, in turn over the sizes.
   */
  static const amp_elem_kind pair_vals[] = {AMP_ELEM_INT64, AMP_ELEM_DOUBLE, AMP_ELEM_UINT32};
  static const amp_elem_kind val_kinds[] = {AMP_ELEM_UINT32, AMP_ELEM_UINT64, AMP_ELEM_DOUBLE,
                                            AMP_ELEM_INT64,  AMP_ELEM_FLOAT,  AMP_ELEM_INT32};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    /* small (oclgrind, where a 64-bit sort of two tiles takes seconds): 1, 2 and 1025 keys */
    if ((sizes[s] > 3001 && !full) || (test_small() && (sizes[s] == 1023 || sizes[s] > 1025)))
      continue;
    for (size_t kk = 0; kk < 3; kk++) {
      amp_elem_kind k = key_kinds[kk], v = full ? val_kinds[(s + 2 * kk) % 6] : pair_vals[kk];
      if (!fp64 && (k == AMP_ELEM_DOUBLE || v == AMP_ELEM_DOUBLE))
        continue;
      /* small: at 2 keys the pairs, at 1025 uint64 keys alone and the other two's pairs (each
       * 16 passes of full tiles: a tile costs oclgrind seconds whatever its keys) */
      if (!test_small() || (sizes[s] == 1025 && kk == 0))
        check_sort(av, k, 0, RANDOM, sizes[s]);
      if (!test_small() || sizes[s] == 2 || kk > 0)
        check_sort(av, k, v, RANDOM, sizes[s]);
    }
  }
  int shapes_n = test_small() ? 515 : 2500;
  for (size_t kk = test_small() ? 2 : 0; kk < 3; kk++) /* small: double keys only */
    for (int pattern = ALL_EQUAL; pattern <= REVERSED; pattern++)
      if (fp64 || (key_kinds[kk] != AMP_ELEM_DOUBLE && pair_vals[kk] != AMP_ELEM_DOUBLE))
        check_sort(av, key_kinds[kk], pair_vals[kk], pattern, shapes_n);
  /* 32-bit keys with 64-bit values */
  check_sort(av, AMP_ELEM_INT32, AMP_ELEM_UINT64, RANDOM, test_small() ? 515 : 1025);
  check_sort(av, AMP_ELEM_FLOAT, AMP_ELEM_INT64, REVERSED, test_small() ? 515 : 3001);
  if (full) {
    check_sort(av, AMP_ELEM_UINT32, AMP_ELEM_INT64, RANDOM, 1023);
    if (fp64)
      check_sort(av, AMP_ELEM_UINT32, AMP_ELEM_DOUBLE, RANDOM, 3001);
  }
  if (check_refusals(av))
    check_failed_++;
  return check_done();
}
