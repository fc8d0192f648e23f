/* coherence: cases found in review of the coherence protocol (runtime/data/source.c).
 *
 *  - refresh on a view of a device array, or of a view with no data source, keeps the data: there
 *    is no caller-owned host memory that could have been written directly (rules 9 and 12);
 *  - a view read by many kernels on one queue remembers one read event, not one per kernel (on an
 *    in-order queue the last read implies the earlier ones), so long loops do not pile up events;
 *    and so does an array copied out again and again (amp_copy_from_array, blocking and async,
 *    and amp_copy_array, which runs on the destination array's view);
 *  - a kernel future is submitted when it is made: polling amp_future_is_ready ends without any
 *    wait or flush by the caller, on an automatic-mode view;
 *  - the last release of a view with no data source copies nothing back (there is no caller's
 *    memory to bring the data to), and so the algorithms' temporaries cost no copies: a sort of
 *    keys already on the device moves no bytes either way (it once copied its key-sized temporary
 *    back to a host buffer at every call, most of amp_sort's time on a GPU). */
#include "check.h"
#include "core/accelerator_impl.h"
#include "data/array_impl.h"
#include "data/source.h"

static const char *src = "__kernel void fill(AMP_VIEW(int, v), int x) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(v, i[0]) = x + i[0];\n"
                         "}\n"
                         "__kernel void sum_into(AMP_CONST_VIEW(int, a), AMP_VIEW(int, out)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(out, i[0]) += amp_at(a, i[0]);\n"
                         "}\n";

enum { N = 256 };

static void refresh_keeps_device_data(amp_accelerator_view *av, amp_kernel *fill) {
  int init[N], got[N];
  for (int i = 0; i < N; i++)
    init[i] = 7 * i;
  amp_array *arr = NULL;
  amp_array_view *v = NULL, *e = NULL;
  CHECK_OK(amp_array_create_from(av, amp_extent1(N), AMP_INT32, init, &arr));
  CHECK_OK(amp_array_view_of(arr, &v));
  CHECK_OK(amp_array_view_refresh(v)); /* nothing was written directly: a no-op */
  CHECK_OK(amp_copy_from_array(arr, got, sizeof got));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += got[i] != 7 * i;
  CHECK_EQ_INT(bad, 0);

  /* a view with no data source, written by a kernel, then refreshed */
  CHECK_OK(amp_array_view_create_empty(amp_extent1(N), AMP_INT32, &e));
  amp_arg args[] = {amp_arg_view(e), amp_arg_int(1000)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), fill, args, 2));
  CHECK_OK(amp_array_view_refresh(e));
  int *p = NULL;
  CHECK_OK(amp_array_view_data(e, (void **)&p));
  bad = 0;
  for (int i = 0; p && i < N; i++)
    bad += p[i] != 1000 + i;
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(e));
  CHECK_OK(amp_array_view_release(v));
  CHECK_OK(amp_array_release(arr));
}

static void reads_stay_few(amp_accelerator_view *av, amp_kernel *sum_into) {
  int a[N], out[N];
  for (int i = 0; i < N; i++) {
    a[i] = i;
    out[i] = 0;
  }
  amp_array_view *va = NULL, *vo = NULL;
  amp_accelerator *acc = NULL;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, a, &va));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, out, &vo));
  amp_arg args[] = {amp_arg_view(va), amp_arg_view(vo)};
  for (int k = 0; k < 200; k++)
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), sum_into, args, 2));
  /* white-box: the read-only source's location on this accelerator remembers one read */
  CHECK(va->src->loc[acc->index].reads.n <= 1);
  CHECK_OK(amp_array_view_synchronize(vo));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != 200 * i;
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(va));
  CHECK_OK(amp_array_view_release(vo));
}

/* The same for copies out of an array (amp_copy_from_array, blocking and async) and for the
 * staged reads of a view's data back to its host memory: one read event per queue. */
