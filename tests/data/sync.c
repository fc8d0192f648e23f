/* sync: caching, synchronisation points and their access types (docs/MODEL.md, data movement
 * rules 3, 4, 5, 6, 7, 8, 9 and 13).
 *
 * Proves, with the transfer counters, that
 *   - rule 3: a copy stays valid: a second kernel on the same data copies nothing in;
 *   - rule 4: a read-only view is never copied back, and its cached copy serves later kernels;
 *   - rule 6: after discard_data the next use copies nothing in;
 *   - rule 7: nothing comes back before a synchronisation point; the release of the last view
 *     brings newer data home; releasing a section while its parent lives copies nothing;
 *   - rule 8: synchronize READ keeps the accelerator's copy valid (the next kernel copies nothing
 *     in); READ_WRITE fetches and drops it (the next kernel copies in again); WRITE fetches nothing
 *     and drops it; synchronize_async returns a future after whose wait the host holds the data;
 *     synchronize_to pushes the data ahead so the following kernel copies nothing;
 *   - rule 9: after direct host writes, refresh makes the next kernel copy the new data in;
 *   - rule 13: amp_array_view_wait and a marker wait for the kernels before them. */
#include "check.h"
#include "data_kernels.h"

static const char *src = KERNEL_ADD1 KERNEL_FILL KERNEL_TWICE;

enum { N = 4096 };
static amp_kernel *k_add1, *k_fill, *k_twice;
static int data[N];

/* Number of i in [0, N) with data[i] != base + i. */
static int mismatches(const int *d, int base) {
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += d[i] != base + i;
  return bad;
}

static void set_data(int base) {
  for (int i = 0; i < N; i++)
    data[i] = base + i;
}

/* A new view of data, which then holds base + i. */
static amp_array_view *data_view(int base) {
  set_data(base);
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, data, &v));
  return v;
}

/* Adds 1 to every element of v on av; CHECK_ADD1_COUNTS also checks the counters after it: to_dev
 * copies in and to_host out since the last reset (none between devices). */
#define CHECK_ADD1(av, v) CHECK_OK(TEST_RUN((av), amp_extent1(N), k_add1, amp_arg_view(v)))
#define CHECK_ADD1_COUNTS(av, v, to_dev, to_host)                                                  \
  do {                                                                                             \
    CHECK_ADD1(av, v);                                                                             \
    CHECK_COUNTS(NULL, (to_dev), (to_host), 0);                                                    \
  } while (0)

/* v synchronized, after which the counters stand at to_dev copies in and to_host out (none between
 * devices), and the host holds base + i. */
#define CHECK_SYNCED(v, to_dev, to_host, base)                                                     \
  do {                                                                                             \
    CHECK_OK(amp_array_view_synchronize(v));                                                       \
    CHECK_COUNTS(NULL, (to_dev), (to_host), 0);                                                    \
    CHECK_EQ_INT(mismatches(data, (base)), 0);                                                     \
  } while (0)

/* Rules 3 and 7: cached copies; no copy back before a synchronisation point. */
static void caching(amp_accelerator_view *av) {
  amp_array_view *v = data_view(0);
  CHECK_OK(amp_transfer_stats_reset());
  for (int r = 0; r < 5; r++)
    CHECK_ADD1(av, v);
  CHECK_OK(amp_array_view_wait(v));
  CHECK_COUNTS(NULL, 1, 0, 0);
  CHECK_EQ_INT(test_stats(NULL).to_device_bytes, N * sizeof(int));
  CHECK_EQ_INT(mismatches(data, 0), 0); /* host memory untouched until a synchronize */
  CHECK_SYNCED(v, 1, 1, 5);
  /* A second synchronize has nothing to fetch. */
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_COUNTS(NULL, 1, 1, 0);
  CHECK_OK(amp_array_view_release(v));
  CHECK_COUNTS(NULL, 1, 1, 0);
}

/* Rule 4: a read-only view: copied in once, never back. */
static void read_only(amp_accelerator_view *av) {
  static int out[N];
  set_data(0);
  amp_array_view *vi = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, data, &vi));
  amp_array_view *vo = test_discarded_view(amp_extent1(N), AMP_INT32, out);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent1(N), k_twice, amp_arg_view(vi), amp_arg_view(vo)));
  CHECK_OK(TEST_RUN(av, amp_extent1(N), k_twice, amp_arg_view(vi), amp_arg_view(vo)));
  CHECK_COUNTS(NULL, 1, 0, 0); /* in: once; out: discarded, so never copied in */
  CHECK_OK(amp_array_view_synchronize(vi));
  CHECK_OK(amp_array_view_release(vi));
  CHECK_COUNTS(NULL, 1, 0, 0);
  CHECK_OK(amp_array_view_synchronize(vo));
  CHECK_COUNTS(NULL, 1, 1, 0);
  CHECK_EVERY(i, N, out[i] == 2 * i);
  CHECK_OK(amp_array_view_release(vo));
}

