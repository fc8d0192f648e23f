/* multi_device: one data source used on several accelerators (docs/MODEL.md, data movement rules 2,
 * 3, 4, 5 and 11). Run with POCL_DEVICES="pthread pthread"; skips (77) with fewer than two
 * accelerators.
 *
 * Proves, with each accelerator's transfer counters, that
 *   - rules 3 and 4: read-only copies of one source coexist on two accelerators, each copied in
 *     once however many kernels read it, and never copied back;
 *   - rule 11: disjoint row blocks of one source written on different accelerators (each on its
 *     accelerator's default view: the original's MultiGPU row split, and an interleaved split) all
 *     reach the host on one synchronize of the parent, each block fetched from where it was
 *     written, nothing lost; also for column blocks (sections whose rows are not contiguous),
 *     and for row blocks of a view over a device array, which all return to the array;
 *   - rules 2 and 5: a view written on accelerator 0 and then read on accelerator 1 gets the new
 *     data there, through the host (one read on 0, one write on 1), after which the host is
 *     valid too and a synchronize moves nothing;
 *   - overlapping writes from two accelerators (undefined results) do not crash anything. */
#include "check.h"
#include "data_kernels.h"

static const char *src =
    "__kernel void mark_rows(AMP_VIEW(int, m), int row0, int tag) {\n"
    "  AMP_INDEX2(i);\n"
    "  amp_at(m, i[0], i[1]) = tag * 100000 + (row0 + i[0]) * amp_extent(m, 1) + i[1];\n"
    "}\n" KERNEL_ADD1 KERNEL_TWICE;

enum { N = 4096, ROWS = 64, COLS = 48 };
static amp_kernel *k_add1, *k_twice, *k_mark;

/* Read-only data on both accelerators. */
static void read_only_on_both(amp_accelerator *acc[2], amp_accelerator_view *av[2]) {
  static int in[N], out0[N], out1[N];
  for (int i = 0; i < N; i++)
    in[i] = i;
  amp_array_view *vi = NULL, *vo[2] = {NULL, NULL};
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, in, &vi));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, out0, &vo[0]));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, out1, &vo[1]));
  CHECK_OK(amp_array_view_discard_data(vo[0]));
  CHECK_OK(amp_array_view_discard_data(vo[1]));
  CHECK_OK(amp_transfer_stats_reset());
  for (int r = 0; r < 3; r++)
    for (int a = 0; a < 2; a++)
      CHECK_OK(TEST_RUN(av[a], amp_extent1(N), k_twice, amp_arg_view(vi), amp_arg_view(vo[a])));
  for (int a = 0; a < 2; a++) {
    CHECK_COUNTS(acc[a], 1, 0, 0);
    CHECK_EQ_INT(test_stats(acc[a]).to_device_bytes, N * sizeof(int));
  }
  CHECK_OK(amp_array_view_synchronize(vo[0]));
  CHECK_OK(amp_array_view_synchronize(vo[1]));
  CHECK_OK(amp_array_view_release(vi));
  for (int a = 0; a < 2; a++)
    CHECK_COUNTS(acc[a], 1, 1, 0);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += (out0[i] != 2 * i) + (out1[i] != 2 * i);
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(vo[0]));
  CHECK_OK(amp_array_view_release(vo[1]));
}

/* Rule 11: `blocks` row blocks, block b written on accelerator b % 2. */
static void row_split(amp_accelerator *acc[2], amp_accelerator_view *av[2], int blocks) {
  static int m[ROWS][COLS];
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      m[i][j] = -1;
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(ROWS, COLS), AMP_INT32, m, &v));
  CHECK_OK(amp_transfer_stats_reset());
  int rows = ROWS / blocks;
  for (int b = 0; b < blocks; b++) {
    amp_array_view *s = NULL;
    CHECK_OK(amp_array_view_section(v, amp_index2(b * rows, 0), amp_extent2(rows, COLS), &s));
    CHECK_OK(TEST_RUN(av[b % 2], amp_extent2(rows, COLS), k_mark, amp_arg_view(s),
                      amp_arg_int(b * rows), amp_arg_int(b % 2 + 1)));
    CHECK_OK(amp_array_view_release(s)); /* the parent lives: nothing comes back yet */
  }
  for (int a = 0; a < 2; a++) {
    CHECK_COUNTS(acc[a], (uint64_t)blocks / 2, 0, 0);
    CHECK_EQ_INT(test_stats(acc[a]).to_device_bytes, (size_t)ROWS / 2 * COLS * sizeof(int));
  }
  CHECK_OK(amp_array_view_synchronize(v));
  for (int a = 0; a < 2; a++)
    CHECK_EQ_INT(test_stats(acc[a]).to_host_bytes, (size_t)ROWS / 2 * COLS * sizeof(int));
  int bad = 0;
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      bad += m[i][j] != ((i / rows) % 2 + 1) * 100000 + i * COLS + j;
  CHECK_EQ_INT(bad, 0);
  if (bad)
    fprintf(stderr, "row split into %d blocks lost data (m[0][0] = %d, m[%d][0] = %d)\n", blocks,
            m[0][0], ROWS - 1, m[ROWS - 1][0]);
  CHECK_OK(amp_array_view_release(v));
}

