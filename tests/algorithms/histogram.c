/* algo_histogram: amp_histogram of int and uint views against a host count, with values
 * outside the bins (negative, too large), bin counts that fit tile_static memory (1, 256, 1000)
 * and one that does not (the global path), sizes 1, 3, 4097, 200003, a section not 4-aligned,
 * and bad input. */
#include "algorithms/algo_check.h"

#include <stdint.h>

static void check_case(amp_accelerator_view *av, int n, int nb, amp_elem_type t) {
  int32_t *x = malloc((size_t)n * sizeof *x);
  uint32_t *bins = malloc((size_t)nb * sizeof *bins), *want = calloc((size_t)nb, sizeof *want);
  for (int i = 0; i < n; i++) {
    uint32_t h = (uint32_t)i * 2654435761u;
    x[i] = (int32_t)(h % (uint32_t)(nb + 20)) - 10; /* some below 0, some >= nb */
    uint32_t u = (uint32_t)x[i];
    if (u < (uint32_t)nb) /* as uint, negative values are huge: uncounted both ways */
      want[u]++;
  }
  for (int b = 0; b < nb; b++)
    bins[b] = 0xdeadbeefu; /* overwritten, not added to */
  amp_array_view *s = NULL, *bv = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), t, x, &s));
  CHECK_OK(amp_array_view_create(amp_extent1(nb), AMP_UINT32, bins, &bv));
  CHECK_OK(amp_histogram(av, s, bv));
  CHECK_OK(amp_array_view_synchronize(bv));
  int bad = 0;
  for (int b = 0; b < nb; b++)
    if (bins[b] != want[b] && !bad++)
      fprintf(stderr, "histogram n %d bins %d: bin %d is %u, want %u\n", n, nb, b, bins[b],
              want[b]);
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(s);
  amp_array_view_release(bv);
  FREE_ALL(x, bins, want);
}

int main(void) {
  REQUIRE_VIEW_PROPS(av, props);
  const int sizes[] = {1, 3, 4097, 200003};
  const int nbins[] = {1, 256, 1000};
  for (size_t s = 0; s < 4; s++)
    for (size_t b = 0; b < 3 && !(test_small() && sizes[s] > 5000); b++) {
      check_case(av, sizes[s], nbins[b], AMP_INT32);
      check_case(av, sizes[s], nbins[b], AMP_UINT32);
    }
  /* More bins than fit half of tile_static memory: global atomics. */
  int big = (int)(props.local_memory / 4) + 1;
  check_case(av, 20000, big, AMP_INT32);

  /* A section from element 1. */
  enum { N = 1001 };
  static int32_t x[N];
  static uint32_t bins[16];
  uint32_t want[16] = {0};
  for (int i = 0; i < N; i++)
    x[i] = i % 16;
  for (int i = 1; i < N; i++)
    want[i % 16]++;
  amp_array_view *all = NULL, *sec = NULL, *bv = NULL, *fv = NULL, *ro = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, x, &all));
  REQUIRE_OK(amp_array_view_section(all, amp_index1(1), amp_extent1(N - 1), &sec));
  REQUIRE_OK(amp_array_view_create(amp_extent1(16), AMP_UINT32, bins, &bv));
  CHECK_OK(amp_histogram(av, sec, bv));
  CHECK_OK(amp_array_view_synchronize(bv));
  CHECK(memcmp(bins, want, sizeof want) == 0);

  /* Bad input. */
  static float f[16];
  REQUIRE_OK(amp_array_view_create(amp_extent1(16), AMP_FLOAT, f, &fv));
  CHECK_STATUS(amp_histogram(av, fv, bv), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_INT32 or AMP_UINT32");
  CHECK_STATUS(amp_histogram(av, all, all), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_UINT32");
  REQUIRE_OK(amp_array_view_as_const(bv, &ro));
  CHECK_STATUS(amp_histogram(av, all, ro), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_histogram(av, all, NULL), AMP_ERROR_INVALID_HANDLE);
  CHECK_OK(amp_array_view_synchronize(bv));
  CHECK(memcmp(bins, want, sizeof want) == 0);
  RELEASE_VIEWS(ro, fv, bv, sec, all);
  return check_done();
}
