/* algo_stencil: amp_stencil_2d and amp_gaussian_blur against a host convolution with
 * clamped borders, at image sizes that are not multiples of the 64 x 32 tile nor of the column
 * kernels' 4 columns x 32 rows (1 x 1, 1 x 40, 17 x 33, 70 x 45, 131 x 97, 75 x 300, 2 x 3,
 * 66 x 259), every radius 0 .. 8 at 70 x 45 on a GPU (0, 1, 3, 5, 6, 7, 8 on a CPU device; 0, 3,
 * 6, 8 at the others), sections with a row stride (one whose rows start on 16 bytes, one whose
 * rows do not), and bad input. The default run takes the column kernels (float4 where aligned),
 * .columns_odd the same with odd tile and strip shapes and vload4 only (AMP_STENCIL_TX, _TY,
 * _ROWS, _ALIGNED) and the GPUs' loop on any device (AMP_STENCIL_RING=0, _PREFETCH=1), .tiles the
 * tile_static kernels (AMP_STENCIL_COLUMNS=0). */
#include "algorithms/algo_check.h"

#include <stdint.h>

static int clampi(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* Host reference in double. */
static void reference(const float *src, float *dst, int H, int W, const float *w, int r) {
  int k = 2 * r + 1;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      double s = 0;
      for (int a = -r; a <= r; a++)
        for (int b = -r; b <= r; b++)
          s += (double)w[(a + r) * k + b + r] *
               src[clampi(i + a, 0, H - 1) * W + clampi(j + b, 0, W - 1)];
      dst[i * W + j] = (float)s;
    }
}

/* The largest difference between the n floats of got and of want. */
static double worst_error(const float *got, const float *want, size_t n) {
  double worst = 0;
  for (size_t i = 0; i < n; i++)
    worst = fmax(worst, fabs(got[i] - want[i]));
  return worst;
}

static void check_case(amp_accelerator_view *av, int H, int W, int r) {
  int k = 2 * r + 1;
  size_t n = (size_t)H * (size_t)W;
  float *src = malloc(n * 4), *dst = malloc(n * 4), *want = malloc(n * 4),
        *w = malloc((size_t)k * k * 4);
  for (size_t i = 0; i < n; i++)
    src[i] = (float)((i * 37) % 101) / 101.0f;
  for (int i = 0; i < k * k; i++)
    w[i] = (float)(1 + (i * 7) % 5) / (float)(3 * k * k); /* not symmetric: orientation shows */
  reference(src, want, H, W, w, r);
  amp_array_view *vs = NULL, *vd = NULL, *vw = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent2(H, W), AMP_FLOAT, src, &vs));
  CHECK_OK(amp_array_view_create(amp_extent2(H, W), AMP_FLOAT, dst, &vd));
  CHECK_OK(amp_array_view_create_const(amp_extent2(k, k), AMP_FLOAT, w, &vw));
  CHECK_OK(amp_array_view_discard_data(vd));
  CHECK_OK(amp_stencil_2d(av, vs, vd, vw));
  CHECK_OK(amp_array_view_synchronize(vd));
  double worst = worst_error(dst, want, n);
  if (worst > 1e-5)
    fprintf(stderr, "stencil %d x %d r %d: error %g\n", H, W, r, worst);
  CHECK(worst <= 1e-5);
  RELEASE_VIEWS(vs, vd, vw);
  FREE_ALL(src, dst, want, w);
}

