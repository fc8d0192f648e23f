/* What the tests of runtime/algorithms share beyond tests/check.h: most pick their cases by what
 * the device has (fp64, local memory), and most end by releasing a handful of views, some of
 * which a failed create or an early `goto done` left NULL. */
#ifndef AMPCL_TESTS_ALGO_CHECK_H
#define AMPCL_TESTS_ALGO_CHECK_H

#include "check.h"

#include <stddef.h>
#include <stdlib.h>

/* Declares `av`, the default view (as REQUIRE_VIEW does), and `props`, its accelerator's
 * properties; a test without them ends at once, failed. */
#define REQUIRE_VIEW_PROPS(av, props)                                                              \
  REQUIRE_VIEW(av);                                                                                \
  amp_accelerator_properties props;                                                                \
  REQUIRE_OK(test_props(av, &props))

/* How many of `sizes`, in ascending order, a run takes: all of them, or only those up to
 * small_max under oclgrind (AMP_TEST_SMALL), which is too slow for more. */
static inline size_t algo_sizes_to_run(const int *sizes, size_t n, int small_max) {
  size_t k = 0;
  while (k < n && (!test_small() || sizes[k] <= small_max))
    k++;
  return k;
}

static inline void algo_release_views(amp_array_view *const *views, size_t n) {
  for (size_t i = 0; i < n; i++)
    amp_array_view_release(views[i]); /* releasing NULL, a view never created, does nothing */
}

/* Releases each view named, in order: RELEASE_VIEWS(a, b, c). */
#define RELEASE_VIEWS(...)                                                                         \
  algo_release_views((amp_array_view *[]){__VA_ARGS__},                                            \
                     sizeof((amp_array_view *[]){__VA_ARGS__}) / sizeof(amp_array_view *))

static inline void algo_free_all(void *const *blocks, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(blocks[i]);
}

/* Frees each block named: FREE_ALL(x, y, want). */
#define FREE_ALL(...)                                                                              \
  algo_free_all((void *[]){__VA_ARGS__}, sizeof((void *[]){__VA_ARGS__}) / sizeof(void *))

#endif
