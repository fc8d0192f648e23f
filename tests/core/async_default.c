/* async_default: host-side asynchronous copies do not fix the default accelerator (it is chosen
 * at its first use, AMP §3.2, and a copy between host memory and a view is not one), so
 * amp_accelerator_set_default still works after them. */
#include "check.h"

int main(void) {
  float a[64], b[64];
  for (int i = 0; i < 64; i++)
    a[i] = (float)i;
  amp_array_view *v = NULL;
  amp_future *f = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(64), AMP_FLOAT, b, &v));
  CHECK_OK(amp_copy_to_view_async(a, sizeof a, v, &f));
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));
  CHECK(memcmp(a, b, sizeof a) == 0);
  amp_accelerator *first = NULL;
  amp_accelerator_properties p;
  REQUIRE_OK(amp_accelerator_get(0, &first));
  REQUIRE_OK(amp_accelerator_get_properties(first, &p));
  CHECK_OK(amp_accelerator_set_default(p.device_path)); /* not fixed yet */
  CHECK_OK(amp_array_view_release(v));
  return check_done();
}
