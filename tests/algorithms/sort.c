/* algo_sort: amp_sort and amp_sort_by_key against a host sort, for uint, int and float
 * keys at sizes around the tile (1, 2, 1023, 1025, 5000, 100003), with many equal keys (the
 * values must keep their order: stable), negative and special floats, a section, and bad input. */
#include "algorithms/algo_check.h"

#include <stdint.h>

static const int sizes[] = {1, 2, 1023, 1025, 5000, 100003};

static int cmp_u(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}
static int cmp_i(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}
static int cmp_f(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  if (x == y) /* -0.0 before +0.0, as the radix order has it */
    return !!signbit(y) - !!signbit(x);
  return (x > y) - (x < y);
}

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Sorts n keys of the given kind on the device and compares with qsort. */
static void check_keys(amp_accelerator_view *av, int n, amp_elem_type t) {
  uint32_t *k = malloc((size_t)n * 4), *want = malloc((size_t)n * 4);
  for (int i = 0; i < n; i++) {
    uint32_t h = test_hash32((uint32_t)i);
    if (t.kind == AMP_ELEM_FLOAT) {
      float f = ((float)(h % 20001u) - 10000.0f) / 7.0f;
      if (i % 97 == 5)
        f = -0.0f;
      if (i % 101 == 7)
        f = (i & 1) ? INFINITY : -INFINITY;
      memcpy(&k[i], &f, 4);
    } else {
      k[i] = h;
    }
  }
  memcpy(want, k, (size_t)n * 4);
  qsort(want, (size_t)n, 4,
        t.kind == AMP_ELEM_UINT32  ? cmp_u
        : t.kind == AMP_ELEM_INT32 ? cmp_i
                                   : cmp_f);
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(n), t, k, &v));
  CHECK_OK(amp_sort(av, v));
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = -1;
  for (int i = 0; i < n && bad < 0; i++)
    if (k[i] != want[i])
      bad = i;
  if (bad >= 0)
    fprintf(stderr, "sort kind %d n %d: key %d is %08x, want %08x\n", (int)t.kind, n, bad, k[bad],
            want[bad]);
  CHECK(bad < 0);
  amp_array_view_release(v);
  FREE_ALL(k, want);
}

/* Sorts n keys k of type kt and their values val of type vt by key, on the device; k and val hold
 * the result. */
static void sort_by_key_on_device(amp_accelerator_view *av, int n, amp_elem_type kt, void *k,
                                  amp_elem_type vt, void *val) {
  amp_array_view *kv = NULL, *vv = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(n), kt, k, &kv));
  CHECK_OK(amp_array_view_create(amp_extent1(n), vt, val, &vv));
  CHECK_OK(amp_sort_by_key(av, kv, vv));
  CHECK_OK(amp_array_view_synchronize(kv));
  CHECK_OK(amp_array_view_synchronize(vv));
  RELEASE_VIEWS(kv, vv);
}

/* Key-value: keys with many repeats, values their original positions. */
static void check_pairs(amp_accelerator_view *av, int n) {
  int32_t *k = malloc((size_t)n * 4);
  uint32_t *val = malloc((size_t)n * 4);
  int64_t *want = malloc((size_t)n * sizeof *want); /* key * 2^32 + position: sorted = stable */
  for (int i = 0; i < n; i++) {
    k[i] = (int32_t)(test_hash32((uint32_t)i) % 50u) - 25;
    val[i] = (uint32_t)i;
    want[i] = (int64_t)k[i] * 4294967296LL + i;
  }
  sort_by_key_on_device(av, n, AMP_INT32, k, AMP_UINT32, val);
  qsort(want, (size_t)n, sizeof *want, cmp64);
  int bad = -1;
  for (int i = 0; i < n && bad < 0; i++)
    if ((int64_t)k[i] * 4294967296LL + val[i] != want[i])
      bad = i;
  if (bad >= 0)
    fprintf(stderr, "sort_by_key n %d: pair %d is (%d, %u)\n", n, bad, k[bad], val[bad]);
  CHECK(bad < 0);
  FREE_ALL(k, val, want);
}

