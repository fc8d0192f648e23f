/* tests/textures/textures.c: textures against host references (issue 36, target 4).
 *
 *  1. formats: every format the device supports, at rank 2 with every value type, and at ranks 1
 *     and 3 with every kind: host data in, a kernel reads each texel (amp_tex_get) and writes it to
 *     a second texture (amp_tex_set) and its channels as floats to a view; the second texture comes
 *     back byte for byte, and the floats are what the format means (norm: max(v / 127, -1), ...).
 *  2. sampling: float textures of rank 1, 2 and 3, every filter and address mode, at coordinates
 *     inside and outside the texture, against OpenCL's addressing rules computed on the host.
 *  3. gather (rank 2, every address mode), and norm/unorm saturation on writes and in
 *     amp_norm_clamp / amp_unorm_clamp.
 *  4. copies: to/from host, between textures (blocking and async), and create_from.
 *
 * Precision (what the tests assume, and why): texel reads and point sampling at coordinates away
 * from texel boundaries are exact. OpenCL's conversions of normalized integers to float are within
 * 1.5 ulp, and of floats to normalized integers within 0.6 of the exact value, so stored integers
 * are compared exactly after a round trip and to +-1 after a float write. OpenCL leaves the
 * precision of linear filtering with normalized coordinates undefined (OpenCL C, "Addressing and
 * filter modes"): the tests assume only that the filter weights are right to 1/16 (4 bits of
 * sub-texel precision; GPUs have 8, CPU devices full float), so a linear sample must lie within
 * range / 16 per dimension of the exact bilinear value, range being the spread of its footprint;
 * sample points sit 0.2 texel or more from the points where the footprint changes, so coordinate
 * rounding cannot move them. */
#include <math.h>
#include <stdint.h>

#include "check.h"

static unsigned rng = 12345u;
static unsigned rnd(void) {
  rng = rng * 1103515245u + 12345u;
  return (rng >> 8) & 0xffffffu;
}

static const char *kind_name[] = {"?", "int", "uint", "float", "norm", "unorm"};

/* ---- 1. formats --------------------------------------------------------------------------- */

/* One kernel per (value type, rank): src -> dst, and the channels as floats to out[4 * flat]. */
static size_t gen_copy_kernel(char *buf, size_t cap, amp_texel_format f, int rank, int writes) {
  const char *T = amp_texel_type_name(f);
  const char *V = f.channels == 1 && f.kind == AMP_TEXEL_NORM    ? "amp_norm"
                  : f.channels == 1 && f.kind == AMP_TEXEL_UNORM ? "amp_unorm"
                                                                 : T;
  char flat[160], chans[200];
  if (rank == 1)
    snprintf(flat, sizeof flat, "idx[0]");
  else if (rank == 2)
    snprintf(flat, sizeof flat, "idx[0] * amp_tex_extent(2, src, 1) + idx[1]");
  else
    snprintf(flat, sizeof flat,
             "(idx[0] * amp_tex_extent(3, src, 1) + idx[1]) * amp_tex_extent(3, src, 2) + idx[2]");
  if (f.channels == 1)
    snprintf(chans, sizeof chans, "amp_at(out, 4 * i) = (float)v;");
  else if (f.channels == 2)
    snprintf(chans, sizeof chans,
             "amp_at(out, 4 * i) = (float)v.x; amp_at(out, 4 * i + 1) = (float)v.y;");
  else
    snprintf(chans, sizeof chans,
             "amp_at(out, 4 * i) = (float)v.x; amp_at(out, 4 * i + 1) = (float)v.y; "
             "amp_at(out, 4 * i + 2) = (float)v.z; amp_at(out, 4 * i + 3) = (float)v.w;");
  int n = snprintf(buf, cap,
                   "__kernel void copy_%s_%d(AMP_TEXTURE_READ(%s, %d, src)%s%s%s, "
                   "AMP_VIEW(float, out)) {\n"
                   "  AMP_INDEX%d(idx);\n  %s v = amp_tex_get(%s, %d, src, idx);\n"
                   "  %s%s%s%s\n  int i = %s;\n  %s\n}\n",
                   T, rank, T, rank, writes ? ", AMP_TEXTURE_WRITE(" : "", writes ? T : "",
                   writes ? (rank == 1   ? ", 1, dst)"
                             : rank == 2 ? ", 2, dst)"
                                         : ", 3, dst)")
                          : "",
                   rank, V, T, rank, writes ? "amp_tex_set(" : "", writes ? T : "",
                   writes ? (rank == 1   ? ", 1, dst, idx, v);"
                             : rank == 2 ? ", 2, dst, idx, v);"
                                         : ", 3, dst, idx, v);")
                          : "",
                   "", flat, chans);
  return n > 0 ? (size_t)n : 0;
}

