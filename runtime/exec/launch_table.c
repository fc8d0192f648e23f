/* runtime/exec/launch_table.c: one launch's arguments laid over its kernel's OpenCL parameters,
 * and the walks over them that set the kernel's arguments through each kind's setters
 * (launch_table.h). */
#include "exec/launch_table.h"

#include <stdlib.h>

#include "exec/arg_kinds.h"

amp_status amp__launch_table_init(amp__launch_table *t, const amp_launch *l, amp_accelerator *acc,
                                  const amp__kernel_pool *pool) {
  t->launch = l;
  t->acc = acc;
  t->pool = pool;
  t->params = 0;
  t->arg = l->nargs > 16 ? malloc(l->nargs * sizeof *t->arg) : t->stack;
  if (!t->arg)
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; i < l->nargs; i++) {
    const amp__arg_kind *kind = amp__arg_kind_of(l->args[i].kind);
    if (kind == &amp__kind_view && amp__is_plain_pointer_param(pool, t->params))
      kind = &amp__kind_pointer; /* an unchanged OpenCL kernel's `__global T *p` */
    cl_uint width = amp__arg_width(pool, kind);
    t->arg[i] = (amp__launch_arg){kind, t->params, width, 0, NULL};
    t->params += width;
  }
  return AMP_SUCCESS;
}

void amp__launch_table_free(amp__launch_table *t) {
  for (size_t i = 0; t->arg && i < t->launch->nargs; i++)
    if (t->arg[i].sub)
      clReleaseMemObject(t->arg[i].sub);
  if (t->arg != t->stack)
    free(t->arg);
  t->arg = NULL;
}

/* Calls each argument's setter of the one phase: set (before data moves) or set_data. */
static amp_status set_each(const amp__launch_table *t, cl_kernel k, int data) {
  amp_status status = AMP_SUCCESS;
  for (size_t i = 0; i < t->launch->nargs; i++) {
    const amp__arg_kind *kind = t->arg[i].kind;
    amp_status (*set)(const amp__launch_table *, size_t, cl_kernel) =
        data ? kind->set_data : kind->set;
    if (set)
      AMP__TRY(set(t, i, k));
  }
fail:
  return status;
}

amp_status amp__launch_set_args(const amp__launch_table *t, cl_kernel k) {
  return set_each(t, k, 0);
}

amp_status amp__launch_set_data(const amp__launch_table *t, cl_kernel k) {
  return set_each(t, k, 1);
}

size_t amp__launch_uses(const amp__launch_table *t, amp__use *uses) {
  size_t n = 0;
  for (size_t i = 0; i < t->launch->nargs; i++) {
    const amp__arg_kind *kind = t->arg[i].kind;
    if (!kind->view)
      continue;
    uses[n] = (amp__use){.view = kind->view(&t->launch->args[i]), .write = t->arg[i].write};
    n++;
  }
  return n;
}
