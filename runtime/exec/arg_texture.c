/* runtime/exec/arg_texture.c: a texture and a sampler as kernel arguments (AMP_ARG_TEXTURE,
 * AMP_ARG_SAMPLER): their amp_arg constructors, the AMP_TEXTURE_READ / _WRITE and AMP_SAMPLER
 * parameters they go to, their checks (in the user's terms, like the views' in arg_view.c), and
 * their rows of hooks (arg_kinds.h). What a launch's textures need together (one texture read and
 * written, formats the device writes, ordering) is launch_texture.c's. */
#include <stdio.h>
#include <string.h>

#include "data/texture_impl.h"
#include "exec/arg_kinds.h"
#include "exec/arg_mismatch.h"
#include "exec/param_type.h"

amp_arg amp_arg_texture(amp_texture *texture) {
  amp_arg a = {AMP_ARG_TEXTURE, {.texture = texture}};
  return a;
}

amp_arg amp_arg_sampler(amp_sampler sampler) {
  amp_arg a = {AMP_ARG_SAMPLER, {.sampler = {(int)sampler.filter, (int)sampler.address}}};
  return a;
}

/* An image followed by its int4 t_amptexr_T / t_amptexw_T (AMP_TEXTURE_READ / _WRITE(T, N, t)):
 * two OpenCL parameters. */
static int texture_declares(const amp__kernel_pool *pool, cl_uint p, amp__user_param *u) {
  const amp__param *P = pool->params;
  amp__tex_param *tp = &u->tp;
  int rank = amp__image_rank(P[p].type);
  if (!rank || p + 1 >= pool->nparams || strcmp(P[p + 1].type, "int4") != 0)
    return 0;
  const char *name = P[p].name, *comp = P[p + 1].name;
  size_t n = strlen(name);
  /* the companion is <name>_amptexr_<T> or <name>_amptexw_<T> */
  if (strncmp(comp, name, n) != 0 || strncmp(comp + n, "_amptex", 7) != 0 ||
      (comp[n + 7] != 'r' && comp[n + 7] != 'w') || comp[n + 8] != '_')
    return 0;
  const char *t = comp + n + 9;
  tp->write = comp[n + 7] == 'w';
  tp->rank = rank;
  tp->type = amp__texel_type_parse(t, strlen(t));
  if (!tp->type.kind)
    return 0;
  u->width = 2;
  return 1;
}

/* Two sampler_t, the second named s_amppoint (AMP_SAMPLER(s)): the sampler and its
 * point-filtered twin. */
static int sampler_declares(const amp__kernel_pool *pool, cl_uint p, amp__user_param *u) {
  const amp__param *P = pool->params;
  if (!strstr(P[p].type, "sampler_t") || p + 1 >= pool->nparams ||
      !strstr(P[p + 1].type, "sampler_t"))
    return 0;
  size_t n = strlen(P[p].name);
  if (strncmp(P[p + 1].name, P[p].name, n) != 0 || strcmp(P[p + 1].name + n, "_amppoint") != 0)
    return 0;
  u->width = 2;
  return 1;
}

static void texture_describe_param(const amp__kernel_pool *pool, const amp__user_param *u,
                                   const char *canon, char *buf, size_t cap) {
  (void)pool;
  (void)canon;
  snprintf(buf, cap, "a %s texture of %s, rank %d (%s)", u->tp.write ? "write-only" : "read-only",
           amp_texel_type_name(u->tp.type), u->tp.rank,
           u->tp.write ? "AMP_TEXTURE_WRITE" : "AMP_TEXTURE_READ");
}

static void sampler_describe_param(const amp__kernel_pool *pool, const amp__user_param *u,
                                   const char *canon, char *buf, size_t cap) {
  (void)pool;
  (void)u;
  (void)canon;
  snprintf(buf, cap, "a sampler (AMP_SAMPLER)");
}

/* "a texture of unorm_4 (8 bits per channel), rank 2" */
static void texture_describe(const amp_arg *a, char *buf, size_t cap) {
  const amp_texture *t = a->u.texture;
  char f[64];
  amp__texel_describe(t->format, f, sizeof f);
  snprintf(buf, cap, "a texture of %s, rank %d", f, t->extent.rank);
}

/* "a sampler (linear, clamp)" */
static void sampler_describe(const amp_arg *a, char *buf, size_t cap) {
  char modes[48];
  amp__sampler_describe(a->u.sampler.filter, a->u.sampler.address, modes, sizeof modes);
  snprintf(buf, cap, "a sampler (%s)", modes);
}

static amp_status texture_check_own(const amp_arg *a, size_t i, const char *kname) {
  amp_status status = amp__check_handle(a->u.texture, AMP__MAGIC_TEXTURE, "texture", kname);
  if (status != AMP_SUCCESS) {
    char which[96];
    snprintf(which, sizeof which, "; argument %zu (counting from 0) is not a live texture", i);
    amp__append_error(which);
  }
  return status;
}

