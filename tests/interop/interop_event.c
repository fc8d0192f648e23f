/* tests/interop/interop_event.c: cl_event and amp_future both ways. A caller's event becomes a
 * future that waits, polls, reports the event's failure and orders a view's later commands
 * (amp_accelerator_view_wait_for); the event behind an ampcl future is handed out retained, and
 * the caller's kernel waits for ampcl's through it on the same buffer, with no copy between. */
#include <time.h>

#include "interop/raw_cl.h"

enum { N = 256 };

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

/* A user event as a future: not ready, then ready; a failed one fails the wait. */
static void event_to_future(cl_context ctx) {
  cl_int err = CL_SUCCESS;
  cl_event user = clCreateUserEvent(ctx, &err);
  amp_future *f = NULL;
  bool ready = true;
  CHECK_OK(amp_future_create_from_cl_event(user, &f));
  CHECK_OK(amp_future_is_ready(f, &ready));
  CHECK(!ready);
  clSetUserEventStatus(user, CL_COMPLETE);
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_is_ready(f, &ready));
  CHECK(ready);
  uint64_t ns = 0;
  CHECK_STATUS(amp_future_elapsed_ns(f, &ns), AMP_ERROR_UNSUPPORTED_FEATURE); /* not a kernel */
  cl_event back = NULL;
  CHECK_OK(amp_future_get_cl_event(f, &back));
  CHECK(back == user);
  clReleaseEvent(back);
  CHECK_OK(amp_future_release(f));
  clReleaseEvent(user); /* the future held its own reference: this is the last one */
  cl_event failed = clCreateUserEvent(ctx, &err);
  CHECK_OK(amp_future_create_from_cl_event(failed, &f));
  clSetUserEventStatus(failed, -9999); /* the caller's work failed */
  CHECK(amp_future_wait(f) != AMP_SUCCESS);
  CHECK_MSG("failed");
  amp_future_release(f);
  clReleaseEvent(failed);
  CHECK_STATUS(amp_future_create_from_cl_event(NULL, &f), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("event is NULL");
  cl_event e = NULL;
  CHECK_STATUS(amp_future_get_cl_event(NULL, &e), AMP_ERROR_INVALID_HANDLE);
  CHECK(e == NULL);
}

/* The view's later commands wait for the caller's event through its future: a marker enqueued
 * after amp_accelerator_view_wait_for is not reached before the event completes. (A marker, not
 * a kernel: in debug mode a launch waits for its kernel, which would wait for the gate forever.)
 * An event of another context is waited for on the host; a failed one fails the call. */
static void ordered(amp_accelerator_view *av, cl_context ctx, cl_device_id dev) {
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(ctx, &err);
  amp_future *g = NULL, *m = NULL;
  bool ready = true;
  CHECK_OK(amp_future_create_from_cl_event(gate, &g));
  CHECK_OK(amp_accelerator_view_wait_for(av, g));
  CHECK_OK(amp_accelerator_view_create_marker(av, &m));
  pause_ms(50);
  CHECK_OK(amp_future_is_ready(m, &ready));
  CHECK(!ready); /* held by the gate */
  clSetUserEventStatus(gate, CL_COMPLETE);
  CHECK_OK(amp_future_wait(m));
  amp_future_release(m);
  amp_future_release(g);
  clReleaseEvent(gate);
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_event done = other ? clCreateUserEvent(other, &err) : NULL, bad = NULL;
  CHECK(done != NULL);
  clSetUserEventStatus(done, CL_COMPLETE);
  bad = other ? clCreateUserEvent(other, &err) : NULL;
  clSetUserEventStatus(bad, -9999);
  CHECK_OK(amp_future_create_from_cl_event(done, &g));
  CHECK_OK(amp_accelerator_view_wait_for(av, g)); /* another context: waited for here */
  amp_future_release(g);
  CHECK_OK(amp_future_create_from_cl_event(bad, &g));
  CHECK(amp_accelerator_view_wait_for(av, g) != AMP_SUCCESS);
  CHECK_MSG("failed");
  amp_future_release(g);
  CHECK_STATUS(amp_accelerator_view_wait_for(av, NULL), AMP_ERROR_INVALID_HANDLE);
  CHECK_OK(amp_accelerator_view_wait(av)); /* the queue still runs */
  clReleaseEvent(done);
  clReleaseEvent(bad);
  clReleaseContext(other);
}

