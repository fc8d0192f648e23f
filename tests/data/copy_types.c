/* copy_types: copies keep element types and shapes (array.h). A copy between views or
 * arrays of different element types, ranks, or shapes of equal size fails at the call with its
 * status and a message naming both sides, and the destination is unchanged (AMP copies never
 * reinterpret bits; reinterpret_as does). */
#include <stdint.h>

#include "check.h"

enum { N = 12 };

typedef struct pair {
  int32_t a, b;
} pair;

int main(void) {
  REQUIRE_VIEW(av);
  int32_t si[N], di[N], di_orig[N];
  float df[N], df_orig[N];
  for (int i = 0; i < N; i++) {
    si[i] = i + 1;
    di[i] = di_orig[i] = -i;
    df[i] = df_orig[i] = 0.5f * (float)i;
  }
  amp_array_view *vi = NULL, *vf = NULL, *vu = NULL, *v34 = NULL, *v43 = NULL, *v12 = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, si, &vi));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, df, &vf));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_UINT32, di, &vu));
  REQUIRE_OK(amp_array_view_create(amp_extent2(3, 4), AMP_INT32, si, &v34));
  REQUIRE_OK(amp_array_view_create(amp_extent2(4, 3), AMP_INT32, di, &v43));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, di, &v12));

  /* same size in bytes, other element type: int32 -> float, int32 -> uint32 */
  CHECK_REFUSED(amp_copy_view(vi, vf), AMP_ERROR_INVALID_ARGUMENT,
                "int32 (4 bytes) but the destination float (4 bytes)");
  CHECK_REFUSED(amp_copy_view(vi, vu), AMP_ERROR_INVALID_ARGUMENT, "uint32");
  amp_future *f = NULL;
  CHECK_STATUS(amp_copy_view_async(vi, vf, &f), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(f == NULL);
  /* same size, other shape; other rank */
  CHECK_REFUSED(amp_copy_view(v34, v43), AMP_ERROR_EXTENT_MISMATCH,
                "3 x 4 x 1 but the destination 4 x 3 x 1");
  CHECK_REFUSED(amp_copy_view(v34, v12), AMP_ERROR_EXTENT_MISMATCH,
                "rank 2 but the destination rank 1");
  CHECK(memcmp(di, di_orig, sizeof di) == 0);
  CHECK(memcmp(df, df_orig, sizeof df) == 0);

  /* structs of different sizes over the same bytes */
  amp_array_view *vp = NULL, *vp2 = NULL;
  amp_elem_type three = {AMP_ELEM_STRUCT, 12};
  REQUIRE_OK(amp_array_view_create(amp_extent1(N / 2), AMP_STRUCT(pair), si, &vp));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N / 2), three, di, &vp2));
  CHECK_REFUSED(amp_copy_view(vp, vp2), AMP_ERROR_INVALID_ARGUMENT,
                "struct (8 bytes) but the destination struct (12 bytes)");
  CHECK(memcmp(di, di_orig, sizeof di) == 0);

  /* arrays: other element type, other shape of equal size, synchronous and asynchronous */
  amp_array *ai = NULL, *af = NULL, *a43 = NULL;
  REQUIRE_OK(amp_array_create_from(av, amp_extent2(3, 4), AMP_INT32, si, &ai));
  REQUIRE_OK(amp_array_create_from(av, amp_extent2(3, 4), AMP_FLOAT, df, &af));
  REQUIRE_OK(amp_array_create_from(av, amp_extent2(4, 3), AMP_INT32, di, &a43));
  CHECK_REFUSED(amp_copy_array(ai, af), AMP_ERROR_INVALID_ARGUMENT, "float");
  CHECK_STATUS(amp_copy_array(ai, a43), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_STATUS(amp_copy_array_async(ai, a43, &f), AMP_ERROR_EXTENT_MISMATCH);
  CHECK(f == NULL);
  float back_f[N];
  int32_t back_i[N];
  CHECK_OK(amp_copy_from_array(af, back_f, sizeof back_f));
  CHECK(memcmp(back_f, df_orig, sizeof back_f) == 0);
  CHECK_OK(amp_copy_from_array(a43, back_i, sizeof back_i));
  CHECK(memcmp(back_i, di_orig, sizeof back_i) == 0);

  /* the good copy still works */
  CHECK_OK(amp_copy_view(vi, v12));
  CHECK_OK(amp_array_view_synchronize(v12));
  CHECK(memcmp(di, si, sizeof di) == 0);

  amp_array_release(ai);
  amp_array_release(af);
  amp_array_release(a43);
  amp_array_view *all[] = {vi, vf, vu, v34, v43, v12, vp, vp2};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    CHECK_OK(amp_array_view_release(all[i]));
  return check_done();
}