/* Random host data that survives a read and a write unchanged: normal finite floats and halves,
 * norm values above the most negative integer (which reads as -1, like the one above it). */
static void fill_texels(unsigned char *h, size_t bytes, amp_texel_format f) {
  size_t step = (size_t)f.bits / 8;
  for (size_t o = 0; o < bytes; o += step) {
    unsigned r = rnd();
    if (f.kind == AMP_TEXEL_FLOAT && f.bits == 32) {
      uint32_t x =
          ((uint32_t)(r & 1) << 31) | ((uint32_t)(100 + r % 56) << 23) | (rnd() & 0x7fffff);
      memcpy(h + o, &x, 4);
    } else if (f.kind == AMP_TEXEL_FLOAT) {
      uint16_t x = (uint16_t)(((r & 1) << 15) | ((5 + (r >> 1) % 20) << 10) | (rnd() & 0x3ff));
      memcpy(h + o, &x, 2);
    } else if (f.kind == AMP_TEXEL_NORM && f.bits == 8) {
      int8_t x = (int8_t)((int)(r % 255) - 127);
      memcpy(h + o, &x, 1);
    } else if (f.kind == AMP_TEXEL_NORM) {
      int16_t x = (int16_t)((int)(r % 65535) - 32767);
      memcpy(h + o, &x, 2);
    } else if (f.bits == 32) { /* ints below 2^24, so the float copy is exact */
      int32_t x = (int32_t)(r & 0xffffff) - (f.kind == AMP_TEXEL_INT ? 0x800000 : 0);
      memcpy(h + o, &x, 4);
    } else {
      memcpy(h + o, &r, step);
    }
  }
}

static float half_to_float(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  float v = e ? ldexpf(1.0f + (float)m / 1024.0f, e - 15) : ldexpf((float)m / 1024.0f, -14);
  return (h & 0x8000) ? -v : v;
}

/* What channel value the host bytes at p mean in the kernel. */
static double texel_value(const unsigned char *p, amp_texel_format f) {
  switch (f.kind) {
  case AMP_TEXEL_INT:
    return f.bits == 8    ? *(const int8_t *)p
           : f.bits == 16 ? *(const int16_t *)p
                          : *(const int32_t *)p;
  case AMP_TEXEL_UINT:
    return f.bits == 8 ? *p : f.bits == 16 ? *(const uint16_t *)p : *(const uint32_t *)p;
  case AMP_TEXEL_FLOAT:
    return f.bits == 16 ? half_to_float(*(const uint16_t *)p) : *(const float *)p;
  case AMP_TEXEL_NORM:
    return f.bits == 8 ? fmax(*(const int8_t *)p / 127.0, -1.0)
                       : fmax(*(const int16_t *)p / 32767.0, -1.0);
  default:
    return f.bits == 8 ? *p / 255.0 : *(const uint16_t *)p / 65535.0;
  }
}

static int supported(const amp_texture_format_support *fs, size_t n, amp_texel_format f, int rank,
                     int *writes) {
  for (size_t i = 0; i < n; i++)
    if (fs[i].format.kind == f.kind && fs[i].format.channels == f.channels &&
        fs[i].format.bits == f.bits) {
      *writes = (fs[i].write_ranks >> (rank - 1)) & 1;
      return (fs[i].ranks >> (rank - 1)) & 1;
    }
  return 0;
}