/* Rule 11 with column blocks: every row of the source holds parts written on both. */
static void column_split(amp_accelerator *acc[2], amp_accelerator_view *av[2]) {
  static int m[ROWS][COLS];
  amp_array_view *v = NULL, *c[2] = {NULL, NULL};
  CHECK_OK(amp_array_view_create(amp_extent2(ROWS, COLS), AMP_INT32, m, &v));
  CHECK_OK(amp_array_view_discard_data(v));
  CHECK_OK(amp_transfer_stats_reset());
  for (int a = 0; a < 2; a++) {
    CHECK_OK(
        amp_array_view_section(v, amp_index2(0, a * COLS / 2), amp_extent2(ROWS, COLS / 2), &c[a]));
    CHECK_OK(TEST_RUN(av[a], amp_extent2(ROWS, COLS / 2), k_mark, amp_arg_view(c[a]),
                      amp_arg_int(0), amp_arg_int(a + 1)));
  }
  CHECK_COUNTS(NULL, 0, 0, 0); /* discarded: nothing copied in */
  CHECK_OK(amp_array_view_synchronize(v));
  for (int a = 0; a < 2; a++) { /* each half comes back in one rectangular copy */
    CHECK_EQ_INT(test_stats(acc[a]).to_host_bytes, (size_t)ROWS * COLS / 2 * sizeof(int));
    CHECK_EQ_INT(test_stats(acc[a]).to_host_count, 1);
  }
  int bad = 0;
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      int a = j < COLS / 2 ? 0 : 1;
      bad += m[i][j] != (a + 1) * 100000 + i * (COLS / 2) + (j - a * COLS / 2);
    }
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(c[0]));
  CHECK_OK(amp_array_view_release(c[1]));
  CHECK_OK(amp_array_view_release(v));
}

/* Rule 11 on a device array: row blocks written on both accelerators all reach the array. */
static void array_row_split(amp_accelerator_view *av[2]) {
  static int h[ROWS][COLS], back[ROWS][COLS];
  memset(h, 0, sizeof h);
  amp_array *arr = NULL;
  amp_array_view *va = NULL, *r[2] = {NULL, NULL};
  CHECK_OK(amp_array_create_from(av[0], amp_extent2(ROWS, COLS), AMP_INT32, h, &arr));
  CHECK_OK(amp_array_view_of(arr, &va));
  for (int a = 0; a < 2; a++) {
    CHECK_OK(amp_array_view_section(va, amp_index2(a * ROWS / 2, 0), amp_extent2(ROWS / 2, COLS),
                                    &r[a]));
    CHECK_OK(TEST_RUN(av[a], amp_extent2(ROWS / 2, COLS), k_mark, amp_arg_view(r[a]),
                      amp_arg_int(a * ROWS / 2), amp_arg_int(a + 1)));
  }
  CHECK_OK(amp_copy_from_array(arr, back, sizeof back));
  CHECK_EVERY2(i, ROWS, j, COLS, back[i][j] == (i < ROWS / 2 ? 1 : 2) * 100000 + i * COLS + j);
  CHECK_OK(amp_array_view_release(r[0]));
  CHECK_OK(amp_array_view_release(r[1]));
  CHECK_OK(amp_array_view_release(va));
  CHECK_OK(amp_array_release(arr));
}

