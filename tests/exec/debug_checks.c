/* debug_checks: debug mode's checked view access (AMP_DEBUG; kernels_cl/prelude/ampcl_debug.h and
 * runtime/exec/launch_debug.c).
 *
 * Deliberately wrong kernels, run only in debug mode (the test sets AMP_DEBUG itself): a write one
 * past the end of a section of a larger array, a read past a row in a tiled rank-2 kernel, an
 * index of the wrong rank, and a negative index from every work item. Each launch fails with
 * AMP_ERROR_OUT_OF_RANGE and a message naming the view, the index, the source line and the work
 * item (and its tile), and counting the bad accesses; the host data outside the views is intact
 * (the element after the section was the wrong write's target) and the good writes happened.
 * Correct kernels, one passing views to a helper function with AMP_VIEW_ARG, run as usual in
 * debug mode; a view declared by hand is refused with a reason; and with AMP_DEBUG unset again the
 * same process launches the plain build. */
#include "check.h"

enum { N = 40, OFF = 3, W = 9, H = 6 };

static const char *src =
    "__kernel void shift(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  amp_at(out, idx[0] + 1) = amp_at(in, idx[0]); /* line 3: one past the end at the last */\n"
    "}\n"
    "__kernel void right(AMP_CONST_VIEW(float, a), AMP_VIEW(float, b)) {\n"
    "  AMP_TILED_INDEX2(idx);\n"
    "  const int i = idx.global_id[0], j = idx.global_id[1];\n"
    "  float x = amp_at(a, i, j);\n"
    "  if (i == 4 && j == 7)\n"
    "    x += amp_at(a, i, j + 2); /* line 10: column 9 of 9 */\n"
    "  amp_at(b, i, j) = x;\n"
    "}\n"
    "__kernel void flat(AMP_VIEW(float, b)) {\n"
    "  AMP_INDEX2(idx);\n"
    "  if (idx[0] == 1 && idx[1] == 2)\n"
    "    amp_at(b, 3) = 0.0f; /* line 16: one index for a rank-2 view */\n"
    "}\n"
    "__kernel void everyone(AMP_VIEW(int, out), int k) {\n"
    "  AMP_INDEX3(idx);\n"
    "  amp_at(out, idx[0], idx[1] - k, idx[2]) = 1; /* line 20 */\n"
    "}\n"
    "static void add_one(AMP_VIEW(int, v), int i) {\n"
    "  amp_at(v, i) += 1;\n"
    "}\n"
    "__kernel void good(AMP_VIEW(int, v)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  add_one(AMP_VIEW_ARG(v), idx[0]);\n"
    "}\n"
    "__kernel void by_hand(__global int *v_data, const int8 v_shape, int x, int y) {\n"
    "  v_data[get_global_id(0)] = x + y;\n"
    "}\n"
    "__kernel void two_bad(AMP_VIEW(int, a), AMP_VIEW(int, b), AMP_VIEW(int, c)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  amp_at(a, idx[0] + 1) = 1;\n"
    "  amp_at(b, idx[0]) = 2;\n"
    "  amp_at(c, idx[0] - 1) = 3;\n"
    "}\n";

static amp_accelerator_view *av;

/* A write one past the end of a section: refused, reported, and the element after the section (in
 * the same host array) untouched. */
static void test_write_past_end(void) {
  static int in[N], data[N + 2 * OFF];
  for (int i = 0; i < N; i++)
    in[i] = 100 + i;
  for (int i = 0; i < N + 2 * OFF; i++)
    data[i] = -7;
  amp_kernel *k = test_kernel(src, NULL, "shift");
  amp_array_view *vin, *vall, *vout;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, in, &vin));
  CHECK_OK(amp_array_view_create(amp_extent1(N + 2 * OFF), AMP_INT32, data, &vall));
  CHECK_OK(amp_array_view_section(vall, amp_index1(OFF), amp_extent1(N), &vout));
  amp_arg a[] = {amp_arg_view(vin), amp_arg_view(vout)};
  if (k) {
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), k, a, 2), AMP_ERROR_OUT_OF_RANGE);
    CHECK_MSG("parallel_for_each(shift): out-of-bounds access to view 'out' (argument 1, "
              "extent [40])");
    CHECK_MSG("index [40] at line 3 of <source>, by work item [39]; 1 bad access in");
  }
  CHECK_OK(amp_array_view_synchronize(vall));
  int bad = 0;
  for (int i = 0; i < N + 2 * OFF; i++) {
    int want = i > OFF && i < OFF + N ? 100 + i - OFF - 1 : -7; /* the good writes happened */
    bad += data[i] != want;
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(data[OFF + N], -7); /* the wrong write's target */
  amp_array_view_release(vout);
  amp_array_view_release(vall);
  amp_array_view_release(vin);
  amp_kernel_release(k);
}

/* A read past a row in a tiled kernel: the work item's tile and local index are named too. */
static void test_read_past_row(void) {
  static float a[H][W], b[H][W];
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      a[i][j] = (float)(i * W + j);
  amp_kernel *k = test_kernel(src, NULL, "right");
  amp_array_view *va, *vb;
  CHECK_OK(amp_array_view_create_const(amp_extent2(H, W), AMP_FLOAT, a, &va));
  CHECK_OK(amp_array_view_create(amp_extent2(H, W), AMP_FLOAT, b, &vb));
  amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb)};
  if (k) {
    CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(H, W), 3, 3), k, args, 2),
                 AMP_ERROR_OUT_OF_RANGE);
    CHECK_MSG("view 'a' (argument 0, extent [6, 9]): index [4, 9] at line 10");
    CHECK_MSG("by work item [4, 7] (tile [1, 2], local [1, 1]); 1 bad access in all");
  }
  CHECK_OK(amp_array_view_synchronize(vb));
  int bad = 0;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      bad += !(i == 4 && j == 7) && b[i][j] != a[i][j];
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(va);
  amp_array_view_release(vb);
  amp_kernel_release(k);
}

