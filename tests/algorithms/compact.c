/* algo_compact: amp_copy_if and amp_unique against host loops, for int, uint, float and double
 * (double where the device has it) at sizes around the tiles (4096 elements, 2048 for double):
 * 1, 2, 2047, 4097, 9000 (100003 outside the small sweep); predicates keeping none, all and some;
 * unique on sorted data with runs crossing tile edges; elements of dst past the count untouched;
 * and bad input (dst too small, same data, a predicate that does not build, NULL count, tuning
 * variables out of their range), after which dst is as it was. ctest runs it for the single pass
 * and the three passes (AMP_COMPACT_PASSES=1, 3; the default on the device besides), for the warp
 * path emulated (AMP_WARP_EMULATE=1), and with look-backs that walk back to the first tile
 * through aggregates in small tiles (AMP_COMPACT_AGG_ONLY=1; tests/algorithms/CMakeLists.txt). */
#include "algorithms/algo_check.h"

#include <stdint.h>

/* Element i of the test data as `size` bytes of kind `kind`, from x (a small integer). */
static void put(void *p, size_t i, amp_elem_type t, int x) {
  switch (t.kind) {
  case AMP_ELEM_INT32:
    ((int32_t *)p)[i] = x;
    break;
  case AMP_ELEM_UINT32:
    ((uint32_t *)p)[i] = (uint32_t)x;
    break;
  case AMP_ELEM_FLOAT:
    ((float *)p)[i] = (float)x * 0.5f;
    break;
  default:
    ((double *)p)[i] = (double)x * 0.25;
  }
}

/* keep: 0 none, 1 all, 2 the multiples of 3 (as integers: x % 3 == 0), 3 unique on sorted data. */
static void check_case(amp_accelerator_view *av, int n, amp_elem_type t, int keep) {
  size_t sz = t.size;
  void *src = malloc((size_t)n * sz), *dst = malloc((size_t)(n + 1) * sz);
  int *want = malloc((size_t)n * sizeof *want), nwant = 0;
  int prev = 0;
  for (int i = 0; i < n; i++) {
    int x = keep == 3 ? prev + (test_hash32((uint32_t)i) % 7u == 0) *
                                   (1 + (int)(test_hash32((uint32_t)~i) % 3u))
                      : (int)(test_hash32((uint32_t)i) % 1000u);
    if (keep == 3 && i % 4096 == 4095)
      x = prev + 1; /* a new run right at a tile's last element */
    put(src, (size_t)i, t, x);
    int k = keep == 1 || (keep == 2 && x % 3 == 0) || (keep == 3 && (i == 0 || x != prev));
    if (k)
      want[nwant++] = x;
    prev = x;
  }
  for (int i = 0; i <= n; i++)
    put(dst, (size_t)i, t, -7);
  const char *pred = keep == 0   ? "bool amp_predicate(T x) { return x < (T)0; }"
                     : keep == 1 ? "bool amp_predicate(T x) { return true; }"
                     : t.kind == AMP_ELEM_FLOAT
                         ? "bool amp_predicate(T x) { return fmod(x * 2.0f, 3.0f) == 0.0f; }"
                     : t.kind == AMP_ELEM_DOUBLE
                         ? "bool amp_predicate(T x) { return fmod(x * 4.0, 3.0) == 0.0; }"
                         : "bool amp_predicate(T x) { return x % 3 == 0; }";
  amp_array_view *vs = NULL, *vd = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), t, src, &vs));
  CHECK_OK(amp_array_view_create(amp_extent1(n + 1), t, dst, &vd));
  size_t count = 12345;
  CHECK_OK(keep == 3 ? amp_unique(av, vs, vd, &count) : amp_copy_if(av, vs, vd, pred, &count));
  CHECK_OK(amp_array_view_synchronize(vd));
  /* expected: the kept elements, then dst's old contents */
  void *exp = malloc((size_t)(n + 1) * sz);
  for (int i = 0; i <= n; i++)
    put(exp, (size_t)i, t, i < nwant ? want[i] : -7);
  int bad = (int)count != nwant ? -2 : -1;
  for (int i = 0; i <= n && bad == -1; i++)
    if (memcmp((char *)dst + (size_t)i * sz, (char *)exp + (size_t)i * sz, sz) != 0)
      bad = i;
  free(exp);
  if (bad != -1)
    fprintf(stderr, "compact kind %d n %d keep %d: count %zu (want %d), first bad %d\n",
            (int)t.kind, n, keep, count, nwant, bad);
  CHECK(bad == -1);
  amp_array_view_release(vs);
  amp_array_view_release(vd);
  FREE_ALL(src, dst, want);
}

/* amp_copy_if with the environment variable `name` set to `value` (restored after): an
 * AMP_ERROR_INVALID_ARGUMENT whose message has `what`. */
