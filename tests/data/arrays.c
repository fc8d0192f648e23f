/* arrays: device arrays, explicit copies and pinned host memory (docs/MODEL.md, data
 * movement rules 2, 7 and 12).
 *
 * Proves, with the transfer counters, that
 *   - rule 12: an array never moves: views over it (amp_array_view_of) used by kernels on its
 *     accelerator copy nothing, and synchronizing such a view brings the data back to the array
 *     (its home), not to the host; contents move only through explicit copies:
 *     amp_copy_to_array / amp_copy_from_array (one transfer each), amp_copy_array on one
 *     accelerator (one device copy, nothing through the host), and across accelerators (through
 *     the host: one read on the source's accelerator, one write on the destination's);
 *   - the async copies return futures after whose wait the data are there;
 *   - copies with mismatched sizes or extents fail with AMP_ERROR_EXTENT_MISMATCH and move
 *     nothing; amp_copy_view copies between views (and sections) of equal extents, also between
 *     overlapping sections of one source;
 *   - a view of an array used on another accelerator gets the array's data (rule 2), and what it
 *     wrote there returns to the array when it is released (rule 7);
 *   - pinned memory (amp_host_alloc) works under a view in a kernel; amp_host_free of an unknown
 *     pointer fails. */
#include "check.h"
#include "data_kernels.h"

static const char *src = "__kernel void scale(AMP_VIEW(float, v), float s) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(v, i[0]) *= s;\n"
                         "}\n" KERNEL_ADD1 KERNEL_ADD1_2;

enum { N = 2048 };
static amp_kernel *k_add1, *k_add1_2, *k_scale;

static int mismatches(const int *d, int n, int base) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += d[i] != base + i;
  return bad;
}

static void iota(int *d, int n, int base) {
  for (int i = 0; i < n; i++)
    d[i] = base + i;
}

