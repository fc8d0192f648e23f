/* copyback: a view that no kernel wrote is never copied back to the host, after
 * discard_data too (array_view.h, docs/COHERENCE.md). A read-only kernel over a discarded view must
 * not overwrite host memory with the device's undefined contents; the transfer counters prove
 * which copies happened. */
#include "check.h"

enum { N = 256 };

static const char *src = "__kernel void sum_into(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(out, i[0]) = amp_at(in, i[0]) + 1;\n"
                         "}\n"
                         "__kernel void fill(AMP_VIEW(int, v), int x) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(v, i[0]) = x;\n"
                         "}\n";

static amp_transfer_stats stats(void) {
  amp_transfer_stats st;
  memset(&st, 0, sizeof st);
  CHECK_OK(amp_transfer_stats_get(NULL, &st));
  return st;
}

/* Nothing came back to the host since the last reset: h still holds orig. */
#define CHECK_NOTHING_BACK()                                                                       \
  do {                                                                                             \
    CHECK_EQ_INT(stats().to_host_count, 0);                                                        \
    CHECK(memcmp(h, orig, sizeof h) == 0);                                                         \
  } while (0)

int main(void) {
  REQUIRE_VIEW(av);
  amp_kernel *sum = NULL, *fill = NULL;
  const test_named_kernel kernels[] = {{&sum, "sum_into"}, {&fill, "fill"}};
  if (!test_kernels(src, NULL, kernels, 2))
    return check_done();
  static int32_t h[N], orig[N], out[N];
  for (int i = 0; i < N; i++)
    h[i] = orig[i] = 3 * i + 1;

  /* 1. A view read by a kernel through a writable view (not discarded): not copied back. */
  amp_array_view *v = NULL, *o = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, out, &o));
  amp_arg a1[] = {amp_arg_view(v), amp_arg_view(o)};
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), sum, a1, 2));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EQ_INT(stats().to_host_count, 0);
  CHECK_OK(amp_array_view_synchronize(o));
  CHECK_EQ_INT(stats().to_host_bytes, sizeof out);
  CHECK_EQ_INT(out[N - 1], orig[N - 1] + 1);

  /* 2. The device copy of v gets other contents (a kernel writes it), the host is made to hold
   * them; then the data are discarded and only read: nothing may come back over the host. */
  amp_arg af[] = {amp_arg_view(v), amp_arg_int(-5)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), fill, af, 2));
  CHECK_OK(amp_array_view_discard_data(v)); /* the host keeps what it had: orig */
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), sum, a1, 2));
  CHECK_EQ_INT(stats().to_device_count, 0); /* discarded: no copy-in */
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_NOTHING_BACK();                /* read only: no copy back */
  CHECK_OK(amp_array_view_release(v)); /* the release copies nothing back either */
  CHECK_NOTHING_BACK();

  /* 3. A fresh view, discarded and read only, then released. */
  v = test_discarded_view(amp_extent1(N), AMP_INT32, h);
  a1[0] = amp_arg_view(v);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), sum, a1, 2));
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), sum, a1, 2)); /* and again: still nothing */
  CHECK_OK(amp_array_view_release(v));
  CHECK_EQ_INT(stats().to_device_count, 0);
  CHECK_NOTHING_BACK();

  /* 4. Discarded, then written by a kernel: that is copied back, once. */
  v = test_discarded_view(amp_extent1(N), AMP_INT32, h);
  af[0] = amp_arg_view(v);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), fill, af, 2));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EQ_INT(stats().to_device_count, 0);
  CHECK_EQ_INT(stats().to_host_count, 1);
  CHECK_EQ_INT(h[0], -5);
  CHECK_EQ_INT(h[N - 1], -5);
  CHECK_OK(amp_array_view_release(v));
  CHECK_EQ_INT(stats().to_host_count, 1);

  CHECK_OK(amp_array_view_release(o));
  test_kernels_release(kernels, 2);
  return check_done();
}
