/* algo_scan: amp_scan, inclusive and exclusive, of int, uint, float and double, against a
 * host prefix sum, at sizes around the vector, tile and step sizes (1 .. 300007), in place,
 * on sections not vector-aligned, and with bad input. Run twice: the single pass (the default
 * wherever the device has the atomics it needs) and the three passes (AMP_SCAN_PASSES=3). */
#include "algorithms/algo_check.h"

#include <stdint.h>

/* 20481: six tiles of the single pass (4096 elements each), so a look-back passes over tiles
 * that published only their aggregate (and oclgrind sees it); 300007: 74 tiles, more than one
 * look-back window of 32 */
static const int sizes[] = {1,    3,    1023,  1024,  1025,  4095,  4096,
                            4097, 5000, 20481, 32767, 32769, 300007}; /* 3276x: CPU chunk edges */

static int value(size_t i) {
  return (int)((i * 2654435761u) % 17u) - 8;
}

/* dst = scan(src) for one element kind; values are small integers, so float and double sums are
 * exact and compared exactly. */
static void check_kind(amp_accelerator_view *av, int n, amp_elem_type t, amp_scan_kind kind) {
  size_t es = t.size;
  unsigned char *in = malloc((size_t)n * es), *out = malloc((size_t)n * es);
  double *want = malloc((size_t)n * sizeof *want);
  double acc = 0;
  for (int i = 0; i < n; i++) {
    int v = value((size_t)i);
    if (t.kind == AMP_ELEM_UINT32)
      v += 8;
    if (t.kind == AMP_ELEM_INT32 || t.kind == AMP_ELEM_UINT32)
      memcpy(in + (size_t)i * es, &v, 4);
    else if (t.kind == AMP_ELEM_FLOAT)
      ((float *)in)[i] = (float)v;
    else
      ((double *)in)[i] = v;
    want[i] = kind == AMP_SCAN_INCLUSIVE ? acc + v : acc;
    acc += v;
  }
  amp_array_view *s = NULL, *d = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), t, in, &s));
  CHECK_OK(amp_array_view_create(amp_extent1(n), t, out, &d));
  CHECK_OK(amp_array_view_discard_data(d));
  CHECK_OK(amp_scan(av, s, d, kind));
  CHECK_OK(amp_array_view_synchronize(d));
  int bad = -1;
  for (int i = 0; i < n && bad < 0; i++) {
    double got;
    if (t.kind == AMP_ELEM_INT32)
      got = ((int32_t *)out)[i];
    else if (t.kind == AMP_ELEM_UINT32)
      got = ((uint32_t *)out)[i];
    else if (t.kind == AMP_ELEM_FLOAT)
      got = ((float *)out)[i];
    else
      got = ((double *)out)[i];
    if (got != want[i]) {
      bad = i;
      fprintf(stderr, "scan kind %d size %d %s: element %d is %g, want %g\n", (int)t.kind, n,
              kind == AMP_SCAN_INCLUSIVE ? "inclusive" : "exclusive", i, got, want[i]);
    }
  }
  CHECK(bad < 0);
  amp_array_view_release(s);
  amp_array_view_release(d);
  FREE_ALL(in, out, want);
}

int main(void) {
  REQUIRE_VIEW_PROPS(av, props);
  const size_t nsizes = algo_sizes_to_run(sizes, sizeof sizes / sizeof sizes[0], 21000);
  for (size_t s = 0; s < nsizes; s++) {
    for (int k = 0; k < 2; k++) {
      check_kind(av, sizes[s], AMP_INT32, (amp_scan_kind)k);
      check_kind(av, sizes[s], AMP_FLOAT, (amp_scan_kind)k);
    }
    check_kind(av, sizes[s], AMP_UINT32, AMP_SCAN_INCLUSIVE);
    if (props.supports_double_precision)
      check_kind(av, sizes[s], AMP_DOUBLE, AMP_SCAN_EXCLUSIVE);
  }

  /* In place, on a section from element 1 (not 4-aligned) to the next-to-last. */
  enum { N = 7001 };
  static int32_t x[N], ref[N];
  for (int i = 0; i < N; i++)
    x[i] = ref[i] = value((size_t)i);
  for (int i = 2; i < N - 1; i++)
    ref[i] += ref[i - 1];
  amp_array_view *all = NULL, *sec = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, x, &all));
  REQUIRE_OK(amp_array_view_section(all, amp_index1(1), amp_extent1(N - 2), &sec));
  CHECK_OK(amp_scan(av, sec, sec, AMP_SCAN_INCLUSIVE));
  CHECK_OK(amp_array_view_synchronize(all));
  CHECK(memcmp(x, ref, sizeof x) == 0);

  /* Bad input: nothing written. */
  amp_array_view *f = NULL, *ro = NULL;
  static float fx[N];
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, fx, &f));
  CHECK_STATUS(amp_scan(av, all, f, AMP_SCAN_INCLUSIVE), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("element type");
  REQUIRE_OK(amp_array_view_as_const(all, &ro));
  CHECK_STATUS(amp_scan(av, all, ro, AMP_SCAN_INCLUSIVE), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_scan(av, all, sec, AMP_SCAN_INCLUSIVE), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("7001");
  CHECK_STATUS(amp_scan(av, all, all, (amp_scan_kind)5), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_scan(av, NULL, all, AMP_SCAN_INCLUSIVE), AMP_ERROR_INVALID_HANDLE);
  const char *passes = getenv("AMP_SCAN_PASSES");
  char *keep = passes ? strdup(passes) : NULL;
  setenv("AMP_SCAN_PASSES", "2", 1);
  CHECK_STATUS(amp_scan(av, all, all, AMP_SCAN_INCLUSIVE), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_SCAN_PASSES=2");
  if (keep)
    setenv("AMP_SCAN_PASSES", keep, 1);
  else
    unsetenv("AMP_SCAN_PASSES");
  free(keep);
  CHECK_OK(amp_array_view_synchronize(all));
  CHECK(memcmp(x, ref, sizeof x) == 0);
  RELEASE_VIEWS(ro, f, sec, all);
  return check_done();
}
