/* tests/textures/texture_misuse.c: textures used wrongly are refused with a message naming the
 * value and the limit, before anything moves: bad extents and formats, released handles, wrong
 * byte counts, mismatched copies, and at a launch a texture where a view is expected (and the
 * reverse), a format or rank the parameter does not take, a sampler where a texture is expected,
 * bad sampler modes, one texture read and written by one kernel. Host memory stays as it was. */
#include <stdint.h>

#include "check.h"

static const char *src =
    "__kernel void blur(AMP_TEXTURE_READ(float_4, 2, src), AMP_SAMPLER(s),\n"
    "                   AMP_TEXTURE_WRITE(float_4, 2, dst)) {\n"
    "  AMP_INDEX2(idx);\n"
    "  float_2 c = (float_2)((idx[1] + 0.5f) / amp_tex_extent(2, src, 1),\n"
    "                        (idx[0] + 0.5f) / amp_tex_extent(2, src, 0));\n"
    "  amp_tex_set(float_4, 2, dst, idx, amp_tex_sample(float_4, 2, src, s, c));\n"
    "}\n"
    "__kernel void viewk(AMP_VIEW(float, v)) { AMP_INDEX1(i); amp_at(v, i[0]) = 1.0f; }\n";

int main(void) {
  REQUIRE_VIEW(av);
  amp_accelerator *acc = NULL;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  size_t nf = 0;
  if (amp_texture_formats(acc, NULL, 0, &nf) == AMP_ERROR_UNSUPPORTED_FEATURE) {
    printf("no images here: %s\n", amp_last_error());
    return SKIP;
  }
  amp_texel_format f4 = {AMP_TEXEL_FLOAT, 4, 32}, u8 = {AMP_TEXEL_UNORM, 4, 8};
  amp_texture *t = NULL;

  /* formats and extents */
  CHECK_STATUS(
      amp_texture_create(av, amp_extent2(4, 4), (amp_texel_format){AMP_TEXEL_FLOAT, 3, 32}, &t),
      AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("3 channels");
  CHECK_STATUS(
      amp_texture_create(av, amp_extent2(4, 4), (amp_texel_format){AMP_TEXEL_NORM, 1, 32}, &t),
      AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("32 bits per channel for norm");
  CHECK_STATUS(amp_texture_create(av, amp_extent2(4, 4), (amp_texel_format){9, 1, 8}, &t),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("kind 9");
  CHECK_REFUSED(amp_texture_create(av, amp_extent2(4, -2), f4, &t), AMP_ERROR_INVALID_ARGUMENT,
                "dimension 1 of the extent is -2");
  amp_extent r4 = {4, {2, 2, 2}};
  CHECK_REFUSED(amp_texture_create(av, r4, f4, &t), AMP_ERROR_INVALID_ARGUMENT, "rank 4");
  CHECK_REFUSED(amp_texture_create(av, amp_extent2(4, 1 << 30), f4, &t), AMP_ERROR_LIMIT_EXCEEDED,
                "1073741824");
  CHECK_STATUS(amp_texture_create(av, amp_extent3(1 << 30, 1 << 30, 1 << 30), f4, &t),
               AMP_ERROR_LIMIT_EXCEEDED);
  CHECK(t == NULL);
  CHECK_STATUS(amp_texture_create(NULL, amp_extent2(4, 4), f4, &t), AMP_ERROR_INVALID_HANDLE);

  /* copies: byte counts, NULL, shapes, formats; the host side untouched */
  float host[4 * 4 * 4], orig[4 * 4 * 4];
  for (int i = 0; i < 64; i++)
    host[i] = orig[i] = (float)i;
  CHECK_STATUS(amp_texture_create_from(av, amp_extent2(4, 4), f4, host, sizeof host - 4, &t),
               AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("252 bytes given");
  REQUIRE_OK(amp_texture_create_from(av, amp_extent2(4, 4), f4, host, sizeof host, &t));
  CHECK_REFUSED(amp_copy_from_texture(t, host, sizeof host + 4), AMP_ERROR_EXTENT_MISMATCH,
                "holds 256 bytes");
  CHECK_STATUS(amp_copy_from_texture(t, NULL, sizeof host), AMP_ERROR_INVALID_ARGUMENT);
  CHECK(memcmp(host, orig, sizeof host) == 0);
  amp_texture *t2 = NULL, *t3 = NULL, *t8 = NULL;
  REQUIRE_OK(amp_texture_create(av, amp_extent2(4, 5), f4, &t2));
  REQUIRE_OK(amp_texture_create(av, amp_extent2(4, 4), u8, &t8));
  CHECK_REFUSED(amp_copy_texture(t, t2), AMP_ERROR_EXTENT_MISMATCH,
                "4 x 4 (rank 2) but the destination 4 x 5");
  CHECK_REFUSED(amp_copy_texture(t, t8), AMP_ERROR_INVALID_ARGUMENT,
                "unorm_4 (8 bits per channel)");
  amp_future *fu = NULL;
  CHECK_STATUS(amp_copy_texture_async(t, t2, &fu), AMP_ERROR_EXTENT_MISMATCH);
  CHECK(fu == NULL);
  CHECK_STATUS(amp_copy_to_texture_async(host, 3, t, &fu), AMP_ERROR_EXTENT_MISMATCH);

  /* launches */
  amp_program *p = NULL;
  amp_kernel *k = NULL, *kv = NULL;
  REQUIRE_OK(amp_program_create(src, NULL, &p));
  REQUIRE_OK(amp_kernel_create(p, "blur", &k));
  REQUIRE_OK(amp_kernel_create(p, "viewk", &kv));
  REQUIRE_OK(amp_texture_create(av, amp_extent2(4, 4), f4, &t3));
  amp_sampler smp = {AMP_FILTER_LINEAR, AMP_ADDRESS_CLAMP};
  float vdata[16] = {0};
  amp_array_view *v = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(16), AMP_FLOAT, vdata, &v));
  amp_transfer_stats_reset();
  {
    amp_arg a[] = {amp_arg_texture(t), amp_arg_sampler(smp), amp_arg_texture(t3)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent2(4, 4), k, a, 3)); /* the right way */
    /* and finished: a command still running when the process exits can crash POCL's compiler
     * (docs/IMPLEMENTATIONS.md) */
    CHECK_OK(amp_accelerator_view_wait(av));
  }
  {
    amp_arg a[] = {amp_arg_view(v), amp_arg_sampler(smp), amp_arg_texture(t3)};
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent2(4, 4), k, a, 3), AMP_ERROR_KERNEL_ARGS);
    CHECK_MSG("argument 0 is a view of float, but parameter 'src' is a read-only texture of "
              "float_4, rank 2");
  }
  {
    amp_arg a[] = {amp_arg_texture(t)};
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(16), kv, a, 1), AMP_ERROR_KERNEL_ARGS);
    CHECK_MSG("argument 0 is a texture of float_4 (32 bits per channel), rank 2, but parameter "
              "'v' is a view of float");
  }
  {
    amp_arg a[] = {amp_arg_texture(t8), amp_arg_sampler(smp), amp_arg_texture(t3)};
    CHECK_REFUSED(amp_parallel_for_each(av, amp_extent2(4, 4), k, a, 3), AMP_ERROR_KERNEL_ARGS,
                  "argument 0 is a texture of unorm_4");
  }
  {
    amp_texture *r1 = NULL;
    REQUIRE_OK(amp_texture_create(av, amp_extent1(16), f4, &r1));
    amp_arg a[] = {amp_arg_texture(r1), amp_arg_sampler(smp), amp_arg_texture(t3)};
    CHECK_REFUSED(amp_parallel_for_each(av, amp_extent2(4, 4), k, a, 3), AMP_ERROR_KERNEL_ARGS,
                  "rank 1, but parameter 'src' is a read-only texture of float_4, rank 2");
    amp_texture_release(r1);
  }
  {
    amp_arg a[] = {amp_arg_texture(t), amp_arg_texture(t2), amp_arg_texture(t3)};
    CHECK_REFUSED(amp_parallel_for_each(av, amp_extent2(4, 4), k, a, 3), AMP_ERROR_KERNEL_ARGS,
                  "parameter 's' is a sampler");
  }
  {
    amp_arg a[] = {amp_arg_texture(t), amp_arg_sampler(smp), amp_arg_texture(t)};
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent2(4, 4), k, a, 3),
                 AMP_ERROR_UNSUPPORTED_FEATURE);
    CHECK_MSG("cannot read and write one image");
  }
  {
    amp_sampler bad = {AMP_FILTER_LINEAR, (amp_address_mode)0};
    amp_arg a[] = {amp_arg_texture(t), amp_arg_sampler(bad), amp_arg_texture(t3)};
    CHECK_REFUSED(amp_parallel_for_each(av, amp_extent2(4, 4), k, a, 3), AMP_ERROR_INVALID_ARGUMENT,
                  "address mode 0 is not an amp_address_mode");
    amp_sampler bad2 = {(amp_filter_mode)7, AMP_ADDRESS_WRAP};
    a[1] = amp_arg_sampler(bad2);
    CHECK_REFUSED(amp_parallel_for_each(av, amp_extent2(4, 4), k, a, 3), AMP_ERROR_INVALID_ARGUMENT,
                  "filter mode 7");
  }
  /* nothing moved for any refused launch; the one good launch moved no host data either */
  CHECK_EQ_INT(test_transfers(), 0);

  /* released textures */
  amp_texture *dead = t2;
  CHECK_OK(amp_texture_release(t2));
  {
    amp_arg a[] = {amp_arg_texture(t), amp_arg_sampler(smp), amp_arg_texture(dead)};
    CHECK_REFUSED(amp_parallel_for_each(av, amp_extent2(4, 4), k, a, 3), AMP_ERROR_INVALID_HANDLE,
                  "argument 2 (counting from 0) is not a live texture");
  }
  CHECK_REFUSED(amp_copy_to_texture(host, sizeof host, dead), AMP_ERROR_INVALID_HANDLE,
                "texture was already released");
  CHECK_STATUS(amp_texture_release(dead), AMP_ERROR_INVALID_HANDLE);
  CHECK(memcmp(host, orig, sizeof host) == 0);

  /* Two device accelerators (ctest's texture_misuse.two-devices): a copy between textures on
   * different accelerators goes through the host; a launch with another accelerator's texture is
   * refused, naming both. */
  size_t nacc = 0;
  amp_accelerator *other = NULL;
  CHECK_OK(amp_accelerator_count(&nacc));
  for (size_t i = 0; i < nacc && !other; i++) {
    amp_accelerator *a = NULL;
    amp_accelerator_properties pr;
    if (amp_accelerator_get(i, &a) == AMP_SUCCESS &&
        amp_accelerator_get_properties(a, &pr) == AMP_SUCCESS && !pr.is_host && a != acc)
      other = a;
  }
  if (other) {
    amp_accelerator_view *ov = NULL;
    amp_texture *far = NULL;
    float back[4 * 4 * 4];
    CHECK_OK(amp_accelerator_default_view(other, &ov));
    CHECK_OK(amp_texture_create(ov, amp_extent2(4, 4), f4, &far));
    CHECK_OK(amp_copy_texture(t, far));
    memset(back, 0, sizeof back);
    CHECK_OK(amp_copy_from_texture(far, back, sizeof back));
    CHECK(memcmp(back, orig, sizeof back) == 0);
    amp_arg a[] = {amp_arg_texture(far), amp_arg_sampler(smp), amp_arg_texture(t3)};
    CHECK_REFUSED(amp_parallel_for_each(av, amp_extent2(4, 4), k, a, 3), AMP_ERROR_INVALID_ARGUMENT,
                  "a texture stays on its accelerator");
    amp_texture_release(far);
  } else {
    printf("one device accelerator: the two-accelerator checks did not run\n");
  }

  amp_array_view_release(v);
  amp_kernel_release(k);
  amp_kernel_release(kv);
  amp_program_release(p);
  amp_texture_release(t);
  amp_texture_release(t3);
  amp_texture_release(t8);
  return check_done();
}
