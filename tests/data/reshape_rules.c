/* reshape_rules: AMP's view_as and reinterpret_as rules for rank-1 views.
 *
 * Proves: a rank-1 view of 10 ints reshaped to 2 x 3 (fewer elements) is allowed and a kernel
 * writing through it changes elements 0..5 only; a reshape to 11 elements or 4 x 3 is refused
 * with AMP_ERROR_EXTENT_MISMATCH naming both sizes, and the host data is intact; reinterpret_as
 * scales the extent by the size ratio (10 ints are 5 doubles, and back) and refuses a byte count
 * that does not divide (9 ints, 36 bytes, as 8-byte doubles). */
#include "check.h"

static const char *src = "__kernel void mark(AMP_VIEW(int, m)) {\n"
                         "  AMP_INDEX2(idx);\n"
                         "  amp_at(m, idx[0], idx[1]) = 100 + idx[0] * 3 + idx[1];\n"
                         "}\n";

int main(void) {
  int skip = test_use_device_from_env(); /* reshape_rules.two: the second device */
  if (skip)
    return skip;
  REQUIRE_VIEW(av);
  int a[10];
  for (int i = 0; i < 10; i++)
    a[i] = i;
  amp_array_view *v = NULL, *m = NULL, *bad = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(10), AMP_INT32, a, &v));

  /* smaller: allowed, sees the first 6 elements */
  CHECK_OK(amp_array_view_view_as(v, amp_extent2(2, 3), &m));
  amp_kernel *k = test_kernel(src, NULL, "mark");
  amp_arg arg = amp_arg_view(m);
  CHECK_OK(amp_parallel_for_each(av, amp_extent2(2, 3), k, &arg, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  for (int i = 0; i < 10; i++)
    CHECK_EQ_INT(a[i], i < 6 ? 100 + i : i);

  /* larger: refused, nothing changes */
  CHECK_STATUS(amp_array_view_view_as(v, amp_extent1(11), &bad), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("11");
  CHECK_STATUS(amp_array_view_view_as(v, amp_extent2(4, 3), &bad), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("fewer are allowed");
  CHECK(bad == NULL);
  CHECK_EQ_INT(a[9], 9);

  /* reinterpret_as scales the extent by the size ratio */
  amp_array_view *r = NULL, *w = NULL;
  CHECK_OK(amp_array_view_reinterpret_as(v, AMP_DOUBLE, &r));
  amp_extent e = amp_extent1(0);
  if (r)
    CHECK_OK(amp_array_view_get_extent(r, &e));
  CHECK_EQ_INT(e.dim[0], 5);
  CHECK_OK(amp_array_view_reinterpret_as(r, AMP_INT32, &w));
  if (w)
    CHECK_OK(amp_array_view_get_extent(w, &e));
  CHECK_EQ_INT(e.dim[0], 10);
  amp_array_view *nine = NULL;
  CHECK_OK(amp_array_view_section(v, amp_index1(0), amp_extent1(9), &nine));
  CHECK_STATUS(amp_array_view_reinterpret_as(nine, AMP_DOUBLE, &bad), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("36 bytes");

  amp_array_view_release(nine);
  amp_array_view_release(w);
  amp_array_view_release(r);
  amp_kernel_release(k);
  amp_array_view_release(m);
  amp_array_view_release(v);
  return check_done();
}
