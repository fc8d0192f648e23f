/* asserts: amp_assert in kernels (kernels_cl/prelude/ampcl_assert.h, runtime/exec/launch_assert.c),
 * out of debug mode and in it.
 *
 * An assert that holds: the launch succeeds and the results are right. One failing in one work
 * item: AMP_ERROR_ASSERT_FAILED naming the condition, the file and line, and the work item (AMP
 * order, rank 2). One failing in every work item of a rank-3 launch: the reported item is the
 * smallest, (0, 0, 0), however the items ran, every time. A kernel with asserts on two lines,
 * failing at both: the smallest work item wins, whichever line it failed on. After a failed launch
 * the host's data is unchanged until a synchronize, which brings the kernel's writes. A helper
 * function asserts through AMP_ASSERTS_ARG, and the user passes no argument for AMP_ASSERTS. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

enum { H = 5, W = 8 };

static const char *src = "__kernel void scale(AMP_VIEW(int, v), int n, AMP_ASSERTS) {\n"
                         "  AMP_INDEX2(idx);\n"
                         "  amp_assert(amp_at(v, idx[0], idx[1]) < n);\n"
                         "  amp_at(v, idx[0], idx[1]) *= 2;\n"
                         "}\n"
                         "__kernel void every(AMP_VIEW(int, v), AMP_ASSERTS) {\n"
                         "  AMP_INDEX3(idx);\n"
                         "  amp_assert(idx[2] < 0);\n"
                         "  amp_at(v, idx[0], idx[1], idx[2]) = 1;\n"
                         "}\n"
                         "static void check_even(int x, AMP_ASSERTS) {\n"
                         "  amp_assert(x % 2 == 0);\n"
                         "}\n"
                         "__kernel void two(AMP_ASSERTS) {\n"
                         "  AMP_INDEX1(idx);\n"
                         "  if (idx[0] > 6)\n"
                         "    amp_assert(idx[0] <\n"
                         "               6);\n"
                         "  check_even(idx[0] + 1, AMP_ASSERTS_ARG);\n"
                         "}\n";

static amp_accelerator_view *av;

static void test_holds_and_fails_once(void) {
  int v[H][W], orig[H][W];
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      v[i][j] = orig[i][j] = i * W + j;
  amp_kernel *k = test_kernel(src, NULL, "scale");
  amp_array_view *vv;
  CHECK_OK(amp_array_view_create(amp_extent2(H, W), AMP_INT32, v, &vv));
  amp_arg holds[] = {amp_arg_view(vv), amp_arg_int(H * W)};
  if (k)
    CHECK_OK(amp_parallel_for_each(av, amp_extent2(H, W), k, holds, 2));
  CHECK_OK(amp_array_view_synchronize(vv));
  CHECK_EQ_INT(v[H - 1][W - 1], 2 * (H * W - 1));
  /* now v[i][j] = 2 (i W + j): fails at (4, 7) alone, the largest */
  amp_arg fails[] = {amp_arg_view(vv), amp_arg_int(2 * (H * W - 1))};
  if (k) {
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent2(H, W), k, fails, 2),
                 AMP_ERROR_ASSERT_FAILED);
    CHECK_MSG("parallel_for_each(scale): amp_assert(amp_at(v, idx[0], idx[1]) < n) failed in "
              "<source>:3 at work item (4, 7); 1 failed assert in all");
  }
  /* now 4 (i W + j): many fail (every value from 20 on), reported: the first in AMP order */
  amp_arg many[] = {amp_arg_view(vv), amp_arg_int(20)};
  if (k) {
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent2(H, W), k, many, 2), AMP_ERROR_ASSERT_FAILED);
    CHECK_MSG("failed in <source>:3 at work item (0, 5); 35 failed asserts in all");
  }
  CHECK_EQ_INT(v[1][2], 2 * 10); /* the host's copy: unchanged by the failed launches */
  CHECK_OK(amp_array_view_synchronize(vv));
  CHECK_EQ_INT(v[1][2], 8 * 10); /* then the kernel's writes, which ran to their end */
  CHECK_EQ_INT(orig[1][2], 10);
  amp_array_view_release(vv);
  amp_kernel_release(k);
}

static void test_every_item(void) {
  static int v[3][4][5];
  memset(v, 0, sizeof v);
  amp_kernel *k = test_kernel(src, NULL, "every");
  amp_array_view *vv;
  CHECK_OK(amp_array_view_create(amp_extent3(3, 4, 5), AMP_INT32, v, &vv));
  amp_arg a[] = {amp_arg_view(vv)};
  for (int rep = 0; k && rep < 3; rep++) {
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent3(3, 4, 5), k, a, 1), AMP_ERROR_ASSERT_FAILED);
    CHECK_MSG("amp_assert(idx[2] < 0) failed in <source>:8 at work item (0, 0, 0); 60 failed");
  }
  CHECK_EQ_INT(v[2][3][4], 0);
  amp_array_view_release(vv);
  amp_kernel_release(k);
}

static void test_two_lines(void) {
  amp_kernel *k = test_kernel(src, NULL, "two");
  /* items 0, 2, 4, ... fail in check_even (line 12); 7, 8, ... at line 17 */
  if (k) {
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(10), k, NULL, 0), AMP_ERROR_ASSERT_FAILED);
    CHECK_MSG("amp_assert(x % 2 == 0) failed in <source>:12 at work item (0); 8 failed");
  }
  amp_kernel_release(k);
}

static void run_all(void) {
  test_holds_and_fails_once();
  test_every_item();
  test_two_lines();
}

int main(void) {
  unsetenv("AMP_DEBUG");
  if (!(av = test_view()))
    return 1;
  run_all();
  setenv("AMP_DEBUG", "1", 1); /* the same, with the views' debug records besides */
  run_all();
  return check_done();
}
