/* element_access: amp_array_view_get / _set and amp_array_get / _set, host access to one element
 * of a view or an array of any rank. Values against the host arrays the views cover; the transfer
 * counters prove that only the element's bytes move; bad indices, ranks and handles, a read-only
 * view and NULL pointers are refused with the problem named, and host data stay as they were. */
#include "check.h"

static const char *src =
    "__kernel void add100(AMP_VIEW(int, v)) { AMP_INDEX1(i); amp_at(v, i[0]) += 100; }\n"
    "__kernel void twice2(AMP_VIEW(float, v)) {\n"
    "  AMP_INDEX2(i);\n"
    "  amp_at(v, i[0], i[1]) *= 2.0f;\n"
    "}\n"
    "__kernel void copy3(AMP_CONST_VIEW(int, a), AMP_VIEW(int, b)) {\n"
    "  AMP_INDEX3(i);\n"
    "  amp_at(b, i[0], i[1], i[2]) = amp_at(a, i[0], i[1], i[2]);\n"
    "}\n";

static amp_transfer_stats stats(void) {
  amp_transfer_stats st = {0};
  CHECK_OK(amp_transfer_stats_get(NULL, &st));
  return st;
}

/* Rank 1: a read after a kernel wrote brings back 4 bytes; a write reaches the next kernel. */
static int rank1(amp_accelerator_view *av, amp_kernel *add100) {
  enum { N = 64 };
  int32_t h[N];
  for (int i = 0; i < N; i++)
    h[i] = i;
  amp_array_view *v;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  int32_t x = -1;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_get(v, amp_index1(7), &x)); /* on the host already: nothing moves */
  CHECK_EQ_INT(x, 7);
  CHECK_EQ_INT(test_transfers(), 0);
  amp_arg a[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), add100, a, 1));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_get(v, amp_index1(9), &x));
  CHECK_EQ_INT(x, 109);
  amp_transfer_stats st = stats();
  CHECK_EQ_INT((long long)st.to_host_count, 1);
  CHECK_EQ_INT((long long)st.to_host_bytes, 4); /* the element, not the view */
  CHECK_EQ_INT(h[10], 10);                      /* its neighbours stay on the device */
  int32_t nine = 9000;
  CHECK_OK(amp_array_view_set(v, amp_index1(10), &nine));
  CHECK_EQ_INT(h[10], 9000); /* the host memory holds the new value */
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), add100, a, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EQ_INT(h[10], 9100); /* the kernel read the value set on the host */
  CHECK_EQ_INT(h[11], 211);
  CHECK_EQ_INT(h[9], 209);
  CHECK_OK(amp_array_view_release(v));
  return 0;
}

/* Rank 2: an element of a section is the right element of the matrix under it. */
static int rank2(amp_accelerator_view *av, amp_kernel *twice2) {
  enum { R = 6, C = 5 };
  float m[R * C];
  for (int i = 0; i < R * C; i++)
    m[i] = (float)i;
  amp_array_view *v, *s;
  REQUIRE_OK(amp_array_view_create(amp_extent2(R, C), AMP_FLOAT, m, &v));
  REQUIRE_OK(amp_array_view_section(v, amp_index2(2, 1), amp_extent2(3, 3), &s));
  amp_arg a[] = {amp_arg_view(s)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent2(3, 3), twice2, a, 1));
  float x = 0;
  CHECK_OK(amp_array_view_get(s, amp_index2(1, 2), &x)); /* matrix (3, 3) */
  CHECK(x == 2.0f * (3 * C + 3));
  CHECK_OK(amp_array_view_get(v, amp_index2(0, 0), &x)); /* outside the section: untouched */
  CHECK(x == 0.0f);
  const float y = -1.5f;
  CHECK_OK(amp_array_view_set(s, amp_index2(2, 0), &y)); /* matrix (4, 1) */
  CHECK(m[4 * C + 1] == -1.5f);
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK(m[2 * C + 1] == 2.0f * (2 * C + 1));
  CHECK(m[4 * C + 1] == -1.5f);
  CHECK(m[4 * C + 2] == 2.0f * (4 * C + 2));
  CHECK_OK(amp_array_view_release(s));
  CHECK_OK(amp_array_view_release(v));
  return 0;
}

