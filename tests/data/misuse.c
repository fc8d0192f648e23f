/* misuse: misuse of views gives a clear error and leaves the data intact (docs/MODEL.md,
 * data movement rules 4, 6 and 10).
 *
 * After each misuse below, the call fails with the expected status and a message, nothing is
 * transferred, and the host data (synchronised afterwards) are byte-equal to what the valid
 * operations before it produced:
 *   - a section out of range (AMP_ERROR_OUT_OF_RANGE), a projection out of range;
 *   - a rank mismatch: a section with an origin or extent of another rank, a projection of a
 *     rank-1 view (AMP_ERROR_RANK_MISMATCH);
 *   - view_as to another size (AMP_ERROR_EXTENT_MISMATCH);
 *   - reinterpret_as with sizes that do not divide (AMP_ERROR_INVALID_ARGUMENT);
 *   - amp_copy_view with mismatched extents (AMP_ERROR_EXTENT_MISMATCH);
 *   - a read-only view passed where a kernel writes (AMP_ERROR_ACCESS_DENIED), also when the data
 *     are newer on the device;
 *   - a view released twice (AMP_ERROR_INVALID_HANDLE, "already released");
 *   - discard_data and synchronize with write access on a read-only view
 *     (AMP_ERROR_ACCESS_DENIED): the data are not discarded. */
#include "check.h"

static const char *src = "__kernel void add1_2(AMP_VIEW(int, v)) {\n"
                         "  AMP_INDEX2(i);\n"
                         "  amp_at(v, i[0], i[1]) += 1;\n"
                         "}\n"
                         "__kernel void sum2(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out)) {\n"
                         "  AMP_INDEX2(i);\n"
                         "  amp_at(out, i[0], i[1]) = amp_at(in, i[0], i[1]) * 2;\n"
                         "}\n";

static int d[10][10], saved[10][10];

/* The host data equal the saved copy once synchronised. */
#define CHECK_INTACT(v)                                                                            \
  do {                                                                                             \
    CHECK_OK(amp_array_view_synchronize(v));                                                       \
    CHECK(memcmp(d, saved, sizeof d) == 0);                                                        \
  } while (0)