static void test_format(amp_accelerator_view *av, amp_program *prog, amp_texel_format f, int rank,
                        int writes) {
  static const amp_extent ext[3] = {{1, {13, 0, 0}}, {2, {5, 7, 0}}, {3, {3, 4, 5}}};
  amp_extent e = ext[rank - 1];
  size_t texels = (size_t)amp_extent_size(e), tb = amp_texel_size(f), bytes = texels * tb;
  unsigned char *in = malloc(bytes), *back = malloc(bytes);
  float *out = calloc(texels * 4, sizeof *out);
  amp_texture *src = NULL, *dst = NULL;
  amp_array_view *ov = NULL;
  amp_kernel *k = NULL;
  char kname[64];
  snprintf(kname, sizeof kname, "copy_%s_%d", amp_texel_type_name(f), rank);
  fill_texels(in, bytes, f);
  memset(back, 0xa5, bytes);
  CHECK_OK(amp_texture_create_from(av, e, f, in, bytes, &src));
  if (writes)
    CHECK_OK(amp_texture_create(av, e, f, &dst));
  CHECK_OK(amp_array_view_create(amp_extent1((int)(texels * 4)), AMP_FLOAT, out, &ov));
  CHECK_OK(amp_kernel_create(prog, kname, &k));
  if (src && ov && k && (dst || !writes)) {
    amp_arg a3[] = {amp_arg_texture(src), amp_arg_texture(dst), amp_arg_view(ov)};
    amp_arg a2[] = {amp_arg_texture(src), amp_arg_view(ov)};
    CHECK_OK(amp_parallel_for_each(av, e, k, writes ? a3 : a2, writes ? 3 : 2));
    CHECK_OK(amp_array_view_synchronize(ov));
    int bad = 0;
    for (size_t i = 0; i < texels; i++)
      for (int c = 0; c < f.channels; c++) {
        double want = texel_value(in + i * tb + (size_t)c * (f.bits / 8), f);
        double tol = f.kind == AMP_TEXEL_NORM || f.kind == AMP_TEXEL_UNORM ? 1e-6 : 0;
        if (fabs(out[i * 4 + (size_t)c] - want) > tol && bad++ < 3)
          fprintf(stderr, "%s rank %d %d bits: texel %zu channel %d read %.9g, expected %.9g\n",
                  amp_texel_type_name(f), rank, f.bits, i, c, out[i * 4 + (size_t)c], want);
      }
    CHECK_EQ_INT(bad, 0);
    if (writes) {
      CHECK_OK(amp_copy_from_texture(dst, back, bytes));
      if (memcmp(in, back, bytes) != 0)
        fprintf(stderr, "%s rank %d %d bits: the written texture differs\n", amp_texel_type_name(f),
                rank, f.bits);
      CHECK(memcmp(in, back, bytes) == 0);
    }
  }
  amp_kernel_release(k);
  amp_array_view_release(ov);
  amp_texture_release(src);
  amp_texture_release(dst);
  free(in);
  free(back);
  free(out);
}

static void test_formats(amp_accelerator_view *av, amp_accelerator *acc) {
  amp_texture_format_support fs[64];
  size_t n = 0;
  CHECK_OK(amp_texture_formats(acc, fs, 64, &n));
  CHECK(n > 0);
  static const int chans[3] = {1, 2, 4}, bits[3] = {8, 16, 32};
  /* Which (value type, rank) pairs run: every value type at rank 2, every kind at ranks 1 and 3
   * (its channel count rotating). */
  char *src = malloc(200000);
  size_t o = 0;
  int want[6][3][4] = {{{0}}}, wr[6][3][4] = {{{0}}}; /* [kind][channel index][rank] */
  for (int k = AMP_TEXEL_INT; k <= AMP_TEXEL_UNORM; k++)
    for (int c = 0; c < 3; c++)
      for (int r = 1; r <= 3; r++) {
        if (r != 2 && c != (k + r) % 3)
          continue;
        for (int b = 0; b < 3; b++) {
          amp_texel_format f = {(amp_texel_kind)k, chans[c], bits[b]};
          int w = 0;
          if (!amp_texel_size(f))
            continue;
          if (!supported(fs, n, f, r, &w)) {
            printf("not supported here: %s, %d bits, rank %d\n", amp_texel_type_name(f), bits[b],
                   r);
            continue;
          }
          want[k][c][r] = 1;
          wr[k][c][r] |= w ? 1 : 2; /* 1: every bits width writable, 2: one is not */
        }
      }
  for (int k = AMP_TEXEL_INT; k <= AMP_TEXEL_UNORM; k++)
    for (int c = 0; c < 3; c++)
      for (int r = 1; r <= 3; r++)
        if (want[k][c][r]) {
          amp_texel_format f = {(amp_texel_kind)k, chans[c], 32};
          o += gen_copy_kernel(src + o, 200000 - o, f, r, wr[k][c][r] == 1);
        }
  amp_program *prog = NULL;
  CHECK_OK(amp_program_create(src, NULL, &prog));
  free(src);
  int ran = 0;
  for (int k = AMP_TEXEL_INT; k <= AMP_TEXEL_UNORM; k++)
    for (int c = 0; c < 3; c++)
      for (int r = 1; r <= 3; r++)
        for (int b = 0; b < 3 && want[k][c][r]; b++) {
          amp_texel_format f = {(amp_texel_kind)k, chans[c], bits[b]};
          int w = 0;
          if (amp_texel_size(f) && supported(fs, n, f, r, &w)) {
            test_format(av, prog, f, r, wr[k][c][r] == 1);
            ran++;
          }
        }
  printf("formats: %d (value type, bits, rank) combinations read%s\n", ran,
         " and written where the device writes them");
  CHECK(ran >= 20);
  amp_program_release(prog);
}