/* Explicit copies to and from an array, and views of it on its own accelerator. */
static void one_accelerator(amp_accelerator_view *av) {
  static int h[N], back[N];
  amp_accelerator *acc = test_acc_of(av);
  amp_array *a = NULL, *b = NULL;
  iota(h, N, 0);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_create(av, amp_extent1(N), AMP_INT32, &a));
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_OK(amp_copy_to_array(h, sizeof h, a));
  CHECK_COUNTS(acc, 1, 0, 0);
  CHECK_EQ_INT(test_stats(acc).to_device_bytes, sizeof h);
  CHECK_OK(amp_copy_from_array(a, back, sizeof back));
  CHECK_COUNTS(acc, 1, 1, 0);
  CHECK_EQ_INT(mismatches(back, N, 0), 0);

  /* Views of the array on its accelerator: nothing moves (rule 12). */
  amp_array_view *v = NULL;
  amp_accelerator_view *home = NULL;
  CHECK_OK(amp_array_get_accelerator_view(a, &home));
  CHECK(home == av);
  CHECK_OK(amp_array_view_of(a, &v));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent1(N), k_add1, amp_arg_view(v)));
  CHECK_OK(TEST_RUN(av, amp_extent1(N), k_add1, amp_arg_view(v)));
  CHECK_OK(amp_array_view_synchronize(v)); /* home is the array: nothing to fetch */
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_OK(amp_array_view_release(v));
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_OK(amp_copy_from_array(a, back, sizeof back));
  CHECK_COUNTS(NULL, 0, 1, 0);
  CHECK_EQ_INT(mismatches(back, N, 2), 0);

  /* A rank-2 array: view_of and a section of it in a kernel, still no copies. */
  amp_array *m = NULL;
  amp_array_view *mv = NULL, *ms = NULL;
  static int hm[16 * 16], bm[16 * 16];
  iota(hm, 256, 0);
  CHECK_OK(amp_array_create_from(av, amp_extent2(16, 16), AMP_INT32, hm, &m));
  CHECK_OK(amp_array_view_of(m, &mv));
  CHECK_OK(amp_array_view_section(mv, amp_index2(4, 8), amp_extent2(2, 3), &ms));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent2(2, 3), k_add1_2, amp_arg_view(ms)));
  CHECK_OK(amp_array_view_release(ms));
  CHECK_OK(amp_array_view_release(mv));
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_OK(amp_copy_from_array(m, bm, sizeof bm));
  int bad = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++)
      bad += bm[i * 16 + j] != i * 16 + j + (i >= 4 && i < 6 && j >= 8 && j < 11);
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_release(m));

  /* create_from: one transfer. copy_array on one accelerator: one device copy. */
  iota(h, N, 100);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_create_from(av, amp_extent1(N), AMP_INT32, h, &b));
  CHECK_COUNTS(NULL, 1, 0, 0);
  CHECK_OK(amp_copy_array(b, a));
  CHECK_COUNTS(NULL, 1, 0, 1);
  CHECK_EQ_INT(test_stats(acc).device_copy_bytes, sizeof h);
  CHECK_OK(amp_copy_from_array(a, back, sizeof back));
  CHECK_EQ_INT(mismatches(back, N, 100), 0);

  /* Async copies. */
  static int h2[N], back2[N];
  iota(h2, N, 7000);
  amp_future *f = NULL;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_copy_to_array_async(h2, sizeof h2, a, &f));
  CHECK(f != NULL);
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));
  f = NULL;
  CHECK_OK(amp_copy_from_array_async(a, back2, sizeof back2, &f));
  CHECK(f != NULL);
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));
  CHECK_COUNTS(NULL, 1, 1, 0);
  CHECK_EQ_INT(mismatches(back2, N, 7000), 0);

  /* Mismatches: nothing moves, the array keeps its contents. */
  amp_array *small = NULL;
  CHECK_OK(amp_array_create(av, amp_extent1(N / 2), AMP_INT32, &small));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_STATUS(amp_copy_to_array(h, sizeof h - 4, a), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("bytes");
  CHECK_STATUS(amp_copy_from_array(a, back, sizeof back + 4), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_STATUS(amp_copy_array(a, small), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_STATUS(amp_copy_array(small, a), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_OK(amp_copy_from_array(a, back, sizeof back));
  CHECK_EQ_INT(mismatches(back, N, 7000), 0);
  CHECK_OK(amp_array_release(small));
  CHECK_OK(amp_array_release(b));
  CHECK_OK(amp_array_release(a));
}

/* amp_copy_view between views of equal extents, sections included. */
static void copy_views(amp_accelerator_view *av) {
  static int s[10][10], d[8][8];
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++)
      s[i][j] = i * 10 + j;
  memset(d, 0, sizeof d);
  amp_array_view *vs = NULL, *vd = NULL, *ss = NULL, *sd = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(10, 10), AMP_INT32, s, &vs));
  CHECK_OK(amp_array_view_create(amp_extent2(8, 8), AMP_INT32, d, &vd));
  /* The source's newest contents are on the device: the copy fetches them first. */
  CHECK_OK(TEST_RUN(av, amp_extent2(10, 10), k_add1_2, amp_arg_view(vs)));
  CHECK_OK(amp_array_view_section(vs, amp_index2(2, 5), amp_extent2(3, 4), &ss));
  CHECK_OK(amp_array_view_section(vd, amp_index2(4, 1), amp_extent2(3, 4), &sd));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_copy_view(ss, sd));
  CHECK_EQ_INT(test_stats(NULL).to_host_bytes, 3 * 4 * sizeof(int));
  CHECK_OK(amp_array_view_synchronize(vd));
  int bad = 0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) {
      int in = i >= 4 && i < 7 && j >= 1 && j < 5;
      bad += d[i][j] != (in ? (i - 4 + 2) * 10 + (j - 1 + 5) + 1 : 0);
    }
  CHECK_EQ_INT(bad, 0);
  /* The destination counts as written on the host: its next kernel use copies it in. */
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent2(3, 4), k_add1_2, amp_arg_view(sd)));
  CHECK_EQ_INT(test_stats(NULL).to_device_bytes, 3 * 4 * sizeof(int));
  CHECK_OK(amp_array_view_synchronize(vd));
  CHECK_EQ_INT(d[4][1], 2 * 10 + 5 + 2);
  /* Equal sizes, other extents; other element sizes. */
  amp_array_view *flat = NULL, *fl = NULL;
  static float fs[64];
  CHECK_OK(amp_array_view_create(amp_extent1(64), AMP_INT32, d, &flat));
  CHECK_STATUS(amp_copy_view(vd, flat), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_STATUS(amp_copy_view(ss, vd), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_OK(amp_array_view_create(amp_extent1(32), AMP_DOUBLE, fs, &fl));
  CHECK_STATUS(amp_copy_view(fl, flat), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_OK(amp_array_view_release(fl));
  CHECK_OK(amp_array_view_release(flat));
  /* Whole views of equal extents. */
  amp_array_view *vd2 = NULL;
  static int d2[8][8];
  CHECK_OK(amp_array_view_create(amp_extent2(8, 8), AMP_INT32, d2, &vd2));
  CHECK_OK(amp_copy_view(vd, vd2));
  CHECK_OK(amp_array_view_synchronize(vd2));
  CHECK(memcmp(d, d2, sizeof d) == 0);
  CHECK_OK(amp_array_view_release(vd2));

  /* Overlapping sections of one source: rows 0..4 copied onto rows 1..5. The header promises the
   * source's contents land in the destination, as memmove does for one row. */
  static int o[10][10];
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++)
      o[i][j] = i;
  amp_array_view *vo = NULL, *up = NULL, *down = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(10, 10), AMP_INT32, o, &vo));
  CHECK_OK(amp_array_view_section(vo, amp_index2(0, 0), amp_extent2(5, 10), &up));
  CHECK_OK(amp_array_view_section(vo, amp_index2(1, 0), amp_extent2(5, 10), &down));
  CHECK_OK(amp_copy_view(up, down));
  CHECK_OK(amp_array_view_synchronize(vo));
  bad = 0;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++)
      bad += o[i][j] != (i >= 1 && i <= 5 ? i - 1 : i);
  /* overlapping sections of one view copy like memmove: every row arrives intact */
  CHECK_EQ_INT(bad, 0);
  CHECK_RELEASE_VIEWS(up, down, vo, ss, sd, vs, vd);
}

