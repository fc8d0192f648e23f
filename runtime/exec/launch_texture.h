/* runtime/exec/launch_texture.h: textures and samplers as kernel arguments (launch_texture.c). */
#ifndef AMPCL_RUNTIME_LAUNCH_TEXTURE_H
#define AMPCL_RUNTIME_LAUNCH_TEXTURE_H

#include "data/texture_impl.h"
#include "exec/program.h"

/* A texture parameter as AMP_TEXTURE_READ / _WRITE(T, N, t) declares it. */
typedef struct amp__tex_param {
  int write;             /* AMP_TEXTURE_WRITE */
  int rank;              /* N */
  amp_texel_format type; /* T (bits 0: any) */
} amp__tex_param;

/* Whether OpenCL parameter p starts a texture parameter (an image followed by its int4
 * t_amptexr_T / t_amptexw_T), filling *tp; or a sampler (AMP_SAMPLER: two sampler_t, the second
 * named s_amppoint). Each fills two OpenCL parameters. */
int amp__starts_texture(const amp__kernel_pool *pool, cl_uint p, amp__tex_param *tp);
int amp__starts_sampler(const amp__kernel_pool *pool, cl_uint p);
/* Whether OpenCL parameter p is an image not declared with AMP_TEXTURE_*. */
int amp__is_bare_image(const amp__kernel_pool *pool, cl_uint p);

/* "a read-only texture of float_4, rank 2" */
void amp__describe_texture_param(const amp__tex_param *tp, char *buf, size_t cap);
/* "a texture of unorm_4 (8 bits per channel), rank 2", "a sampler (linear, clamp)" */
void amp__describe_texture_arg(const amp_arg *a, char *buf, size_t cap);
/* Whether texture argument a fits parameter tp (value type and rank). */
int amp__texture_fits(const amp_arg *a, const amp__tex_param *tp);

/* The checks of a launch's textures and samplers as a whole, before anything moves: live handles,
 * the launch's accelerator, valid sampler modes (first, with the other handles), and then one
 * texture both read and written, formats the device cannot write (writes[i]: argument i is a
 * texture for a write parameter). */
amp_status amp__check_texture_handles(const amp_launch *l, const char *kname);
amp_status amp__check_texture_uses(const amp_launch *l, const amp_accelerator *acc,
                                   const int *writes, const char *kname);

/* writes[i] = 1 when argument i is a texture given to an AMP_TEXTURE_WRITE parameter, else 0
 * (walking the arguments over the kernel's OpenCL parameters). */
void amp__texture_arg_writes(const amp_launch *l, const amp__kernel_pool *pool, int *writes);

/* Sets OpenCL parameters p and p+1 for texture or sampler argument a. */
amp_status amp__set_texture_arg(cl_kernel k, cl_uint p, const amp_arg *a,
                                const amp_accelerator *acc, const char *kname, size_t i);

/* The launch's textures, locked for the enqueue: each texture once, with whether it is written. */
typedef struct amp__tex_uses {
  amp_texture **tex;
  int *write;
  size_t n;
} amp__tex_uses;

/* Locks the launch's textures (in address order) and adds to *wait what the kernel must wait for;
 * writes as amp__check_texture_uses has them. Nothing to do without textures. */
amp_status amp__texture_uses_acquire(const amp_launch *l, const int *writes, amp__tex_uses *u,
                                     amp__evlist *wait);
/* Records the kernel's event (NULL: it was not enqueued) and unlocks; frees u's arrays. */
void amp__texture_uses_finish(amp__tex_uses *u, cl_event ev);

#endif /* AMPCL_RUNTIME_LAUNCH_TEXTURE_H */
