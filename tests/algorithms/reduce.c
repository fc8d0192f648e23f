/* algo_reduce: amp_reduce (sum, min, max of int, uint, float, double) and
 * amp_reduce_custom against host references, at sizes around the tile (1, 255, 1025, 4099,
 * 200003), on a section whose first element is not vector-aligned, and with bad input. */
#include "algorithms/algo_check.h"

#include <limits.h>
#include <stdint.h>

static const int sizes[] = {1,     255,   1025, 4099,
                            32769, 200003}; /* 32769: a CPU device's two chunks, the last short */

/* Deterministic values in [-500, 500). */
static int value(size_t i) {
  return (int)((i * 2654435761u) % 1000u) - 500;
}

/* The device's amp_reduce of op over v, a view of 32-bit integers (unsigned ones when
 * is_unsigned), widened so that one comparison serves both. */
static long long reduce32(amp_accelerator_view *av, amp_array_view *v, amp_reduce_op op,
                          int is_unsigned) {
  int32_t r = 0;
  uint32_t ur = 0;
  CHECK_OK(amp_reduce(av, v, op, is_unsigned ? (void *)&ur : (void *)&r));
  return is_unsigned ? (long long)ur : r;
}

static void check_ints(amp_accelerator_view *av, int n) {
  int32_t *x = malloc((size_t)n * sizeof *x);
  amp_array_view *v = NULL;
  int64_t sum = 0;
  int32_t lo = INT32_MAX, hi = INT32_MIN;
  for (int i = 0; i < n; i++) {
    x[i] = value((size_t)i);
    sum += x[i];
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), AMP_INT32, x, &v));
  CHECK_EQ_INT(reduce32(av, v, AMP_REDUCE_SUM, 0), sum);
  CHECK_EQ_INT(reduce32(av, v, AMP_REDUCE_MIN, 0), lo);
  CHECK_EQ_INT(reduce32(av, v, AMP_REDUCE_MAX, 0), hi);
  amp_array_view_release(v);
  /* All positive, so a wrong identity for min (anything below the minimum) shows; all negative
   * for max. */
  for (int i = 0; i < n; i++)
    x[i] += 1000;
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), AMP_INT32, x, &v));
  CHECK_EQ_INT(reduce32(av, v, AMP_REDUCE_MIN, 0), lo + 1000);
  amp_array_view_release(v);
  for (int i = 0; i < n; i++)
    x[i] -= 2000;
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), AMP_INT32, x, &v));
  CHECK_EQ_INT(reduce32(av, v, AMP_REDUCE_MAX, 0), hi - 1000);
  amp_array_view_release(v);
  for (int i = 0; i < n; i++)
    x[i] += 1000;
  /* uint: max of values shifted up, so UINT's identity (0) matters */
  uint32_t *u = malloc((size_t)n * sizeof *u);
  uint32_t umax = 0, umin = UINT32_MAX;
  for (int i = 0; i < n; i++) {
    u[i] = (uint32_t)(x[i] + 500) * 1000003u;
    umax = u[i] > umax ? u[i] : umax;
    umin = u[i] < umin ? u[i] : umin;
  }
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), AMP_UINT32, u, &v));
  CHECK_EQ_INT(reduce32(av, v, AMP_REDUCE_MAX, 1), umax);
  CHECK_EQ_INT(reduce32(av, v, AMP_REDUCE_MIN, 1), umin);
  amp_array_view_release(v);
  FREE_ALL(u, x);
}

static void check_floats(amp_accelerator_view *av, int n, int dbl) {
  size_t es = dbl ? sizeof(double) : sizeof(float);
  void *x = malloc((size_t)n * es);
  double sum = 0, lo = INFINITY, hi = -INFINITY, mag = 0;
  for (int i = 0; i < n; i++) {
    double d = value((size_t)i) / 8.0; /* exact in float */
    if (dbl)
      ((double *)x)[i] = d;
    else
      ((float *)x)[i] = (float)d;
    sum += d;
    mag += fabs(d);
    lo = d < lo ? d : lo;
    hi = d > hi ? d : hi;
  }
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), dbl ? AMP_DOUBLE : AMP_FLOAT, x, &v));
  double r[3];
  for (int op = 0; op < 3; op++) {
    if (dbl) {
      CHECK_OK(amp_reduce(av, v, (amp_reduce_op)op, &r[op]));
    } else {
      float f = 0;
      CHECK_OK(amp_reduce(av, v, (amp_reduce_op)op, &f));
      r[op] = f;
    }
  }
  CHECK(fabs(r[0] - sum) <= (dbl ? 1e-12 : 1e-6) * mag + 1e-9);
  CHECK(r[1] == lo);
  CHECK(r[2] == hi);
  amp_array_view_release(v);
  free(x);
}

