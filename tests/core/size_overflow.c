/* size_overflow: no size ampcl computes wraps (issue: sizes never wrap). Extent products,
 * index and extent sums, pad next to INT_MAX, element count x element size, tile counts and
 * section bounds are checked in the type they are computed in; an overflow is an error that names
 * the value (or a documented SIZE_MAX / rank-0 result), never a small wrapped size. Runs under
 * UBSan in the sanitizer build, which would flag any signed overflow on the way. */
#include <limits.h>
#include <stdint.h>

#include "check.h"

enum { N = 8 };

int main(void) {
  int32_t h[N], orig[N];
  for (int i = 0; i < N; i++)
    h[i] = orig[i] = i + 1;

  /* extent products: zero or negative components give 0; an overflowing product SIZE_MAX */
  CHECK_EQ_INT(amp_extent_size(amp_extent2(4, 0)), 0);
  CHECK_EQ_INT(amp_extent_size(amp_extent2(4, -3)), 0);
  CHECK(amp_extent_size(amp_extent3(INT_MAX, INT_MAX, INT_MAX)) == SIZE_MAX);
  CHECK(amp_extent_size(amp_extent2(INT_MAX, INT_MAX)) == (size_t)INT_MAX * (size_t)INT_MAX);
  amp_extent rank4 = {4, {1, 1, 1}};
  CHECK_EQ_INT(amp_extent_size(rank4), 0);
  CHECK(!amp_extent_is_valid(rank4));

  /* index and extent sums */
  CHECK_EQ_INT(amp_index_add(amp_index1(INT_MAX), amp_index1(1)).rank, 0);
  CHECK_MSG("does not fit in an int");
  CHECK_EQ_INT(amp_index_sub(amp_index2(0, INT_MIN), amp_index2(0, 1)).rank, 0);
  CHECK_MSG("amp_index_sub");
  CHECK_EQ_INT(amp_extent_add(amp_extent1(INT_MAX), amp_index1(5)).rank, 0);
  CHECK_MSG("amp_extent_add");
  CHECK_EQ_INT(amp_index_add(amp_index1(INT_MAX - 1), amp_index1(1)).i[0], INT_MAX);
  CHECK(amp_extent_linear(amp_extent1(4), amp_index1(-1)) == SIZE_MAX);

  /* pad and truncate next to INT_MAX */
  const int big = INT_MAX - 127; /* 2^31 - 128: a multiple of 128 */
  amp_tiled_extent t = amp_tiled_extent_pad(amp_tile1(amp_extent1(big), 128));
  CHECK_EQ_INT(t.extent.rank, 1);
  CHECK_EQ_INT(t.extent.dim[0], big); /* already a multiple: unchanged */
  t = amp_tiled_extent_pad(amp_tile2(amp_extent2(4, INT_MAX - 1), 2, 16));
  CHECK_EQ_INT(t.extent.rank, 0); /* would exceed INT_MAX */
  CHECK_MSG("INT_MAX");
  CHECK_MSG("2147483646");
  t = amp_tiled_extent_truncate(amp_tile1(amp_extent1(INT_MAX), 16));
  CHECK_EQ_INT(t.extent.dim[0], INT_MAX - 15);
  CHECK(amp_tiled_extent_tile_count(amp_tile3(amp_extent3(INT_MAX, INT_MAX, INT_MAX), 1, 1, 1)) ==
        SIZE_MAX);

  /* a launch over a pad that could not be done is refused, naming the rank */
  REQUIRE_VIEW(av);
  amp_kernel *k = test_kernel("__kernel void nop(AMP_VIEW(int, v)) { }", NULL, "nop");
  amp_array_view *v = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  amp_arg args[] = {amp_arg_view(v)};
  t = amp_tiled_extent_pad(amp_tile1(amp_extent1(INT_MAX - 3), 8));
  CHECK_STATUS(amp_parallel_for_each_tiled(av, t, k, args, 1), AMP_ERROR_INVALID_COMPUTE_DOMAIN);
  CHECK_MSG("rank 0");
  amp_extent e4 = {4, {2, 2, 2}};
  CHECK_STATUS(amp_parallel_for_each(av, e4, k, args, 1), AMP_ERROR_INVALID_COMPUTE_DOMAIN);
  CHECK_MSG("ranks 1 to 3");

  /* element count x element size, and counts beyond what a view indexes */
  amp_array_view *bad = NULL;
  CHECK_STATUS(amp_array_view_create_empty(amp_extent2(INT_MAX, INT_MAX), AMP_INT32, &bad),
               AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG("2147483647 x 2147483647");
  CHECK_STATUS(amp_array_view_create_empty(amp_extent3(INT_MAX, INT_MAX, INT_MAX), AMP_INT32, &bad),
               AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG("2^31-1");
  amp_elem_type huge = {AMP_ELEM_STRUCT, SIZE_MAX / 2};
  CHECK_STATUS(amp_array_view_create(amp_extent1(N), huge, h, &bad), AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG("do not fit in size_t");
  CHECK_STATUS(amp_array_view_create(e4, AMP_INT32, h, &bad), AMP_ERROR_INVALID_COMPUTE_DOMAIN);
  CHECK_MSG("ranks 1 to 3");
  CHECK(bad == NULL);

  /* section bounds: origin + extent is never computed in int */
  CHECK_STATUS(amp_array_view_section(v, amp_index1(INT_MAX - 1), amp_extent1(10), &bad),
               AMP_ERROR_OUT_OF_RANGE);
  CHECK_MSG("2147483646");
  CHECK_STATUS(amp_array_view_section(v, amp_index1(2), amp_extent1(INT_MAX), &bad),
               AMP_ERROR_OUT_OF_RANGE);
  CHECK_MSG("outside the view's [0, 8)");
  CHECK(bad == NULL);

  CHECK_OK(amp_array_view_release(v));
  amp_kernel_release(k);
  CHECK(memcmp(h, orig, sizeof h) == 0);
  return check_done();
}
