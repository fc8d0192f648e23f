/* ampcl kernel prelude, part 5 of 5: C++ AMP's graphics namespace (textures, samplers, short
 * vectors, norm and unorm) over OpenCL images. docs/TEXTURES.md teaches it.
 *
 *   C++ AMP                                      ampcl kernel (OpenCL C)
 *   ------------------------------------------   --------------------------------------------------
 *   int_2, uint_4, float_3, double_2, ...        the same names (OpenCL's int2, uint4, float3, ...)
 *   norm, unorm (scalars)                        amp_norm, amp_unorm (float; `norm` is too common a
 *   norm_2, unorm_4, ...                           variable name to take), norm_2, unorm_4, ...
 *   norm(x), unorm(x)  (clamping constructors)   amp_norm_clamp(x), amp_unorm_clamp(x), any width
 *   texture_view<const float_4, 2> src           AMP_TEXTURE_READ(float_4, 2, src)   (a parameter)
 *   texture_view<float_4, 2> dst (write-only)    AMP_TEXTURE_WRITE(float_4, 2, dst)
 *   sampler s (captured)                         AMP_SAMPLER(s)                      (a parameter)
 *   src[idx]  (idx an index<2>)                  amp_tex_get(float_4, 2, src, idx)
 *   dst.set(idx, v)                              amp_tex_set(float_4, 2, dst, idx, v)
 *   src.sample(s, coord)  (coord a float_2)      amp_tex_sample(float_4, 2, src, s, coord)
 *   src.gather_red(s, coord)  (rank 2)           amp_tex_gather_red(float_4, src, s, coord), and
 *                                                  _green, _blue, _alpha
 *   src.extent[d]                                amp_tex_extent(2, src, d)
 *
 * T is the texture's value type as AMP names it (int, int_2, int_4, uint.., float.., norm..,
 * unorm..); N its rank. The runtime checks at each launch that the texture given for a parameter
 * has that value type and rank, whatever its bits per channel. Each access names T again: a T
 * that differs from the parameter's, or a write to a read parameter (or a read of a write one), is
 * a compile error naming the parameter (t_amptexr_T / t_amptexw_T undeclared), since OpenCL 1.2
 * images are either read or written by one kernel, never both.
 *
 * Index order: idx is an int array in AMP order (idx[0] the slowest dimension), as AMP_INDEX2
 * declares it. Sampling coordinates are normalized (0 to 1 across the texture) and in x, y, z
 * order (x the fastest dimension, the texture's width), as in AMP. sample needs a float, norm or
 * unorm texture (as in AMP); gather reads the 2 x 2 texels linear filtering at coord would use,
 * through the sampler's address mode, in the order x = (left, bottom), y = (right, bottom),
 * z = (right, top), w = (left, top), "bottom" being the larger y, as AMP's gather does.
 *
 * How a texture reaches the kernel: AMP_TEXTURE_READ(T, N, t) declares the image `t` and an int4
 * `t_amptexr_T` (the extent in AMP order, then the rank) whose name tells the runtime the value
 * type; AMP_SAMPLER(s) declares the sampler `s` and its point-filtered twin `s_amppoint`, which
 * gather uses. */
#ifndef AMPCL_PRELUDE_TEXTURE_H
#define AMPCL_PRELUDE_TEXTURE_H

#if defined(cl_khr_3d_image_writes)
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
#endif

/* ---- short vectors, norm and unorm ------------------------------------------------------ */
typedef int2 int_2;
typedef int3 int_3;
typedef int4 int_4;
typedef uint2 uint_2;
typedef uint3 uint_3;
typedef uint4 uint_4;
typedef float2 float_2;
typedef float3 float_3;
typedef float4 float_4;
#ifdef AMP_HAS_DOUBLE
typedef double2 double_2;
typedef double3 double_3;
typedef double4 double_4;
#endif
typedef float amp_norm;
typedef float2 norm_2;
typedef float3 norm_3;
typedef float4 norm_4;
typedef float amp_unorm;
typedef float2 unorm_2;
typedef float3 unorm_3;
typedef float4 unorm_4;
/* AMP's norm and unorm clamp what they are made from: to [-1, 1] and [0, 1] (NaN gives -1 and 0).
 */
#define amp_norm_clamp(x)  fmin(fmax((x), -1.0f), 1.0f)
#define amp_unorm_clamp(x) fmin(fmax((x), 0.0f), 1.0f)

/* ---- parameters ------------------------------------------------------------------------- */
#define AMP_TEXTURE_READ(T, N, t)  __read_only image##N##d_t t, const int4 t##_amptexr_##T
#define AMP_TEXTURE_WRITE(T, N, t) __write_only image##N##d_t t, const int4 t##_amptexw_##T
#define AMP_SAMPLER(s)             sampler_t s, sampler_t s##_amppoint
/* Passing them on to a helper function that declares them the same way. */
#define AMP_TEXTURE_READ_ARG(T, t)  t, t##_amptexr_##T
#define AMP_TEXTURE_WRITE_ARG(T, t) t, t##_amptexw_##T
#define AMP_SAMPLER_ARG(s)          s, s##_amppoint