/* ampcl's kernel, then the caller's on the same buffer waiting for the handed-out event on a
 * queue of its own: both results, nothing copied. */
static void future_to_event(amp_accelerator_view *av, cl_context ctx, cl_device_id dev,
                            amp_kernel *k) {
  amp_accelerator *acc = test_acc_of(av);
  cl_int err = CL_SUCCESS;
  cl_command_queue mine = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  cl_kernel raw = raw_kernel(ctx, dev);
  float out[N];
  cl_mem buf = raw_iota_buffer(ctx, N);
  amp_array *arr = NULL;
  amp_array_view *v = NULL;
  amp_future *kf = NULL;
  cl_event ke = NULL;
  if (!raw || !mine || !buf)
    return;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_create_from_cl_mem(av, buf, amp_extent1(N), AMP_FLOAT, &arr));
  CHECK_OK(amp_array_view_of(arr, &v));
  amp_arg args[] = {amp_arg_view(v), amp_arg_float(3.0f), amp_arg_float(0.0f)};
  amp_launch l = {.domain = amp_extent1(N), .kernel = k, .args = args, .nargs = 3};
  CHECK_OK(amp_parallel_for_each_ex(av, &l, &kf)); /* 3i */
  CHECK_OK(amp_future_get_cl_event(kf, &ke));
  amp_future_release(kf); /* the caller's reference to the event stays */
  cl_uint first = 0;
  float a = 1.0f, b = 1.0f;
  size_t n = N;
  clSetKernelArg(raw, 0, sizeof buf, &buf);
  clSetKernelArg(raw, 1, sizeof first, &first);
  clSetKernelArg(raw, 2, sizeof a, &a);
  clSetKernelArg(raw, 3, sizeof b, &b);
  cl_event re = NULL;
  CHECK_EQ_INT(clEnqueueNDRangeKernel(mine, raw, 1, NULL, &n, NULL, 1, &ke, &re), CL_SUCCESS);
  /* the caller's kernel as a future: its device time, where the device's timestamps measure one */
  amp_future *rf = NULL;
  uint64_t ns = 0;
  CHECK_OK(amp_future_create_from_cl_event(re, &rf));
  if (test_device_times(acc))
    CHECK_OK(amp_future_elapsed_ns(rf, &ns));
  else
    CHECK_STATUS(amp_future_elapsed_ns(rf, &ns), AMP_ERROR_UNSUPPORTED_FEATURE);
  amp_future_release(rf);
  clReleaseEvent(re);
  CHECK_EQ_INT(clEnqueueReadBuffer(mine, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
               CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != 3.0f * (float)i + 1.0f;
  CHECK_EQ_INT(bad, 0);
  CHECK_COUNTS(acc, 0, 0, 0);
  clReleaseEvent(ke);
  amp_array_view_release(v);
  CHECK_OK(amp_array_release(arr));
  clReleaseMemObject(buf);
  clReleaseKernel(raw);
  clReleaseCommandQueue(mine);
}

int main(void) {
  REQUIRE_RAW_OBJECTS(av, ctx, dev);
  amp_kernel *k = test_kernel(amp_axpb_src, NULL, "amp_axpb");
  if (!k)
    return check_done();
  event_to_future(ctx);
  ordered(av, ctx, dev);
  future_to_event(av, ctx, dev, k);
  amp_kernel_release(k);
  return check_done();
}