/* Rule 8: the three access types. */
static void access_types(amp_accelerator_view *av) {
  amp_array_view *v = data_view(0);
  CHECK_ADD1(av, v);

  /* READ: fetched; the device copy stays valid. */
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_synchronize_access(v, AMP_ACCESS_READ));
  CHECK_COUNTS(NULL, 0, 1, 0);
  CHECK_EQ_INT(mismatches(data, 1), 0);
  CHECK_ADD1_COUNTS(av, v, 0, 1);

  /* READ_WRITE: fetched; the device copy is dropped, so host writes reach the next kernel. */
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_synchronize_access(v, AMP_ACCESS_READ_WRITE));
  CHECK_COUNTS(NULL, 0, 1, 0);
  CHECK_EQ_INT(mismatches(data, 2), 0);
  set_data(1000);
  CHECK_ADD1_COUNTS(av, v, 1, 1);
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EQ_INT(mismatches(data, 1001), 0);

  /* WRITE: nothing fetched; the device copy is dropped. */
  CHECK_ADD1(av, v);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_synchronize_access(v, AMP_ACCESS_WRITE));
  CHECK_COUNTS(NULL, 0, 0, 0);
  set_data(5000);
  CHECK_ADD1_COUNTS(av, v, 1, 0);
  CHECK_SYNCED(v, 1, 1, 5001);

  /* data() is READ_WRITE host access: the next kernel copies in again. */
  int *p = NULL;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_data(v, (void **)&p));
  CHECK(p == data);
  CHECK_COUNTS(NULL, 0, 0, 0); /* the host already held the latest contents */
  p[0] = -100;
  CHECK_ADD1_COUNTS(av, v, 1, 0);
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EQ_INT(data[0], -99);
  CHECK_OK(amp_array_view_release(v));
}

/* Rule 8: synchronize_async and synchronize_to. */
static void async_and_to(amp_accelerator_view *av) {
  amp_array_view *v = data_view(0);
  amp_future *f = NULL;
  CHECK_ADD1(av, v);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_synchronize_async(v, &f));
  CHECK(f != NULL);
  if (f) {
    CHECK_OK(amp_future_wait(f));
    bool ready = false;
    CHECK_OK(amp_future_is_ready(f, &ready));
    CHECK(ready);
  }
  CHECK_COUNTS(NULL, 0, 1, 0);
  CHECK_EQ_INT(mismatches(data, 1), 0);
  CHECK_OK(amp_future_release(f));
  /* Nothing newer elsewhere: the future is ready at once and nothing moves. */
  f = NULL;
  CHECK_OK(amp_array_view_synchronize_async(v, &f));
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));
  CHECK_COUNTS(NULL, 0, 1, 0);
  CHECK_OK(amp_array_view_release(v));

  /* synchronize_to: the copy happens now; the kernel after it copies nothing. */
  v = data_view(10);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_synchronize_to(v, av));
  CHECK_COUNTS(NULL, 1, 0, 0);
  CHECK_OK(amp_array_view_synchronize_to(v, av));
  CHECK_COUNTS(NULL, 1, 0, 0);
  CHECK_ADD1_COUNTS(av, v, 1, 0);
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EQ_INT(mismatches(data, 11), 0);
  CHECK_OK(amp_array_view_release(v));
}

/* Rule 9: direct host writes after a synchronize, made visible with refresh. */
static void refresh(amp_accelerator_view *av) {
  amp_array_view *v = data_view(0);
  CHECK_ADD1(av, v);
  CHECK_OK(amp_array_view_synchronize(v)); /* READ: device copy still valid */
  CHECK_EQ_INT(mismatches(data, 1), 0);
  set_data(500);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_refresh(v));
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_ADD1_COUNTS(av, v, 1, 0);
  CHECK_SYNCED(v, 1, 1, 501);
  CHECK_OK(amp_array_view_release(v));
}

/* Rule 6: discard_data skips the copy-in; the write makes the contents valid again. */
static void discard(amp_accelerator_view *av) {
  amp_array_view *v = data_view(0);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_discard_data(v));
  CHECK_OK(TEST_RUN(av, amp_extent1(N), k_fill, amp_arg_view(v), amp_arg_int(300)));
  CHECK_COUNTS(NULL, 0, 0, 0);
  /* Transient: the written data are valid now and kept for the next kernel. */
  CHECK_ADD1_COUNTS(av, v, 0, 0);
  CHECK_SYNCED(v, 0, 1, 301);
  CHECK_OK(amp_array_view_release(v));
}

/* Rule 7: release of the last view brings data home; a section's release does not. */
static void release_copies_back(amp_accelerator_view *av) {
  amp_array_view *v = data_view(0), *s = NULL;
  CHECK_OK(amp_array_view_section(v, amp_index1(0), amp_extent1(N / 2), &s));
  CHECK_ADD1(av, v);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_release(s));
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_EQ_INT(mismatches(data, 0), 0);
  CHECK_OK(amp_array_view_release(v));
  CHECK_COUNTS(NULL, 0, 1, 0);
  CHECK_EQ_INT(mismatches(data, 1), 0);
}

/* Rule 13: kernels run asynchronously; wait and markers wait for them. */
static void waits(amp_accelerator_view *av) {
  amp_array_view *v = data_view(0);
  amp_future *m = NULL;
  for (int r = 0; r < 3; r++)
    CHECK_ADD1(av, v);
  CHECK_OK(amp_accelerator_view_create_marker(av, &m));
  CHECK_OK(amp_future_wait(m));
  CHECK_OK(amp_future_release(m));
  CHECK_OK(amp_array_view_wait(v));
  CHECK_EQ_INT(mismatches(data, 0), 0); /* waiting is not a synchronisation of the data */
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EQ_INT(mismatches(data, 3), 0);
  CHECK_OK(amp_array_view_release(v));
}

static const test_named_kernel kernels[] = {
    {&k_add1, "add1"}, {&k_fill, "fill"}, {&k_twice, "twice"}};

static test_part *const parts[] = {caching, read_only, access_types,        async_and_to,
                                   refresh, discard,   release_copies_back, waits};

int main(void) {
  return TEST_MAIN_PARTS(src, kernels, parts);
}