/* ---- coordinates: AMP order to OpenCL's ------------------------------------------------- */
#define AMP__ICOORD1(idx) ((idx)[0])
#define AMP__ICOORD2(idx) ((int2)((idx)[1], (idx)[0]))
#define AMP__ICOORD3(idx) ((int4)((idx)[2], (idx)[1], (idx)[0], 0))
#define AMP__FCOORD1(c)   (c)
#define AMP__FCOORD2(c)   (c)
#define AMP__FCOORD3(c)   ((float4)((c), 0.0f))

/* ---- reads (no sampler), by value type ---- */
#define AMP__TEXREAD_float(t, c)   read_imagef((t), (c)).x
#define AMP__TEXREAD_float_2(t, c) read_imagef((t), (c)).xy
#define AMP__TEXREAD_float_4(t, c) read_imagef((t), (c))
#define AMP__TEXREAD_norm          AMP__TEXREAD_float
#define AMP__TEXREAD_norm_2        AMP__TEXREAD_float_2
#define AMP__TEXREAD_norm_4        AMP__TEXREAD_float_4
#define AMP__TEXREAD_unorm         AMP__TEXREAD_float
#define AMP__TEXREAD_unorm_2       AMP__TEXREAD_float_2
#define AMP__TEXREAD_unorm_4       AMP__TEXREAD_float_4
#define AMP__TEXREAD_int(t, c)     read_imagei((t), (c)).x
#define AMP__TEXREAD_int_2(t, c)   read_imagei((t), (c)).xy
#define AMP__TEXREAD_int_4(t, c)   read_imagei((t), (c))
#define AMP__TEXREAD_uint(t, c)    read_imageui((t), (c)).x
#define AMP__TEXREAD_uint_2(t, c)  read_imageui((t), (c)).xy
#define AMP__TEXREAD_uint_4(t, c)  read_imageui((t), (c))

/* ---- writes: the value widened to OpenCL's 4 channels ---- */
#define AMP__TEXWRITE_float(t, c, v)   write_imagef((t), (c), (float4)((v), 0.0f, 0.0f, 1.0f))
#define AMP__TEXWRITE_float_2(t, c, v) write_imagef((t), (c), (float4)((v), 0.0f, 1.0f))
#define AMP__TEXWRITE_float_4(t, c, v) write_imagef((t), (c), (v))
#define AMP__TEXWRITE_norm             AMP__TEXWRITE_float
#define AMP__TEXWRITE_norm_2           AMP__TEXWRITE_float_2
#define AMP__TEXWRITE_norm_4           AMP__TEXWRITE_float_4
#define AMP__TEXWRITE_unorm            AMP__TEXWRITE_float
#define AMP__TEXWRITE_unorm_2          AMP__TEXWRITE_float_2
#define AMP__TEXWRITE_unorm_4          AMP__TEXWRITE_float_4
#define AMP__TEXWRITE_int(t, c, v)     write_imagei((t), (c), (int4)((v), 0, 0, 1))
#define AMP__TEXWRITE_int_2(t, c, v)   write_imagei((t), (c), (int4)((v), 0, 1))
#define AMP__TEXWRITE_int_4(t, c, v)   write_imagei((t), (c), (v))
#define AMP__TEXWRITE_uint(t, c, v)    write_imageui((t), (c), (uint4)((v), 0u, 0u, 1u))
#define AMP__TEXWRITE_uint_2(t, c, v)  write_imageui((t), (c), (uint4)((v), 0u, 1u))
#define AMP__TEXWRITE_uint_4(t, c, v)  write_imageui((t), (c), (v))

/* ---- sampling: float, norm and unorm only ---- */
#define AMP__TEXSAMPLE_float(v)   (v).x
#define AMP__TEXSAMPLE_float_2(v) (v).xy
#define AMP__TEXSAMPLE_float_4(v) (v)
#define AMP__TEXSAMPLE_norm       AMP__TEXSAMPLE_float
#define AMP__TEXSAMPLE_norm_2     AMP__TEXSAMPLE_float_2
#define AMP__TEXSAMPLE_norm_4     AMP__TEXSAMPLE_float_4
#define AMP__TEXSAMPLE_unorm      AMP__TEXSAMPLE_float
#define AMP__TEXSAMPLE_unorm_2    AMP__TEXSAMPLE_float_2
#define AMP__TEXSAMPLE_unorm_4    AMP__TEXSAMPLE_float_4
#define AMP__TEXSAMPLE_int(v)     amp_sample_needs_a_float_norm_or_unorm_texture
#define AMP__TEXSAMPLE_int_2      AMP__TEXSAMPLE_int
#define AMP__TEXSAMPLE_int_4      AMP__TEXSAMPLE_int
#define AMP__TEXSAMPLE_uint       AMP__TEXSAMPLE_int
#define AMP__TEXSAMPLE_uint_2     AMP__TEXSAMPLE_int
#define AMP__TEXSAMPLE_uint_4     AMP__TEXSAMPLE_int