static amp_status sampler_check_own(const amp_arg *a, size_t i, const char *kname) {
  char fn[160];
  snprintf(fn, sizeof fn, "parallel_for_each(%s): argument %zu (a sampler)", kname, i);
  return amp__sampler_check(a->u.sampler.filter, a->u.sampler.address, fn);
}

/* The parameter's value type and rank must be the texture's. */
static amp_status texture_check(const amp__arg_check *c, size_t i) {
  const amp_texture *t = c->t->launch->args[i].u.texture;
  const amp__tex_param *tp = &c->u->tp;
  if (c->u->decl != &amp__kind_texture)
    amp__note_kinds(c, i,
                    c->u->decl && c->u->decl->kind == AMP_ARG_VIEW
                        ? "; a texture is read with amp_tex_get, not through a view"
                        : "");
  else if (t->format.kind != tp->type.kind || t->format.channels != tp->type.channels ||
           t->extent.rank != tp->rank)
    amp__note_kinds(c, i, "");
  return AMP_SUCCESS;
}

static amp_status sampler_check(const amp__arg_check *c, size_t i) {
  if (c->u->decl != &amp__kind_sampler)
    amp__note_kinds(c, i, "");
  return AMP_SUCCESS;
}

/* Written when its parameter is AMP_TEXTURE_WRITE; without parameter information, read. */
static int texture_writes(const amp__launch_table *t, size_t i) {
  amp__user_param u = {.first = t->arg[i].first};
  const amp__kernel_pool *pool = t->pool;
  return pool->params && u.first < pool->nparams && texture_declares(pool, u.first, &u) &&
         u.tp.write;
}

static amp_texture *texture_of(const amp_arg *a) {
  return a->u.texture;
}

/* After a failed setter: which launch and argument. */
static void append_where(const char *kname, size_t i) {
  char where[128];
  snprintf(where, sizeof where, " (parallel_for_each(%s), argument %zu)", kname, i);
  amp__append_error(where);
}

/* The image and its shape (the extent and rank, t_amptexr_T / t_amptexw_T). */
static amp_status texture_set(const amp__launch_table *t, size_t i, cl_kernel k) {
  amp_status status = AMP_SUCCESS;
  const amp_texture *tex = t->launch->args[i].u.texture;
  cl_uint p = t->arg[i].first;
  cl_int4 shape;
  memset(&shape, 0, sizeof shape);
  for (int d = 0; d < tex->extent.rank; d++)
    shape.s[d] = tex->extent.dim[d];
  shape.s[3] = tex->extent.rank;
  AMP__CL(clSetKernelArg(k, p, sizeof tex->image, &tex->image), "clSetKernelArg (texture)");
  AMP__CL(clSetKernelArg(k, p + 1, sizeof shape, &shape), "clSetKernelArg (texture shape)");
fail:
  if (status != AMP_SUCCESS)
    append_where(t->pool->name, i);
  return status;
}

/* The sampler and its point-filtered twin, made once per accelerator (texture_sampler.c). */
static amp_status sampler_set(const amp__launch_table *t, size_t i, cl_kernel k) {
  amp_status status = AMP_SUCCESS;
  const amp_arg *a = &t->launch->args[i];
  cl_uint p = t->arg[i].first;
  cl_sampler s, point;
  AMP__TRY(amp__sampler_get(t->acc, a->u.sampler.filter, a->u.sampler.address, &s));
  AMP__TRY(amp__sampler_get(t->acc, AMP_FILTER_POINT, a->u.sampler.address, &point));
  AMP__CL(clSetKernelArg(k, p, sizeof s, &s), "clSetKernelArg (sampler)");
  AMP__CL(clSetKernelArg(k, p + 1, sizeof point, &point), "clSetKernelArg (sampler)");
fail:
  if (status != AMP_SUCCESS)
    append_where(t->pool->name, i);
  return status;
}

const amp__arg_kind amp__kind_texture = {
    .kind = AMP_ARG_TEXTURE,
    .params = 2,
    .declares = texture_declares,
    .describe_param = texture_describe_param,
    .describe = texture_describe,
    .check_own = texture_check_own,
    .check = texture_check,
    .writes = texture_writes,
    .texture = texture_of,
    .set = texture_set,
};

const amp__arg_kind amp__kind_sampler = {
    .kind = AMP_ARG_SAMPLER,
    .params = 2,
    .declares = sampler_declares,
    .describe_param = sampler_describe_param,
    .describe = sampler_describe,
    .check_own = sampler_check_own,
    .check = sampler_check,
    .set = sampler_set,
};
