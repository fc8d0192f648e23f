/* examples/image/image.cl: an image through textures (ampcl_texture.h in the prelude).
 *
 * blur_pass: one pass of a separable 5-tap binomial blur (1 4 6 4 1) / 16 along x or y, with
 * three linearly filtered samples instead of five reads: taps 1 and 2 at offsets 1 and 2 with
 * weights 4 and 1 are one sample at offset (4 * 1 + 1 * 2) / 5 = 1.2 texels, weight 5.
 * resize: each output pixel samples the source at its own centre, at fractional coordinates. */

__kernel void blur_pass(AMP_TEXTURE_READ(float_4, 2, src), AMP_SAMPLER(s),
                        AMP_TEXTURE_WRITE(float_4, 2, dst), int vertical) {
  AMP_INDEX2(idx);
  const float w = (float)amp_tex_extent(2, src, 1), h = (float)amp_tex_extent(2, src, 0);
  const float_2 at = (float_2)((idx[1] + 0.5f) / w, (idx[0] + 0.5f) / h);
  const float_2 step = vertical ? (float_2)(0.0f, 1.2f / h) : (float_2)(1.2f / w, 0.0f);
  float_4 sum = 6.0f * amp_tex_sample(float_4, 2, src, s, at);
  sum += 5.0f * amp_tex_sample(float_4, 2, src, s, at - step);
  sum += 5.0f * amp_tex_sample(float_4, 2, src, s, at + step);
  amp_tex_set(float_4, 2, dst, idx, sum / 16.0f);
}

__kernel void resize(AMP_TEXTURE_READ(unorm_4, 2, src), AMP_SAMPLER(s),
                     AMP_TEXTURE_WRITE(unorm_4, 2, dst), int out_h, int out_w) {
  AMP_INDEX2(idx);
  const float_2 at = (float_2)((idx[1] + 0.5f) / out_w, (idx[0] + 0.5f) / out_h);
  amp_tex_set(unorm_4, 2, dst, idx, amp_tex_sample(unorm_4, 2, src, s, at));
}
