/* runtime/exec/view_elem_text.h: a view's element type checked against the kernel's text, where
 * the driver's argument information is missing or not consulted (view_elem_text.c). */
#ifndef AMPCL_RUNTIME_VIEW_ELEM_TEXT_H
#define AMPCL_RUNTIME_VIEW_ELEM_TEXT_H

#include <stddef.h>

#include "ampcl/array_view.h"
#include "ampcl/kernel.h"
#include "exec/param_text.h"

/* The view `v`, argument i, given for a parameter the kernel's text declares AMP_VIEW(elem, param):
 * AMP_ERROR_KERNEL_ARGS, its message starting with `who`, where the declared type certainly is a
 * built-in type that is not the view's: the type itself, else what a -Dname=value of the
 * program's options makes it, else what the source's one definition of it makes it. Any other
 * type (a struct, a macro the source defines twice) is left alone. */
amp_status amp__check_view_elem_text(const char *who, const char *param, size_t i,
                                     const amp_array_view *v, const char *elem,
                                     const amp_program *prog);

#endif /* AMPCL_RUNTIME_VIEW_ELEM_TEXT_H */