int main(void) {
  REQUIRE_VIEW_PROPS(av, props);
  const size_t nsizes = algo_sizes_to_run(sizes, sizeof sizes / sizeof sizes[0], 5000);
  for (size_t s = 0; s < nsizes; s++) {
    check_ints(av, sizes[s]);
    check_floats(av, sizes[s], 0);
    if (props.supports_double_precision)
      check_floats(av, sizes[s], 1);
  }

  /* A section starting at element 3 (not 4-aligned) and the last element alone. */
  enum { N = 5000 };
  static int32_t x[N];
  int64_t want = 0;
  for (int i = 0; i < N; i++)
    x[i] = value((size_t)i);
  for (int i = 3; i < N - 1; i++)
    want += x[i];
  amp_array_view *all = NULL, *sec = NULL, *last = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, x, &all));
  REQUIRE_OK(amp_array_view_section(all, amp_index1(3), amp_extent1(N - 4), &sec));
  int32_t r = 0;
  CHECK_OK(amp_reduce(av, sec, AMP_REDUCE_SUM, &r));
  CHECK_EQ_INT(r, want);
  REQUIRE_OK(amp_array_view_section(all, amp_index1(N - 1), amp_extent1(1), &last));
  CHECK_OK(amp_reduce(av, last, AMP_REDUCE_MAX, &r));
  CHECK_EQ_INT(r, x[N - 1]);

  /* The caller's operator: an XOR, and a product of doubles. */
  int32_t xo = 0;
  for (int i = 0; i < N; i++)
    xo ^= x[i];
  CHECK_OK(amp_reduce_custom(av, all, "T amp_reduce_op(T a, T b) { return a ^ b; }", "0", &r));
  CHECK_EQ_INT(r, xo);
  double *d = malloc(N * sizeof *d);
  for (int i = 0; i < N; i++)
    d[i] = 1.0 + (i % 7) / 64.0; /* a product of these stays finite */
  amp_array_view *dv = NULL;
  if (props.supports_double_precision) {
    double prod = 1, got = 0;
    for (int i = 0; i < 200; i++)
      prod *= d[i];
    CHECK_OK(amp_array_view_create_const(amp_extent1(200), AMP_DOUBLE, d, &dv));
    CHECK_OK(amp_reduce_custom(av, dv, "T amp_reduce_op(T a, T b) { return a * b; }", "1.0", &got));
    CHECK(fabs(got - prod) <= 1e-12 * prod);
    amp_array_view_release(dv);
  }
  free(d);

  /* Bad input: a build error names the line; nothing is written to the result. */
  r = 12345;
  CHECK_STATUS(
      amp_reduce_custom(av, all, "T amp_reduce_op(T a, T b) {\n  return a +* ; }", "0", &r),
      AMP_ERROR_BUILD_FAILED);
  CHECK_EQ_INT(r, 12345);
  CHECK_STATUS(amp_reduce_custom(av, all, NULL, "0", &r), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_reduce_custom(av, all, "x", NULL, &r), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_reduce(av, all, (amp_reduce_op)7, &r), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("op is 7");
  CHECK_STATUS(amp_reduce(av, all, AMP_REDUCE_SUM, NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_reduce(av, NULL, AMP_REDUCE_SUM, &r), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_reduce(NULL, all, AMP_REDUCE_SUM, &r), AMP_ERROR_INVALID_HANDLE);
  amp_array_view *m = NULL;
  REQUIRE_OK(amp_array_view_view_as(all, amp_extent2(50, 100), &m));
  CHECK_STATUS(amp_reduce(av, m, AMP_REDUCE_SUM, &r), AMP_ERROR_RANK_MISMATCH);
  CHECK_MSG("rank 2");
  CHECK_EQ_INT(r, 12345);
  RELEASE_VIEWS(m, last, sec, all);
  return check_done();
}