/* vo = 2 v on accelerator 1, where v's newest contents are on accelerator 0: since the last reset,
 * they come through the host, one copy out of 0 and one into 1 (`in0`: the copies into 0 before).
 */
static void twice_on_1(amp_accelerator *acc[2], amp_accelerator_view *av[2], amp_array_view *v,
                       amp_array_view *vo, int in0) {
  CHECK_OK(TEST_RUN(av[1], amp_extent1(N), k_twice, amp_arg_view(v), amp_arg_view(vo)));
  CHECK_COUNTS(acc[0], in0, 1, 0);
  CHECK_COUNTS(acc[1], 1, 0, 0);
}

/* Written on 0, read on 1: through the host. */
static void write_then_read_elsewhere(amp_accelerator *acc[2], amp_accelerator_view *av[2]) {
  static int d[N], out[N];
  for (int i = 0; i < N; i++)
    d[i] = i;
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, d, &v));
  amp_array_view *vo = test_discarded_view(amp_extent1(N), AMP_INT32, out);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av[0], amp_extent1(N), k_add1, amp_arg_view(v)));
  CHECK_COUNTS(acc[0], 1, 0, 0);
  twice_on_1(acc, av, v, vo, 1);
  CHECK_EQ_INT(test_stats(acc[1]).to_device_bytes, N * sizeof(int));
  /* The host got the data on the way: synchronizing v moves nothing. */
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_COUNTS(NULL, 2, 1, 0);
  CHECK_OK(amp_array_view_synchronize(vo));
  CHECK_COUNTS(acc[1], 1, 1, 0);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += (d[i] != i + 1) + (out[i] != 2 * (i + 1));
  CHECK_EQ_INT(bad, 0);
  /* Back on 0: its copy was not invalidated by a read elsewhere; nothing moves. */
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av[0], amp_extent1(N), k_add1, amp_arg_view(v)));
  CHECK_COUNTS(acc[0], 0, 0, 0);
  /* ... and written there, so accelerator 1's copy is stale: its next use copies in again. */
  twice_on_1(acc, av, v, vo, 0);
  CHECK_OK(amp_array_view_synchronize(vo));
  CHECK_EVERY(i, N, out[i] == 2 * (i + 2));
  CHECK_OK(amp_array_view_release(vo));
  CHECK_OK(amp_array_view_release(v));
}

/* Overlapping writes from two accelerators: a race with undefined results; only no crash. */
static void overlapping(amp_accelerator_view *av[2]) {
  static int d[N];
  amp_array_view *v = NULL, *s0 = NULL, *s1 = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, d, &v));
  CHECK_OK(amp_array_view_section(v, amp_index1(0), amp_extent1(3 * N / 4), &s0));
  CHECK_OK(amp_array_view_section(v, amp_index1(N / 4), amp_extent1(3 * N / 4), &s1));
  CHECK_OK(TEST_RUN(av[0], amp_extent1(3 * N / 4), k_add1, amp_arg_view(s0)));
  CHECK_OK(TEST_RUN(av[1], amp_extent1(3 * N / 4), k_add1, amp_arg_view(s1)));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_OK(amp_array_view_release(s0));
  CHECK_OK(amp_array_view_release(s1));
  CHECK_OK(amp_array_view_release(v));
}

int main(void) {
  amp_accelerator *acc[2];
  size_t n = test_devices(acc, 2);
  if (n < 2) {
    printf("SKIP: %zu accelerator(s) that run kernels; this test needs 2 (run it with "
           "POCL_DEVICES=\"pthread pthread\")\n",
           n);
    return SKIP;
  }
  amp_accelerator_view *av[2];
  for (int a = 0; a < 2; a++)
    REQUIRE_OK(amp_accelerator_default_view(acc[a], &av[a]));
  k_add1 = test_kernel(src, NULL, "add1");
  k_twice = test_kernel(src, NULL, "twice");
  k_mark = test_kernel(src, NULL, "mark_rows");
  if (!k_add1 || !k_twice || !k_mark)
    return 1;
  read_only_on_both(acc, av);
  row_split(acc, av, 2);
  row_split(acc, av, 8);
  column_split(acc, av);
  array_row_split(av);
  write_then_read_elsewhere(acc, av);
  overlapping(av);
  amp_kernel_release(k_add1);
  amp_kernel_release(k_twice);
  amp_kernel_release(k_mark);
  return check_done();
}