/* amp_gaussian_blur (its separable kernel) against the 2-D reference with its weights. */
static void check_blur(amp_accelerator_view *av, int H, int W, float sigma) {
  int r = (int)ceilf(3.0f * sigma), k = 2 * r + 1;
  size_t n = (size_t)H * (size_t)W;
  float *src = malloc(n * 4), *dst = malloc(n * 4), *want = malloc(n * 4),
        *w = malloc((size_t)k * k * 4);
  double total = 0;
  for (int a = -r; a <= r; a++)
    for (int b = -r; b <= r; b++)
      total += exp(-(double)(a * a + b * b) / (2.0 * sigma * sigma));
  for (int a = -r; a <= r; a++)
    for (int b = -r; b <= r; b++)
      w[(a + r) * k + b + r] =
          (float)(exp(-(double)(a * a + b * b) / (2.0 * sigma * sigma)) / total);
  for (size_t i = 0; i < n; i++)
    src[i] = (float)((i * 53) % 97) / 97.0f;
  reference(src, want, H, W, w, r);
  amp_array_view *vs = NULL, *vd = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent2(H, W), AMP_FLOAT, src, &vs));
  CHECK_OK(amp_array_view_create(amp_extent2(H, W), AMP_FLOAT, dst, &vd));
  CHECK_OK(amp_gaussian_blur(av, vs, vd, sigma));
  CHECK_OK(amp_array_view_synchronize(vd));
  double worst = worst_error(dst, want, n);
  if (worst > 1e-5)
    fprintf(stderr, "blur %d x %d sigma %g: error %g\n", H, W, (double)sigma, worst);
  CHECK(worst <= 1e-5);
  RELEASE_VIEWS(vs, vd);
  FREE_ALL(src, dst, want, w);
}

