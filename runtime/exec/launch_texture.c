/* runtime/exec/launch_texture.c: a launch's textures together: the checks that span its
 * arguments, made before anything moves, and ordering the kernel after the commands that use its
 * textures (launch_texture.h). Each texture argument on its own is arg_texture.c's. */
#include <stdio.h>
#include <stdlib.h>

#include "exec/arg_kinds.h"
#include "exec/launch_texture.h"

/* The texture argument i passes (its kind's texture hook), or NULL. */
static amp_texture *texture_at(const amp__launch_table *t, size_t i) {
  const amp__arg_kind *kind = t->arg[i].kind;
  return kind->texture ? kind->texture(&t->launch->args[i]) : NULL;
}

/* A written texture's format must be one the device's kernels write at its rank. */
static amp_status check_writable(const amp__launch_table *t, size_t i, amp_texture *tex) {
  amp_status status = AMP_SUCCESS;
  const char *kname = t->pool->name;
  unsigned ranks = 0, w = 0;
  AMP__TRY(amp__texel_support(t->acc, tex->format, &ranks, &w, kname));
  if (!(w & (1u << (tex->extent.rank - 1)))) {
    char f[64];
    amp__texel_describe(tex->format, f, sizeof f);
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "parallel_for_each(%s): argument %zu is a rank-%d texture of %s for a write "
              "parameter, but kernels on %s cannot write that format at that rank%s",
              kname, i, tex->extent.rank, f, t->acc->props.device_path,
              tex->extent.rank == 3 ? " (3-D image writes need cl_khr_3d_image_writes)" : "");
  }
fail:
  return status;
}

amp_status amp__check_texture_uses(const amp__launch_table *t) {
  amp_status status = AMP_SUCCESS;
  const char *kname = t->pool->name;
  const amp_accelerator *acc = t->acc;
  size_t n = t->launch->nargs;
  for (size_t i = 0; i < n; i++) {
    amp_texture *tex = texture_at(t, i);
    if (!tex)
      continue;
    if (tex->view->acc != acc)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                "parallel_for_each(%s): argument %zu is a texture on %s, but the kernel runs on "
                "%s; a texture stays on its accelerator (copy it to a texture there with "
                "amp_copy_texture)",
                kname, i, tex->view->acc->props.device_path, acc->props.device_path);
    for (size_t j = i + 1; j < n; j++)
      if (texture_at(t, j) == tex && (t->arg[i].write || t->arg[j].write))
        AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
                  "parallel_for_each(%s): arguments %zu and %zu are the same texture, %s and %s; "
                  "an OpenCL 1.2 kernel cannot read and write one image (read_write images need "
                  "OpenCL 2.0): write into a second texture and copy it back (amp_copy_texture)",
                  kname, i, j, t->arg[i].write ? "written" : "read",
                  t->arg[j].write ? "written" : "read");
    if (t->arg[i].write)
      AMP__TRY(check_writable(t, i, tex));
  }
fail:
  return status;
}

static int by_address(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (amp_texture *const *)a, y = (uintptr_t) * (amp_texture *const *)b;
  return x < y ? -1 : x > y;
}

/* u->tex: each of the launch's textures once, in address order (the order they are locked in),
 * with whether any argument writes it. */
static amp_status collect(const amp__launch_table *t, size_t n, amp__tex_uses *u) {
  size_t nargs = t->launch->nargs;
  u->tex = malloc(n * sizeof *u->tex);
  u->write = calloc(n, sizeof *u->write);
  if (!u->tex || !u->write) {
    free(u->tex);
    free(u->write);
    u->tex = NULL;
    u->write = NULL;
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  for (size_t i = 0; i < nargs; i++)
    if (texture_at(t, i))
      u->tex[u->n++] = texture_at(t, i);
  qsort(u->tex, u->n, sizeof *u->tex, by_address);
  size_t k = 0; /* each texture once */
  for (size_t i = 0; i < u->n; i++)
    if (!k || u->tex[k - 1] != u->tex[i])
      u->tex[k++] = u->tex[i];
  u->n = k;
  for (size_t i = 0; i < nargs; i++)
    if (texture_at(t, i) && t->arg[i].write)
      for (size_t j = 0; j < u->n; j++)
        if (u->tex[j] == texture_at(t, i))
          u->write[j] = 1;
  return AMP_SUCCESS;
}

amp_status amp__texture_uses_acquire(const amp__launch_table *t, amp__tex_uses *u,
                                     amp__evlist *wait) {
  amp_status status = AMP_SUCCESS;
  size_t n = 0;
  u->tex = NULL;
  u->write = NULL;
  u->n = 0;
  for (size_t i = 0; i < t->launch->nargs; i++)
    n += texture_at(t, i) != NULL;
  if (!n)
    return AMP_SUCCESS;
  AMP__TRY(collect(t, n, u));
  for (size_t j = 0; j < u->n; j++)
    pthread_mutex_lock(&u->tex[j]->lock);
  for (size_t j = 0; j < u->n && status == AMP_SUCCESS; j++)
    status = amp__texture_wait_list(u->tex[j], u->write[j], wait);
  if (status != AMP_SUCCESS)
    amp__texture_uses_finish(u, NULL);
fail:
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
