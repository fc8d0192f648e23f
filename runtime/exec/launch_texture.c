/* runtime/exec/launch_texture.c: textures and samplers as kernel arguments: the amp_arg
 * constructors, recognising AMP_TEXTURE_READ / _WRITE and AMP_SAMPLER parameters, the checks a
 * launch makes of them before anything moves (in the user's terms, like the views' in
 * launch_args.c), setting them on the kernel, and ordering the kernel after the commands that use
 * its textures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/launch_debug.h"
#include "exec/launch_texture.h"

amp_arg amp_arg_texture(amp_texture *texture) {
  amp_arg a = {AMP_ARG_TEXTURE, {.texture = texture}};
  return a;
}

amp_arg amp_arg_sampler(amp_sampler sampler) {
  amp_arg a = {AMP_ARG_SAMPLER, {.sampler = {(int)sampler.filter, (int)sampler.address}}};
  return a;
}

/* The rank of an image parameter's type, 0 for another type. Drivers write the type without
 * spaces, some with its access qualifier in front ("read_onlyimage2d_t"): the name is searched
 * for, not compared (image1d_array_t and image1d_buffer_t do not match). */
static int image_rank(const char *type) {
  if (strstr(type, "image1d_t"))
    return 1;
  if (strstr(type, "image2d_t"))
    return 2;
  if (strstr(type, "image3d_t"))
    return 3;
  return 0;
}

int amp__is_bare_image(const amp__kernel_pool *pool, cl_uint p) {
  amp__tex_param tp;
  return image_rank(pool->params[p].type) && !amp__starts_texture(pool, p, &tp);
}

int amp__starts_texture(const amp__kernel_pool *pool, cl_uint p, amp__tex_param *tp) {
  const amp__param *P = pool->params;
  int rank = image_rank(P[p].type);
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
  return tp->type.kind != 0;
}

int amp__starts_sampler(const amp__kernel_pool *pool, cl_uint p) {
  const amp__param *P = pool->params;
  if (!strstr(P[p].type, "sampler_t") || p + 1 >= pool->nparams ||
      !strstr(P[p + 1].type, "sampler_t"))
    return 0;
  size_t n = strlen(P[p].name);
  return strncmp(P[p + 1].name, P[p].name, n) == 0 && strcmp(P[p + 1].name + n, "_amppoint") == 0;
}

void amp__describe_texture_param(const amp__tex_param *tp, char *buf, size_t cap) {
  snprintf(buf, cap, "a %s texture of %s, rank %d (%s)", tp->write ? "write-only" : "read-only",
           amp_texel_type_name(tp->type), tp->rank,
           tp->write ? "AMP_TEXTURE_WRITE" : "AMP_TEXTURE_READ");
}

void amp__describe_texture_arg(const amp_arg *a, char *buf, size_t cap) {
  if (a->kind == AMP_ARG_SAMPLER) {
    char modes[48];
    amp__sampler_describe(a->u.sampler.filter, a->u.sampler.address, modes, sizeof modes);
    snprintf(buf, cap, "a sampler (%s)", modes);
    return;
  }
  const amp_texture *t = a->u.texture;
  char f[64];
  amp__texel_describe(t->format, f, sizeof f);
  snprintf(buf, cap, "a texture of %s, rank %d", f, t->extent.rank);
}

int amp__texture_fits(const amp_arg *a, const amp__tex_param *tp) {
  const amp_texture *t = a->u.texture;
  return t->format.kind == tp->type.kind && t->format.channels == tp->type.channels &&
         t->extent.rank == tp->rank;
}

amp_status amp__check_texture_handles(const amp_launch *l, const char *kname) {
  amp_status status = AMP_SUCCESS;
  for (size_t i = 0; i < l->nargs; i++) {
    const amp_arg *a = &l->args[i];
    if (a->kind == AMP_ARG_TEXTURE) {
      status = amp__check_handle(a->u.texture, AMP__MAGIC_TEXTURE, "texture", kname);
      if (status != AMP_SUCCESS) {
        char which[96];
        snprintf(which, sizeof which, "; argument %zu (counting from 0) is not a live texture", i);
        amp__append_error(which);
        goto fail;
      }
    } else if (a->kind == AMP_ARG_SAMPLER) {
      char fn[160];
      snprintf(fn, sizeof fn, "parallel_for_each(%s): argument %zu (a sampler)", kname, i);
      AMP__TRY(amp__sampler_check(a->u.sampler.filter, a->u.sampler.address, fn));
    }
  }
fail:
  return status;
}

amp_status amp__check_texture_uses(const amp_launch *l, const amp_accelerator *acc,
                                   const int *writes, const char *kname) {
  amp_status status = AMP_SUCCESS;
  for (size_t i = 0; i < l->nargs; i++) {
    if (l->args[i].kind != AMP_ARG_TEXTURE)
      continue;
    amp_texture *t = l->args[i].u.texture;
    if (t->view->acc != acc)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                "parallel_for_each(%s): argument %zu is a texture on %s, but the kernel runs on "
                "%s; a texture stays on its accelerator (copy it to a texture there with "
                "amp_copy_texture)",
                kname, i, t->view->acc->props.device_path, acc->props.device_path);
    for (size_t j = i + 1; j < l->nargs; j++)
      if (l->args[j].kind == AMP_ARG_TEXTURE && l->args[j].u.texture == t &&
          (writes[i] || writes[j]))
        AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
                  "parallel_for_each(%s): arguments %zu and %zu are the same texture, %s and %s; "
                  "an OpenCL 1.2 kernel cannot read and write one image (read_write images need "
                  "OpenCL 2.0): write into a second texture and copy it back (amp_copy_texture)",
                  kname, i, j, writes[i] ? "written" : "read", writes[j] ? "written" : "read");
    if (writes[i]) {
      unsigned ranks = 0, w = 0;
      AMP__TRY(amp__texel_support((amp_accelerator *)acc, t->format, &ranks, &w, kname));
      if (!(w & (1u << (t->extent.rank - 1)))) {
        char f[64];
        amp__texel_describe(t->format, f, sizeof f);
        AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
                  "parallel_for_each(%s): argument %zu is a rank-%d texture of %s for a write "
                  "parameter, but kernels on %s cannot write that format at that rank%s",
                  kname, i, t->extent.rank, f, acc->props.device_path,
                  t->extent.rank == 3 ? " (3-D image writes need cl_khr_3d_image_writes)" : "");
      }
    }
  }
