/* sample_blur.cl: the C++ AMP book's image filter through a texture, written anew in OpenCL C with
 * ampcl's prelude (tests/samples/texture_blur.c checks it against the host's filter).
 *
 * blur3x3: each output pixel is the mean of the 3 x 3 pixels around it, read by sampling the
 * texture with a point-filtered, clamped sampler at normalized coordinates, so pixels beyond the
 * edge are the edge's own (the sampler does the bounds work a view would need by hand). The four
 * channels of pixel (y, x) go to out[y][4x .. 4x+3], a rank-2 view of floats. */
__kernel void blur3x3(AMP_TEXTURE_READ(float_4, 2, img), AMP_SAMPLER(s), AMP_VIEW(float, out)) {
  AMP_INDEX2(idx);
  const int y = idx[0], x = idx[1];
  const float h = (float)amp_tex_extent(2, img, 0), w = (float)amp_tex_extent(2, img, 1);
  float4 acc = (float4)(0.0f);
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      const float2 at = (float2)(((float)(x + dx) + 0.5f) / w, ((float)(y + dy) + 0.5f) / h);
      acc += amp_tex_sample(float_4, 2, img, s, at);
    }
  acc /= 9.0f;
  amp_at(out, y, 4 * x) = acc.x;
  amp_at(out, y, 4 * x + 1) = acc.y;
  amp_at(out, y, 4 * x + 2) = acc.z;
  amp_at(out, y, 4 * x + 3) = acc.w;
}
