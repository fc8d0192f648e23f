/* kernel_random: the prelude's Philox-4x32-10 (kernels_cl/prelude/ampcl_random.h) and its host twin
 * (include/ampcl/random.h).
 *
 *   1. Random123's known-answer vectors for philox4x32 with 10 rounds (its kat_vectors file:
 *      counter and key all zeros, all ones, and the digits of pi), on the host and in a kernel.
 *   2. The streams: 4096 work-items, each with a stream of its own under a 64-bit seed (and one
 *      work-item far out, stream 2^40 + 3, past a block counter's low word), draw words, floats and
 *      doubles in a fixed interleaving; the host draws the same with its twin; every value must
 *      have the same bits. amp_random_uint4 and amp_random_float4 give the next four in order,
 *      a whole block and across two.
 *   3. Floats lie in [0, 1): the largest word gives 1 - 2^-24, zero gives 0; the mean of 2^20
 *      floats is 1/2 within 5 standard errors (1 / sqrt(12 n)).
 * On whichever device runs it: POCL, Intel's CPU runtime and rusticl in CI (doubles where the
 * device has them). */
#include "check.h"

#include <stdint.h>

/* Random123's kat_vectors, philox4x32 10: counter (4 words), key (2), result (4). */
static const uint32_t kat[3][10] = {
    {0, 0, 0, 0, 0, 0, 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
    {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x408f276du,
     0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
    {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u, 0xd16cfe09u,
     0x94fdccebu, 0x5001e420u, 0x24126ea1u},
};

static const char *kernels =
    "__kernel void kat(AMP_CONST_VIEW(uint, in), AMP_VIEW(uint, out)) {\n"
    "  const int i = (int)get_global_id(0);\n"
    "  const uint4 c = (uint4)(amp_at(in, i, 0), amp_at(in, i, 1), amp_at(in, i, 2), "
    "amp_at(in, i, 3));\n"
    "  const uint2 k = (uint2)(amp_at(in, i, 4), amp_at(in, i, 5));\n"
    "  const uint4 r = amp_philox4x32_10(c, k);\n"
    "  amp_at(out, i, 0) = r.x; amp_at(out, i, 1) = r.y; amp_at(out, i, 2) = r.z;\n"
    "  amp_at(out, i, 3) = r.w;\n"
    "}\n"
    /* per work-item: 5 words, 3 floats, 4 words at once (a whole block), 1 word, 4 floats at
     * once (across two blocks), 1 more word */
    "__kernel void streams(AMP_VIEW(uint, words), AMP_VIEW(float, floats), uint seed_lo,\n"
    "                      uint seed_hi, uint far) {\n"
    "  const int i = (int)get_global_id(0);\n"
    "  const ulong stream = i == 0 ? ((ulong)1 << 40) + far : (ulong)i;\n"
    "  amp_random r = amp_random_make(((ulong)seed_hi << 32) | seed_lo, stream);\n"
    "  for (int k = 0; k < 5; k++) amp_at(words, i, k) = amp_random_uint(&r);\n"
    "  for (int k = 0; k < 3; k++) amp_at(floats, i, k) = amp_random_float(&r);\n"
    "  const uint4 w = amp_random_uint4(&r);\n"
    "  amp_at(words, i, 5) = w.x; amp_at(words, i, 6) = w.y; amp_at(words, i, 7) = w.z;\n"
    "  amp_at(words, i, 8) = w.w;\n"
    "  amp_at(words, i, 9) = amp_random_uint(&r);\n"
    "  const float4 f = amp_random_float4(&r);\n"
    "  amp_at(floats, i, 3) = f.x; amp_at(floats, i, 4) = f.y; amp_at(floats, i, 5) = f.z;\n"
    "  amp_at(floats, i, 6) = f.w;\n"
    "  amp_at(words, i, 10) = amp_random_uint(&r);\n"
    "}\n"
    "__kernel void ends(AMP_VIEW(float, out)) {\n"
    "  amp_at(out, 0) = amp_random_unit_float(0xffffffffu);\n"
    "  amp_at(out, 1) = amp_random_unit_float(0u);\n"
    "}\n"
    "__kernel void mean(AMP_VIEW(float, out), uint seed) {\n"
    "  const int i = (int)get_global_id(0);\n"
    "  amp_random r = amp_random_make(seed, (ulong)i);\n"
    "  float s = 0.0f;\n"
    "  for (int k = 0; k < 256; k++) s += amp_random_float(&r);\n"
    "  amp_at(out, i) = s;\n"
    "}\n"
    "#ifdef AMP_HAS_DOUBLE\n"
    "__kernel void doubles(AMP_VIEW(double, out), uint seed) {\n"
    "  const int i = (int)get_global_id(0);\n"
    "  amp_random r = amp_random_make(seed, (ulong)i);\n"
    "  (void)amp_random_uint(&r); /* start the doubles at an odd word */\n"
    "  for (int k = 0; k < 3; k++) amp_at(out, i, k) = amp_random_double(&r);\n"
    "}\n"
    "#endif\n";

enum { NW = 4096, FAR = 3 };
static const uint64_t seed = 0x0123456789abcdefull;

static void check_kat(amp_accelerator_view *av, amp_program *p) {
  /* host */
  for (int v = 0; v < 3; v++) {
    uint32_t out[4];
    amp_philox4x32_10(kat[v], kat[v] + 4, out);
    CHECK(memcmp(out, kat[v] + 6, sizeof out) == 0);
  }
  /* kernel */
  uint32_t in[3][6], out[3][4] = {{0}};
  for (int v = 0; v < 3; v++)
    memcpy(in[v], kat[v], sizeof in[v]);
  amp_kernel *k = NULL;
  amp_array_view *vin = NULL, *vout = NULL;
  CHECK_OK(amp_kernel_create(p, "kat", &k));
  CHECK_OK(amp_array_view_create_const(amp_extent2(3, 6), AMP_UINT32, in, &vin));
  CHECK_OK(amp_array_view_create(amp_extent2(3, 4), AMP_UINT32, out, &vout));
  amp_arg args[] = {amp_arg_view(vin), amp_arg_view(vout)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(3), k, args, AMP_NARGS(args)));
  CHECK_OK(amp_array_view_synchronize(vout));
  for (int v = 0; v < 3; v++) {
    if (memcmp(out[v], kat[v] + 6, sizeof out[v]) != 0)
      fprintf(stderr, "kernel: vector %d gave %08x %08x %08x %08x\n", v, out[v][0], out[v][1],
              out[v][2], out[v][3]);
    CHECK(memcmp(out[v], kat[v] + 6, sizeof out[v]) == 0);
  }
  amp_array_view_release(vin);
  amp_array_view_release(vout);
  amp_kernel_release(k);
}

static void check_streams(amp_accelerator_view *av, amp_program *p) {
  static uint32_t words[NW][11];
  static float floats[NW][7];
  amp_kernel *k = NULL;
  amp_array_view *vw = NULL, *vf = NULL;
  CHECK_OK(amp_kernel_create(p, "streams", &k));
  CHECK_OK(amp_array_view_create(amp_extent2(NW, 11), AMP_UINT32, words, &vw));
  CHECK_OK(amp_array_view_create(amp_extent2(NW, 7), AMP_FLOAT, floats, &vf));
  amp_arg args[] = {amp_arg_view(vw), amp_arg_view(vf), amp_arg_uint((uint32_t)seed),
                    amp_arg_uint((uint32_t)(seed >> 32)), amp_arg_uint(FAR)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(NW), k, args, AMP_NARGS(args)));
  CHECK_OK(amp_array_view_synchronize(vw));
  CHECK_OK(amp_array_view_synchronize(vf));
  int bad = 0;
  for (int i = 0; i < NW; i++) {
    amp_random r = amp_random_make(seed, i == 0 ? (1ull << 40) + FAR : (uint64_t)i);
    uint32_t w[11];
    float f[7];
    for (int j = 0; j < 5; j++)
      w[j] = amp_random_uint(&r);
    for (int j = 0; j < 3; j++)
      f[j] = amp_random_float(&r);
    for (int j = 5; j < 10; j++)
      w[j] = amp_random_uint(&r);
    for (int j = 3; j < 7; j++)
      f[j] = amp_random_float(&r);
    w[10] = amp_random_uint(&r);
    if (memcmp(w, words[i], sizeof w) != 0 || memcmp(f, floats[i], sizeof f) != 0) {
      if (bad++ < 3)
        fprintf(stderr, "stream %d: kernel's words or floats differ from the host's\n", i);
    }
  }
  CHECK_EQ_INT(bad, 0);
  /* the stream is block after block: word 4k + j is word j of block k */
  amp_random r = amp_random_make(seed, 7);
  uint32_t ctr[4] = {1, 0, 7, 0}, key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)}, blk[4];
  amp_philox4x32_10(ctr, key, blk);
  for (int j = 0; j < 4; j++)
    (void)amp_random_uint(&r);
  for (int j = 0; j < 4; j++)
    CHECK(amp_random_uint(&r) == blk[j]);
  amp_array_view_release(vw);
  amp_array_view_release(vf);
  amp_kernel_release(k);
}

