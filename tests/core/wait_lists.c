/* wait_lists: unit tests of runtime/core/events.c's amp__waits_for and amp__evlist_ready, which
 * decide what a command about to be enqueued is given as its wait list.
 *
 * Proves, with markers on three queues of one context and a user event: on an in-order queue the
 * command's own queue's events leave the wait list (kept at the end of the array, so whoever
 * releases them still can; released and removed from an amp__evlist), while user events and other
 * queues' events stay first, in their order; on an out-of-order queue nothing leaves; a NULL queue
 * keeps everything. With AMP_WAIT_OWN_QUEUE=1 (argument "own") nothing leaves either. And that a
 * kernel whose wait list lost its own queue's copy still reads the copied data: on the in-order
 * queue the order alone makes it wait. */
#include <string.h>

#include "check.h"
#include "core/accelerator_impl.h"
#include "core/events.h"

static cl_event marker(cl_command_queue q) {
  cl_event e = NULL;
  CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &e) == CL_SUCCESS && e);
  return e;
}

int main(int argc, char **argv) {
  const int own = argc > 1 && strcmp(argv[1], "own") == 0;
  amp_accelerator_view *av;
  REQUIRE_OK(amp_default_view(&av));
  amp_accelerator *acc;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  cl_context ctx;
  cl_device_id dev;
  cl_command_queue mine;
  REQUIRE_OK(amp_accelerator_get_cl_context(acc, &ctx));
  REQUIRE_OK(amp_accelerator_get_cl_device(acc, &dev));
  REQUIRE_OK(amp_accelerator_view_get_cl_queue(av, &mine));
  cl_int err = CL_SUCCESS;
  cl_command_queue other = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err == CL_SUCCESS && other);
  cl_event user = clCreateUserEvent(ctx, &err);
  CHECK(err == CL_SUCCESS && user);

  /* own, user, other, own: the two of `mine` go to the end, the rest keep their order */
  cl_event a = marker(mine), b = marker(other), c = marker(mine);
  cl_event ev[4] = {a, user, b, c};
  size_t keep = amp__waits_for(ev, 4, mine);
  if (own) {
    CHECK(keep == 4 && ev[0] == a && ev[1] == user && ev[2] == b && ev[3] == c);
  } else {
    CHECK(keep == 2 && ev[0] == user && ev[1] == b);
    CHECK((ev[2] == a && ev[3] == c) || (ev[2] == c && ev[3] == a));
  }
  cl_event ev2[4] = {a, user, b, c};
  CHECK(amp__waits_for(ev2, 4, NULL) == 4 && ev2[0] == a && ev2[3] == c); /* flush only */
  CHECK(amp__waits_for(ev2, 4, other) == (own ? 4u : 3u));

  /* an amp__evlist: the dropped events are released and leave it */
  amp__evlist l = {0};
  CHECK(amp__evlist_push(&l, a) == 0 && amp__evlist_push(&l, b) == 0 &&
        amp__evlist_push(&l, c) == 0);
  amp__evlist_ready(&l, mine);
  CHECK(l.n == (own ? 3u : 1u) && l.ev[own ? 1 : 0] == b);
  amp__evlist_free(&l); /* LSan and amp_cl_objects would see an event released twice or never */

  /* an out-of-order queue keeps its own events: its order guarantees nothing */
  cl_command_queue_properties p = 0;
  clGetDeviceInfo(dev, CL_DEVICE_QUEUE_PROPERTIES, sizeof p, &p, NULL);
  if (p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
    cl_command_queue ooo =
        clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    CHECK(err == CL_SUCCESS && ooo);
    cl_event d = marker(ooo);
    cl_event ev3[2] = {d, b};
    CHECK(amp__waits_for(ev3, 2, ooo) == 2 && ev3[0] == d && ev3[1] == b);
    CHECK(clFinish(ooo) == CL_SUCCESS);
    clReleaseEvent(d);
    clReleaseCommandQueue(ooo);
  }
  CHECK(clSetUserEventStatus(user, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clFinish(other) == CL_SUCCESS && clFinish(mine) == CL_SUCCESS);
  clReleaseEvent(a);
  clReleaseEvent(b);
  clReleaseEvent(c);
  clReleaseEvent(user);
  clReleaseCommandQueue(other);

  /* end to end: a copy in and the kernel reading it, on the view's one queue, whose wait list no
   * longer names the copy; then a second kernel reading the first's output */
  enum { N = 1 << 16 };
  static float x[N], y[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)i;
  amp_kernel *k = test_kernel("__kernel void twice(AMP_CONST_VIEW(float, x), AMP_VIEW(float, y)) "
                              "{ AMP_INDEX1(i); amp_at(y, i[0]) = 2.0f * amp_at(x, i[0]); }",
                              "", "twice");
  if (!k)
    return check_done();
  amp_array_view *vx, *vy, *vz;
  static float z[N];
  REQUIRE_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, y, &vy));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, z, &vz));
  CHECK_OK(amp_array_view_discard_data(vy));
  CHECK_OK(amp_array_view_discard_data(vz));
  amp_arg a1[] = {amp_arg_view(vx), amp_arg_view(vy)}, a2[] = {amp_arg_view(vy), amp_arg_view(vz)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, a1, 2));
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, a2, 2));
  CHECK_OK(amp_array_view_synchronize(vz));
  CHECK_EVERY(i, N, z[i] == 4.0f * (float)i);
  amp_array_view_release(vx);
  amp_array_view_release(vy);
  amp_array_view_release(vz);
  amp_kernel_release(k);
  return check_done();
}
