/* errors: ampcl's error conventions (ampcl/status.h).
 *
 * Proves that
 *   - status codes passed through from OpenCL keep OpenCL's numbers (checked against CL/cl.h),
 *     and amp_status_name / amp_strerror know every code of the table and an unknown one;
 *   - amp_last_error() is per thread: a failure in another thread leaves this thread's reason
 *     alone, and a successful call does not clear it;
 *   - every function of ampcl/accelerator.h that takes a handle answers a NULL handle with
 *     AMP_ERROR_INVALID_HANDLE and "is NULL" (release(NULL) is the documented no-op), a released
 *     view or future with "already released", and a handle of the wrong kind with "is not a". */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>

#include "check.h"

/* Checks that the last failure was AMP_ERROR_INVALID_HANDLE with `needle` and the function's
 * name in its message. */
#define CHECK_HANDLE_ERROR(call, fn, needle)                                                       \
  do {                                                                                             \
    CHECK_STATUS(call, AMP_ERROR_INVALID_HANDLE);                                                  \
    CHECK_MSG(needle);                                                                             \
    CHECK_MSG(fn);                                                                                 \
  } while (0)

static void never_called(amp_status status, void *user) {
  (void)status;
  (void)user;
}

/* ---- status names and messages ---- */

static void check_status_table(void) {
  /* OpenCL's numbers, from OpenCL's own header. */
  CHECK_EQ_INT(AMP_CL_OUT_OF_RESOURCES, CL_OUT_OF_RESOURCES);
  CHECK_EQ_INT(AMP_CL_OUT_OF_RESOURCES, -5);
  CHECK_EQ_INT(AMP_CL_DEVICE_NOT_FOUND, CL_DEVICE_NOT_FOUND);
  CHECK_EQ_INT(AMP_CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  CHECK_EQ_INT(AMP_CL_BUILD_PROGRAM_FAILURE, CL_BUILD_PROGRAM_FAILURE);
  CHECK_EQ_INT(AMP_CL_EXEC_STATUS_ERROR, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_EQ_INT(AMP_CL_INVALID_VALUE, CL_INVALID_VALUE);
  CHECK_EQ_INT(AMP_CL_INVALID_KERNEL_NAME, CL_INVALID_KERNEL_NAME);
  CHECK_EQ_INT(AMP_CL_INVALID_WORK_GROUP_SIZE, CL_INVALID_WORK_GROUP_SIZE);
  CHECK_EQ_INT(AMP_CL_INVALID_GLOBAL_WORK_SIZE, CL_INVALID_GLOBAL_WORK_SIZE);

  CHECK(strcmp(amp_status_name(AMP_SUCCESS), "AMP_SUCCESS") == 0);
  CHECK(strcmp(amp_status_name(AMP_CL_OUT_OF_RESOURCES), "AMP_CL_OUT_OF_RESOURCES") == 0);
  CHECK(strcmp(amp_status_name((amp_status)-5), "AMP_CL_OUT_OF_RESOURCES") == 0);
  CHECK(strcmp(amp_strerror(AMP_CL_OUT_OF_RESOURCES), "OpenCL: out of resources") == 0);
  CHECK(strcmp(amp_status_name(AMP_ERROR_NOT_FOUND), "AMP_ERROR_NOT_FOUND") == 0);
  CHECK(strcmp(amp_strerror(AMP_ERROR_NOT_FOUND), "no accelerator with that device path") == 0);
  CHECK(strstr(amp_strerror(AMP_ERROR_NO_PLATFORM), "pocl-opencl-icd") != NULL);
  CHECK(strcmp(amp_strerror(AMP_SUCCESS), "success") == 0);

  /* Values no table entry has: a name and a message all the same, never NULL. */
  const int unknown[] = {1, 12345, -9, -2000, -2098, -100000};
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
    CHECK(strcmp(amp_status_name((amp_status)unknown[i]), "AMP_STATUS_UNKNOWN") == 0);
    CHECK(amp_strerror((amp_status)unknown[i]) != NULL);
    CHECK(strlen(amp_strerror((amp_status)unknown[i])) > 0);
  }

  /* Every entry: its own name, its own message, OpenCL's range or ampcl's, no value twice. */
  static const struct {
    const char *name, *msg;
    int value;
  } table[] = {
#define ROW_(name, value, msg) {#name, msg, value},
      AMP_STATUS_TABLE(ROW_)
#undef ROW_
  };
  const size_t n = sizeof table / sizeof table[0];
  for (size_t i = 0; i < n; i++) {
    amp_status st = (amp_status)table[i].value;
    if (strcmp(amp_status_name(st), table[i].name) != 0 || strcmp(amp_strerror(st), table[i].msg))
      fprintf(stderr, "  %d: %s \"%s\"\n", table[i].value, amp_status_name(st), amp_strerror(st));
    CHECK(strcmp(amp_status_name(st), table[i].name) == 0);
    CHECK(strcmp(amp_strerror(st), table[i].msg) == 0);
    int own = strncmp(table[i].name, "AMP_ERROR_", 10) == 0;
    CHECK(own ? (table[i].value <= -2000 && table[i].value >= -2099)
              : (table[i].value <= 0 && table[i].value > -2000));
  }
  int duplicates = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++)
      duplicates += table[i].value == table[j].value;
  CHECK_EQ_INT(duplicates, 0);
}

