/* runtime/exec/arg_kinds.c: the index of argument kinds: amp_arg_kind to its row (arg_kinds.h).
 * A new kind is one line here, and its row in the file of its subject. */
#include "exec/arg_kinds.h"

#include "exec/arg_mismatch.h"

static const amp__arg_kind *const kinds[] = {
    [AMP_ARG_VIEW] = &amp__kind_view,       [AMP_ARG_INT32] = &amp__kind_int32,
    [AMP_ARG_UINT32] = &amp__kind_uint32,   [AMP_ARG_FLOAT] = &amp__kind_float,
    [AMP_ARG_DOUBLE] = &amp__kind_double,   [AMP_ARG_BYTES] = &amp__kind_bytes,
    [AMP_ARG_LOCAL] = &amp__kind_local,     [AMP_ARG_TEXTURE] = &amp__kind_texture,
    [AMP_ARG_SAMPLER] = &amp__kind_sampler, [AMP_ARG_ARRAY] = &amp__kind_array,
    [AMP_ARG_POINTER] = &amp__kind_pointer,
};
enum { KINDS = sizeof kinds / sizeof kinds[0] };

/* A value that is no amp_arg_kind: counted as one parameter, refused when it is checked against
 * its parameter (or never, without the driver's parameter information, as before). */
static amp_status unknown_check(const amp__arg_check *c, size_t i) {
  return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                        "parallel_for_each(%s): argument %zu has kind %d, which is not an "
                        "amp_arg_kind",
                        c->t->pool->name, i, (int)c->t->launch->args[i].kind);
}

static const amp__arg_kind unknown = {.params = 1, .check = unknown_check};

const amp__arg_kind *amp__arg_kind_of(amp_arg_kind kind) {
  int k = (int)kind;
  return k > 0 && k < KINDS && kinds[k] ? kinds[k] : &unknown;
}

const amp__arg_kind *amp__arg_kind_declaring(const amp__kernel_pool *pool, cl_uint p,
                                             amp__user_param *u) {
  for (int k = 1; k < KINDS; k++)
    if (kinds[k] && kinds[k]->declares && kinds[k]->declares(pool, p, u))
      return kinds[k];
  return NULL;
}
