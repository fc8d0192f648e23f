/* runtime/exec/view_elem_text.c: a view's element type checked against the kernel's text.
 *
 * The launch checks a view's element type against the parameter type the driver reports
 * (-cl-kernel-arg-info). Two callers cannot rely on that: the typed launchers, which know each
 * parameter's T from the .cl file when they are generated (typed_launch.c), and a launch whose
 * program was built without argument information (NVIDIA's compiler, driver 580, refuses it for a
 * program holding a kernel without parameters; program_build.c), which reads the kernel's
 * parameter list from the source (param_text.c). A type is followed only where the text leaves no
 * doubt. */
#include "exec/view_elem_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/handle.h"
#include "data/elem_names.h"
#include "data/source.h"
#include "exec/param_text.h"
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
amp_status amp__check_view_elem_text(const char *launcher, const char *param, size_t i,
                                     const amp_array_view *v, const char *elem,
                                     const amp_program *prog) {
  const char *source = prog->source, *options = prog->options;
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