static void check_floats(amp_accelerator_view *av, amp_program *p, int dbl) {
  float ends[2] = {-1.0f, -1.0f};
  amp_kernel *k = NULL;
  amp_array_view *v = NULL;
  CHECK_OK(amp_kernel_create(p, "ends", &k));
  CHECK_OK(amp_array_view_create(amp_extent1(2), AMP_FLOAT, ends, &v));
  amp_arg a1[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(1), k, a1, AMP_NARGS(a1)));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK(ends[0] == 1.0f - 0x1.0p-24f && ends[0] < 1.0f);
  CHECK(ends[1] == 0.0f);
  CHECK(amp_random_unit_float(0xffffffffu) == ends[0]);
  amp_array_view_release(v);
  amp_kernel_release(k);

  enum { T = 4096, PER = 256 }; /* 2^20 floats: 256 per work-item */
  static float sums[T];
  CHECK_OK(amp_kernel_create(p, "mean", &k));
  CHECK_OK(amp_array_view_create(amp_extent1(T), AMP_FLOAT, sums, &v));
  amp_arg a2[] = {amp_arg_view(v), amp_arg_uint(2026u)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(T), k, a2, AMP_NARGS(a2)));
  CHECK_OK(amp_array_view_synchronize(v));
  double total = 0;
  for (int i = 0; i < T; i++)
    total += sums[i];
  double n = (double)T * PER, mean = total / n, se = 1.0 / sqrt(12.0 * n);
  printf("mean of 2^20 floats: %.6f (1/2 +- %.6f)\n", mean, se);
  CHECK(fabs(mean - 0.5) < 5 * se);
  amp_array_view_release(v);
  amp_kernel_release(k);

  if (!dbl)
    return;
  static double d[NW][3];
  CHECK_OK(amp_kernel_create(p, "doubles", &k));
  CHECK_OK(amp_array_view_create(amp_extent2(NW, 3), AMP_DOUBLE, d, &v));
  amp_arg a3[] = {amp_arg_view(v), amp_arg_uint(99u)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(NW), k, a3, AMP_NARGS(a3)));
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = 0;
  for (int i = 0; i < NW; i++) {
    amp_random r = amp_random_make(99u, (uint64_t)i);
    (void)amp_random_uint(&r);
    for (int j = 0; j < 3; j++) {
      double want = amp_random_double(&r);
      bad += memcmp(&want, &d[i][j], sizeof want) != 0 || !(d[i][j] >= 0.0 && d[i][j] < 1.0);
    }
  }
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(v);
  amp_kernel_release(k);
}

int main(void) {
  REQUIRE_TEST_DEVICE_VIEW(av);
  amp_accelerator_properties props;
  REQUIRE_OK(test_props(av, &props));
  amp_program *p = NULL;
  REQUIRE_OK(amp_program_create(kernels, NULL, &p));
  check_kat(av, p);
  check_streams(av, p);
  check_floats(av, p, props.supports_double_precision);
  amp_program_release(p);
  return check_done();
}
