/* runtime/data/texture_impl.h: the runtime's side of ampcl/texture.h: what a texture is, its
 * formats in OpenCL's terms (texture_format.c), the samplers (texture_sampler.c), and the ordering
 * of the commands that use it (texture.c). */
#ifndef AMPCL_RUNTIME_TEXTURE_IMPL_H
#define AMPCL_RUNTIME_TEXTURE_IMPL_H

#include <pthread.h>

#include "ampcl/texture.h"
#include "core/accelerator_impl.h"
#include "core/events.h"

/* An OpenCL image on one accelerator. Commands that use it are ordered by events: a read waits
 * for the last write, a write for the last write and every read since (lock guards both). */
struct amp_texture {
  uint32_t magic;
  _Atomic int refs;
  amp_accelerator_view *view;
  amp_extent extent;
  amp_texel_format format;
  size_t texel_bytes, bytes;
  cl_mem image;
  pthread_mutex_t lock;
  cl_event last_write;
  amp__evlist reads;
};

/* ---- formats (texture_format.c) ---- */

/* INVALID_ARGUMENT naming kind, channels and bits when `f` is not a valid texel format. */
amp_status amp__texel_format_check(amp_texel_format f, const char *fn);
/* OpenCL's image format for a valid texel format. */
cl_image_format amp__texel_cl_format(amp_texel_format f);

/* texture_probe.c: whether acc's kernels read half-float 2-D images of each of the `norders`
 * channel orders (with channels[i] channels each) back exactly: 1 if so, 0 if not or if the probe
 * could not run. */
int amp__half_images_read_right(amp_accelerator *acc, const cl_channel_order *orders,
                                const int *channels, int norders);

/* The value type named `name` ("float_4", "unorm"), or a format with kind 0. bits is 0. */
amp_texel_format amp__texel_type_parse(const char *name, size_t len);
/* "float_4 (32 bits per channel)" into buf. */
void amp__texel_describe(amp_texel_format f, char *buf, size_t cap);
/* Which ranks the accelerator supports for `f`: bit r-1 of *ranks (made and read), of *write
 * (written by kernels). Fails for an accelerator without images. */
amp_status amp__texel_support(amp_accelerator *acc, amp_texel_format f, unsigned *ranks,
                              unsigned *write, const char *fn);

/* ---- samplers (texture_sampler.c) ---- */

/* INVALID_ARGUMENT naming the value when filter or address is not one of ampcl's enums. */
amp_status amp__sampler_check(int filter, int address, const char *fn);
/* "linear, clamp" */
void amp__sampler_describe(int filter, int address, char *buf, size_t cap);
/* The accelerator's OpenCL sampler (normalized coordinates) for the modes, made at first use
 * and kept for the life of the process. */
amp_status amp__sampler_get(amp_accelerator *acc, int filter, int address, cl_sampler *out);

/* ---- ordering (texture.c) ---- */

/* Adds to *wait what a command using t must wait for (a write waits for reads too). */
amp_status amp__texture_wait_list(amp_texture *t, int write, amp__evlist *wait);
/* Records ev (the command's event) as t's last write, or as one more read. */
void amp__texture_record(amp_texture *t, int write, cl_event ev);

#endif /* AMPCL_RUNTIME_TEXTURE_IMPL_H */