/* Keys that are all equal, already sorted, or sorted backwards, with float values that must keep
 * their order (stable): the values are the positions, as floats. */
static void check_shapes(amp_accelerator_view *av, int n) {
  uint32_t *k = malloc((size_t)n * 4);
  float *val = malloc((size_t)n * 4);
  for (int shape = 0; shape < 3; shape++) {
    for (int i = 0; i < n; i++) {
      k[i] = shape == 0 ? 0xdeadbeefu : shape == 1 ? (uint32_t)i * 3u : (uint32_t)(n - i) * 3u;
      val[i] = (float)i;
    }
    sort_by_key_on_device(av, n, AMP_UINT32, k, AMP_FLOAT, val);
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++) {
      uint32_t wk = shape == 0 ? 0xdeadbeefu : (uint32_t)(shape == 1 ? i : i + 1) * 3u;
      float wv = (float)(shape == 2 ? n - 1 - i : i);
      if (k[i] != wk || val[i] != wv)
        bad = i;
    }
    if (bad >= 0)
      fprintf(stderr, "sort shape %d n %d: pair %d is (%u, %g)\n", shape, n, bad, k[bad],
              (double)val[bad]);
    CHECK(bad < 0);
  }
  FREE_ALL(k, val);
}

int main(void) {
  REQUIRE_VIEW(av);
  check_shapes(av, 1);
  check_shapes(av, 4097);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    /* small (oclgrind): up to two tiles of keys; the section below (3001 keys) has a middle tile */
    if (test_small() && sizes[s] > 1025)
      continue;
    check_keys(av, sizes[s], AMP_UINT32);
    check_keys(av, sizes[s], AMP_INT32);
    check_keys(av, sizes[s], AMP_FLOAT);
    check_pairs(av, sizes[s]);
  }

  /* A section from element 3 to the next-to-last: the rest stays as it was. */
  enum { N = 3001 };
  static uint32_t x[N], ref[N];
  for (int i = 0; i < N; i++)
    x[i] = ref[i] = test_hash32((uint32_t)i) % 1000u;
  qsort(ref + 3, N - 4, 4, cmp_u);
  amp_array_view *all = NULL, *sec = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_UINT32, x, &all));
  REQUIRE_OK(amp_array_view_section(all, amp_index1(3), amp_extent1(N - 4), &sec));
  CHECK_OK(amp_sort(av, sec));
  CHECK_OK(amp_array_view_synchronize(all));
  CHECK(memcmp(x, ref, sizeof x) == 0);

  /* Bad input: nothing changes. */
  amp_array_view *ro = NULL, *d = NULL, *other = NULL;
  static double dx[16];
  static uint32_t ox[17];
  REQUIRE_OK(amp_array_view_as_const(all, &ro));
  CHECK_STATUS(amp_sort(av, ro), AMP_ERROR_ACCESS_DENIED);
  /* 16-byte structs (64-bit keys: sort64.c) */
  REQUIRE_OK(amp_array_view_create(amp_extent1(8), ((amp_elem_type){AMP_ELEM_STRUCT, 16}), dx, &d));
  CHECK_STATUS(amp_sort(av, d), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_INT32, AMP_UINT32, AMP_FLOAT, AMP_DOUBLE, AMP_INT64 or AMP_UINT64");
  REQUIRE_OK(amp_array_view_create(amp_extent1(17), AMP_UINT32, ox, &other));
  CHECK_STATUS(amp_sort_by_key(av, all, other), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("3001");
  CHECK_STATUS(amp_sort_by_key(av, sec, all), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_STATUS(amp_sort_by_key(av, all, all), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("same data");
  CHECK_STATUS(amp_sort_by_key(av, all, NULL), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_sort(av, NULL), AMP_ERROR_INVALID_HANDLE);
  CHECK_OK(amp_array_view_synchronize(all));
  CHECK(memcmp(x, ref, sizeof x) == 0);
  RELEASE_VIEWS(other, d, ro, sec, all);
  return check_done();
}