/* ---- the reason is per thread ---- */

typedef struct thread_result {
  char before[256]; /* the new thread's reason before it fails: must be "" */
  char after[256];  /* its reason after its own failure */
  amp_status status;
} thread_result;

static void *fail_in_thread(void *p) {
  thread_result *r = p;
  snprintf(r->before, sizeof r->before, "%s", amp_last_error());
  r->status = amp_accelerator_view_flush(NULL);
  snprintf(r->after, sizeof r->after, "%s", amp_last_error());
  return NULL;
}

static void check_per_thread(void) {
  amp_accelerator *acc = NULL;
  CHECK_STATUS(amp_accelerator_find("ocl/main-thread/0", &acc), AMP_ERROR_NOT_FOUND);
  char mine[2048];
  snprintf(mine, sizeof mine, "%s", amp_last_error());
  CHECK(strstr(mine, "ocl/main-thread/0") != NULL);

  thread_result r = {"?", "", AMP_SUCCESS};
  pthread_t t;
  CHECK_EQ_INT(pthread_create(&t, NULL, fail_in_thread, &r), 0);
  pthread_join(t, NULL);
  CHECK_EQ_INT(r.status, AMP_ERROR_INVALID_HANDLE);
  CHECK(strcmp(r.before, "") == 0);                             /* it did not see ours */
  CHECK(strstr(r.after, "amp_accelerator_view_flush") != NULL); /* it has its own */
  CHECK(strcmp(amp_last_error(), mine) == 0);                   /* and ours is unchanged */

  /* A successful call does not clear the reason either. */
  size_t count = 0;
  CHECK_OK(amp_accelerator_count(&count));
  CHECK(strcmp(amp_last_error(), mine) == 0);
}

/* ---- handles: NULL, released, wrong kind ---- */

static void check_null_handles(void) {
  amp_accelerator_properties props;
  amp_accelerator *acc = NULL;
  amp_accelerator_view *view = NULL;
  amp_queuing_mode mode;
  amp_future *fut = NULL;
  bool ready;
  uint64_t ns;
  CHECK_HANDLE_ERROR(amp_accelerator_get_properties(NULL, &props), "amp_accelerator_get_properties",
                     "is NULL");
  CHECK_HANDLE_ERROR(amp_accelerator_default_view(NULL, &view), "amp_accelerator_default_view",
                     "is NULL");
  CHECK_HANDLE_ERROR(amp_accelerator_create_view(NULL, AMP_QUEUING_MODE_AUTOMATIC, &view),
                     "amp_accelerator_create_view", "is NULL");
  CHECK_HANDLE_ERROR(amp_accelerator_view_get_accelerator(NULL, &acc),
                     "amp_accelerator_view_get_accelerator", "is NULL");
  CHECK_HANDLE_ERROR(amp_accelerator_view_get_queuing_mode(NULL, &mode),
                     "amp_accelerator_view_get_queuing_mode", "is NULL");
  CHECK_HANDLE_ERROR(amp_accelerator_view_flush(NULL), "amp_accelerator_view_flush", "is NULL");
  CHECK_HANDLE_ERROR(amp_accelerator_view_wait(NULL), "amp_accelerator_view_wait", "is NULL");
  CHECK_HANDLE_ERROR(amp_accelerator_view_create_marker(NULL, &fut),
                     "amp_accelerator_view_create_marker", "is NULL");
  CHECK_HANDLE_ERROR(amp_accelerator_view_retain(NULL), "amp_accelerator_view_retain", "is NULL");
  CHECK_HANDLE_ERROR(amp_future_wait(NULL), "amp_future_wait", "is NULL");
  CHECK_HANDLE_ERROR(amp_future_is_ready(NULL, &ready), "amp_future_is_ready", "is NULL");
  CHECK_HANDLE_ERROR(amp_future_then(NULL, never_called, NULL), "amp_future_then", "is NULL");
  CHECK_HANDLE_ERROR(amp_future_elapsed_ns(NULL, &ns), "amp_future_elapsed_ns", "is NULL");
  CHECK_HANDLE_ERROR(amp_future_retain(NULL), "amp_future_retain", "is NULL");
  /* Releasing NULL is the one exception: a no-op, as free(NULL) is. */
  CHECK_OK(amp_accelerator_view_release(NULL));
  CHECK_OK(amp_future_release(NULL));
  CHECK(acc == NULL && view == NULL && fut == NULL);
}

