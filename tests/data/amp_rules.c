/* amp_rules: C++ AMP's rules for reshaping views, as the specification states them.
 *
 * Proves, with views over host memory and over a device array (run on one POCL device and on two,
 * where the array lives on the second):
 *   - view_as: a rank-1 view may take an extent of as many elements or fewer (the first ones),
 *     never more (EXTENT_MISMATCH naming both sizes); a kernel through the smaller reshape writes
 *     exactly the first elements;
 *   - view_as, reinterpret_as and data() exist for rank-1 views only (RANK_MISMATCH otherwise),
 *     and for the whole view of an array of any rank, as AMP's array::view_as;
 *   - reinterpret_as scales the extent by the ratio of the element sizes, and refuses a byte
 *     count that does not divide (INVALID_ARGUMENT); the refusals leave host data untouched. */
#include "check.h"

static const char *src = "__kernel void set2(AMP_VIEW(int, m)) {\n"
                         "  AMP_INDEX2(i);\n"
                         "  amp_at(m, i[0], i[1]) = 1000 + i[0] * 10 + i[1];\n"
                         "}\n";

typedef struct pair8 {
  int a, b;
} pair8;

static void host_views(amp_accelerator_view *av, amp_kernel *set2) {
  static int lin[20];
  for (int i = 0; i < 20; i++)
    lin[i] = -i;
  amp_array_view *v = NULL, *m = NULL, *big = NULL, *m2 = NULL, *out = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(20), AMP_INT32, lin, &v));
  /* fewer elements: the first 12 as 3 x 4 */
  CHECK_OK(amp_array_view_view_as(v, amp_extent2(3, 4), &m));
  CHECK_OK(TEST_RUN(av, amp_extent2(3, 4), set2, amp_arg_view(m)));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EVERY(i, 20, lin[i] == (i < 12 ? 1000 + (i / 4) * 10 + i % 4 : -i));
  /* more elements: refused */
  CHECK_STATUS(amp_array_view_view_as(v, amp_extent2(3, 7), &big), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("21");
  CHECK_MSG("20");
  CHECK(big == NULL);
  /* a rank-2 view cannot be reshaped, reinterpreted or give data() */
  void *p = NULL;
  CHECK_STATUS(amp_array_view_view_as(m, amp_extent1(12), &out), AMP_ERROR_RANK_MISMATCH);
  CHECK_STATUS(amp_array_view_reinterpret_as(m, AMP_FLOAT, &out), AMP_ERROR_RANK_MISMATCH);
  CHECK_STATUS(amp_array_view_data(m, &p), AMP_ERROR_RANK_MISMATCH);
  CHECK(out == NULL && p == NULL);
  /* a rank-1 view can */
  CHECK_OK(amp_array_view_data(v, &p));
  CHECK(p == (void *)lin);
  /* reinterpret_as: 20 ints are 10 pairs; 5 ints (20 bytes) are not whole doubles */
  amp_array_view *pairs = NULL, *five = NULL;
  CHECK_OK(amp_array_view_reinterpret_as(v, AMP_STRUCT(pair8), &pairs));
  amp_extent e = {0, {0, 0, 0}};
  CHECK_OK(amp_array_view_get_extent(pairs, &e));
  CHECK(e.rank == 1 && e.dim[0] == 10);
  CHECK_OK(amp_array_view_section(v, amp_index1(0), amp_extent1(5), &five));
  CHECK_STATUS(amp_array_view_reinterpret_as(five, AMP_DOUBLE, &m2), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("divide");
  CHECK(m2 == NULL);
  CHECK_EQ_INT(lin[19], -19); /* refusals left the data alone */
  amp_array_view *all[] = {pairs, five, m, v};
  for (size_t i = 0; i < 4; i++)
    CHECK_OK(amp_array_view_release(all[i]));
}

/* AMP's array::view_as and reinterpret_as work at any rank: so does the whole view of an array. */
static void array_views(amp_accelerator_view *on) {
  static int init[6 * 4];
  for (int i = 0; i < 24; i++)
    init[i] = i;
  amp_array *arr = NULL;
  amp_array_view *whole = NULL, *flat = NULL, *sec = NULL, *out = NULL, *asf = NULL;
  CHECK_OK(amp_array_create_from(on, amp_extent2(6, 4), AMP_INT32, init, &arr));
  CHECK_OK(amp_array_view_of(arr, &whole));
  CHECK_OK(amp_array_view_view_as(whole, amp_extent1(24), &flat));
  CHECK_OK(amp_array_view_reinterpret_as(whole, AMP_FLOAT, &asf));
  int got[24];
  CHECK_OK(amp_copy_from_view(flat, got, sizeof got));
  CHECK_EQ_INT(memcmp(got, init, sizeof got), 0);
  /* a section of it is an array_view of rank 2 again: no reshaping */
  CHECK_OK(amp_array_view_section(whole, amp_index2(1, 0), amp_extent2(2, 4), &sec));
  CHECK_STATUS(amp_array_view_view_as(sec, amp_extent1(8), &out), AMP_ERROR_RANK_MISMATCH);
  amp_array_view *all[] = {asf, sec, flat, whole};
  for (size_t i = 0; i < 4; i++)
    CHECK_OK(amp_array_view_release(all[i]));
  CHECK_OK(amp_array_release(arr));
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_kernel *set2 = test_kernel(src, NULL, "set2");
  host_views(av, set2);
  /* the array on the last device: the second one when POCL exposes two */
  amp_accelerator *devs[2];
  size_t n = test_devices(devs, 2);
  amp_accelerator_view *on = av;
  if (n == 2)
    CHECK_OK(amp_accelerator_default_view(devs[1], &on));
  printf("%zu device(s); the array lives on the %s\n", n, n == 2 ? "second" : "first");
  array_views(on);
  amp_kernel_release(set2);
  return check_done();
}