/* ---- gather (rank 2): the footprint's 4 texels of one channel, read with the point sampler at
 * their centres, so no filtering precision enters ---- */
#define AMP__GATHER_BODY(R, V)                                                                     \
  const float2 size = (float2)((float)get_image_width(t), (float)get_image_height(t));             \
  const float2 f = floor(c * size - 0.5f);                                                         \
  const V a = R(t, p, (f + (float2)(0.5f, 1.5f)) / size);                                          \
  const V b = R(t, p, (f + (float2)(1.5f, 1.5f)) / size);                                          \
  const V d = R(t, p, (f + (float2)(1.5f, 0.5f)) / size);                                          \
  const V e = R(t, p, (f + (float2)(0.5f, 0.5f)) / size);                                          \
  switch (ch) {                                                                                    \
  case 0:                                                                                          \
    return (V)(a.x, b.x, d.x, e.x);                                                                \
  case 1:                                                                                          \
    return (V)(a.y, b.y, d.y, e.y);                                                                \
  case 2:                                                                                          \
    return (V)(a.z, b.z, d.z, e.z);                                                                \
  default:                                                                                         \
    return (V)(a.w, b.w, d.w, e.w);                                                                \
  }
static inline float4 amp__gather_f(__read_only image2d_t t, sampler_t p, float2 c, int ch) {
  AMP__GATHER_BODY(read_imagef, float4)
}
static inline int4 amp__gather_i(__read_only image2d_t t, sampler_t p, float2 c, int ch) {
  AMP__GATHER_BODY(read_imagei, int4)
}
static inline uint4 amp__gather_u(__read_only image2d_t t, sampler_t p, float2 c, int ch) {
  AMP__GATHER_BODY(read_imageui, uint4)
}
#define AMP__TEXGATHER_float   amp__gather_f
#define AMP__TEXGATHER_float_2 amp__gather_f
#define AMP__TEXGATHER_float_4 amp__gather_f
#define AMP__TEXGATHER_norm    amp__gather_f
#define AMP__TEXGATHER_norm_2  amp__gather_f
#define AMP__TEXGATHER_norm_4  amp__gather_f
#define AMP__TEXGATHER_unorm   amp__gather_f
#define AMP__TEXGATHER_unorm_2 amp__gather_f
#define AMP__TEXGATHER_unorm_4 amp__gather_f
#define AMP__TEXGATHER_int     amp__gather_i
#define AMP__TEXGATHER_int_2   amp__gather_i
#define AMP__TEXGATHER_int_4   amp__gather_i
#define AMP__TEXGATHER_uint    amp__gather_u
#define AMP__TEXGATHER_uint_2  amp__gather_u
#define AMP__TEXGATHER_uint_4  amp__gather_u

/* ---- the calls ---------------------------------------------------------------------------- */
#define amp_tex_get(T, N, t, idx) ((void)t##_amptexr_##T, AMP__TEXREAD_##T(t, AMP__ICOORD##N(idx)))
#define amp_tex_set(T, N, t, idx, v)                                                               \
  ((void)t##_amptexw_##T, AMP__TEXWRITE_##T(t, AMP__ICOORD##N(idx), v))
#define amp_tex_sample(T, N, t, s, coord)                                                          \
  ((void)t##_amptexr_##T, AMP__TEXSAMPLE_##T(read_imagef(t, s, AMP__FCOORD##N(coord))))
#define amp_tex_gather_red(T, t, s, coord)                                                         \
  ((void)t##_amptexr_##T, AMP__TEXGATHER_##T(t, s##_amppoint, coord, 0))
#define amp_tex_gather_green(T, t, s, coord)                                                       \
  ((void)t##_amptexr_##T, AMP__TEXGATHER_##T(t, s##_amppoint, coord, 1))
#define amp_tex_gather_blue(T, t, s, coord)                                                        \
  ((void)t##_amptexr_##T, AMP__TEXGATHER_##T(t, s##_amppoint, coord, 2))
#define amp_tex_gather_alpha(T, t, s, coord)                                                       \
  ((void)t##_amptexr_##T, AMP__TEXGATHER_##T(t, s##_amppoint, coord, 3))

/* The extent in AMP order: dimension d of a rank-N texture. */
#define AMP__TEXEXT1(t, d) get_image_width(t)
#define AMP__TEXEXT2(t, d) ((d) == 0 ? get_image_height(t) : get_image_width(t))
#define AMP__TEXEXT3(t, d)                                                                         \
  ((d) == 0 ? get_image_depth(t) : (d) == 1 ? get_image_height(t) : get_image_width(t))
#define amp_tex_extent(N, t, d) AMP__TEXEXT##N(t, d)

#endif /* AMPCL_PRELUDE_TEXTURE_H */
