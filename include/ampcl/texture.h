/* ampcl/texture.h: textures and samplers (C++ AMP's concurrency::graphics, AMP §10 of the graphics
 * specification), over OpenCL images.
 *
 * A texture is storage of rank 1 to 3 on one accelerator view's accelerator, bound to it for life
 * (AMP's texture<T, N>), whose elements ("texels") have a format: a kind (int, uint, float, norm,
 * unorm), a channel count (1, 2 or 4) and bits per channel (8, 16 or 32, as the kind and the device
 * allow; amp_texture_formats lists them). Kernels read it, write it, and sample it at fractional
 * coordinates with a sampler's filter and address mode (docs/TEXTURES.md). Host memory never
 * stands behind a texture: its contents move only through the amp_copy_*texture* calls.
 *
 * Host data of a texture is row-major in AMP order (the last dimension fastest), each texel its
 * channels in order (x, y, z, w), each channel `bits` wide: int8 / uint8 / int16 ... as the kind
 * says, IEEE half for 16-bit float, the stored integer for norm (signed) and unorm (unsigned). */
#ifndef AMPCL_TEXTURE_H
#define AMPCL_TEXTURE_H

#include <stddef.h>

#include "accelerator.h"
#include "export.h"
#include "extent.h"
#include "kernel.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_texture amp_texture;

/* The scalar kind of a texel's channels (AMP's short vector families). */
typedef enum amp_texel_kind {
  AMP_TEXEL_INT = 1, /* int, int_2, int_4 */
  AMP_TEXEL_UINT,    /* uint, uint_2, uint_4 */
  AMP_TEXEL_FLOAT,   /* float, float_2, float_4 (16 or 32 bits) */
  AMP_TEXEL_NORM,    /* norm: signed integers read as [-1, 1] (8 or 16 bits) */
  AMP_TEXEL_UNORM    /* unorm: unsigned integers read as [0, 1] (8 or 16 bits) */
} amp_texel_kind;

/* A texel format: kind, channels (1, 2 or 4) and bits per channel (8, 16 or 32). */
typedef struct amp_texel_format {
  amp_texel_kind kind;
  int channels;
  int bits;
} amp_texel_format;

/* Bytes per texel of a valid format, 0 for an invalid one. */
AMP_API size_t amp_texel_size(amp_texel_format format);

/* The format's value type as AMP and the kernel prelude name it ("float_4", "unorm", "int_2"),
 * or "?" for an invalid format. The string is static. */
AMP_API const char *amp_texel_type_name(amp_texel_format format);

/* A texture of `extent` texels of `format` on the view's accelerator; contents undefined.
 * Refused before anything is allocated: a rank outside 1..3 or a dimension < 1
 * (AMP_ERROR_INVALID_ARGUMENT), a format that is not a valid combination (INVALID_ARGUMENT, naming
 * kind, channels and bits), a format or rank the device does not support (UNSUPPORTED_FEATURE,
 * saying what it supports), a dimension above the device's image limit or more bytes than its
 * largest allocation (LIMIT_EXCEEDED, naming both), a device without images (UNSUPPORTED_FEATURE).
 */
AMP_API amp_status amp_texture_create(amp_accelerator_view *view, amp_extent extent,
                                      amp_texel_format format, amp_texture **out);

/* The same, filled from host memory holding the whole texture (`bytes` must be its size). */
AMP_API amp_status amp_texture_create_from(amp_accelerator_view *view, amp_extent extent,
                                           amp_texel_format format, const void *src, size_t bytes,
                                           amp_texture **out);

AMP_API amp_status amp_texture_get_extent(const amp_texture *texture, amp_extent *out);
AMP_API amp_status amp_texture_get_format(const amp_texture *texture, amp_texel_format *out);
/* The texture's size in bytes (its host data's). */
AMP_API amp_status amp_texture_get_bytes(const amp_texture *texture, size_t *out);
AMP_API amp_status amp_texture_get_accelerator_view(const amp_texture *texture,
                                                    amp_accelerator_view **out);