static void bad_env(amp_accelerator_view *av, amp_array_view *vx, amp_array_view *vy,
                    const char *name, const char *value, const char *what) {
  const char *old = getenv(name);
  char *keep = old ? strdup(old) : NULL;
  size_t count = 77;
  setenv(name, value, 1);
  CHECK_STATUS(amp_copy_if(av, vx, vy, "bool amp_predicate(T x) { return x > 5; }", &count),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG(what);
  CHECK(count == 77);
  if (keep)
    setenv(name, keep, 1);
  else
    unsetenv(name);
  free(keep);
}

int main(void) {
  REQUIRE_VIEW_PROPS(av, p);
  const int sizes[] = {1, 2, 2047, 4097, 9000, 100003};
  const amp_elem_type types[] = {AMP_INT32, AMP_UINT32, AMP_FLOAT, AMP_DOUBLE};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    if (!test_full() && sizes[s] > 9000)
      continue;
    for (int ti = 0; ti < 4; ti++) {
      if (types[ti].kind == AMP_ELEM_DOUBLE && !p.supports_double_precision)
        continue;
      for (int keep = 0; keep < 4; keep++) /* none and all: one size, and one type outside the
                                               full sweep (each predicate is a build) */
        if (keep >= 2 || (sizes[s] == 4097 && (test_full() || ti == 0)))
          check_case(av, sizes[s], types[ti], keep);
    }
  }

  /* Bad input: dst keeps its contents. */
  static int32_t x[100], y[100], small[99];
  for (int i = 0; i < 100; i++) {
    x[i] = i;
    y[i] = -1;
  }
  amp_array_view *vx = NULL, *vy = NULL, *vsmall = NULL, *vf = NULL, *ro = NULL;
  static float fy[100];
  REQUIRE_OK(amp_array_view_create(amp_extent1(100), AMP_INT32, x, &vx));
  REQUIRE_OK(amp_array_view_create(amp_extent1(100), AMP_INT32, y, &vy));
  REQUIRE_OK(amp_array_view_create(amp_extent1(99), AMP_INT32, small, &vsmall));
  REQUIRE_OK(amp_array_view_create(amp_extent1(100), AMP_FLOAT, fy, &vf));
  REQUIRE_OK(amp_array_view_as_const(vy, &ro));
  const char *ok = "bool amp_predicate(T x) { return x > 5; }";
  size_t count = 77;
  CHECK_STATUS(amp_copy_if(av, vx, vsmall, ok, &count), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("99");
  CHECK_STATUS(amp_copy_if(av, vx, vx, ok, &count), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("same data");
  CHECK_STATUS(amp_copy_if(av, vx, vf, ok, &count), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_copy_if(av, vx, ro, ok, &count), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_copy_if(av, vx, vy, NULL, &count), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("predicate_source");
  CHECK_STATUS(amp_copy_if(av, vx, vy, ok, NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("count");
  CHECK_STATUS(amp_copy_if(av, vx, vy, "bool amp_predicate(T x) { return x > ; }", &count),
               AMP_ERROR_BUILD_FAILED);
  CHECK_STATUS(amp_unique(av, vx, NULL, &count), AMP_ERROR_INVALID_HANDLE);
  CHECK(count == 77);
  /* the tuning knobs' limits: a multiple of 32 threads; at most 8192 elements a tile */
  bad_env(av, vx, vy, "AMP_COMPACT_TILE", "100", "AMP_COMPACT_TILE=100");
  bad_env(av, vx, vy, "AMP_COMPACT_TILE", "2048", "AMP_COMPACT_TILE");
  bad_env(av, vx, vy, "AMP_COMPACT_PER", "33", "AMP_COMPACT_PER");
  bad_env(av, vx, vy, "AMP_COMPACT_WINDOW", "0", "AMP_COMPACT_WINDOW");
  if (!getenv("AMP_COMPACT_PER")) { /* 1024 threads x 16 elements: over the limit */
    setenv("AMP_COMPACT_PER", "16", 1);
    bad_env(av, vx, vy, "AMP_COMPACT_TILE", "1024", "8192");
    unsetenv("AMP_COMPACT_PER");
  }
  CHECK_OK(amp_array_view_synchronize(vy));
  int same = 1;
  for (int i = 0; i < 100; i++)
    same = same && y[i] == -1;
  CHECK(same);
  /* and the same views then work */
  CHECK_OK(amp_copy_if(av, vx, vy, ok, &count));
  CHECK(count == 94);
  CHECK_OK(amp_array_view_synchronize(vy));
  CHECK(y[0] == 6 && y[93] == 99 && y[94] == -1);
  RELEASE_VIEWS(ro, vf, vsmall, vy, vx);
  return check_done();
}