/* ---- 2. sampling -------------------------------------------------------------------------- */

/* OpenCL's addressing, in texel units, for one dimension of size w at normalized coordinate s.
 * Point: the texel index (-1 for the border). Linear: i0, i1 and the weight a of i1. */
static void address(double s, int w, int mode, int linear, int *i0, int *i1, double *a) {
  double u;
  if (mode == AMP_ADDRESS_WRAP) {
    u = (s - floor(s)) * w;
  } else if (mode == AMP_ADDRESS_MIRROR) {
    double sp = 2.0 * nearbyint(0.5 * s);
    u = fabs(s - sp) * w;
  } else {
    u = s * w;
  }
  if (!linear) {
    int i = (int)floor(u);
    if (mode == AMP_ADDRESS_WRAP)
      i = i > w - 1 ? i - w : i;
    else if (mode == AMP_ADDRESS_MIRROR)
      i = i > w - 1 ? w - 1 : i;
    else if (mode == AMP_ADDRESS_CLAMP)
      i = i < 0 ? 0 : i > w - 1 ? w - 1 : i;
    else
      i = i < -1 ? -1 : i > w ? w : i;
    *i0 = *i1 = i;
    *a = 0;
    return;
  }
  int j0 = (int)floor(u - 0.5), j1 = j0 + 1;
  *a = (u - 0.5) - floor(u - 0.5);
  if (mode == AMP_ADDRESS_WRAP) {
    j0 = j0 < 0 ? j0 + w : j0;
    j1 = j1 > w - 1 ? j1 - w : j1;
  } else if (mode == AMP_ADDRESS_MIRROR) {
    j0 = j0 < 0 ? 0 : j0;
    j1 = j1 > w - 1 ? w - 1 : j1;
  } else if (mode == AMP_ADDRESS_CLAMP) {
    j0 = j0 < 0 ? 0 : j0 > w - 1 ? w - 1 : j0;
    j1 = j1 < 0 ? 0 : j1 > w - 1 ? w - 1 : j1;
  } else {
    j0 = j0 < -1 ? -1 : j0 > w ? w : j0;
    j1 = j1 < -1 ? -1 : j1 > w ? w : j1;
  }
  *i0 = j0;
  *i1 = j1;
}

/* Texel (AMP order) of a rank-r texture, 0 outside (the border colour). */
static double texel_at(const float *t, const int *dims, int r, const int *i) {
  size_t flat = 0;
  for (int d = 0; d < r; d++) {
    if (i[d] < 0 || i[d] >= dims[d])
      return 0;
    flat = flat * (size_t)dims[d] + (size_t)i[d];
  }
  return t[flat];
}

/* A position in texel units: a whole number plus one of the offsets. Point: 0.3, 0.5, 0.7 (away
 * from texel boundaries); linear: 0.2 and 0.8 (away from texel centres, where the footprint
 * changes). From 1.5 texture widths before the texture to 1.5 after. */
static double pick_u(int w, int linear) {
  static const double point_off[3] = {0.3, 0.5, 0.7}, lin_off[2] = {0.2, 0.8};
  int k = (int)(rnd() % (unsigned)(4 * w)) - (3 * w) / 2;
  return k + (linear ? lin_off[rnd() % 2] : point_off[rnd() % 3]);
}

