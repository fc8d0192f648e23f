/* lsan_works: the sanitizer build's leak checker works in this environment.
 *
 * Runs a kernel (so POCL's worker threads are up, as in every other test), then leaks a block on
 * purpose and returns. The test passes only when LeakSanitizer reports that leak
 * (tests/CMakeLists.txt): where ptrace is blocked (some containers) or LSan cannot stop the
 * process's threads, this one test fails and names the cause, instead of the leak check quietly
 * doing nothing or other tests failing at random. Built and run in the sanitizer build only. */
#include "check.h"

static const char *src =
    "__kernel void one(AMP_VIEW(int, v)) { AMP_INDEX1(i); amp_at(v, i[0]) = 1; }";

int main(void) {
  REQUIRE_VIEW(av);
  amp_kernel *k = test_kernel(src, NULL, "one");
  int data[4] = {0};
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(4), AMP_INT32, data, &v));
  amp_arg args[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(4), k, args, 1));
  CHECK_OK(amp_array_view_release(v));
  CHECK_OK(amp_kernel_release(k));
  CHECK(data[3] == 1);
  static volatile char *leaked;
  leaked = malloc(4242); /* the deliberate leak LeakSanitizer must find */
  leaked[0] = 1;
  leaked = NULL;
  return check_done();
}