fail:
  return status;
}

void amp__texture_arg_writes(const amp_launch *l, const amp__kernel_pool *pool, int *writes) {
  cl_uint p = 0;
  for (size_t i = 0; i < l->nargs; i++) {
    const amp_arg *a = &l->args[i];
    amp__tex_param tp;
    writes[i] = 0;
    if (a->kind == AMP_ARG_TEXTURE && pool->params && p < pool->nparams &&
        amp__starts_texture(pool, p, &tp))
      writes[i] = tp.write;
    p += amp__arg_params(pool, a->kind);
  }
}

amp_status amp__set_texture_arg(cl_kernel k, cl_uint p, const amp_arg *a,
                                const amp_accelerator *acc, const char *kname, size_t i) {
  amp_status status = AMP_SUCCESS;
  if (a->kind == AMP_ARG_TEXTURE) {
    const amp_texture *t = a->u.texture;
    cl_int4 shape;
    memset(&shape, 0, sizeof shape);
    for (int d = 0; d < t->extent.rank; d++)
      shape.s[d] = t->extent.dim[d];
    shape.s[3] = t->extent.rank;
    AMP__CL(clSetKernelArg(k, p, sizeof t->image, &t->image), "clSetKernelArg (texture)");
    AMP__CL(clSetKernelArg(k, p + 1, sizeof shape, &shape), "clSetKernelArg (texture shape)");
  } else {
    cl_sampler s, point;
    amp_accelerator *mut = (amp_accelerator *)acc;
    AMP__TRY(amp__sampler_get(mut, a->u.sampler.filter, a->u.sampler.address, &s));
    AMP__TRY(amp__sampler_get(mut, AMP_FILTER_POINT, a->u.sampler.address, &point));
    AMP__CL(clSetKernelArg(k, p, sizeof s, &s), "clSetKernelArg (sampler)");
    AMP__CL(clSetKernelArg(k, p + 1, sizeof point, &point), "clSetKernelArg (sampler)");
  }
fail:
  if (status != AMP_SUCCESS) {
    char where[128];
    snprintf(where, sizeof where, " (parallel_for_each(%s), argument %zu)", kname, i);
    amp__append_error(where);
  }
  return status;
}

static int by_address(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (amp_texture *const *)a, y = (uintptr_t) * (amp_texture *const *)b;
  return x < y ? -1 : x > y;
}

amp_status amp__texture_uses_acquire(const amp_launch *l, const int *writes, amp__tex_uses *u,
                                     amp__evlist *wait) {
  amp_status status = AMP_SUCCESS;
  size_t n = 0;
  u->tex = NULL;
  u->write = NULL;
  u->n = 0;
  for (size_t i = 0; i < l->nargs; i++)
    n += l->args[i].kind == AMP_ARG_TEXTURE;
  if (!n)
    return AMP_SUCCESS;
  u->tex = malloc(n * sizeof *u->tex);
  u->write = calloc(n, sizeof *u->write);
  if (!u->tex || !u->write) {
    free(u->tex);
    free(u->write);
    u->tex = NULL;
    u->write = NULL;
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  for (size_t i = 0; i < l->nargs; i++)
    if (l->args[i].kind == AMP_ARG_TEXTURE)
      u->tex[u->n++] = l->args[i].u.texture;
  qsort(u->tex, u->n, sizeof *u->tex, by_address);
  size_t k = 0; /* each texture once */
  for (size_t i = 0; i < u->n; i++)
    if (!k || u->tex[k - 1] != u->tex[i])
      u->tex[k++] = u->tex[i];
  u->n = k;
  for (size_t i = 0; i < l->nargs; i++)
    if (l->args[i].kind == AMP_ARG_TEXTURE && writes[i])
      for (size_t j = 0; j < u->n; j++)
        if (u->tex[j] == l->args[i].u.texture)
          u->write[j] = 1;
  for (size_t j = 0; j < u->n; j++)
    pthread_mutex_lock(&u->tex[j]->lock);
  for (size_t j = 0; j < u->n && status == AMP_SUCCESS; j++)
    status = amp__texture_wait_list(u->tex[j], u->write[j], wait);
  if (status != AMP_SUCCESS)
    amp__texture_uses_finish(u, NULL);
  return status;
}

void amp__texture_uses_finish(amp__tex_uses *u, cl_event ev) {
  for (size_t j = 0; j < u->n; j++) {
    amp__texture_record(u->tex[j], u->write[j], ev);
    pthread_mutex_unlock(&u->tex[j]->lock);
  }
  free(u->tex);
  free(u->write);
  u->tex = NULL;
  u->write = NULL;
  u->n = 0;
}