static const char *sample_src =
    "__kernel void s1(AMP_TEXTURE_READ(float_4, 1, t), AMP_SAMPLER(s), AMP_CONST_VIEW(float, c),\n"
    "                 AMP_VIEW(float, out)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  amp_at(out, idx[0]) = amp_tex_sample(float_4, 1, t, s, amp_at(c, idx[0])).x;\n"
    "}\n"
    "__kernel void s2(AMP_TEXTURE_READ(float_4, 2, t), AMP_SAMPLER(s), AMP_CONST_VIEW(float, c),\n"
    "                 AMP_VIEW(float, out)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  float_2 xy = (float_2)(amp_at(c, 2 * idx[0]), amp_at(c, 2 * idx[0] + 1));\n"
    "  amp_at(out, idx[0]) = amp_tex_sample(float_4, 2, t, s, xy).x;\n"
    "}\n"
    "__kernel void s3(AMP_TEXTURE_READ(float_4, 3, t), AMP_SAMPLER(s), AMP_CONST_VIEW(float, c),\n"
    "                 AMP_VIEW(float, out)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  float_3 xyz = (float_3)(amp_at(c, 3 * idx[0]), amp_at(c, 3 * idx[0] + 1),\n"
    "                          amp_at(c, 3 * idx[0] + 2));\n"
    "  amp_at(out, idx[0]) = amp_tex_sample(float_4, 3, t, s, xyz).x;\n"
    "}\n"
    "__kernel void g(AMP_TEXTURE_READ(float_4, 2, t), AMP_SAMPLER(s), AMP_CONST_VIEW(float, c),\n"
    "                AMP_VIEW(float_4, out)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  float_2 xy = (float_2)(amp_at(c, 2 * idx[0]), amp_at(c, 2 * idx[0] + 1));\n"
    "  amp_at(out, 2 * idx[0]) = amp_tex_gather_red(float_4, t, s, xy);\n"
    "  amp_at(out, 2 * idx[0] + 1) = amp_tex_gather_blue(float_4, t, s, xy);\n"
    "}\n"
    "__kernel void sat(AMP_CONST_VIEW(float, v), AMP_TEXTURE_WRITE(norm_4, 1, n),\n"
    "                  AMP_TEXTURE_WRITE(unorm_4, 1, u), AMP_VIEW(float, clamped)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  int i = idx[0];\n"
    "  float_4 x = (float_4)(amp_at(v, 4 * i), amp_at(v, 4 * i + 1), amp_at(v, 4 * i + 2),\n"
    "                        amp_at(v, 4 * i + 3));\n"
    "  amp_tex_set(norm_4, 1, n, idx, x);\n"
    "  amp_tex_set(unorm_4, 1, u, idx, x);\n"
    "  norm_4 cn = amp_norm_clamp(x);\n"
    "  amp_unorm cu = amp_unorm_clamp(x.x);\n"
    "  amp_at(clamped, 5 * i) = cn.x; amp_at(clamped, 5 * i + 1) = cn.y;\n"
    "  amp_at(clamped, 5 * i + 2) = cn.z; amp_at(clamped, 5 * i + 3) = cn.w;\n"
    "  amp_at(clamped, 5 * i + 4) = cu;\n"
    "}\n";

#define NS 96 /* samples per (rank, mode) */

