/* memory_limits: requests larger than the device or host can give fail at the call with
 * AMP_ERROR_LIMIT_EXCEEDED and a message with the sizes (array.h, array_view.h), not with a raw
 * OpenCL code at a later launch: a sourceless view and an array over the device's
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE, and a huge amp_host_alloc. */
#include <limits.h>
#include <stdint.h>

#include "check.h"

int main(void) {
  REQUIRE_VIEW(av);
  amp_accelerator *acc = NULL;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));

  /* INT_MAX elements of 4 KiB: 8 TiB, more than any buffer POCL or a GPU allocates */
  amp_elem_type page = {AMP_ELEM_STRUCT, 4096};
  char want[64];
  snprintf(want, sizeof want, "%zu bytes", (size_t)INT_MAX * 4096);
  amp_array_view *v = NULL;
  CHECK_STATUS(amp_array_view_create_empty(amp_extent1(INT_MAX), page, &v),
               AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG("amp_array_view_create_empty");
  CHECK_MSG(want);
  CHECK_MSG("CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  CHECK(v == NULL);

  amp_array *a = NULL;
  CHECK_STATUS(amp_array_create(av, amp_extent1(INT_MAX), page, &a), AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG(want);
  CHECK(a == NULL);

  void *p = NULL;
  CHECK_STATUS(amp_host_alloc(acc, SIZE_MAX, &p), AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG("amp_host_alloc");
  CHECK_MSG("18446744073709551615 bytes");
  CHECK(p == NULL);

  /* reasonable requests still work, and host data under a view are intact */
  enum { N = 16 };
  static int32_t h[N];
  for (int i = 0; i < N; i++)
    h[i] = i;
  amp_array_view *small = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &small));
  void *q = NULL;
  CHECK_OK(amp_host_alloc(acc, 1024, &q));
  CHECK_OK(amp_host_free(q));
  CHECK_OK(amp_array_view_release(small));
  for (int i = 0; i < N; i++)
    CHECK_EQ_INT(h[i], i);
  return check_done();
}