/* Pinned host memory under a view. */
static void pinned(amp_accelerator_view *av) {
  amp_accelerator *acc = test_acc_of(av);
  float *p = NULL;
  CHECK_OK(amp_host_alloc(acc, N * sizeof(float), (void **)&p));
  if (!p)
    return;
  for (int i = 0; i < N; i++)
    p[i] = (float)i;
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, p, &v));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent1(N), k_scale, amp_arg_view(v), amp_arg_float(0.5f)));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_COUNTS(NULL, 1, 1, 0);
  CHECK_EVERY(i, N, p[i] == 0.5f * (float)i);
  CHECK_OK(amp_array_view_release(v));
  CHECK_OK(amp_host_free(p));
  static int not_pinned[4];
  CHECK_STATUS(amp_host_free(not_pinned), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("amp_host_alloc");
  CHECK_STATUS(amp_host_free(p), AMP_ERROR_INVALID_ARGUMENT); /* freed twice */
  CHECK_OK(amp_host_free(NULL));
}

/* Arrays on two accelerators. */
static void two_accelerators(amp_accelerator *acc0, amp_accelerator *acc1) {
  amp_accelerator_view *av0 = NULL, *av1 = NULL;
  CHECK_OK(amp_accelerator_default_view(acc0, &av0));
  CHECK_OK(amp_accelerator_default_view(acc1, &av1));
  static int h[N], back[N];
  iota(h, N, 40);
  amp_array *a0 = NULL, *a1 = NULL;
  CHECK_OK(amp_array_create_from(av0, amp_extent1(N), AMP_INT32, h, &a0));
  CHECK_OK(amp_array_create(av1, amp_extent1(N), AMP_INT32, &a1));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_copy_array(a0, a1));
  CHECK_COUNTS(acc0, 0, 1, 0);
  CHECK_COUNTS(acc1, 1, 0, 0);
  CHECK_OK(amp_copy_from_array(a1, back, sizeof back));
  CHECK_EQ_INT(mismatches(back, N, 40), 0);

  /* A view of a0 used on acc1: the array's data come through the host; what the kernel wrote
   * returns to the array when the view is released. */
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_of(a0, &v));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av1, amp_extent1(N), k_add1, amp_arg_view(v)));
  CHECK_COUNTS(acc0, 0, 1, 0);
  CHECK_COUNTS(acc1, 1, 0, 0);
  CHECK_OK(amp_array_view_release(v));
  CHECK_COUNTS(acc1, 1, 1, 0);
  CHECK_COUNTS(acc0, 1, 1, 0);
  CHECK_OK(amp_copy_from_array(a0, back, sizeof back));
  CHECK_EQ_INT(mismatches(back, N, 41), 0);
  CHECK_OK(amp_array_release(a0));
  CHECK_OK(amp_array_release(a1));
}

/* Copies between accelerators, where there are two. */
static void across_accelerators(amp_accelerator_view *av) {
  (void)av;
  amp_accelerator *devs[2];
  if (test_devices(devs, 2) == 2)
    two_accelerators(devs[0], devs[1]);
  else
    printf("one accelerator only: copies between accelerators not tested here (multi_device)\n");
}

static const test_named_kernel kernels[] = {
    {&k_add1, "add1"}, {&k_add1_2, "add1_2"}, {&k_scale, "scale"}};

static test_part *const parts[] = {one_accelerator, copy_views, pinned, across_accelerators};

int main(void) {
  return TEST_MAIN_PARTS(src, kernels, parts);
}