static void test_sampling(amp_accelerator_view *av, amp_program *prog, int rank) {
  static const int dims_of[3][3] = {{7, 0, 0}, {5, 6, 0}, {3, 4, 5}};
  const int *dims = dims_of[rank - 1];
  amp_extent e = rank == 1   ? amp_extent1(dims[0])
                 : rank == 2 ? amp_extent2(dims[0], dims[1])
                             : amp_extent3(dims[0], dims[1], dims[2]);
  size_t n = (size_t)amp_extent_size(e);
  float *tex = malloc(n * sizeof *tex), *tex4 = malloc(4 * n * sizeof *tex4);
  for (size_t i = 0; i < n; i++) {
    tex[i] = (float)(rnd() % 1000) / 100.0f - 5.0f;
    tex4[4 * i] = tex[i];
    for (int c = 1; c < 4; c++)
      tex4[4 * i + (size_t)c] = (float)(rnd() % 1000);
  }
  amp_texture *t = NULL;
  amp_kernel *k = NULL;
  char name[8];
  snprintf(name, sizeof name, "s%d", rank);
  amp_texel_format f = {AMP_TEXEL_FLOAT, 4, 32};
  CHECK_OK(amp_texture_create_from(av, e, f, tex4, 4 * n * sizeof *tex4, &t));
  CHECK_OK(amp_kernel_create(prog, name, &k));
  for (int linear = 0; linear <= 1 && t && k; linear++)
    for (int mode = AMP_ADDRESS_WRAP; mode <= AMP_ADDRESS_BORDER; mode++) {
      float coords[NS * 3], out[NS];
      double u[NS][3];
      for (int s = 0; s < NS; s++)
        for (int d = 0; d < rank; d++) {
          int dim = dims[rank - 1 - d]; /* coordinate d is x, y, z: AMP dimension rank-1-d */
          u[s][d] = pick_u(dim, linear);
          coords[s * rank + d] = (float)(u[s][d] / dim);
        }
      amp_array_view *cv = NULL, *ov = NULL;
      CHECK_OK(amp_array_view_create(amp_extent1(NS * rank), AMP_FLOAT, coords, &cv));
      CHECK_OK(amp_array_view_create(amp_extent1(NS), AMP_FLOAT, out, &ov));
      amp_sampler smp = {linear ? AMP_FILTER_LINEAR : AMP_FILTER_POINT, (amp_address_mode)mode};
      amp_arg args[] = {amp_arg_texture(t), amp_arg_sampler(smp), amp_arg_view(cv),
                        amp_arg_view(ov)};
      CHECK_OK(amp_parallel_for_each(av, amp_extent1(NS), k, args, 4));
      CHECK_OK(amp_array_view_synchronize(ov));
      int bad = 0;
      for (int s = 0; s < NS; s++) {
        int i0[3], i1[3];
        double a[3];
        for (int d = 0; d < rank; d++) /* per AMP dimension */
          address((double)coords[s * rank + (rank - 1 - d)], dims[d], mode, linear, &i0[d], &i1[d],
                  &a[d]);
        double want = 0, lo = INFINITY, hi = -INFINITY;
        for (int corner = 0; corner < (1 << rank); corner++) {
          int at[3];
          double w = 1;
          for (int d = 0; d < rank; d++) {
            int up = (corner >> d) & 1;
            at[d] = up ? i1[d] : i0[d];
            w *= up ? a[d] : 1 - a[d];
          }
          double v = texel_at(tex, dims, rank, at);
          want += w * v;
          lo = fmin(lo, v);
          hi = fmax(hi, v);
        }
        double tol = linear ? (hi - lo) / 16.0 * rank + 1e-5 : 1e-6;
        if (fabs(out[s] - want) > tol && bad++ < 3)
          fprintf(stderr,
                  "rank %d %s mode %d: sample %d at texel position (%g, %g, %g) gave %.7g, "
                  "expected %.7g (tolerance %.3g)\n",
                  rank, linear ? "linear" : "point", mode, s, u[s][0], rank > 1 ? u[s][1] : 0.0,
                  rank > 2 ? u[s][2] : 0.0, out[s], want, tol);
      }
      CHECK_EQ_INT(bad, 0);
      amp_array_view_release(cv);
      amp_array_view_release(ov);
    }
  amp_kernel_release(k);
  amp_texture_release(t);
  free(tex);
  free(tex4);
}

/* Gather's addressing, as AMP's (Direct3D's): the footprint's integer texel positions, taken before
 * any address mode, each then wrapped, mirrored or clamped (-1 for the border). */
static int texel_address(int i, int w, int mode) {
  if (mode == AMP_ADDRESS_WRAP)
    return ((i % w) + w) % w;
  if (mode == AMP_ADDRESS_MIRROR) {
    int m = ((i % (2 * w)) + 2 * w) % (2 * w);
    return m < w ? m : 2 * w - 1 - m;
  }
  if (mode == AMP_ADDRESS_CLAMP)
    return i < 0 ? 0 : i > w - 1 ? w - 1 : i;
  return i < 0 || i > w - 1 ? -1 : i;
}

/* ---- 3. gather and saturation --------------------------------------------------------------- */

