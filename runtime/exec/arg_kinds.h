/* runtime/exec/arg_kinds.h: the kinds of kernel argument (amp_arg_kind), each one row of data and
 * hooks. Everything a launch does with an argument goes through its kind's row: how many OpenCL
 * parameters it fills, how the prelude declares its parameter and how that is described, its
 * checks, the data it gives the kernel (views to copy, textures to order, debug mode's record),
 * and its setters.
 *
 * Each row is defined with its hooks in its subject's file (arg_view.c, arg_value.c,
 * arg_texture.c); arg_kinds.c indexes them by amp_arg_kind. Adding a kind is a row in a file of
 * its subject and a line in that index (docs/ARCHITECTURE.md, "A new argument kind"). */
#ifndef AMPCL_RUNTIME_ARG_KINDS_H
#define AMPCL_RUNTIME_ARG_KINDS_H

#include "ampcl/texture.h"
#include "exec/launch_table.h"

/* A texture parameter as AMP_TEXTURE_READ / _WRITE(T, N, t) declares it. */
typedef struct amp__tex_param {
  int write;             /* AMP_TEXTURE_WRITE */
  int rank;              /* N */
  amp_texel_format type; /* T (bits 0: any) */
} amp__tex_param;

/* A kernel parameter as the user wrote it. The compiler lists OpenCL parameters; AMP_VIEW(T, v)
 * is two of them (the buffer v_data and the shape v_shape; three in debug mode, with v_debug) and
 * one parameter, named v, to the user, who passes one argument for it. */
typedef struct amp__user_param {
  cl_uint first;             /* its first OpenCL parameter */
  cl_uint width;             /* how many OpenCL parameters it is */
  const amp__arg_kind *decl; /* the kind whose macro declared it (AMP_VIEW, AMP_TEXTURE_*,
                                AMP_SAMPLER); NULL: a parameter of OpenCL's own */
  amp__tex_param tp;         /* a texture's: how it was declared */
} amp__user_param;

typedef struct amp__arg_check amp__arg_check; /* exec/arg_mismatch.h */

/* A kind's row. params, describe and check are required; a NULL hook is "nothing to do". */
struct amp__arg_kind {
  amp_arg_kind kind;

  /* --- its parameters in the kernel --- */
  cl_uint params;          /* OpenCL parameters an argument fills (a view: its buffer, its shape) */
  int debug_record;        /* 1: in debug mode one more follows them, the record of bad accesses
                              (launch_debug.c binds it and reports what the kernel wrote there) */
  const char *name_suffix; /* what its macro adds to the user's name of the first ("_data":
                              AMP_VIEW(T, v) declares v_data); NULL: nothing */
  /* Whether OpenCL parameter p starts a parameter this kind's macro declares; if so fills
   * u->width (and u->tp). NULL: the kind takes a parameter of OpenCL's own. */
  int (*declares)(const amp__kernel_pool *pool, cl_uint p, amp__user_param *u);
  /* Such a parameter in the user's terms ("a const view of float"); canon: its type, canonical. */
  void (*describe_param)(const amp__kernel_pool *pool, const amp__user_param *u, const char *canon,
                         char *buf, size_t cap);

  /* --- the argument, checked before anything moves --- */
  void (*describe)(const amp_arg *a, char *buf, size_t cap); /* "a view of float" */
  /* The argument on its own, first (a live handle, valid modes); kname names the kernel. */
  amp_status (*check_own)(const amp_arg *a, size_t i, const char *kname);
  /* Argument i against the parameter it is given to (c->u), noting a mismatch
   * (arg_mismatch.h); fails at once only where the argument itself is broken. */
  amp_status (*check)(const amp__arg_check *c, size_t i);
  int (*fp64)(const amp_arg *a); /* it needs double precision */
  /* Whether the kernel writes what argument i passes (its parameter at t->arg[i].first, when the
   * driver lists parameters). */
  int (*writes)(const amp__launch_table *t, size_t i);
  size_t (*tile_bytes)(const amp_arg *a); /* tile_static bytes it asks for per tile */

  /* --- the data it gives the kernel --- */
  amp_array_view *(*view)(const amp_arg *a); /* a view, made valid on the accelerator first */
  amp_texture *(*texture)(const amp_arg *a); /* a texture, ordered with its other commands */

  /* --- setting it on the cl_kernel, from parameter t->arg[i].first on --- */
  amp_status (*set)(const amp__launch_table *t, size_t i, cl_kernel k);      /* before data moves */
  amp_status (*set_data)(const amp__launch_table *t, size_t i, cl_kernel k); /* once it is there */
};

/* The row of a kind; for a value that is no amp_arg_kind, a row whose check refuses it. */
const amp__arg_kind *amp__arg_kind_of(amp_arg_kind kind);
/* The kind whose macro declares OpenCL parameter p of the pool's kernel (filling u's width and
 * detail), or NULL. */
const amp__arg_kind *amp__arg_kind_declaring(const amp__kernel_pool *pool, cl_uint p,
                                             amp__user_param *u);

/* The OpenCL parameters one argument of kind k fills in the pool's kernel. */
static inline cl_uint amp__arg_width(const amp__kernel_pool *pool, const amp__arg_kind *k) {
  return k->params + (pool->checked && k->debug_record ? 1u : 0u);
}

/* The rows, each defined in its subject's file. */
extern const amp__arg_kind amp__kind_view;                       /* arg_view.c */
extern const amp__arg_kind amp__kind_int32, amp__kind_uint32;    /* arg_value.c */
extern const amp__arg_kind amp__kind_float, amp__kind_double;    /* arg_value.c */
extern const amp__arg_kind amp__kind_bytes, amp__kind_local;     /* arg_value.c */
extern const amp__arg_kind amp__kind_texture, amp__kind_sampler; /* arg_texture.c */
extern const amp__arg_kind amp__kind_array;                      /* arg_array.c */
extern const amp__arg_kind amp__kind_pointer;                    /* arg_pointer.c */

/* The view a view or array argument passes: a view's own, an array's whole view (arg_view.c). */
amp_array_view *amp__arg_view(const amp_arg *a);

/* The view hooks the pointer kind shares (arg_view.c): the argument described, checked on its own,
 * its element type and access checked against parameter c->P (named pname), its need of double
 * precision, whether the kernel writes it, and the view itself. */
void amp__view_arg_describe(const amp_arg *a, char *buf, size_t cap);
amp_status amp__view_arg_check_own(const amp_arg *a, size_t i, const char *kname);
void amp__view_check_elements(const amp__arg_check *c, size_t i, const char *pname);
int amp__view_arg_fp64(const amp_arg *a);
int amp__view_arg_writes(const amp__launch_table *t, size_t i);
amp_array_view *amp__view_arg_of(const amp_arg *a);

/* Whether OpenCL parameter p of the pool's kernel is a plain pointer an amp_arg_view binds to as
 * a pointer (a __global or __constant pointer that no AMP_VIEW declares); arg_pointer.c. */
int amp__is_plain_pointer_param(const amp__kernel_pool *pool, cl_uint p);

/* Sets OpenCL parameter p of k to `size` bytes at value (NULL: a __local buffer of that size);
 * a failure names the kernel and argument i (arg_value.c). */
amp_status amp__set_value_param(cl_kernel k, cl_uint p, size_t size, const void *value,
                                const char *kname, size_t i);

#endif /* AMPCL_RUNTIME_ARG_KINDS_H */