/* Releasing the last reference frees the texture once the work using it is done. */
AMP_API amp_status amp_texture_retain(amp_texture *texture);
AMP_API amp_status amp_texture_release(amp_texture *texture);

/* ---- copies (AMP's copy and copy_async for textures) ----------------------------------------
 * Host memory to a texture and back: `bytes` must equal the texture's size (EXTENT_MISMATCH naming
 * both). Between textures: equal extents (EXTENT_MISMATCH) and formats (INVALID_ARGUMENT), on the
 * same or different accelerators. Every check happens before a byte moves; a refused copy leaves
 * both sides as they were. The _async forms check at the call and return a future whose wait
 * gives the copy's status; host memory passed to them must stay untouched until then. */
AMP_API amp_status amp_copy_to_texture(const void *src, size_t bytes, amp_texture *dst);
AMP_API amp_status amp_copy_from_texture(amp_texture *src, void *dst, size_t bytes);
AMP_API amp_status amp_copy_texture(amp_texture *src, amp_texture *dst);
AMP_API amp_status amp_copy_to_texture_async(const void *src, size_t bytes, amp_texture *dst,
                                             amp_future **out);
AMP_API amp_status amp_copy_from_texture_async(amp_texture *src, void *dst, size_t bytes,
                                               amp_future **out);
AMP_API amp_status amp_copy_texture_async(amp_texture *src, amp_texture *dst, amp_future **out);

/* ---- the formats a device supports -------------------------------------------------------- */

typedef struct amp_texture_format_support {
  amp_texel_format format;
  unsigned ranks;       /* bit r-1 set: textures of rank r can be made and read in kernels */
  unsigned write_ranks; /* bit r-1 set: kernels can write textures of rank r */
} amp_texture_format_support;

/* The formats of the accelerator's device (clGetSupportedImageFormats), in a fixed order (kind,
 * channels, bits); only those with at least one rank. Writes up to `cap` entries to `out` (which
 * may be NULL when cap is 0) and the number there are to *count. AMP_ERROR_UNSUPPORTED_FEATURE for
 * an accelerator without images (the host "cpu" among them). */
AMP_API amp_status amp_texture_formats(amp_accelerator *acc, amp_texture_format_support *out,
                                       size_t cap, size_t *count);

/* ---- samplers and kernel arguments -------------------------------------------------------- */

/* AMP's filter_mode and address_mode, with AMP's values. */
typedef enum amp_filter_mode { AMP_FILTER_POINT = 0, AMP_FILTER_LINEAR = 1 } amp_filter_mode;
typedef enum amp_address_mode {
  AMP_ADDRESS_WRAP = 1,   /* repeat: coordinate modulo 1 */
  AMP_ADDRESS_MIRROR = 2, /* repeat, every other copy mirrored */
  AMP_ADDRESS_CLAMP = 3,  /* the nearest edge texel */
  AMP_ADDRESS_BORDER = 4  /* outside is the border colour, 0 in every channel */
} amp_address_mode;

/* A sampler (AMP's sampler): how amp_tex_sample reads a texture at normalized coordinates. */
typedef struct amp_sampler {
  amp_filter_mode filter;
  amp_address_mode address;
} amp_sampler;

/* A texture for a kernel's AMP_TEXTURE_READ(T, N, t) or AMP_TEXTURE_WRITE(T, N, t) parameter; a
 * sampler for an AMP_SAMPLER(s) parameter. The launch refuses, before anything moves, a texture
 * where a view, a scalar or a sampler is expected (and the reverse), a texture whose format is
 * not the parameter's value type T or whose rank is not N, a texture of another accelerator, one
 * texture given to a read and a write parameter of one kernel (OpenCL 1.2 cannot), a write to a
 * format the device cannot write, and a sampler with a filter or address mode that is not one of
 * the enums above (AMP_ERROR_KERNEL_ARGS, _INVALID_ARGUMENT or _UNSUPPORTED_FEATURE, naming the
 * argument and the parameter). */
AMP_API amp_arg amp_arg_texture(amp_texture *texture);
AMP_API amp_arg amp_arg_sampler(amp_sampler sampler);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_TEXTURE_H */
