/* device_fault_hint: when work after a launch ends in the errors a kernel's bad memory access
 * leaves behind (CL_OUT_OF_RESOURCES, CL_INVALID_COMMAND_QUEUE, a failed command in a wait list),
 * the message says to run with AMP_DEBUG=1; other errors, and any error in debug mode (which checks
 * the accesses itself), do not. A device that fails a kernel is played by a user event set to the
 * error, waited for through a future (the path of amp_future_wait after a launch) and through a
 * view's wait (clFinish behind a command that waits for it). */
#include <ampcl/opencl.h>

#include "check.h"
#include "core/accelerator_impl.h"

static const char *hint = "run with AMP_DEBUG=1";

/* A future for a user event that failed with err, waited for: its message mentions the hint or
 * not. */
static void failed_future(amp_accelerator *acc, cl_int err, int want_hint) {
  cl_context ctx = NULL;
  CHECK_OK(amp_accelerator_get_cl_context(acc, &ctx));
  cl_int e = CL_SUCCESS;
  cl_event ev = clCreateUserEvent(ctx, &e);
  CHECK(e == CL_SUCCESS);
  if (e != CL_SUCCESS)
    return;
  clSetUserEventStatus(ev, err);
  amp_future *f = NULL;
  CHECK_OK(amp__future_create(ev, 1, &f)); /* it owns ev */
  CHECK_STATUS(amp_future_wait(f), amp__cl_status(err));
  int has = strstr(amp_last_error(), hint) != NULL;
  if (has != want_hint)
    fprintf(stderr, "error %d: %s\n", (int)err, amp_last_error());
  CHECK_EQ_INT(has, want_hint);
  amp_future_release(f);
}

int main(void) {
  unsetenv("AMP_DEBUG");
  amp_accelerator *acc;
  REQUIRE_OK(amp_accelerator_get_default(&acc));
  CHECK(strstr(amp__device_fault_hint(CL_OUT_OF_RESOURCES), hint) != NULL);
  CHECK(strstr(amp__device_fault_hint(CL_INVALID_COMMAND_QUEUE), hint) != NULL);
  CHECK(strstr(amp__device_fault_hint(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST), hint));
  CHECK(strcmp(amp__device_fault_hint(CL_INVALID_VALUE), "") == 0);
  CHECK(strcmp(amp__device_fault_hint(CL_SUCCESS), "") == 0);
  failed_future(acc, CL_OUT_OF_RESOURCES, 1);
  failed_future(acc, CL_INVALID_COMMAND_QUEUE, 1);
  failed_future(acc, CL_INVALID_VALUE, 0);

  /* a view whose queue waits for the failed work: its wait fails with the hint */
  amp_accelerator_view *view = NULL;
  cl_context ctx = NULL;
  CHECK_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_IMMEDIATE, &view));
  CHECK_OK(amp_accelerator_get_cl_context(acc, &ctx));
  cl_command_queue q = NULL;
  if (view)
    CHECK_OK(amp_accelerator_view_get_cl_queue(view, &q));
  cl_int e = CL_SUCCESS;
  cl_event ev = clCreateUserEvent(ctx, &e), marker = NULL;
  if (q && e == CL_SUCCESS && clEnqueueMarkerWithWaitList(q, 1, &ev, &marker) == CL_SUCCESS) {
    clSetUserEventStatus(ev, CL_OUT_OF_RESOURCES);
    amp_status st = amp_accelerator_view_wait(view);
    /* implementations differ in whether clFinish reports a failed wait list; where it does, the
     * message carries the hint */
    if (st != AMP_SUCCESS)
      CHECK_MSG(hint);
    clReleaseEvent(marker);
  }
  if (ev)
    clReleaseEvent(ev);

  /* debug mode checks the accesses itself: no hint */
  setenv("AMP_DEBUG", "1", 1);
  CHECK(strcmp(amp__device_fault_hint(CL_OUT_OF_RESOURCES), "") == 0);
  failed_future(acc, CL_OUT_OF_RESOURCES, 0);
  unsetenv("AMP_DEBUG");
  amp_accelerator_view_release(view);
  return check_done();
}