/* Rank 3, a view with no host memory, an array, and a read-only view. */
static int rank3_and_arrays(amp_accelerator_view *av, amp_kernel *copy3) {
  enum { D0 = 2, D1 = 3, D2 = 4, N = D0 * D1 * D2 };
  int32_t h[N];
  for (int i = 0; i < N; i++)
    h[i] = 3 * i + 1;
  const amp_extent e = amp_extent3(D0, D1, D2);
  amp_array_view *in, *out;
  REQUIRE_OK(amp_array_view_create_const(e, AMP_INT32, h, &in));
  REQUIRE_OK(amp_array_view_create_empty(e, AMP_INT32, &out));
  amp_arg a[] = {amp_arg_view(in), amp_arg_view(out)};
  CHECK_OK(amp_parallel_for_each(av, e, copy3, a, 2));
  int32_t x = 0;
  CHECK_OK(amp_array_view_get(out, amp_index3(1, 2, 3), &x));
  CHECK_EQ_INT(x, 3 * (1 * D1 * D2 + 2 * D2 + 3) + 1);
  CHECK_OK(amp_array_view_get(in, amp_index3(0, 1, 2), &x));
  CHECK_EQ_INT(x, 3 * (1 * D2 + 2) + 1);
  CHECK_STATUS(amp_array_view_set(in, amp_index3(0, 0, 0), &x), AMP_ERROR_ACCESS_DENIED);
  CHECK_MSG("read-only");
  CHECK_EQ_INT(h[0], 1);

  amp_array *arr;
  REQUIRE_OK(amp_array_create_from(av, e, AMP_INT32, h, &arr));
  CHECK_OK(amp_array_get(arr, amp_index3(1, 0, 1), &x));
  CHECK_EQ_INT(x, 3 * (1 * D1 * D2 + 1) + 1);
  const int32_t v = -7;
  CHECK_OK(amp_array_set(arr, amp_index3(0, 2, 3), &v));
  int32_t back[N];
  CHECK_OK(amp_copy_from_array(arr, back, sizeof back));
  CHECK_EQ_INT(back[2 * D2 + 3], -7);
  CHECK_EQ_INT(back[2 * D2 + 2], 3 * (2 * D2 + 2) + 1);
  CHECK_STATUS(amp_array_get(arr, amp_index3(2, 0, 0), &x), AMP_ERROR_OUT_OF_RANGE);
  CHECK_OK(amp_array_release(arr));
  CHECK_STATUS(amp_array_get(arr, amp_index3(0, 0, 0), &x), AMP_ERROR_INVALID_HANDLE);
  CHECK_OK(amp_array_view_release(in));
  CHECK_OK(amp_array_view_release(out));
  return 0;
}

/* Bad input: named, and nothing moves or changes. */
static int misuse(void) {
  int32_t h[12], orig[12];
  for (int i = 0; i < 12; i++)
    h[i] = orig[i] = i;
  amp_array_view *v;
  REQUIRE_OK(amp_array_view_create(amp_extent2(3, 4), AMP_INT32, h, &v));
  int32_t x = 5;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_STATUS(amp_array_view_get(v, amp_index2(3, 0), &x), AMP_ERROR_OUT_OF_RANGE);
  CHECK_MSG("index [3, 0] is outside the view's extent [3, 4]");
  CHECK_STATUS(amp_array_view_set(v, amp_index2(0, -1), &x), AMP_ERROR_OUT_OF_RANGE);
  CHECK_MSG("-1 is not in [0, 4)");
  CHECK_STATUS(amp_array_view_get(v, amp_index1(0), &x), AMP_ERROR_RANK_MISMATCH);
  CHECK_MSG("the index has rank 1 but the view has rank 2");
  CHECK_STATUS(amp_array_view_get(v, amp_index2(0, 0), NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("out is NULL");
  CHECK_STATUS(amp_array_view_set(v, amp_index2(0, 0), NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("value is NULL");
  CHECK_STATUS(amp_array_view_get(NULL, amp_index2(0, 0), &x), AMP_ERROR_INVALID_HANDLE);
  CHECK_EQ_INT(x, 5);
  CHECK_UNMOVED(h, orig);
  CHECK_OK(amp_array_view_release(v));
  CHECK_STATUS(amp_array_view_set(v, amp_index2(0, 0), &x), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("released");
  CHECK(memcmp(h, orig, sizeof h) == 0);
  return 0;
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_kernel *add100 = test_kernel(src, NULL, "add100");
  amp_kernel *twice2 = test_kernel(src, NULL, "twice2");
  amp_kernel *copy3 = test_kernel(src, NULL, "copy3");
  if (!add100 || !twice2 || !copy3)
    return check_done();
  if (rank1(av, add100) || rank2(av, twice2) || rank3_and_arrays(av, copy3) || misuse())
    return 1;
  amp_kernel_release(add100);
  amp_kernel_release(twice2);
  amp_kernel_release(copy3);
  return check_done();
}
