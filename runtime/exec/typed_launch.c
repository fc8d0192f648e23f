/* runtime/exec/typed_launch.c: the entry of the typed launchers that ampcl_embed_cl generates from
 * a program's .cl files (cmake/ampclLaunchers.cmake; docs/KERNELS.md, "Typed launchers").
 *
 * A generated NAME_launch has one C parameter per kernel parameter, so the C compiler checks the
 * count and kind of its arguments; what it cannot see is checked here before the launch proper
 * (amp_parallel_for_each_ex), in the launcher's terms: a NULL kernel, a kernel of another name,
 * a NULL view or texture, named by its parameter, and a view whose element type is not the one the
 * kernel's text declares for it (elems[i]: the T of AMP_VIEW(T, v), a typedef or one-token macro
 * followed through the program's source). That last check needs no argument information from the
 * driver; the launch then checks element types again from the driver's answers, as every launch
 * does, where the driver gives them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/handle.h"
#include "data/elem_names.h"
#include "data/source.h"
#include "exec/param_type.h"
#include "exec/program.h"

/* The built-in type `name` (spaces removed) certainly stands for in a program of this source and
 * these build options (malloc'd; "" when not certain; NULL when out of memory): itself; else what a
 * -Dname=value option makes it (the options win over the source's `#ifndef name` defaults); else
 * what the source's one definition of it makes it, followed a few levels. A name the source
 * defines more than once (under #if and #else) is not followed: the text cannot say which holds. */
static char *certain_type(const char *name, const char *source, const char *options) {
  char *t = amp__canonical_type(options, name);
  if (!t || amp__builtin_type_size(t))
    return t;
  free(t);
  char *cur = strdup(name);
  for (int depth = 0; cur && depth < 8 && !amp__builtin_type_size(cur); depth++) {
    char *next = amp__type_definitions(source, cur) == 1 ? amp__canonical_type(source, cur) : NULL;
    if (next && strcmp(next, cur) != 0 && !amp__builtin_type_size(next)) {
      char *opt = amp__canonical_type(options, next);
      free(next);
      next = opt;
    }
    if (!next || strcmp(next, cur) == 0) {
      free(next);
      cur[0] = '\0';
      return cur;
    }
    free(cur);
    cur = next;
  }
  if (cur && !amp__builtin_type_size(cur))
    cur[0] = '\0';
  return cur;
}

/* The view given for the parameter declared AMP_VIEW(elem, ...): AMP_ERROR_KERNEL_ARGS where the
 * declared type certainly is a built-in type that is not the view's (certain_type). Any other type
 * (a struct, a macro defined twice) is left to the launch's own checks. */
static amp_status check_elem(const char *launcher, const char *param, size_t i,
                             const amp_array_view *v, const char *elem, const char *source,
                             const char *options) {
  amp_status status = AMP_SUCCESS;
  char *declared = NULL, spaced[64], *o = spaced;
  AMP__TRY(amp__check_handle(v, AMP__MAGIC_ARRAY_VIEW, "array view", launcher));
  for (const char *s = elem; *s && o < spaced + sizeof spaced - 1; s++)
    if (*s != ' ')
      *o++ = *s;
  *o = '\0';
  declared = certain_type(spaced, source, options);
  if (!declared)
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  size_t size = amp__builtin_type_size(declared);
  const char *have = amp__elem_names_of(v->type.kind)->cl;
  if (size && (have ? strcmp(have, declared) != 0 : size != v->type.size)) {
    char what[48];
    if (have)
      snprintf(what, sizeof what, "%s", have);
    else
      snprintf(what, sizeof what, "%zu-byte structs", v->type.size);
    char decl[160];
    if (strcmp(spaced, declared) != 0)
      snprintf(decl, sizeof decl, "%s, which is %s", elem, declared);
    else
      snprintf(decl, sizeof decl, "%s", declared);
    AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
              "%s: the view for parameter '%s' is a view of %s, but the kernel declares it a view "
              "of %s (the kernel's parameter %zu, counting from 0)",
              launcher, param, what, decl, i);
  }
fail:
  free(declared);
  return status;
}

amp_status amp_parallel_for_each_typed(amp_accelerator_view *view, const amp_launch *launch,
                                       int tile_rank, const char *kernel_name,
                                       const char *const *params, const char *const *elems,
                                       amp_future **done) {
  amp_status status = AMP_SUCCESS;
  const char *name = kernel_name ? kernel_name : "?";
  if (!launch || (launch->nargs && (!launch->args || !params)))
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s_launch: %s is NULL", name,
              !launch         ? "launch"
              : !launch->args ? "args"
                              : "params");
  if (!launch->kernel)
    AMP__FAIL(AMP_ERROR_INVALID_HANDLE,
              "%s_launch: the kernel is NULL; make it with %s_kernel(program, &kernel)", name,
              name);
  AMP__CHECK(launch->kernel, AMP__MAGIC_KERNEL, "kernel");
  if (kernel_name && strcmp(launch->kernel->name, kernel_name) != 0)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s_launch: the kernel given is %s, not %s; make it with %s_kernel(program, "
              "&kernel)",
              name, launch->kernel->name, name, name);
  for (size_t i = 0; i < launch->nargs; i++) {
    const amp_arg *a = &launch->args[i];
    const char *what = a->kind == AMP_ARG_VIEW      ? (a->u.view ? NULL : "view")
                       : a->kind == AMP_ARG_TEXTURE ? (a->u.texture ? NULL : "texture")
                                                    : NULL;
    if (what)
      AMP__FAIL(AMP_ERROR_INVALID_HANDLE,
                "%s_launch: the %s for parameter '%s' is NULL (the kernel's parameter %zu, "
                "counting from 0)",
                name, what, params[i] ? params[i] : "?", i);
  }
  char launcher[96];
  snprintf(launcher, sizeof launcher, "%s_launch", name);
  for (size_t i = 0; elems && i < launch->nargs; i++)
    if (elems[i] && launch->args[i].kind == AMP_ARG_VIEW)
      AMP__TRY(check_elem(launcher, params[i] ? params[i] : "?", i, launch->args[i].u.view,
                          elems[i], launch->kernel->program->source,
                          launch->kernel->program->options));
  if (launch->tiled && launch->domain.rank >= 1 && launch->domain.rank <= AMP_MAX_RANK &&
      tile_rank != 0 && tile_rank != launch->domain.rank)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH,
              "%s_launch: a rank-%d tile was given for a rank-%d extent; use amp_tile%d", name,
              tile_rank, launch->domain.rank, launch->domain.rank);
  if (!view)
    AMP__TRY(amp_default_view(&view));
  AMP__TRY(amp_parallel_for_each_ex(view, launch, done));
fail:
  return status;
}