static void test_gather(amp_accelerator_view *av, amp_program *prog) {
  enum { H = 4, W = 5 };
  float tex[H * W * 4];
  for (int i = 0; i < H * W * 4; i++)
    tex[i] = (float)(rnd() % 1000);
  amp_texture *t = NULL;
  amp_kernel *k = NULL;
  amp_texel_format f = {AMP_TEXEL_FLOAT, 4, 32};
  CHECK_OK(amp_texture_create_from(av, amp_extent2(H, W), f, tex, sizeof tex, &t));
  CHECK_OK(amp_kernel_create(prog, "g", &k));
  for (int mode = AMP_ADDRESS_WRAP; mode <= AMP_ADDRESS_BORDER && t && k; mode++) {
    float coords[NS * 2], out[NS * 8];
    for (int s = 0; s < NS; s++) {
      coords[2 * s] = (float)(pick_u(W, 1) / W);
      coords[2 * s + 1] = (float)(pick_u(H, 1) / H);
    }
    amp_array_view *cv = NULL, *ov = NULL;
    CHECK_OK(amp_array_view_create(amp_extent1(NS * 2), AMP_FLOAT, coords, &cv));
    CHECK_OK(amp_array_view_create(amp_extent1(NS * 2), ((amp_elem_type){AMP_ELEM_STRUCT, 16}), out,
                                   &ov));
    amp_sampler smp = {AMP_FILTER_LINEAR, (amp_address_mode)mode}; /* gather ignores the filter */
    amp_arg args[] = {amp_arg_texture(t), amp_arg_sampler(smp), amp_arg_view(cv), amp_arg_view(ov)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(NS), k, args, 4));
    CHECK_OK(amp_array_view_synchronize(ov));
    int bad = 0;
    for (int s = 0; s < NS; s++) {
      int x0 = (int)floor((double)coords[2 * s] * W - 0.5),
          y0 = (int)floor((double)coords[2 * s + 1] * H - 0.5);
      int x1 = texel_address(x0 + 1, W, mode), y1 = texel_address(y0 + 1, H, mode);
      x0 = texel_address(x0, W, mode);
      y0 = texel_address(y0, H, mode);
      /* x = (left, bottom), y = (right, bottom), z = (right, top), w = (left, top) */
      int xs[4] = {x0, x1, x1, x0}, ys[4] = {y1, y1, y0, y0};
      for (int q = 0; q < 4; q++)
        for (int ch = 0; ch < 2; ch++) {
          int c = ch ? 2 : 0; /* red, blue */
          int inside = xs[q] >= 0 && xs[q] < W && ys[q] >= 0 && ys[q] < H;
          float want = inside ? tex[(ys[q] * W + xs[q]) * 4 + c] : 0.0f;
          float got = out[s * 8 + ch * 4 + q];
          if (got != want && bad++ < 3)
            fprintf(stderr, "gather mode %d sample %d component %d channel %d: %g, expected %g\n",
                    mode, s, q, c, got, want);
        }
    }
    CHECK_EQ_INT(bad, 0);
    amp_array_view_release(cv);
    amp_array_view_release(ov);
  }
  amp_kernel_release(k);
  amp_texture_release(t);
}

static void test_saturation(amp_accelerator_view *av, amp_program *prog, int writes) {
  enum { N = 8 };
  float v[N * 4], clamped[N * 5];
  static const float pick[] = {-3.0f, -1.0f, -0.5f, 0.0f, 0.25f, 1.0f, 2.5f, 100.0f, -1e9f};
  for (int i = 0; i < N * 4; i++)
    v[i] = pick[(unsigned)i % (sizeof pick / sizeof pick[0])];
  amp_texture *tn = NULL, *tu = NULL;
  amp_kernel *k = NULL;
  amp_texel_format fn = {AMP_TEXEL_NORM, 4, 8}, fu = {AMP_TEXEL_UNORM, 4, 8};
  if (!writes) {
    printf("saturation: this device cannot write norm_4/unorm_4 8-bit rank-1 textures: skipped\n");
    return;
  }
  CHECK_OK(amp_texture_create(av, amp_extent1(N), fn, &tn));
  CHECK_OK(amp_texture_create(av, amp_extent1(N), fu, &tu));
  CHECK_OK(amp_kernel_create(prog, "sat", &k));
  amp_array_view *vv = NULL, *cv = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N * 4), AMP_FLOAT, v, &vv));
  CHECK_OK(amp_array_view_create(amp_extent1(N * 5), AMP_FLOAT, clamped, &cv));
  if (tn && tu && k) {
    amp_arg args[] = {amp_arg_view(vv), amp_arg_texture(tn), amp_arg_texture(tu), amp_arg_view(cv)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 4));
    CHECK_OK(amp_array_view_synchronize(cv));
    int8_t sn[N * 4];
    uint8_t su[N * 4];
    CHECK_OK(amp_copy_from_texture(tn, sn, sizeof sn));
    CHECK_OK(amp_copy_from_texture(tu, su, sizeof su));
    int bad = 0;
    for (int i = 0; i < N * 4; i++) {
      double cn = fmin(fmax(v[i], -1.0), 1.0), cu = fmin(fmax(v[i], 0.0), 1.0);
      /* stored: within 0.6 of the exact value (norm's -1 may be stored as -127 or -128) */
      double wn = cn * 127.0, wu = cu * 255.0;
      if ((fabs(sn[i] - wn) > 0.6 && !(cn == -1.0 && sn[i] == -128)) || fabs(su[i] - wu) > 0.6) {
        if (bad++ < 3)
          fprintf(stderr, "saturation: %g stored as norm %d, unorm %d\n", v[i], sn[i], su[i]);
      }
      if (clamped[(i / 4) * 5 + i % 4] != (float)cn && bad++ < 3)
        fprintf(stderr, "amp_norm_clamp(%g) = %g\n", v[i], clamped[(i / 4) * 5 + i % 4]);
      if (i % 4 == 0 && clamped[(i / 4) * 5 + 4] != (float)cu && bad++ < 3)
        fprintf(stderr, "amp_unorm_clamp(%g) = %g\n", v[i], clamped[(i / 4) * 5 + 4]);
    }
    CHECK_EQ_INT(bad, 0);
  }
  amp_array_view_release(vv);
  amp_array_view_release(cv);
  amp_kernel_release(k);
  amp_texture_release(tn);
  amp_texture_release(tu);
}

