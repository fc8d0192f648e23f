/* int64_types: the 64-bit integer element types AMP_INT64 and AMP_UINT64 (array_view.h) wherever
 * an element type is taken: views and arrays of them, kernels that declare them long / ulong
 * (also spelled "unsigned long" and through a typedef), values beyond 32 bits surviving the trip
 * there and back, host access to one element, copies between views and arrays, and every
 * mismatch refused with both types named and the host data unchanged: a long view for an int,
 * ulong or double parameter, copies between int64, uint64 and double, and the algorithms that do
 * not take 64-bit integers (reduce, scan, compaction). */
#include <stdint.h>

#include "check.h"

enum { N = 37 };

static const char *src =
    "typedef unsigned long u64_t;\n"
    "__kernel void mix_signed(AMP_VIEW(long, v)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(v, i[0]) = amp_at(v, i[0]) / 2 - (long)i[0] * 0x100000000l;\n"
    "}\n"
    "__kernel void mix_unsigned(AMP_CONST_VIEW(unsigned long, a), AMP_VIEW(u64_t, r)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(r, i[0]) = (amp_at(a, i[0]) ^ 0xf0f0f0f0f0f0f0f0ul) + (ulong)i[0];\n"
    "}\n"
    "__kernel void ints(AMP_VIEW(int, v)) { }\n"
    "__kernel void longs(AMP_VIEW(long, v)) { }\n"
    "__kernel void texels(AMP_TEXTURE_READ(uint, 1, t), AMP_VIEW(uint, out)) { }\n";

static int64_t s[N], s_orig[N];
static uint64_t u[N], u_orig[N], r[N];

