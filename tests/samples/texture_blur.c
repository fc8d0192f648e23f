/* sample_blur: the C++ AMP book's image filter through a texture
 * (kernels_cl/samples/sample_blur.cl): a 3x3 mean of a float_4 image, read by sampling with a point
 * filter and clamped addresses, against the host's mean with the edge pixels repeated, on an image
 * of odd size. A sampler of another address mode (border: zeros outside) gives the host's
 * zero-padded mean instead, so the sampler's mode is what the kernel sees. A device without images
 * skips (77). */
#include "check.h"

enum { H = 29, W = 37 };

static float img[H][W][4], out[H][4 * W];

/* The host's 3x3 mean at (y, x) of channel ch; clamp: edge pixels repeat, else zeros outside. */
static float host_mean(int y, int x, int ch, int clamp) {
  float acc = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int yy = y + dy, xx = x + dx;
      if (clamp) {
        yy = yy < 0 ? 0 : yy >= H ? H - 1 : yy;
        xx = xx < 0 ? 0 : xx >= W ? W - 1 : xx;
      } else if (yy < 0 || yy >= H || xx < 0 || xx >= W) {
        continue;
      }
      acc += img[yy][xx][ch];
    }
  return acc / 9.0f;
}

static int mismatches(int clamp) {
  int bad = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int ch = 0; ch < 4; ch++) {
        float want = host_mean(y, x, ch, clamp), got = out[y][4 * x + ch];
        if (fabsf(got - want) > 1e-4f * (1.0f + fabsf(want)) && bad++ < 3)
          fprintf(stderr, "clamp %d: (%d, %d) channel %d: %g, the host's %g\n", clamp, y, x, ch,
                  got, want);
      }
  return bad;
}

int main(void) {
  REQUIRE_VIEW(av);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int ch = 0; ch < 4; ch++)
        img[y][x][ch] = (float)((y * 31 + x * 17 + ch * 7) % 23) * 0.5f;
  amp_texel_format f = {AMP_TEXEL_FLOAT, 4, 32};
  amp_texture *t = NULL;
  amp_status made = amp_texture_create_from(av, amp_extent2(H, W), f, img, sizeof img, &t);
  if (made == AMP_ERROR_UNSUPPORTED_FEATURE) {
    printf("no images on this device: %s\n", amp_last_error());
    return SKIP;
  }
  CHECK_OK(made);
  amp_program *p = NULL;
  amp_kernel *k = NULL;
  CHECK_OK(amp_program_create_builtin("sample_blur", NULL, &p));
  if (p)
    CHECK_OK(amp_kernel_create(p, "blur3x3", &k));
  amp_program_release(p);
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(H, 4 * W), AMP_FLOAT, out, &v));
  for (int clamp = 1; clamp >= 0 && t && k && v; clamp--) {
    amp_sampler s = {AMP_FILTER_POINT, clamp ? AMP_ADDRESS_CLAMP : AMP_ADDRESS_BORDER};
    amp_arg args[] = {amp_arg_texture(t), amp_arg_sampler(s), amp_arg_view(v)};
    CHECK_OK(amp_array_view_discard_data(v));
    CHECK_OK(amp_parallel_for_each(av, amp_extent2(H, W), k, args, AMP_NARGS(args)));
    CHECK_OK(amp_array_view_synchronize(v));
    CHECK_EQ_INT(mismatches(clamp), 0);
  }
  amp_array_view_release(v);
  amp_kernel_release(k);
  amp_texture_release(t);
  return check_done();
}
