/* accelerator_views: accelerator views (in-order queues) and completion futures (AMP §3.3).
 *
 * Proves that
 *   - an accelerator's default view exists, is the same view every time, and releasing it does
 *     nothing (it stays usable);
 *   - create_view works in both queuing modes, each view reports its accelerator and mode, runs
 *     kernels correctly, and is reference counted; an invalid mode is refused; "cpu" has no views;
 *   - flush and wait succeed;
 *   - a marker made after queued work is a future that waits for that work: once it is ready, the
 *     kernel launched before it is finished too; then-callbacks run exactly once, also on a future
 *     that is already ready;
 *   - amp_future_elapsed_ns refuses markers but gives a kernel's device time. */
#include <stdatomic.h>
#include <time.h>

#include "check.h"

static const char *src =
    "__kernel void fill(AMP_VIEW(int, out), int value, int spin) {\n"
    "  AMP_INDEX1(i);\n"
    "  uint x = (uint)(value + i[0]);\n"
    "  for (int k = 0; k < spin; k++) /* busy work, so that the kernel takes time */\n"
    "    x = (x * 1103515245u + 12345u) ^ (uint)k;\n"
    "  amp_at(out, i[0]) = spin ? (int)(x | 1u) : (int)x;\n"
    "}\n";

enum { N = 4096 };

typedef struct callback_record {
  atomic_int calls;
  atomic_int status;
} callback_record;

static void on_ready(amp_status status, void *user) {
  callback_record *r = user;
  atomic_store(&r->status, (int)status);
  atomic_fetch_add(&r->calls, 1);
}

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Waits (at most ten seconds) for the callback, then a little longer for a second call. */
static int wait_for_call(callback_record *r) {
  for (int i = 0; i < 10000 && atomic_load(&r->calls) == 0; i++)
    sleep_ms(1);
  sleep_ms(20);
  return atomic_load(&r->calls);
}

/* Launches fill(out, value, 0) on `view` and checks the result reaches the host. */
static void check_runs_kernels(amp_accelerator_view *view, amp_kernel *k, int value) {
  static int data[N];
  for (int i = 0; i < N; i++)
    data[i] = -1;
  amp_array_view *out = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, data, &out));
  amp_arg args[] = {amp_arg_view(out), amp_arg_int(value), amp_arg_int(0)};
  CHECK_OK(amp_parallel_for_each(view, amp_extent1(N), k, args, AMP_NARGS(args)));
  CHECK_OK(amp_array_view_synchronize(out));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += data[i] != value + i;
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(out));
}