/* One index for a rank-2 view is caught even when it would land inside the data. */
static void test_wrong_rank(void) {
  static float b[H][W];
  amp_kernel *k = test_kernel(src, NULL, "flat");
  amp_array_view *vb;
  CHECK_OK(amp_array_view_create(amp_extent2(H, W), AMP_FLOAT, b, &vb));
  amp_arg args[] = {amp_arg_view(vb)};
  if (k) {
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent2(H, W), k, args, 1), AMP_ERROR_OUT_OF_RANGE);
    CHECK_MSG("index [3] (1 index for a rank-2 view) at line 16");
    CHECK_MSG("by work item [1, 2];");
  }
  amp_array_view_release(vb);
  amp_kernel_release(k);
}

/* Every work item of a rank-3 launch goes wrong: all are counted, one is described, and a launch
 * that asked for a future gets the error instead. */
static void test_every_item(void) {
  enum { A = 2, B = 3, C = 4 };
  static int out[A][B][C];
  amp_kernel *k = test_kernel(src, NULL, "everyone");
  amp_array_view *vo;
  CHECK_OK(amp_array_view_create(amp_extent3(A, B, C), AMP_INT32, out, &vo));
  amp_arg args[] = {amp_arg_view(vo), amp_arg_int(B)};
  amp_launch l = {amp_extent3(A, B, C), 0, {1, 1, 1}, k, args, 2};
  amp_future *done = NULL;
  if (k) {
    CHECK_STATUS(amp_parallel_for_each_ex(av, &l, &done), AMP_ERROR_OUT_OF_RANGE);
    CHECK_MSG("at line 20 of <source>");
    CHECK_MSG("; 24 bad accesses in all");
    CHECK(done == NULL);
    /* the index's middle component is negative: B - B - ... */
    CHECK(strstr(amp_last_error(), ", -3, ") != NULL || strstr(amp_last_error(), ", -1, ") ||
          strstr(amp_last_error(), ", -2, "));
    /* k = 0 is a correct launch of the same kernel */
    args[1] = amp_arg_int(0);
    CHECK_OK(amp_parallel_for_each_ex(av, &l, &done));
    CHECK(done != NULL);
    CHECK_OK(amp_future_wait(done));
    amp_future_release(done);
  }
  CHECK_OK(amp_array_view_synchronize(vo));
  CHECK_EQ_INT(out[A - 1][B - 1][C - 1], 1);
  amp_array_view_release(vo);
  amp_kernel_release(k);
}

/* Correct kernels run as usual, a view declared by hand is refused, and with AMP_DEBUG unset the
 * plain build runs. */
static void test_good_and_plain(void) {
  static int v[N];
  amp_kernel *k = test_kernel(src, NULL, "good");
  amp_kernel *hand = test_kernel(src, NULL, "by_hand");
  amp_array_view *vv;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, v, &vv));
  amp_arg args[] = {amp_arg_view(vv)};
  amp_arg hand_args[] = {amp_arg_view(vv), amp_arg_int(0), amp_arg_int(1)};
  if (k)
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 1));
  for (size_t n = 2; hand && n <= 3; n++) { /* in debug mode a view fills three parameters */
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), hand, hand_args, n),
                 AMP_ERROR_KERNEL_ARGS);
    CHECK_MSG("parameter 'v' lacks the third parameter that debug mode (AMP_DEBUG) gives a view");
  }
  unsetenv("AMP_DEBUG");
  if (k)
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 1));
  if (hand)
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), hand, hand_args, 3));
  CHECK_OK(amp_array_view_synchronize(vv));
  CHECK_EQ_INT(v[0], 1); /* by_hand stored 1 last */
  CHECK_EQ_INT(v[N - 1], 1);
  if (k)
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 1));
  CHECK_OK(amp_array_view_synchronize(vv));
  CHECK_EQ_INT(v[N - 1], 2);
  amp_array_view_release(vv);
  amp_kernel_release(k);
  amp_kernel_release(hand);
}

/* Two views misused in one launch, one used right: both bad ones are named, the good one not. */
static void test_every_view(void) {
  static int a[N], b[N], c[N];
  amp_kernel *k = test_kernel(src, NULL, "two_bad");
  amp_array_view *va, *vb, *vc;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, a, &va));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, b, &vb));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, c, &vc));
  amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
  if (k) {
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), k, args, 3), AMP_ERROR_OUT_OF_RANGE);
    const char *msg = amp_last_error();
    int first_a = strstr(msg, "access to view 'a' (argument 0") != NULL;
    CHECK(first_a || strstr(msg, "access to view 'c' (argument 2") != NULL);
    CHECK_MSG(first_a ? "bad accesses to views 'c' (argument 2) too"
                      : "bad accesses to views 'a' (argument 0) too");
    CHECK(strstr(msg, "'b'") == NULL);
    CHECK_MSG("; 2 bad accesses in all");
  }
  amp_array_view_release(va);
  amp_array_view_release(vb);
  amp_array_view_release(vc);
  amp_kernel_release(k);
}

int main(void) {
  /* Debug mode, whatever the environment says: these kernels must never run unchecked. */
  setenv("AMP_DEBUG", "1", 1);
  if (!(av = test_view()))
    return 1;
  test_write_past_end();
  test_read_past_row();
  test_wrong_rank();
  test_every_item();
  test_every_view();
  test_good_and_plain();
  return check_done();
}