static void check_released_handles(amp_accelerator *acc) {
  amp_accelerator_view *view = NULL, *other = NULL;
  amp_future *fut = NULL, *fut2 = NULL;
  amp_accelerator *got = NULL;
  amp_queuing_mode mode;
  bool ready;
  uint64_t ns;
  CHECK_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_IMMEDIATE, &view));
  CHECK_OK(amp_accelerator_view_create_marker(view, &fut));
  CHECK_OK(amp_future_release(fut));
  CHECK_OK(amp_accelerator_view_release(view));
  if (!view || !fut)
    return;

  const char *dead = "already released";
  CHECK_HANDLE_ERROR(amp_accelerator_view_get_accelerator(view, &got),
                     "amp_accelerator_view_get_accelerator", dead);
  CHECK_HANDLE_ERROR(amp_accelerator_view_get_queuing_mode(view, &mode),
                     "amp_accelerator_view_get_queuing_mode", dead);
  CHECK_HANDLE_ERROR(amp_accelerator_view_flush(view), "amp_accelerator_view_flush", dead);
  CHECK_HANDLE_ERROR(amp_accelerator_view_wait(view), "amp_accelerator_view_wait", dead);
  CHECK_HANDLE_ERROR(amp_accelerator_view_create_marker(view, &fut2),
                     "amp_accelerator_view_create_marker", dead);
  CHECK_HANDLE_ERROR(amp_accelerator_view_retain(view), "amp_accelerator_view_retain", dead);
  CHECK_HANDLE_ERROR(amp_accelerator_view_release(view), "amp_accelerator_view_release", dead);
  CHECK_HANDLE_ERROR(amp_future_wait(fut), "amp_future_wait", dead);
  CHECK_HANDLE_ERROR(amp_future_is_ready(fut, &ready), "amp_future_is_ready", dead);
  CHECK_HANDLE_ERROR(amp_future_then(fut, never_called, NULL), "amp_future_then", dead);
  CHECK_HANDLE_ERROR(amp_future_elapsed_ns(fut, &ns), "amp_future_elapsed_ns", dead);
  CHECK_HANDLE_ERROR(amp_future_retain(fut), "amp_future_retain", dead);
  CHECK_HANDLE_ERROR(amp_future_release(fut), "amp_future_release", dead);
  CHECK(got == NULL && fut2 == NULL);

  /* A live view is unaffected by the misuse of a dead one. */
  CHECK_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_AUTOMATIC, &other));
  CHECK_OK(amp_accelerator_view_wait(other));
  CHECK_OK(amp_accelerator_view_release(other));
}

static void check_wrong_kind(amp_accelerator *acc) {
  amp_accelerator_view *view = NULL;
  amp_future *fut = NULL;
  amp_accelerator *got = NULL;
  amp_accelerator_properties props;
  bool ready;
  CHECK_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_AUTOMATIC, &view));
  CHECK_OK(amp_accelerator_view_create_marker(view, &fut));
  if (!view || !fut)
    return;
  /* A future where a view belongs, a view where a future or an accelerator belongs ... */
  amp_accelerator_view *not_a_view = (amp_accelerator_view *)fut;
  CHECK_HANDLE_ERROR(amp_accelerator_view_flush(not_a_view), "amp_accelerator_view_flush",
                     "is not a");
  CHECK_MSG("accelerator view");
  CHECK_HANDLE_ERROR(amp_accelerator_view_get_accelerator(not_a_view, &got),
                     "amp_accelerator_view_get_accelerator", "is not a");
  CHECK_HANDLE_ERROR(amp_accelerator_view_release(not_a_view), "amp_accelerator_view_release",
                     "is not a");
  CHECK_HANDLE_ERROR(amp_future_wait((amp_future *)view), "amp_future_wait", "is not a");
  CHECK_MSG("future");
  CHECK_HANDLE_ERROR(amp_future_is_ready((amp_future *)view, &ready), "amp_future_is_ready",
                     "is not a");
  CHECK_HANDLE_ERROR(amp_accelerator_get_properties((amp_accelerator *)view, &props),
                     "amp_accelerator_get_properties", "is not a");
  CHECK_HANDLE_ERROR(
      amp_accelerator_create_view((amp_accelerator *)fut, AMP_QUEUING_MODE_AUTOMATIC, &view),
      "amp_accelerator_create_view", "is not a");
  /* ... and an accelerator where a view belongs. */
  CHECK_HANDLE_ERROR(amp_accelerator_view_wait((amp_accelerator_view *)acc),
                     "amp_accelerator_view_wait", "is not a");
  CHECK(got == NULL);

  /* The misuse did not disturb the real handles: they still work and release normally. */
  CHECK_OK(amp_future_wait(fut));
  CHECK_OK(amp_future_release(fut));
  CHECK_OK(amp_accelerator_view_release(view));
}

int main(void) {
  check_status_table();
  CHECK(strcmp(amp_last_error(), "") == 0); /* no failure yet in this thread */
  check_per_thread();
  check_null_handles();
  amp_accelerator *acc = NULL;
  REQUIRE_OK(amp_accelerator_get_default(&acc));
  check_released_handles(acc);
  check_wrong_kind(acc);
  return check_done();
}
