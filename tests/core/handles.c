/* handles: a released or never-created handle is detected always, not only within a
 * window of recent releases (runtime/core/handle.h). The message names the call, the kind of object
 * and that it was released; the host data under a released view stay as they were. */
#include "check.h"

enum { N = 16, CHURN = 10000 }; /* more releases than any quarantine of recent handles */

int main(void) {
  int32_t h[N], orig[N];
  for (int i = 0; i < N; i++)
    h[i] = orig[i] = 7 * i;
  amp_array_view *v = NULL, *dead = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &dead));
  CHECK_OK(amp_array_view_release(dead));

  /* Many handles are created and released after it: none of them may revive the dead one. */
  for (int i = 0; i < CHURN; i++) {
    REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
    CHECK(v != dead);
    CHECK_OK(amp_array_view_release(v));
  }
  amp_extent e;
  CHECK_STATUS(amp_array_view_get_extent(dead, &e), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("amp_array_view_get_extent");
  CHECK_MSG("array view");
  CHECK_MSG("released");
  CHECK_STATUS(amp_array_view_release(dead), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("amp_array_view_release");
  CHECK_MSG("released");
  CHECK_STATUS(amp_array_view_synchronize(dead), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("released");
  CHECK(memcmp(h, orig, sizeof h) == 0);

  /* A released handle used where another kind is expected still says it was released. */
  amp_program *p = NULL;
  REQUIRE_OK(amp_program_create("__kernel void k(void) {}", NULL, &p));
  CHECK_OK(amp_program_release(p));
  amp_kernel *k = NULL;
  CHECK_STATUS(amp_kernel_create(p, "k", &k), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("amp_kernel_create");
  CHECK_MSG("program");
  CHECK_MSG("released");
  CHECK_STATUS(amp_kernel_release((amp_kernel *)(void *)dead), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("array view that was already released");

  /* Pointers that never were handles are refused without being read. */
  int32_t not_a_handle[32] = {0};
  CHECK_STATUS(amp_array_view_get_extent((amp_array_view *)(void *)not_a_handle, &e),
               AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("not an ampcl handle");
  CHECK_STATUS(amp_array_view_release((amp_array_view *)(void *)((char *)h + 3)),
               AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("not an ampcl handle");
  CHECK(memcmp(h, orig, sizeof h) == 0);
  return check_done();
}