int main(void) {
  REQUIRE_VIEW(av);
  amp_kernel *k_add = test_kernel(src, NULL, "add1_2"), *k_sum = test_kernel(src, NULL, "sum2");
  if (!k_add || !k_sum)
    return 1;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++)
      d[i][j] = i * 10 + j;
  amp_array_view *v = NULL, *out = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent2(10, 10), AMP_INT32, d, &v));
  /* Newer data on the device first, so "intact" also means no stale copy wins. */
  CHECK_OK(TEST_RUN(av, amp_extent2(10, 10), k_add, amp_arg_view(v)));
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++)
      saved[i][j] = i * 10 + j + 1;
  CHECK_OK(amp_transfer_stats_reset());

  /* Sections and projections out of range, and rank mismatches. */
  CHECK_STATUS(amp_array_view_section(v, amp_index2(8, 8), amp_extent2(3, 3), &out),
               AMP_ERROR_OUT_OF_RANGE);
  CHECK_MSG("outside");
  CHECK_STATUS(amp_array_view_section(v, amp_index2(-1, 0), amp_extent2(2, 2), &out),
               AMP_ERROR_OUT_OF_RANGE);
  CHECK_STATUS(amp_array_view_project(v, 10, &out), AMP_ERROR_OUT_OF_RANGE);
  CHECK_STATUS(amp_array_view_section(v, amp_index1(0), amp_extent2(2, 2), &out),
               AMP_ERROR_RANK_MISMATCH);
  CHECK_MSG("rank");
  CHECK_STATUS(amp_array_view_section(v, amp_index2(0, 0), amp_extent3(1, 2, 2), &out),
               AMP_ERROR_RANK_MISMATCH);
  CHECK(out == NULL);
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_INTACT(v);

  /* Reshapes. */
  amp_array_view *flat = NULL, *row = NULL;
  /* as in AMP, a rank-2 view cannot be reshaped: make a rank-1 view of the data */
  CHECK_STATUS(amp_array_view_view_as(v, amp_extent1(100), &out), AMP_ERROR_RANK_MISMATCH);
  CHECK_MSG("rank 1");
  CHECK_STATUS(amp_array_view_reinterpret_as(v, AMP_FLOAT, &out), AMP_ERROR_RANK_MISMATCH);
  CHECK_STATUS(amp_array_view_data(v, (void **)&out), AMP_ERROR_RANK_MISMATCH);
  CHECK(out == NULL);
  CHECK_OK(amp_array_view_create(amp_extent1(100), AMP_INT32, d, &flat));
  CHECK_STATUS(amp_array_view_project(flat, 0, &out), AMP_ERROR_RANK_MISMATCH);
  CHECK_STATUS(amp_array_view_view_as(flat, amp_extent2(11, 11), &out), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("100");
  /* fewer elements are allowed: the first 81 as 9 x 9 */
  CHECK_OK(amp_array_view_view_as(flat, amp_extent2(9, 9), &out));
  amp_extent got = {0, {0, 0, 0}};
  CHECK_OK(amp_array_view_get_extent(out, &got));
  CHECK(got.rank == 2 && got.dim[0] == 9 && got.dim[1] == 9);
  CHECK_OK(amp_array_view_release(out));
  out = NULL;
  typedef struct three {
    unsigned char b[3];
  } three;
  CHECK_STATUS(amp_array_view_reinterpret_as(flat, AMP_STRUCT(three), &out),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("divide");
  CHECK_OK(amp_array_view_project(v, 1, &row));
  amp_array_view *five = NULL; /* 20 bytes: not whole doubles */
  CHECK_OK(amp_array_view_section(flat, amp_index1(0), amp_extent1(5), &five));
  CHECK_STATUS(amp_array_view_reinterpret_as(five, AMP_DOUBLE, &out), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_OK(amp_array_view_release(five));
  CHECK_INTACT(v);

  /* Copies with mismatched extents. */
  amp_array_view *s = NULL;
  CHECK_OK(amp_array_view_section(v, amp_index2(0, 0), amp_extent2(5, 5), &s));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_STATUS(amp_copy_view(v, s), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_STATUS(amp_copy_view(flat, v), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_STATUS(amp_copy_view(row, s), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_INTACT(v);

  /* A read-only view where a kernel writes: refused before anything moves. */
  amp_array_view *ro = NULL;
  CHECK_OK(amp_array_view_as_const(v, &ro));
  CHECK_OK(TEST_RUN(av, amp_extent2(10, 10), k_add, amp_arg_view(v))); /* newer on the device */
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++)
      saved[i][j]++;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_STATUS(TEST_RUN(av, amp_extent2(10, 10), k_add, amp_arg_view(ro)), AMP_ERROR_ACCESS_DENIED);
  CHECK_MSG("read-only");
  CHECK_STATUS(TEST_RUN(av, amp_extent2(10, 10), k_sum, amp_arg_view(v), amp_arg_view(ro)),
               AMP_ERROR_ACCESS_DENIED);
  CHECK_COUNTS(NULL, 0, 0, 0);
  static const int cdata[4] = {1, 2, 3, 4};
  amp_array_view *cv = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent2(2, 2), AMP_INT32, cdata, &cv));
  CHECK_STATUS(TEST_RUN(av, amp_extent2(2, 2), k_add, amp_arg_view(cv)), AMP_ERROR_ACCESS_DENIED);
  CHECK_INTACT(v);

  /* discard_data and write access on read-only views: refused; the data are kept. */
  CHECK_STATUS(amp_array_view_discard_data(ro), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_array_view_discard_data(cv), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_array_view_synchronize_access(ro, AMP_ACCESS_WRITE), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_array_view_synchronize_access(cv, AMP_ACCESS_READ_WRITE),
               AMP_ERROR_ACCESS_DENIED);
  static int twice[10][10];
  amp_array_view *vt = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(10, 10), AMP_INT32, twice, &vt));
  CHECK_OK(TEST_RUN(av, amp_extent2(10, 10), k_sum, amp_arg_view(ro), amp_arg_view(vt)));
  CHECK_OK(amp_array_view_synchronize(vt));
  int bad = 0;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++)
      bad += twice[i][j] != 2 * saved[i][j];
  CHECK_EQ_INT(bad, 0);
  CHECK_INTACT(v);

  /* Released twice. */
  CHECK_OK(amp_array_view_release(cv));
  CHECK_STATUS(amp_array_view_release(cv), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("already released");
  CHECK_OK(amp_array_view_release(s));
  CHECK_STATUS(amp_array_view_release(s), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("already released");
  CHECK_STATUS(amp_array_view_synchronize(s), AMP_ERROR_INVALID_HANDLE);
  CHECK_INTACT(v);

  /* An array made from host data with nowhere to put it; a bad extent named by the call made. */
  CHECK_STATUS(amp_array_create_from(av, amp_extent1(4), AMP_INT32, twice, NULL),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("out is NULL");
  amp_array *arr = NULL;
  CHECK_STATUS(amp_array_create(av, amp_extent1(0), AMP_INT32, &arr),
               AMP_ERROR_INVALID_COMPUTE_DOMAIN);
  CHECK_MSG("amp_array_create:");
  CHECK(arr == NULL);

  amp_array_view *rest[] = {vt, ro, row, flat, v};
  for (size_t i = 0; i < 5; i++)
    CHECK_OK(amp_array_view_release(rest[i]));
  CHECK(memcmp(d, saved, sizeof d) == 0);
  amp_kernel_release(k_add);
  amp_kernel_release(k_sum);
  return check_done();
}
