/* copies: AMP's copy and copy_async between host memory, views and arrays (ampcl/array.h).
 *
 *  - amp_copy_to_view / amp_copy_from_view move a contiguous host buffer into and out of a view,
 *    a section included; copying into a view makes the host the only valid copy, so the next
 *    kernel copies it in, and copying out of a view written by a kernel fetches it first;
 *  - the _async forms run on a worker thread and their futures complete; the caller may release
 *    its handles before that (the worker holds its own references);
 *  - an async copy that fails reports its status and reason through amp_future_wait;
 *  - argument errors of the async forms come back at once, and host data stay intact. */
#include "check.h"

static const char *src = "__kernel void add1(AMP_VIEW(int, v)) {\n"
                         "  AMP_INDEX2(i);\n"
                         "  amp_at(v, i[0], i[1]) += 1;\n"
                         "}\n";

enum { R = 6, C = 8 };

int main(void) {
  REQUIRE_VIEW(av);
  amp_kernel *add1 = test_kernel(src, NULL, "add1");
  if (!add1)
    return 1;
  int data[R][C], block[3][4], out[3][4];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      data[i][j] = 100 * i + j;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      block[i][j] = -(10 * i + j);
  amp_array_view *v = NULL, *sec = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(R, C), AMP_INT32, data, &v));
  CHECK_OK(amp_array_view_section(v, amp_index2(2, 3), amp_extent2(3, 4), &sec));

  /* host -> section, then a kernel adds 1 everywhere: the section's new values go in */
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_copy_to_view(block, sizeof block, sec));
  amp_arg args[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent2(R, C), add1, args, 1));
  /* section -> host fetches the kernel's results for the section only */
  CHECK_OK(amp_copy_from_view(sec, out, sizeof out));
  CHECK_EVERY2(i, 3, j, 4, out[i][j] == -(10 * i + j) + 1);
  amp_transfer_stats st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_bytes, 3 * 4 * sizeof(int)); /* only the section came back */

  /* wrong sizes and read-only destinations are refused, data intact */
  CHECK_STATUS(amp_copy_to_view(block, sizeof block - 4, sec), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("bytes");
  amp_array_view *ro = NULL;
  CHECK_OK(amp_array_view_as_const(sec, &ro));
  CHECK_STATUS(amp_copy_to_view(block, sizeof block, ro), AMP_ERROR_ACCESS_DENIED);
  amp_future *f = NULL;
  CHECK_STATUS(amp_copy_to_view_async(block, sizeof block, ro, &f), AMP_ERROR_ACCESS_DENIED);
  CHECK(f == NULL);
  CHECK_OK(amp_array_view_release(ro));

  /* async host -> view and view -> host, releasing the view before the copy is done */
  int fresh[3][4], back[3][4];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      fresh[i][j] = 7000 + 10 * i + j;
  CHECK_OK(amp_copy_to_view_async(fresh, sizeof fresh, sec, &f));
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));
  CHECK_OK(amp_copy_from_view_async(sec, back, sizeof back, &f));
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));
  CHECK(memcmp(back, fresh, sizeof back) == 0);

  /* async view -> view: the section's rows to the top rows, then everything home */
  amp_array_view *top = NULL;
  CHECK_OK(amp_array_view_section(v, amp_index2(0, 0), amp_extent2(3, 4), &top));
  CHECK_OK(amp_copy_view_async(sec, top, &f));
  CHECK_OK(amp_array_view_release(top)); /* the worker keeps its own reference */
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EVERY2(i, 3, j, 4, data[i][j] == 7000 + 10 * i + j);

  /* async array -> array, and an async copy that fails: its reason reaches the waiter */
  amp_array *a = NULL, *b = NULL, *small = NULL;
  int ones[16], got[16];
  for (int i = 0; i < 16; i++)
    ones[i] = i * i;
  CHECK_OK(amp_array_create_from(av, amp_extent1(16), AMP_INT32, ones, &a));
  CHECK_OK(amp_array_create(av, amp_extent1(16), AMP_INT32, &b));
  CHECK_OK(amp_array_create(av, amp_extent1(8), AMP_INT32, &small));
  CHECK_OK(amp_copy_array_async(a, b, &f));
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));
  CHECK_OK(amp_copy_from_array(b, got, sizeof got));
  CHECK(memcmp(got, ones, sizeof got) == 0);
  f = NULL; /* the extents differ: refused at the call, before any work starts */
  CHECK_STATUS(amp_copy_array_async(a, small, &f), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("16 x 1 x 1 but the destination 8 x 1 x 1");
  CHECK(f == NULL);

  CHECK_OK(amp_array_release(a));
  CHECK_OK(amp_array_release(b));
  CHECK_OK(amp_array_release(small));

  /* NULL handles are refused at once by the async forms, as by the blocking ones */
  f = NULL;
  CHECK_STATUS(amp_copy_to_view_async(block, sizeof block, NULL, &f), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_copy_from_view_async(NULL, out, sizeof out, &f), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_copy_view_async(NULL, sec, &f), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_copy_view_async(sec, NULL, &f), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_copy_array_async(NULL, NULL, &f), AMP_ERROR_INVALID_HANDLE);
  CHECK(f == NULL);

  /* overlapping views of one source with different row strides: rows {0,1}, {8,9}, {16,17} of
   * a 3 x 8 reshape go to rows {3,4}, {5,6}, {7,8} of a 3 x 2 reshape of elements 3..8 */
  int t[24];
  for (int i = 0; i < 24; i++)
    t[i] = i;
  amp_array_view *vt = NULL, *wide = NULL, *from = NULL, *part = NULL, *to = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(24), AMP_INT32, t, &vt));
  CHECK_OK(amp_array_view_view_as(vt, amp_extent2(3, 8), &wide));
  CHECK_OK(amp_array_view_section(wide, amp_index2(0, 0), amp_extent2(3, 2), &from));
  CHECK_OK(amp_array_view_section(vt, amp_index1(3), amp_extent1(6), &part));
  CHECK_OK(amp_array_view_view_as(part, amp_extent2(3, 2), &to));
  CHECK_OK(amp_copy_view(from, to));
  CHECK_OK(amp_array_view_synchronize(vt));
  const int want[24] = {0,  1,  2,  0,  1,  8,  9,  16, 17, 9,  10, 11,
                        12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23};
  CHECK(memcmp(t, want, sizeof t) == 0);
  CHECK_RELEASE_VIEWS(to, part, from, wide, vt, sec, v);
  amp_kernel_release(add1);
  return check_done();
}
