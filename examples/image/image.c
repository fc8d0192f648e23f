/* examples/image/image.c: an image through textures (ampcl/texture.h): a separable blur with linear
 * sampling, and a resize by sampling at fractional coordinates, each checked against the same
 * computation on the host.
 *
 *   amp-image [--input FILE.png] [--output PREFIX] [--size N] [--scale F] [--accelerator PATH]
 *             [--kernels DIR]
 *
 * Without --input the image is made here (N x N: rings, a gradient and a checkerboard, which has
 * the sharp edges a blur shows). With --output, PREFIX-blur.png and PREFIX-resize.png are written.
 * PNG input and output need libpng at build time.
 *
 * Tolerance: OpenCL leaves the precision of linear filtering undefined; this example assumes the
 * filter weights are right to 1/256 (8 bits of sub-texel precision, what Direct3D-class GPUs
 * have; CPU devices compute them in float). A sample is then within 1/256 of the exact bilinear
 * value per dimension, so blurred pixels (two passes, in float) are within 2/255 of the host's, and
 * resized ones (stored as 8-bit unorm, 0.5/255 more for the rounding) within 3/255. */
#include <math.h>
#include <stdint.h>

#include "example.h"
#include "image_cl.h"     /* image_cl: image.cl as a string */
#include "image_launch.h" /* blur_pass_launch, resize_launch: its typed launchers */
#ifdef EX_HAVE_PNG
#include <png.h>
#endif

static void usage(FILE *f) {
  fprintf(f, "usage: amp-image [--input FILE.png] [--output PREFIX] [--size N] [--scale F]\n"
             "                 [--accelerator PATH] [--kernels DIR]\n");
}

/* rings, a gradient and a checkerboard */
static void make_image(uint8_t *rgba, int h, int w) {
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double dx = x - w / 2.0, dy = y - h / 2.0, r = sqrt(dx * dx + dy * dy);
      uint8_t *p = rgba + ((size_t)y * (size_t)w + (size_t)x) * 4;
      p[0] = (uint8_t)(127.5 + 127.5 * sin(r / 4.0));
      p[1] = (uint8_t)(255 * x / (w > 1 ? w - 1 : 1));
      p[2] = ((x / 8 + y / 8) % 2) ? 255 : 0;
      p[3] = 255;
    }
}

/* The host's blur: (1 4 6 4 1) / 16 along x then y, edges clamped, in float like the kernel. */
static void blur_host(const uint8_t *in, float *out, int h, int w) {
  static const float k[5] = {1, 4, 6, 4, 1};
  float *tmp = malloc((size_t)h * (size_t)w * 4 * sizeof *tmp);
  if (!tmp)
    return;
  for (int pass = 0; pass < 2; pass++)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        for (int c = 0; c < 4; c++) {
          float s = 0;
          for (int t = -2; t <= 2; t++) {
            int xx = pass ? x : x + t, yy = pass ? y + t : y;
            xx = xx < 0 ? 0 : xx >= w ? w - 1 : xx;
            yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
            size_t at = ((size_t)yy * (size_t)w + (size_t)xx) * 4 + (size_t)c;
            s += k[t + 2] * (pass ? tmp[at] : in[at] / 255.0f);
          }
          (pass ? out : tmp)[((size_t)y * (size_t)w + (size_t)x) * 4 + (size_t)c] = s / 16.0f;
        }
  free(tmp);
}

/* The host's resize: OpenCL's linear filter with clamp-to-edge addressing at each output pixel's
 * centre. */
static double bilinear(const uint8_t *in, int h, int w, double sx, double sy, int c) {
  double u = sx * w - 0.5, v = sy * h - 0.5;
  int x0 = (int)floor(u), y0 = (int)floor(v);
  double a = u - x0, b = v - y0, sum = 0;
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++) {
      int x = x0 + i, y = y0 + j;
      x = x < 0 ? 0 : x >= w ? w - 1 : x;
      y = y < 0 ? 0 : y >= h ? h - 1 : y;
      sum += (i ? a : 1 - a) * (j ? b : 1 - b) *
             in[((size_t)y * (size_t)w + (size_t)x) * 4 + (size_t)c];
    }
  return sum / 255.0;
}

