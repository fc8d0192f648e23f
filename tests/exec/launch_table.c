/* launch_table: every argument kind in one launch, and more arguments than a launch's table holds
 * without allocating (16; runtime/exec/launch_table.h).
 *
 * One kernel takes a texture, a sampler, a const view, an int, a uint, a float, a struct by
 * value, a __local buffer, a view as a plain pointer, eight more ints, a view and an int: 19
 * arguments over 23 OpenCL parameters (25 in debug mode, where each AMP_VIEW has a third). Each
 * argument adds a different amount to every result, so an argument set at the wrong parameter
 * shows. The launch runs as built and again in debug mode (the test sets AMP_DEBUG itself), where
 * the last view's out-of-bounds write is reported under its own name and position: debug mode finds
 * the view's parameter through the same table. A device without images skips (77). */
#include "check.h"

enum { N = 32, TILE = 8, EXTRA = 8 };

static const char *src =
    "typedef struct { int x; int y; } pair_t;\n"
    "__kernel void every_kind(AMP_TEXTURE_READ(float_4, 1, t), AMP_SAMPLER(s),\n"
    "                         AMP_CONST_VIEW(int, in), int a, uint b, float c, pair_t p,\n"
    "                         __local int *scratch, __global const int *plain, int i0,\n"
    "                         int i1, int i2, int i3, int i4,\n"
    "                         int i5, int i6, int i7, AMP_VIEW(float, out), int past) {\n"
    "  AMP_TILED_INDEX1(ti);\n"
    "  AMP_INDEX1(idx);\n"
    "  const int i = idx[0], l = ti.local_id[0];\n"
    "  scratch[l] = amp_at(in, i);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float texel = amp_tex_get(float_4, 1, t, idx).x;\n"
    "  float sampled = amp_tex_sample(float_4, 1, t, s, ((float)i + 0.5f) / 32.0f).y;\n"
    "  int extra = i0 + 2 * i1 + 3 * i2 + 4 * i3 + 5 * i4 + 6 * i5 + 7 * i6 + 8 * i7;\n"
    "  amp_at(out, i + past) = (float)scratch[TILE - 1 - l] + (float)a + (float)b + c +\n"
    "                          (float)(p.x * p.y) + (float)extra + texel + sampled +\n"
    "                          (float)(2 * plain[i]);\n"
    "}\n";

typedef struct pair_t {
  int x, y;
} pair_t;

static amp_accelerator_view *av;

/* Runs every_kind with the write shifted by `past` (0: in bounds); fills out. */
static amp_status launch(amp_kernel *k, amp_texture *t, amp_array_view *in, amp_array_view *out,
                         int past) {
  pair_t p = {4, 1000};
  amp_sampler smp = {AMP_FILTER_POINT, AMP_ADDRESS_CLAMP};
  amp_arg args[9 + EXTRA + 2] = {amp_arg_texture(t),
                                 amp_arg_sampler(smp),
                                 amp_arg_view(in),
                                 amp_arg_int(1),
                                 amp_arg_uint(20),
                                 amp_arg_float(300.5f),
                                 amp_arg_bytes(&p, sizeof p),
                                 amp_arg_local(TILE * sizeof(int)),
                                 amp_arg_view(in)}; /* the plain pointer */
  for (int e = 0; e < EXTRA; e++)
    args[9 + e] = amp_arg_int(10000 * (e + 1));
  args[9 + EXTRA] = amp_arg_view(out);
  args[9 + EXTRA + 1] = amp_arg_int(past);
  return amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), TILE), k, args, AMP_NARGS(args));
}

/* What every_kind writes at i. */
static float expected(const int *in, const float *tex4, int i) {
  int l = i % TILE, mirrored = i - l + (TILE - 1 - l);
  int extra = 0;
  for (int e = 0; e < EXTRA; e++)
    extra += (e + 1) * 10000 * (e + 1);
  return (float)in[mirrored] + 1.0f + 20.0f + 300.5f + 4000.0f + (float)extra + tex4[4 * i] +
         tex4[4 * i + 1] + (float)(2 * in[i]);
}

static void test_every_kind(amp_kernel *k, const char *mode) {
  static int in[N];
  static float tex4[4 * N], out[N];
  for (int i = 0; i < N; i++) {
    in[i] = 3 * i;
    out[i] = -1.0f;
    for (int c = 0; c < 4; c++)
      tex4[4 * i + c] = (float)(c == 0 ? i : c == 1 ? 100 * i : -1);
  }
  amp_texel_format f = {AMP_TEXEL_FLOAT, 4, 32};
  amp_texture *t = NULL;
  amp_array_view *vin = NULL, *vout = NULL;
  CHECK_OK(amp_texture_create_from(av, amp_extent1(N), f, tex4, sizeof tex4, &t));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, in, &vin));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, out, &vout));
  if (t && vin && vout) {
    CHECK_OK(launch(k, t, vin, vout, 0));
    CHECK_OK(amp_array_view_synchronize(vout));
    int bad = 0;
    for (int i = 0; i < N; i++)
      if (out[i] != expected(in, tex4, i) && bad++ < 3)
        fprintf(stderr, "%s: out[%d] = %.1f, expected %.1f\n", mode, i, out[i],
                expected(in, tex4, i));
    CHECK_EQ_INT(bad, 0);
  }
  /* debug mode: a write one past the end of the last view, reported under its name and place */
  if (t && vin && vout && getenv("AMP_DEBUG")) {
    CHECK_STATUS(launch(k, t, vin, vout, 1), AMP_ERROR_OUT_OF_RANGE);
    CHECK_MSG("parallel_for_each(every_kind): out-of-bounds access to view 'out' (argument 17, "
              "extent [32]): index [32]");
  }
  amp_array_view_release(vout);
  amp_array_view_release(vin);
  amp_texture_release(t);
}

int main(void) {
  amp_accelerator *acc = NULL;
  amp_texture_format_support fs[64];
  size_t nf = 0;
  if (!(av = test_view()))
    return 1;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  if (acc && amp_texture_formats(acc, fs, 64, &nf) == AMP_ERROR_UNSUPPORTED_FEATURE) {
    printf("no images on this device: %s\n", amp_last_error());
    return SKIP;
  }
  char options[32];
  snprintf(options, sizeof options, "-DTILE=%d", TILE);
  amp_kernel *k = test_kernel(src, options, "every_kind");
  if (!k)
    return check_done();
  unsetenv("AMP_DEBUG");
  test_every_kind(k, "as built");
  setenv("AMP_DEBUG", "1", 1); /* the same kernel, built again with checked views */
  test_every_kind(k, "debug mode");
  amp_kernel_release(k);
  return check_done();
}
