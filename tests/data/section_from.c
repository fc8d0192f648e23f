/* section_from: amp_array_view_section_from, AMP's section(idx): the part of a view from an origin
 * to the view's end. For ranks 1, 2 and 3, at several origins (the first element, the middle, the
 * last element), the section has the extent view - origin, equals amp_array_view_section with that
 * extent, and a kernel adding 1 through it changes exactly the elements at or past the origin in
 * every dimension, computed on the host. A section of a section starts from its own origin. Bad
 * origins (another rank, negative, at or past the end) and handles are refused, naming the value,
 * and leave the data as it was. */
#include "check.h"

/* add 1 to every element of a rank-`rank` view, written for that rank */
static amp_kernel *add1_kernel(int rank) {
  static const char *const at[3] = {"i[0]", "i[0], i[1]", "i[0], i[1], i[2]"};
  char src[160];
  snprintf(src, sizeof src,
           "__kernel void add1(AMP_VIEW(int, v)) { AMP_INDEX%d(i); amp_at(v, %s) += 1; }\n", rank,
           at[rank - 1]);
  return test_kernel(src, NULL, "add1");
}

enum { D0 = 5, D1 = 6, D2 = 7, N = D0 * D1 * D2 };
static amp_kernel *add1[3];

static amp_index index_of(int rank, const int *o) {
  return rank == 1   ? amp_index1(o[0])
         : rank == 2 ? amp_index2(o[0], o[1])
                     : amp_index3(o[0], o[1], o[2]);
}

/* The view of rank `rank` over data, a section from origin o, a kernel through it; every element
 * against the host. */
static void one_origin(amp_accelerator_view *av, int rank, const int *o) {
  static int data[N], want[N];
  const int dims[3] = {D0, D1, D2};
  amp_extent e = rank == 1   ? amp_extent1(D0)
                 : rank == 2 ? amp_extent2(D0, D1)
                             : amp_extent3(D0, D1, D2);
  size_t n = amp_extent_size(e);
  for (size_t i = 0; i < n; i++)
    data[i] = want[i] = (int)i * 3;
  amp_array_view *v = NULL, *s = NULL, *t = NULL;
  CHECK_OK(amp_array_view_create(e, AMP_INT32, data, &v));
  CHECK_OK(amp_array_view_section_from(v, index_of(rank, o), &s));
  amp_extent got = {0}, rest = e;
  for (int d = 0; d < rank; d++)
    rest.dim[d] = e.dim[d] - o[d];
  CHECK_OK(amp_array_view_get_extent(s, &got));
  CHECK(got.rank == rank && amp_extent_equal(got, rest));
  CHECK_OK(amp_array_view_section(v, index_of(rank, o), rest, &t)); /* the same part */
  amp_arg args[] = {amp_arg_view(s)};
  CHECK_OK(amp_parallel_for_each(av, rest, add1[rank - 1], args, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  for (size_t i = 0; i < n; i++) {
    int idx[3] = {0, 0, 0}, inside = 1;
    size_t r = i;
    for (int d = rank - 1; d >= 0; d--) {
      idx[d] = (int)(r % (size_t)dims[d]);
      r /= (size_t)dims[d];
      inside &= idx[d] >= o[d];
    }
    want[i] += inside;
  }
  CHECK(memcmp(data, want, n * sizeof *data) == 0);
  amp_array_view_release(t);
  amp_array_view_release(s);
  amp_array_view_release(v);
}

/* A section of a section: its origin counts from the outer section's. */
static void nested(amp_accelerator_view *av) {
  int data[D0 * D1];
  for (int i = 0; i < D0 * D1; i++)
    data[i] = 0;
  amp_array_view *v = NULL, *s = NULL, *ss = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(D0, D1), AMP_INT32, data, &v));
  CHECK_OK(amp_array_view_section_from(v, amp_index2(1, 2), &s));
  CHECK_OK(amp_array_view_section_from(s, amp_index2(2, 1), &ss)); /* from (3, 3) of v */
  amp_extent got = {0};
  CHECK_OK(amp_array_view_get_extent(ss, &got));
  CHECK(amp_extent_equal(got, amp_extent2(D0 - 3, D1 - 3)));
  amp_arg args[] = {amp_arg_view(ss)};
  CHECK_OK(amp_parallel_for_each(av, got, add1[1], args, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = 0;
  for (int r = 0; r < D0; r++)
    for (int c = 0; c < D1; c++)
      bad += data[r * D1 + c] != (r >= 3 && c >= 3);
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(ss);
  amp_array_view_release(s);
  amp_array_view_release(v);
}

static void refused(void) {
  int data[D0 * D1], orig[D0 * D1];
  for (int i = 0; i < D0 * D1; i++)
    data[i] = orig[i] = i;
  amp_array_view *v = NULL, *s = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(D0, D1), AMP_INT32, data, &v));
  CHECK_STATUS(amp_array_view_section_from(v, amp_index1(1), &s), AMP_ERROR_RANK_MISMATCH);
  CHECK_MSG("rank 2 but the origin rank 1");
  CHECK_STATUS(amp_array_view_section_from(v, amp_index2(-1, 0), &s), AMP_ERROR_OUT_OF_RANGE);
  CHECK_MSG("dimension 0 the origin -1 is outside the view's [0, 5)");
  CHECK_STATUS(amp_array_view_section_from(v, amp_index2(0, D1), &s), AMP_ERROR_OUT_OF_RANGE);
  CHECK_MSG("dimension 1 the origin 6 is outside the view's [0, 6)");
  CHECK_STATUS(amp_array_view_section_from(v, amp_index2(D0, 0), &s), AMP_ERROR_OUT_OF_RANGE);
  CHECK(s == NULL);
  CHECK_STATUS(amp_array_view_section_from(v, amp_index2(0, 0), NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_array_view_section_from(NULL, amp_index2(0, 0), &s), AMP_ERROR_INVALID_HANDLE);
  CHECK(memcmp(data, orig, sizeof data) == 0);
  amp_array_view_release(v);
}

int main(void) {
  REQUIRE_VIEW(av);
  for (int r = 0; r < 3; r++)
    if (!(add1[r] = add1_kernel(r + 1)))
      return check_done();
  const int origins[][3] = {{0, 0, 0}, {2, 3, 4}, {D0 - 1, D1 - 1, D2 - 1}, {4, 0, 6}};
  for (int rank = 1; rank <= 3; rank++)
    for (size_t k = 0; k < sizeof origins / sizeof origins[0]; k++)
      one_origin(av, rank, origins[k]);
  nested(av);
  refused();
  for (int r = 0; r < 3; r++)
    amp_kernel_release(add1[r]);
  return check_done();
}