#ifdef EX_HAVE_PNG
static uint8_t *read_png(const char *path, int *h, int *w) {
  png_image img;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&img, path)) {
    fprintf(stderr, "amp-image: cannot read %s: %s\n", path, img.message);
    return NULL;
  }
  img.format = PNG_FORMAT_RGBA;
  uint8_t *px = malloc(PNG_IMAGE_SIZE(img));
  if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
    fprintf(stderr, "amp-image: cannot decode %s: %s\n", path, img.message);
    free(px);
    return NULL;
  }
  *h = (int)img.height;
  *w = (int)img.width;
  return px;
}

static int write_png(const char *path, const uint8_t *px, int h, int w) {
  png_image img;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  img.width = (png_uint_32)w;
  img.height = (png_uint_32)h;
  img.format = PNG_FORMAT_RGBA;
  if (!png_image_write_to_file(&img, path, 0, px, 0, NULL)) {
    fprintf(stderr, "amp-image: cannot write %s: %s\n", path, img.message);
    return 0;
  }
  printf("wrote %s\n", path);
  return 1;
}
#endif

int main(int argc, char **argv) {
  amp_status status = AMP_SUCCESS;
  int size = 256, exit_code = 1, h = 0, w = 0;
  double scale = 0.6;
  const char *path = NULL, *kernels_dir = NULL, *input = NULL, *output = NULL;
  const char *scale_text = NULL;
  const ex_option options[] = {{"--size", 4, 8192, &size, NULL, NULL},
                               {"--scale", 0, 0, NULL, &scale_text, NULL},
                               {"--input", 0, 0, NULL, &input, NULL},
                               {"--output", 0, 0, NULL, &output, NULL}};
  int parsed = ex_parse_args(argc, argv, "amp-image", usage, options,
                             sizeof options / sizeof *options, &path, &kernels_dir);
  if (parsed >= 0)
    return parsed;
  if (scale_text)
    scale = atof(scale_text);
  if (!(scale >= 0.05 && scale <= 8.0)) {
    fprintf(stderr, "amp-image: --scale must be between 0.05 and 8\n");
    return 2;
  }
#ifndef EX_HAVE_PNG
  if (input || output) {
    fprintf(stderr, "amp-image: built without libpng: --input and --output are not available\n");
    return 2;
  }
#endif
  uint8_t *img = NULL, *resized = NULL, *blur8 = NULL;
  float *blurred = NULL, *want_blur = NULL;
  amp_program *program = NULL;
  amp_kernel *kblur = NULL, *kresize = NULL;
  amp_texture *src8 = NULL, *srcf = NULL, *tmpf = NULL, *outf = NULL, *small = NULL;
  if (input) {
#ifdef EX_HAVE_PNG
    if (!(img = read_png(input, &h, &w)))
      return 1;
#endif
  } else {
    h = w = size;
    if ((img = malloc((size_t)h * (size_t)w * 4)))
      make_image(img, h, w);
  }
  int oh = (int)lround(h * scale), ow = (int)lround(w * scale);
  oh = oh < 1 ? 1 : oh;
  ow = ow < 1 ? 1 : ow;
  size_t n = (size_t)h * (size_t)w;
  blurred = malloc(n * 4 * sizeof *blurred);
  want_blur = malloc(n * 4 * sizeof *want_blur);
  resized = malloc((size_t)oh * (size_t)ow * 4);
  blur8 = malloc(n * 4);
  if (!img || !blurred || !want_blur || !resized || !blur8) {
    fprintf(stderr, "amp-image: out of host memory\n");
    goto fail;
  }
  printf("amp-image: %d x %d pixels%s; blur (1 4 6 4 1)/16 in two passes of 3 linear samples, "
         "resize to %d x %d\n",
         w, h, input ? "" : " (made here)", ow, oh);

  amp_accelerator *acc;
  amp_accelerator_view *av;
  EX_TRY(ex_open_view(path, &acc, &av));
  EX_TRY(ex_load_program(kernels_dir, "image", image_cl, NULL, &program));
  EX_TRY(blur_pass_kernel(program, &kblur));
  EX_TRY(resize_kernel(program, &kresize));

  /* The image as an 8-bit unorm texture (read as floats in [0, 1]) and, for the blur, as a float
   * one, so the passes keep full precision between them. Both formats are in OpenCL's minimum
   * list, so every device with images has them. */
  const amp_texel_format unorm8 = {AMP_TEXEL_UNORM, 4, 8}, f32 = {AMP_TEXEL_FLOAT, 4, 32};
  amp_extent e = amp_extent2(h, w);
  amp_status made = amp_texture_create_from(av, e, unorm8, img, n * 4, &src8);
  if (made == AMP_ERROR_UNSUPPORTED_FEATURE) { /* a device without images: nothing to show */
    fprintf(stderr, "amp-image: this device has no textures, so the example cannot run here: %s\n",
            amp_last_error());
    exit_code = 77; /* "cannot run here", as the tests' skip */
    goto fail;
  }
  EX_TRY(made);
  for (size_t i = 0; i < n * 4; i++)
    blurred[i] = img[i] / 255.0f;
  EX_TRY(amp_texture_create_from(av, e, f32, blurred, n * 4 * sizeof *blurred, &srcf));
  EX_TRY(amp_texture_create(av, e, f32, &tmpf));
  EX_TRY(amp_texture_create(av, e, f32, &outf));

  const amp_sampler linear_clamp = {AMP_FILTER_LINEAR, AMP_ADDRESS_CLAMP};
  EX_TRY(blur_pass_launch(av, e, kblur, srcf, linear_clamp, tmpf, 0)); /* across */
  EX_TRY(blur_pass_launch(av, e, kblur, tmpf, linear_clamp, outf, 1)); /* down */
  EX_TRY(amp_copy_from_texture(outf, blurred, n * 4 * sizeof *blurred));

  EX_TRY(amp_texture_create(av, amp_extent2(oh, ow), unorm8, &small));
  EX_TRY(resize_launch(av, amp_extent2(oh, ow), kresize, src8, linear_clamp, small, oh, ow));
  EX_TRY(amp_copy_from_texture(small, resized, (size_t)oh * (size_t)ow * 4));

  /* Check both against the host. */
  blur_host(img, want_blur, h, w);
  double worst_blur = 0, worst_resize = 0;
  for (size_t i = 0; i < n * 4; i++)
    worst_blur = fmax(worst_blur, fabs(blurred[i] - want_blur[i]));
  for (int y = 0; y < oh; y++)
    for (int x = 0; x < ow; x++)
      for (int c = 0; c < 4; c++) {
        double want = bilinear(img, h, w, (x + 0.5) / ow, (y + 0.5) / oh, c);
        double got = resized[((size_t)y * (size_t)ow + (size_t)x) * 4 + (size_t)c] / 255.0;
        worst_resize = fmax(worst_resize, fabs(got - want));
      }
  printf("blur:   largest difference from the host %.2f/255 (tolerance 2/255)\n", worst_blur * 255);
  printf("resize: largest difference from the host %.2f/255 (tolerance 3/255)\n",
         worst_resize * 255);
  int ok = worst_blur <= 2.0 / 255 && worst_resize <= 3.0 / 255;
#ifdef EX_HAVE_PNG
  if (output) {
    char file[4096];
    for (size_t i = 0; i < n * 4; i++)
      blur8[i] = (uint8_t)lround(fmin(fmax(blurred[i], 0.0f), 1.0f) * 255.0f);
    snprintf(file, sizeof file, "%s-blur.png", output);
    ok &= write_png(file, blur8, h, w);
    snprintf(file, sizeof file, "%s-resize.png", output);
    ok &= write_png(file, resized, oh, ow);
  }
#endif
  printf("%s\n", ok ? "verified"
                    : "FAILED: a result differs from the host's by more than its "
                      "tolerance");
  exit_code = ok ? 0 : 1;
fail:
  EX_CLEANUP(amp_texture_release(src8));
  EX_CLEANUP(amp_texture_release(srcf));
  EX_CLEANUP(amp_texture_release(tmpf));
  EX_CLEANUP(amp_texture_release(outf));
  EX_CLEANUP(amp_texture_release(small));
  EX_CLEANUP(amp_kernel_release(kblur));
  EX_CLEANUP(amp_kernel_release(kresize));
  EX_CLEANUP(amp_program_release(program));
  EX_FREE(img, resized, blur8, blurred, want_blur);
  return status == AMP_SUCCESS ? exit_code : 1;
}