int main(void) {
  REQUIRE_VIEW(av);
  for (int i = 0; i < N; i++) {
    s[i] = s_orig[i] = (i % 3 == 0 ? INT64_MAX - i : i % 3 == 1 ? INT64_MIN + i : -i * 1000003LL);
    u[i] = u_orig[i] = i % 2 ? UINT64_MAX - (uint64_t)i : (uint64_t)i << 40;
  }
  amp_kernel *ks = test_kernel(src, NULL, "mix_signed"),
             *ku = test_kernel(src, NULL, "mix_unsigned");
  amp_kernel *ki = test_kernel(src, NULL, "ints"), *kl = test_kernel(src, NULL, "longs");
  amp_kernel *kt = test_kernel(src, NULL, "texels");
  if (!ks || !ku || !ki || !kl || !kt)
    return check_done();

  /* the type as given */
  amp_array_view *vs = NULL, *vu = NULL, *vr = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT64, s, &vs));
  REQUIRE_OK(amp_array_view_create_const(amp_extent1(N), AMP_UINT64, u, &vu));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_UINT64, r, &vr));
  amp_elem_type t;
  CHECK_OK(amp_array_view_get_elem_type(vs, &t));
  CHECK_EQ_INT(t.kind, AMP_ELEM_INT64);
  CHECK_EQ_INT(t.size, 8);
  CHECK_OK(amp_array_view_get_elem_type(vu, &t));
  CHECK_EQ_INT(t.kind, AMP_ELEM_UINT64);

  /* kernels on them: every bit comes back */
  CHECK_OK(TEST_RUN(av, amp_extent1(N), ks, amp_arg_view(vs)));
  CHECK_OK(TEST_RUN(av, amp_extent1(N), ku, amp_arg_view(vu), amp_arg_view(vr)));
  CHECK_OK(amp_array_view_synchronize(vs));
  CHECK_OK(amp_array_view_synchronize(vr));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    bad += s[i] != s_orig[i] / 2 - (int64_t)i * 0x100000000LL;
    bad += r[i] != (u_orig[i] ^ 0xf0f0f0f0f0f0f0f0ULL) + (uint64_t)i;
  }
  CHECK_EQ_INT(bad, 0);

  /* one element: get after a kernel wrote it, set, and a kernel that sees the value set */
  CHECK_OK(TEST_RUN(av, amp_extent1(N), ks, amp_arg_view(vs)));
  int64_t one = 0, want = (s_orig[5] / 2 - 5 * 0x100000000LL) / 2 - 5 * 0x100000000LL;
  CHECK_OK(amp_array_view_get(vs, amp_index1(5), &one));
  CHECK(one == want);
  one = INT64_MIN;
  CHECK_OK(amp_array_view_set(vs, amp_index1(6), &one));
  CHECK_OK(TEST_RUN(av, amp_extent1(N), ks, amp_arg_view(vs)));
  CHECK_OK(amp_array_view_get(vs, amp_index1(6), &one));
  CHECK(one == INT64_MIN / 2 - 6 * 0x100000000LL);
  CHECK_OK(amp_array_view_synchronize(vs));
  memcpy(s_orig, s, sizeof s);

  /* arrays and copies: uint64 there and back, into a view */
  amp_array *au = NULL, *as = NULL;
  REQUIRE_OK(amp_array_create_from(av, amp_extent1(N), AMP_UINT64, u, &au));
  REQUIRE_OK(amp_array_create(av, amp_extent1(N), AMP_INT64, &as));
  uint64_t back[N];
  CHECK_OK(amp_copy_from_array(au, back, sizeof back));
  CHECK(memcmp(back, u_orig, sizeof back) == 0);
  memset(r, 0, sizeof r);
  amp_array_view *whole = NULL;
  REQUIRE_OK(amp_array_view_of(au, &whole));
  CHECK_OK(amp_copy_view(whole, vr));
  CHECK_OK(amp_array_view_synchronize(vr));
  CHECK(memcmp(r, u_orig, sizeof r) == 0);
  uint64_t e = 0;
  CHECK_OK(amp_array_get(au, amp_index1(1), &e));
  CHECK(e == UINT64_MAX - 1);

  /* refused: copies between int64, uint64 and double; kernels whose parameter is another type */
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_STATUS(amp_copy_array(au, as), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("uint64 (8 bytes) but the destination int64 (8 bytes)");
  CHECK_STATUS(amp_copy_view(vs, vr), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("int64");
  double d[N];
  amp_array_view *vd = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_DOUBLE, d, &vd));
  CHECK_STATUS(amp_copy_view(vs, vd), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("int64 (8 bytes) but the destination double (8 bytes)");
  CHECK_STATUS(TEST_RUN(av, amp_extent1(N), ki, amp_arg_view(vs)), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of long, but parameter 'v' is a view of int");
  CHECK_STATUS(TEST_RUN(av, amp_extent1(N), kl, amp_arg_view(vr)), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of ulong, but parameter 'v' is a view of long");
  CHECK_STATUS(TEST_RUN(av, amp_extent1(N), kl, amp_arg_view(vd)), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of double, but parameter 'v' is a view of long");
  CHECK_UNMOVED(s, s_orig);

  /* textures have texel formats of their own, 32 bits per channel at most: a 64-bit one is
   * refused, and a view of long where a kernel takes a texture */
  amp_texture *tex = NULL;
  CHECK_STATUS(
      amp_texture_create(av, amp_extent1(N), (amp_texel_format){AMP_TEXEL_UINT, 1, 64}, &tex),
      AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("64 bits per channel");
  CHECK(tex == NULL);
  CHECK_STATUS(TEST_RUN(av, amp_extent1(N), kt, amp_arg_view(vs), amp_arg_view(vr)),
               AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of long");
  CHECK_UNMOVED(s, s_orig);

  /* algorithms that do not take 64-bit integers say so */
  int64_t sum = 0;
  CHECK_STATUS(amp_reduce(av, vs, AMP_REDUCE_SUM, &sum), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_INT64");
  CHECK_STATUS(amp_scan(av, vs, vs, AMP_SCAN_INCLUSIVE), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_INT64");
  CHECK_UNMOVED(s, s_orig);

  amp_array_view_release(vd);
  amp_array_view_release(whole);
  amp_array_release(as);
  amp_array_release(au);
  amp_array_view_release(vr);
  amp_array_view_release(vu);
  amp_array_view_release(vs);
  amp_kernel_release(ks);
  amp_kernel_release(ku);
  amp_kernel_release(ki);
  amp_kernel_release(kl);
  amp_kernel_release(kt);
  return check_done();
}