int main(void) {
  amp_accelerator *acc = NULL, *cpu = NULL, *got = NULL;
  REQUIRE_OK(amp_accelerator_get_default(&acc));
  REQUIRE_OK(amp_accelerator_find("cpu", &cpu));
  amp_program *prog;
  amp_kernel *k;
  REQUIRE_OK(amp_program_create(src, NULL, &prog));
  REQUIRE_OK(amp_kernel_create(prog, "fill", &k));

  /* ---- the default view ---- */
  amp_accelerator_view *dv = NULL, *dv2 = NULL, *dv3 = NULL;
  amp_queuing_mode mode = (amp_queuing_mode)-1;
  CHECK_OK(amp_accelerator_default_view(acc, &dv));
  CHECK(dv != NULL);
  CHECK_OK(amp_accelerator_default_view(acc, &dv2));
  CHECK(dv2 == dv);
  CHECK_OK(amp_default_view(&dv3));
  CHECK(dv3 == dv);
  CHECK_OK(amp_accelerator_view_get_accelerator(dv, &got));
  CHECK(got == acc);
  CHECK_OK(amp_accelerator_view_get_queuing_mode(dv, &mode));
  CHECK_EQ_INT(mode, AMP_QUEUING_MODE_AUTOMATIC);
  /* Releasing the default view, even more often than it was handed out, changes nothing. */
  CHECK_OK(amp_accelerator_view_retain(dv));
  for (int i = 0; i < 3; i++)
    CHECK_OK(amp_accelerator_view_release(dv));
  CHECK_OK(amp_accelerator_view_get_queuing_mode(dv, &mode));
  CHECK_OK(amp_accelerator_default_view(acc, &dv2));
  CHECK(dv2 == dv);
  CHECK_OK(amp_accelerator_view_flush(dv));
  CHECK_OK(amp_accelerator_view_wait(dv));
  check_runs_kernels(dv, k, 100);

  /* ---- new views, in both modes ---- */
  const amp_queuing_mode modes[] = {AMP_QUEUING_MODE_AUTOMATIC, AMP_QUEUING_MODE_IMMEDIATE};
  for (int m = 0; m < 2; m++) {
    amp_accelerator_view *v = NULL;
    CHECK_OK(amp_accelerator_create_view(acc, modes[m], &v));
    if (!v)
      continue;
    CHECK(v != dv);
    got = NULL;
    CHECK_OK(amp_accelerator_view_get_accelerator(v, &got));
    CHECK(got == acc);
    CHECK_OK(amp_accelerator_view_get_queuing_mode(v, &mode));
    CHECK_EQ_INT(mode, modes[m]);
    check_runs_kernels(v, k, 1000 * (m + 1));
    CHECK_OK(amp_accelerator_view_flush(v));
    CHECK_OK(amp_accelerator_view_wait(v));
    /* Reference counting: after retain, one release leaves the view alive. */
    CHECK_OK(amp_accelerator_view_retain(v));
    CHECK_OK(amp_accelerator_view_release(v));
    CHECK_OK(amp_accelerator_view_get_queuing_mode(v, &mode));
    CHECK_OK(amp_accelerator_view_release(v));
    CHECK_STATUS(amp_accelerator_view_get_queuing_mode(v, &mode), AMP_ERROR_INVALID_HANDLE);
  }
  /* Two views of one accelerator are two queues. */
  amp_accelerator_view *va = NULL, *vb = NULL;
  CHECK_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_AUTOMATIC, &va));
  CHECK_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_AUTOMATIC, &vb));
  CHECK(va != NULL && va != vb);
  CHECK_OK(amp_accelerator_view_release(va));
  CHECK_OK(amp_accelerator_view_release(vb));
  CHECK_OK(amp_accelerator_view_release(NULL));

  /* An invalid mode is refused and nothing is returned. */
  amp_accelerator_view *none = NULL;
  CHECK_STATUS(amp_accelerator_create_view(acc, (amp_queuing_mode)7, &none),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("queuing mode 7");
  CHECK(none == NULL);
  CHECK_STATUS(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_IMMEDIATE, NULL),
               AMP_ERROR_INVALID_ARGUMENT);

  /* The host is a location, not a queue. */
  CHECK_STATUS(amp_accelerator_default_view(cpu, &none), AMP_ERROR_UNSUPPORTED_FEATURE);
  CHECK_MSG("cpu");
  CHECK_STATUS(amp_accelerator_create_view(cpu, AMP_QUEUING_MODE_AUTOMATIC, &none),
               AMP_ERROR_UNSUPPORTED_FEATURE);
  CHECK_STATUS(amp_accelerator_create_view(cpu, AMP_QUEUING_MODE_IMMEDIATE, &none),
               AMP_ERROR_UNSUPPORTED_FEATURE);
  CHECK(none == NULL);

  /* ---- markers and futures ---- */
  amp_accelerator_view *v = NULL;
  REQUIRE_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_AUTOMATIC, &v));
  static int data[N];
  amp_array_view *out = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, data, &out));
  CHECK_OK(amp_array_view_discard_data(out));
  /* a slow kernel, so that the marker has to wait for it (oclgrind, which interprets every
   * work item, gets a shorter one) */
  amp_arg args[] = {amp_arg_view(out), amp_arg_int(7), amp_arg_int(test_small() ? 200 : 20000)};
  amp_launch launch = {amp_extent1(N), 0, {1, 1, 1}, k, args, AMP_NARGS(args)};
  amp_future *kernel_done = NULL, *marker = NULL;
  /* Queued on an automatic view, nothing flushed yet: the marker is what submits it. */
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  CHECK_OK(amp_parallel_for_each_ex(v, &launch, &kernel_done));
  CHECK_OK(amp_accelerator_view_create_marker(v, &marker));
  CHECK(marker != NULL && kernel_done != NULL && marker != kernel_done);
  if (!marker || !kernel_done)
    return check_done();

  callback_record before = {0, -1};
  CHECK_OK(amp_future_then(marker, on_ready, &before));
  CHECK_OK(amp_future_wait(marker));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  const double host_ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
  bool ready = false;
  CHECK_OK(amp_future_is_ready(marker, &ready));
  CHECK(ready);
  /* In order: the kernel launched before the marker is finished when the marker is. */
  ready = false;
  CHECK_OK(amp_future_is_ready(kernel_done, &ready));
  CHECK(ready);
  CHECK_EQ_INT(wait_for_call(&before), 1);
  CHECK_EQ_INT(atomic_load(&before.status), AMP_SUCCESS);

  /* then on a future that is already ready: still called, once. */
  callback_record after = {0, -1};
  CHECK_OK(amp_future_then(marker, on_ready, &after));
  CHECK_EQ_INT(wait_for_call(&after), 1);
  CHECK_EQ_INT(atomic_load(&after.status), AMP_SUCCESS);
  CHECK_EQ_INT(atomic_load(&before.calls), 1); /* the first callback was not called again */
  CHECK_STATUS(amp_future_then(marker, NULL, NULL), AMP_ERROR_INVALID_ARGUMENT);

  /* Device time: a kernel has one, a marker does not. */
  uint64_t ns = 0;
  CHECK_STATUS(amp_future_elapsed_ns(marker, &ns), AMP_ERROR_UNSUPPORTED_FEATURE);
  CHECK_MSG("kernel");
  if (test_device_times(acc)) {
    CHECK_OK(amp_future_elapsed_ns(kernel_done, &ns));
    printf("kernel device time: %llu ns\n", (unsigned long long)ns);
    CHECK(ns > 0);
    /* the kernel ran between the launch and the end of the wait for the marker behind it (1% and
     * 1 ms for the two clocks' rates and reading them) */
    CHECK((double)ns <= host_ns * 1.01 + 1e6);
  } else { /* the device's timestamps measure nothing: refused, saying so */
    CHECK_STATUS(amp_future_elapsed_ns(kernel_done, &ns), AMP_ERROR_UNSUPPORTED_FEATURE);
    CHECK_MSG("measure nothing");
  }
  CHECK_STATUS(amp_future_elapsed_ns(kernel_done, NULL), AMP_ERROR_INVALID_ARGUMENT);

  /* A marker on an idle view is ready as soon as it is waited on; retain keeps a future alive. */
  amp_future *idle = NULL;
  CHECK_OK(amp_accelerator_view_wait(v));
  CHECK_OK(amp_accelerator_view_create_marker(v, &idle));
  CHECK_OK(amp_future_wait(idle));
  CHECK_OK(amp_future_retain(idle));
  CHECK_OK(amp_future_release(idle));
  CHECK_OK(amp_future_is_ready(idle, &ready));
  CHECK_OK(amp_future_release(idle));
  CHECK_STATUS(amp_future_is_ready(idle, &ready), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_accelerator_view_create_marker(v, NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_future_is_ready(marker, NULL), AMP_ERROR_INVALID_ARGUMENT);

  /* The kernel's results, now that it is done. */
  CHECK_OK(amp_array_view_synchronize(out));
  int even = 0;
  for (int i = 0; i < N; i++)
    even += (data[i] & 1) == 0;
  CHECK_EQ_INT(even, 0);

  CHECK_OK(amp_future_release(marker));
  CHECK_OK(amp_future_release(kernel_done));
  CHECK_OK(amp_future_release(NULL));
  CHECK_OK(amp_array_view_release(out));
  CHECK_OK(amp_accelerator_view_release(v));
  amp_kernel_release(k);
  amp_program_release(prog);
  return check_done();
}