int main(void) {
  REQUIRE_VIEW(av);
  const int shapes[][2] = {{1, 1}, {1, 40}, {17, 33}, {70, 45}};
  for (int s = 0; s < 4; s++)
    for (int r = 0; r <= AMP_STENCIL_MAX_RADIUS; r++) /* a kernel per radius: all on a GPU, */
      if ((s == 3 && (test_full() || r <= 1 || r % 2)) || r % 3 == 0 ||
          r == 8) /* else 0 1 3 5 6 7 8 */
        check_case(av, shapes[s][0], shapes[s][1], r);
  check_case(av, 131, 97, 3);    /* three tile rows and four tile columns, none of them full */
  check_case(av, 75, 300, 2);    /* rows on 16 bytes: float4 loads, several tiles across */
  check_case(av, 66, 259, 5);    /* two side groups each way, a partial last group */
  check_blur(av, 70, 45, 0.4f);  /* radius 2 */
  check_blur(av, 131, 97, 2.6f); /* radius 8 */
  check_blur(av, 75, 300, 1.0f); /* radius 3, float4 */
  check_blur(av, 2, 3, 1.0f);    /* radius 3, smaller than it */
  check_blur(av, 1, 1, 2.0f);    /* radius 6 */
  check_blur(av, 66, 259, 1.6f); /* radius 5 */

  /* Gaussian blur of a 40 x 50 section (rows of 64) of an impulse image: the result is the
   * normalised Gaussian around the impulse, clamped at the section's edges. */
  enum { H = 48, W = 64 };
  static float img[H][W], out[40][50];
  img[20][25] = 1.0f;
  amp_array_view *vi = NULL, *sec = NULL, *vo = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent2(H, W), AMP_FLOAT, img, &vi));
  REQUIRE_OK(amp_array_view_section(vi, amp_index2(2, 3), amp_extent2(40, 50), &sec));
  REQUIRE_OK(amp_array_view_create(amp_extent2(40, 50), AMP_FLOAT, out, &vo));
  CHECK_OK(amp_gaussian_blur(av, sec, vo, 1.0f));
  CHECK_OK(amp_array_view_synchronize(vo));
  double total = 0, norm = 0;
  for (int a = -3; a <= 3; a++)
    for (int b = -3; b <= 3; b++)
      norm += exp(-(a * a + b * b) / 2.0);
  int bad = 0;
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++) {
      int di = i - 18, dj = j - 22; /* the impulse sits at (18, 22) of the section */
      double want = abs(di) <= 3 && abs(dj) <= 3 ? exp(-(di * di + dj * dj) / 2.0) / norm : 0.0;
      bad += fabs(out[i][j] - want) > 1e-6;
      total += out[i][j];
    }
  CHECK_EQ_INT(bad, 0);
  CHECK(fabs(total - 1.0) < 1e-5);

  /* The same from a section whose rows start on 16 bytes (at (2, 4): the impulse at (18, 21)),
   * into a section of a wider output: the column kernels' float4 path with row strides. */
  static float out2[40][56];
  amp_array_view *sec4 = NULL, *vo2 = NULL, *osec = NULL;
  REQUIRE_OK(amp_array_view_section(vi, amp_index2(2, 4), amp_extent2(40, 50), &sec4));
  REQUIRE_OK(amp_array_view_create(amp_extent2(40, 56), AMP_FLOAT, out2, &vo2));
  REQUIRE_OK(amp_array_view_section(vo2, amp_index2(0, 4), amp_extent2(40, 50), &osec));
  CHECK_OK(amp_gaussian_blur(av, sec4, osec, 1.0f));
  CHECK_OK(amp_array_view_synchronize(vo2));
  bad = 0;
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 56; j++) {
      int di = i - 18, dj = j - 4 - 21;
      double want = j >= 4 && abs(di) <= 3 && abs(dj) <= 3
                        ? exp(-(di * di + dj * dj) / 2.0) / norm
                        : 0.0; /* columns 0 .. 3 are not written */
      bad += fabs(out2[i][j] - want) > 1e-6;
    }
  CHECK_EQ_INT(bad, 0);
  RELEASE_VIEWS(osec, vo2, sec4);

  /* Bad input. */
  static float w4[16], w19[19 * 19], o2[50][40];
  static int32_t iimg[40 * 50];
  amp_array_view *v4 = NULL, *v19 = NULL, *vt = NULL, *vint = NULL, *ro = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent2(4, 4), AMP_FLOAT, w4, &v4));
  REQUIRE_OK(amp_array_view_create(amp_extent2(19, 19), AMP_FLOAT, w19, &v19));
  REQUIRE_OK(amp_array_view_create(amp_extent2(50, 40), AMP_FLOAT, o2, &vt));
  REQUIRE_OK(amp_array_view_create(amp_extent2(40, 50), AMP_INT32, iimg, &vint));
  CHECK_STATUS(amp_stencil_2d(av, sec, vo, v4), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("odd side");
  CHECK_STATUS(amp_stencil_2d(av, sec, vo, v19), AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG("radius 9");
  CHECK_STATUS(amp_stencil_2d(av, sec, vt, v4), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_STATUS(amp_stencil_2d(av, vint, vo, v4), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_gaussian_blur(av, sec, vo, 0.0f), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_gaussian_blur(av, sec, vo, NAN), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_gaussian_blur(av, sec, vo, 3.0f), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("sigma is 3");
  CHECK_STATUS(amp_gaussian_blur(av, sec, sec, 1.0f), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("same data");
  REQUIRE_OK(amp_array_view_as_const(vo, &ro));
  CHECK_STATUS(amp_gaussian_blur(av, sec, ro, 1.0f), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_gaussian_blur(av, NULL, vo, 1.0f), AMP_ERROR_INVALID_HANDLE);
  /* a knob out of its range fails naming it and its value, and the output stays as it was (the
   * column kernels' knob: not read where AMP_STENCIL_COLUMNS=0 takes the tile_static ones) */
  const char *cols = getenv("AMP_STENCIL_COLUMNS");
  if (!cols || strcmp(cols, "0") != 0) {
    static float keep[40][50];
    memcpy(keep, out, sizeof keep);
    const char *pf = getenv("AMP_STENCIL_PREFETCH");
    char pf_was[16] = "";
    if (pf)
      snprintf(pf_was, sizeof pf_was, "%s", pf);
    setenv("AMP_STENCIL_PREFETCH", "2", 1);
    CHECK_STATUS(amp_gaussian_blur(av, sec, vo, 1.0f), AMP_ERROR_INVALID_ARGUMENT);
    CHECK_MSG("AMP_STENCIL_PREFETCH=2");
    if (pf_was[0])
      setenv("AMP_STENCIL_PREFETCH", pf_was, 1);
    else
      unsetenv("AMP_STENCIL_PREFETCH");
    CHECK_OK(amp_array_view_synchronize(vo));
    CHECK(memcmp(keep, out, sizeof keep) == 0);
  }
  RELEASE_VIEWS(ro, vint, vt, v19, v4, vo, sec, vi);
  return check_done();
}
