/* runtime/core/error.c: the status table's names and messages, and the per-thread reason. */
#include "core/error.h"
#include "core/env_parse.h"
#include "core/knobs.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *amp_status_name(amp_status status) {
  switch (status) {
#define AMP_STATUS_NAME_(name, value, msg)                                                         \
  case name:                                                                                       \
    return #name;
    AMP_STATUS_TABLE(AMP_STATUS_NAME_)
#undef AMP_STATUS_NAME_
  }
  return "AMP_STATUS_UNKNOWN";
}

const char *amp_strerror(amp_status status) {
  switch (status) {
#define AMP_STATUS_MSG_(name, value, msg)                                                          \
  case name:                                                                                       \
    return msg;
    AMP_STATUS_TABLE(AMP_STATUS_MSG_)
#undef AMP_STATUS_MSG_
  }
  return "unknown status";
}

amp_status amp__cl_status(cl_int err) {
  if (err == CL_SUCCESS)
    return AMP_SUCCESS;
  if (strcmp(amp_status_name((amp_status)err), "AMP_STATUS_UNKNOWN") == 0)
    return AMP_ERROR_OPENCL;
  return (amp_status)err;
}

/* One growable message per thread. A pthread key with `free` as its destructor releases the buffer
 * when the thread exits (driver threads running future callbacks fail calls too). */
static _Thread_local char *tl_msg;
static _Thread_local size_t tl_cap;
static pthread_key_t tl_key;
static pthread_once_t tl_key_once = PTHREAD_ONCE_INIT;

static void make_key(void) {
  pthread_key_create(&tl_key, free);
}

static void ensure_cap(size_t need) {
  if (need <= tl_cap)
    return;
  size_t cap = tl_cap ? tl_cap : 256;
  while (cap < need)
    cap *= 2;
  char *p = realloc(tl_msg, cap);
  if (!p)
    return; /* keep the old message: better truncated than lost */
  tl_msg = p;
  tl_cap = cap;
  pthread_once(&tl_key_once, make_key);
  pthread_setspecific(tl_key, p);
}

int amp__debug_enabled(void) {
  return amp__env_debug(amp__knob_get(AMP_KNOB_DEBUG));
}

amp_status amp__unknown_cl_object(const char *fn, const char *what, const void *object,
                                  const char *kind, const char *call, cl_int err) {
  return amp__set_error(AMP_ERROR_INVALID_ARGUMENT, "%s: %s %p is not %s OpenCL knows (%s: %s, %d)",
                        fn, what, object, kind, call, amp_status_name(amp__cl_status(err)),
                        (int)err);
}

const char *amp__device_fault_hint(cl_int err) {
  if (amp__debug_enabled() || (err != CL_OUT_OF_RESOURCES && err != CL_INVALID_COMMAND_QUEUE &&
                               err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST))
    return "";
  return "; where a kernel ran before this, it may have accessed memory outside its views: run "
         "with AMP_DEBUG=1 to find the access (or AMP_ROBUST=1 to make such accesses read 0 and "
         "drop their writes; docs/CHECKING.md)";
}

amp_status amp__set_error(amp_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[1];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap2);
  va_end(ap2);
  if (n >= 0) {
    ensure_cap((size_t)n + 1);
    if (tl_cap > 0)
      vsnprintf(tl_msg, tl_cap, fmt, ap);
  }
  va_end(ap);
  if (amp__debug_enabled() && tl_msg)
    fprintf(stderr, "[ampcl] %s: %s\n", amp_status_name(status), tl_msg);
  return status;
}

void amp__append_error(const char *text) {
  size_t have = tl_msg ? strlen(tl_msg) : 0;
  size_t add = strlen(text);
  ensure_cap(have + add + 1);
  if (tl_cap >= have + add + 1) {
    memcpy(tl_msg + have, text, add + 1);
    if (amp__debug_enabled())
      fprintf(stderr, "%s\n", text);
  }
}

const char *amp_last_error(void) {
  return tl_msg ? tl_msg : "";
}
