/* algo_transpose: amp_transpose_view of int, float and double matrices against a host
 * transpose, at shapes that are not multiples of the 32 x 32 block (1 x 1, 1 x 77, 33 x 31,
 * 100 x 257), of a section with a row stride, and with bad input. */
#include "algorithms/algo_check.h"

#include <stdint.h>

static const int shapes[][2] = {{1, 1}, {1, 77}, {77, 1}, {33, 31}, {32, 64}, {100, 257}};

static void check_shape(amp_accelerator_view *av, int R, int C, amp_elem_type t) {
  size_t es = t.size, n = (size_t)R * (size_t)C;
  unsigned char *in = malloc(n * es), *out = malloc(n * es);
  for (size_t i = 0; i < n; i++) {
    int32_t v = (int32_t)(i * 7 + 1);
    if (t.kind == AMP_ELEM_DOUBLE)
      ((double *)in)[i] = v + 0.5;
    else if (t.kind == AMP_ELEM_FLOAT)
      ((float *)in)[i] = (float)v + 0.5f;
    else
      memcpy(in + i * es, &v, 4);
  }
  memset(out, 0, n * es);
  amp_array_view *s = NULL, *d = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent2(R, C), t, in, &s));
  CHECK_OK(amp_array_view_create(amp_extent2(C, R), t, out, &d));
  CHECK_OK(amp_transpose_view(av, s, d));
  CHECK_OK(amp_array_view_synchronize(d));
  int bad = 0;
  for (int i = 0; i < R && !bad; i++)
    for (int j = 0; j < C && !bad; j++)
      if (memcmp(out + ((size_t)j * R + i) * es, in + ((size_t)i * C + j) * es, es) != 0) {
        bad = 1;
        fprintf(stderr, "transpose %d x %d (kind %d): dst(%d, %d) is wrong\n", R, C, (int)t.kind, j,
                i);
      }
  CHECK(!bad);
  amp_array_view_release(s);
  amp_array_view_release(d);
  FREE_ALL(in, out);
}

int main(void) {
  REQUIRE_VIEW_PROPS(av, props);
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    check_shape(av, shapes[s][0], shapes[s][1], AMP_INT32);
    check_shape(av, shapes[s][0], shapes[s][1], AMP_FLOAT);
    if (props.supports_double_precision)
      check_shape(av, shapes[s][0], shapes[s][1], AMP_DOUBLE);
  }

  /* A 40 x 50 section at (3, 5) of a 64 x 70 matrix, into a section of a larger result. */
  enum { R = 64, C = 70 };
  static float m[R][C], t[60][50];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = (float)(i * 1000 + j);
  amp_array_view *mv = NULL, *ms = NULL, *tv = NULL, *ts = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent2(R, C), AMP_FLOAT, m, &mv));
  REQUIRE_OK(amp_array_view_section(mv, amp_index2(3, 5), amp_extent2(40, 50), &ms));
  REQUIRE_OK(amp_array_view_create(amp_extent2(60, 50), AMP_FLOAT, t, &tv));
  REQUIRE_OK(amp_array_view_section(tv, amp_index2(10, 2), amp_extent2(50, 40), &ts));
  CHECK_OK(amp_transpose_view(av, ms, ts));
  CHECK_OK(amp_array_view_synchronize(tv));
  int bad = 0;
  for (int i = 0; i < 60; i++)
    for (int j = 0; j < 50; j++) {
      int inside = i >= 10 && j >= 2 && j < 42;
      float want = inside ? m[3 + (j - 2)][5 + (i - 10)] : 0.0f;
      bad += t[i][j] != want;
    }
  CHECK_EQ_INT(bad, 0);

  /* Bad input. */
  CHECK_STATUS(amp_transpose_view(av, mv, mv), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("70 x 64");
  amp_array_view *sq = NULL, *sq2 = NULL, *ro = NULL, *iv = NULL;
  REQUIRE_OK(amp_array_view_section(mv, amp_index2(0, 0), amp_extent2(8, 8), &sq));
  REQUIRE_OK(amp_array_view_section(mv, amp_index2(8, 8), amp_extent2(8, 8), &sq2));
  CHECK_STATUS(amp_transpose_view(av, sq, sq2), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("same data");
  REQUIRE_OK(amp_array_view_as_const(tv, &ro));
  CHECK_STATUS(amp_transpose_view(av, ro, ro), AMP_ERROR_ACCESS_DENIED);
  static int32_t iz[50 * 40];
  REQUIRE_OK(amp_array_view_create(amp_extent2(50, 40), AMP_INT32, iz, &iv));
  CHECK_STATUS(amp_transpose_view(av, ms, iv), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_transpose_view(av, NULL, iv), AMP_ERROR_INVALID_HANDLE);
  amp_array_view *flat = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(2000), AMP_INT32, iz, &flat));
  CHECK_STATUS(amp_transpose_view(av, flat, iv), AMP_ERROR_RANK_MISMATCH);
  RELEASE_VIEWS(flat, iv, ro, sq2, sq, ts, tv, ms, mv);
  return check_done();
}