/* ---- 4. copies -------------------------------------------------------------------------- */

static void test_copies(amp_accelerator_view *av) {
  amp_texel_format f = {AMP_TEXEL_UINT, 4, 16}; /* a format every device with images has */
  amp_extent e = amp_extent2(9, 11);
  uint16_t a[9 * 11 * 4], b[9 * 11 * 4], c[9 * 11 * 4];
  for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
    a[i] = (uint16_t)rnd();
  amp_texture *t1 = NULL, *t2 = NULL;
  CHECK_OK(amp_texture_create(av, e, f, &t1));
  CHECK_OK(amp_texture_create(av, e, f, &t2));
  size_t bytes = 0;
  CHECK_OK(amp_texture_get_bytes(t1, &bytes));
  CHECK_EQ_INT(bytes, sizeof a);
  amp_extent got;
  amp_texel_format gf;
  CHECK_OK(amp_texture_get_extent(t1, &got));
  CHECK(amp_extent_equal(got, e));
  CHECK_OK(amp_texture_get_format(t1, &gf));
  CHECK(gf.kind == f.kind && gf.channels == 4 && gf.bits == 16);
  CHECK_OK(amp_copy_to_texture(a, sizeof a, t1));
  CHECK_OK(amp_copy_texture(t1, t2));
  memset(b, 0, sizeof b);
  CHECK_OK(amp_copy_from_texture(t2, b, sizeof b));
  CHECK(memcmp(a, b, sizeof a) == 0);
  /* async: host -> t2, t2 -> t1, t1 -> host, each waited for */
  for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
    a[i] = (uint16_t)(a[i] ^ 0x5a5a);
  amp_future *fu = NULL;
  CHECK_OK(amp_copy_to_texture_async(a, sizeof a, t2, &fu));
  CHECK_OK(amp_future_wait(fu));
  amp_future_release(fu);
  fu = NULL;
  CHECK_OK(amp_copy_texture_async(t2, t1, &fu));
  CHECK_OK(amp_future_wait(fu));
  amp_future_release(fu);
  fu = NULL;
  memset(c, 0, sizeof c);
  CHECK_OK(amp_copy_from_texture_async(t1, c, sizeof c, &fu));
  CHECK_OK(amp_future_wait(fu));
  amp_future_release(fu);
  CHECK(memcmp(a, c, sizeof a) == 0);
  amp_texture_release(t1);
  amp_texture_release(t2);
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_accelerator *acc = NULL;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  amp_texture_format_support fs[64];
  size_t nf = 0;
  amp_status st = amp_texture_formats(acc, fs, 64, &nf);
  if (st == AMP_ERROR_UNSUPPORTED_FEATURE) {
    printf("no images on this device: %s\n", amp_last_error());
    return SKIP;
  }
  (void)kind_name;
  test_copies(av);
  test_formats(av, acc);
  amp_program *prog = NULL;
  REQUIRE_OK(amp_program_create(sample_src, NULL, &prog));
  for (int r = 1; r <= 3; r++)
    test_sampling(av, prog, r);
  test_gather(av, prog);
  int wn = 0, wu = 0;
  supported(fs, nf, (amp_texel_format){AMP_TEXEL_NORM, 4, 8}, 1, &wn);
  supported(fs, nf, (amp_texel_format){AMP_TEXEL_UNORM, 4, 8}, 1, &wu);
  test_saturation(av, prog, wn && wu);
  amp_program_release(prog);
  return check_done();
}