static void copy_reads_stay_few(amp_accelerator_view *av) {
  int init[N], got[N];
  for (int i = 0; i < N; i++)
    init[i] = 3 * i;
  amp_array *arr = NULL;
  amp_accelerator *acc = NULL;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  CHECK_OK(amp_array_create_from(av, amp_extent1(N), AMP_INT32, init, &arr));
  if (!arr)
    return;
  for (int k = 0; k < 50; k++) {
    memset(got, 0, sizeof got);
    if (k % 2) {
      CHECK_OK(amp_copy_from_array(arr, got, sizeof got));
    } else {
      amp_future *f = NULL;
      CHECK_OK(amp_copy_from_array_async(arr, got, sizeof got, &f));
      CHECK_OK(amp_future_wait(f));
      amp_future_release(f);
    }
    CHECK_EQ_INT(got[N - 1], 3 * (N - 1));
  }
  /* white-box: the array's location remembers one read, not fifty */
  CHECK(arr->whole->src->loc[acc->index].reads.n <= 1);

  /* amp_copy_array into an array of another view of the same accelerator runs on that view's
   * queue (AMP: a copy into an array runs on its accelerator_view), and the source remembers one
   * read per queue */
  amp_accelerator_view *other = NULL;
  amp_array *dst = NULL;
  CHECK_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_AUTOMATIC, &other));
  if (other)
    CHECK_OK(amp_array_create(other, amp_extent1(N), AMP_INT32, &dst));
  if (dst) {
    for (int k = 0; k < 50; k++)
      CHECK_OK(amp_copy_array(arr, dst));
    CHECK(arr->whole->src->loc[acc->index].reads.n <= 2); /* the copies out, and these */
    cl_event w = dst->whole->src->loc[acc->index].last_write;
    cl_command_queue on = NULL;
    CHECK(w && clGetEventInfo(w, CL_EVENT_COMMAND_QUEUE, sizeof on, &on, NULL) == CL_SUCCESS);
    CHECK(on == other->queue);
    memset(got, 0, sizeof got);
    CHECK_OK(amp_copy_from_array(dst, got, sizeof got));
    CHECK_EQ_INT(got[N - 1], 3 * (N - 1));
    CHECK_OK(amp_array_release(dst));
  }
  if (other)
    amp_accelerator_view_release(other);
  CHECK_OK(amp_array_release(arr));
}

static void futures_are_submitted(amp_accelerator_view *av, amp_kernel *fill) {
  int buf[N];
  amp_array_view *v = NULL;
  amp_future *f = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, buf, &v));
  amp_arg args[] = {amp_arg_view(v), amp_arg_int(5)};
  amp_launch l = {amp_extent1(N), 0, {1, 1, 1}, fill, args, 2};
  CHECK_OK(amp_parallel_for_each_ex(av, &l, &f));
  bool ready = false;
  for (int spin = 0; spin < 2000000 && !ready; spin++) /* bounded: about 10 s at worst */
    if (amp_future_is_ready(f, &ready) != AMP_SUCCESS)
      break;
  CHECK(ready);
  CHECK_OK(amp_future_release(f));
  CHECK_OK(amp_array_view_release(v));
}

static void empty_views_die_quietly(amp_accelerator_view *av, amp_kernel *fill) {
  amp_array_view *e = NULL;
  CHECK_OK(amp_array_view_create_empty(amp_extent1(N), AMP_INT32, &e));
  amp_arg args[] = {amp_arg_view(e), amp_arg_int(3)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), fill, args, 2));
  CHECK_OK(amp_accelerator_view_wait(av));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_release(e));
  amp_transfer_stats st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 0);

  /* a sort of keys the device already holds: no copy in, none back */
  enum { K = 5000 };
  static uint32_t keys[K];
  for (int i = 0; i < K; i++)
    keys[i] = (uint32_t)i * 2654435761u;
  amp_array *arr = NULL;
  amp_array_view *vk = NULL;
  CHECK_OK(amp_array_create_from(av, amp_extent1(K), AMP_UINT32, keys, &arr));
  CHECK_OK(amp_array_view_of(arr, &vk));
  CHECK_OK(amp_accelerator_view_wait(av));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_sort(av, vk));
  CHECK_OK(amp_accelerator_view_wait(av));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count + st.to_device_count, 0);
  CHECK_OK(amp_array_view_release(vk));
  CHECK_OK(amp_copy_from_array(arr, keys, sizeof keys));
  int bad = 0;
  for (int i = 1; i < K; i++)
    bad += keys[i - 1] > keys[i];
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_release(arr));
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_kernel *fill = test_kernel(src, NULL, "fill"), *sum_into = test_kernel(src, NULL, "sum_into");
  if (!fill || !sum_into)
    return 1;
  refresh_keeps_device_data(av, fill);
  reads_stay_few(av, sum_into);
  copy_reads_stay_few(av);
  futures_are_submitted(av, fill);
  empty_views_die_quietly(av, fill);
  amp_kernel_release(fill);
  amp_kernel_release(sum_into);
  return check_done();
}
