/* runtime/exec/arg_value.c: arguments passed by value (AMP_ARG_INT32, _UINT32, _FLOAT, _DOUBLE,
 * and a struct's bytes, AMP_ARG_BYTES) and __local buffers, whose size is passed
 * (AMP_ARG_LOCAL): their amp_arg constructors, checks and rows of hooks (arg_kinds.h). Each
 * fills one OpenCL parameter of OpenCL's own. */
#include <stdio.h>
#include <string.h>

#include "exec/arg_kinds.h"
#include "exec/arg_mismatch.h"

/* The scalars' constructors: each keeps its value in its own member of the argument's union. */
#define SCALAR_ARG(constructor, T, arg_kind, member)                                               \
  amp_arg constructor(T value) {                                                                   \
    amp_arg a = {arg_kind, {.member = value}};                                                     \
    return a;                                                                                      \
  }
SCALAR_ARG(amp_arg_int, int32_t, AMP_ARG_INT32, i32)
SCALAR_ARG(amp_arg_uint, uint32_t, AMP_ARG_UINT32, u32)
SCALAR_ARG(amp_arg_float, float, AMP_ARG_FLOAT, f32)
SCALAR_ARG(amp_arg_double, double, AMP_ARG_DOUBLE, f64)

amp_arg amp_arg_bytes(const void *data, size_t size) {
  amp_arg a = {AMP_ARG_BYTES, {.bytes = {data, size}}};
  return a;
}
amp_arg amp_arg_local(size_t bytes) {
  amp_arg a = {AMP_ARG_LOCAL, {.local_size = bytes}};
  return a;
}

/* The OpenCL type of a scalar's parameter (only the four scalar kinds ask). */
static const char *scalar_type(amp_arg_kind kind) {
  static const char *const types[] = {[AMP_ARG_INT32] = "int",
                                      [AMP_ARG_UINT32] = "uint",
                                      [AMP_ARG_FLOAT] = "float",
                                      [AMP_ARG_DOUBLE] = "double"};
  return types[kind];
}

/* The bytes an argument passes, and how many (NULL for a __local buffer: only its size). */
static const void *value_bytes(const amp_arg *a, size_t *size) {
  switch (a->kind) {
  case AMP_ARG_INT32:
    *size = sizeof a->u.i32;
    return &a->u.i32;
  case AMP_ARG_UINT32:
    *size = sizeof a->u.u32;
    return &a->u.u32;
  case AMP_ARG_FLOAT:
    *size = sizeof a->u.f32;
    return &a->u.f32;
  case AMP_ARG_DOUBLE:
    *size = sizeof a->u.f64;
    return &a->u.f64;
  case AMP_ARG_BYTES:
    *size = a->u.bytes.size;
    return a->u.bytes.data;
  default: /* AMP_ARG_LOCAL */
    *size = a->u.local_size;
    return NULL;
  }
}

static void value_describe(const amp_arg *a, char *buf, size_t cap) {
  if (a->kind == AMP_ARG_BYTES)
    snprintf(buf, cap, "%zu bytes by value", a->u.bytes.size);
  else if (a->kind == AMP_ARG_LOCAL)
    snprintf(buf, cap, "a __local buffer of %zu bytes", a->u.local_size);
  else
    snprintf(buf, cap, "%s (by value)", scalar_type(a->kind));
}

/* Whether OpenCL parameter P takes a value (not a pointer, not a parameter a macro declared). */
static int by_value(const amp__arg_check *c) {
  return !c->u->decl && c->P->address == CL_KERNEL_ARG_ADDRESS_PRIVATE &&
         !amp__is_pointer(c->P->type);
}

static amp_status scalar_check(const amp__arg_check *c, size_t i) {
  if (!by_value(c) || strcmp(c->P->canon, scalar_type(c->t->launch->args[i].kind)) != 0)
    amp__note_kinds(c, i, "");
  return AMP_SUCCESS;
}

/* A struct by value: compared by size with the parameter's type (param_size.c). */
static amp_status bytes_check(const amp__arg_check *c, size_t i) {
  amp_status status = AMP_SUCCESS;
  const amp_arg *a = &c->t->launch->args[i];
  char nbuf[64];
  if (!a->u.bytes.data || !a->u.bytes.size)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "parallel_for_each(%s): argument %zu (bytes) has no data or size 0", c->t->pool->name,
              i);
  if (!by_value(c))
    amp__note_kinds(c, i, "; pass a view (amp_arg_view) for a view parameter");
  else if (c->P->size && c->P->size != a->u.bytes.size)
    amp__note(c->m, AMP_ERROR_KERNEL_ARGS,
              "argument %zu is %zu bytes by value, but parameter '%s' is %s (%zu bytes)", i,
              a->u.bytes.size, amp__param_user_name(c->t->pool, c->u, nbuf, sizeof nbuf),
              c->P->type, c->P->size);
fail:
  return status;
}

static amp_status local_check(const amp__arg_check *c, size_t i) {
  amp_status status = AMP_SUCCESS;
  if (!c->t->launch->args[i].u.local_size)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "parallel_for_each(%s): argument %zu (local) has size 0",
              c->t->pool->name, i);
  if (c->P->address != CL_KERNEL_ARG_ADDRESS_LOCAL)
    amp__note_kinds(c, i, ", not __local");
fail:
  return status;
}

static int double_fp64(const amp_arg *a) {
  (void)a;
  return 1;
}

static size_t local_tile_bytes(const amp_arg *a) {
  return a->u.local_size;
}

amp_status amp__set_value_param(cl_kernel k, cl_uint p, size_t size, const void *value,
                                const char *kname, size_t i) {
  amp_status status = AMP_SUCCESS;
  cl_int err = clSetKernelArg(k, p, size, value);
  if (err != CL_SUCCESS)
    AMP__FAIL(err == CL_INVALID_ARG_SIZE ? AMP_ERROR_KERNEL_ARGS : amp__cl_status(err),
              "parallel_for_each(%s): setting argument %zu failed: %s (%d)%s", kname, i,
              amp_status_name(amp__cl_status(err)), (int)err,
              err == CL_INVALID_ARG_SIZE ? "; its size differs from the parameter's" : "");
fail:
  return status;
}

static amp_status value_set(const amp__launch_table *t, size_t i, cl_kernel k) {
  size_t size;
  const void *value = value_bytes(&t->launch->args[i], &size);
  return amp__set_value_param(k, t->arg[i].first, size, value, t->pool->name, i);
}

/* The by-value kinds' rows: each fills one OpenCL parameter of OpenCL's own and is described and
 * set alike; they differ in their check and in the double precision or tile_static memory they
 * ask for. */
#define VALUE_KIND(arg_kind, check_hook, fp64_hook, tile_bytes_hook)                               \
  {                                                                                                \
    .kind = (arg_kind), .params = 1, .describe = value_describe, .check = (check_hook),            \
    .fp64 = (fp64_hook), .tile_bytes = (tile_bytes_hook), .set = value_set                         \
  }

const amp__arg_kind amp__kind_int32 = VALUE_KIND(AMP_ARG_INT32, scalar_check, NULL, NULL);
const amp__arg_kind amp__kind_uint32 = VALUE_KIND(AMP_ARG_UINT32, scalar_check, NULL, NULL);
const amp__arg_kind amp__kind_float = VALUE_KIND(AMP_ARG_FLOAT, scalar_check, NULL, NULL);
const amp__arg_kind amp__kind_double = VALUE_KIND(AMP_ARG_DOUBLE, scalar_check, double_fp64, NULL);
const amp__arg_kind amp__kind_bytes = VALUE_KIND(AMP_ARG_BYTES, bytes_check, NULL, NULL);
const amp__arg_kind amp__kind_local =
    VALUE_KIND(AMP_ARG_LOCAL, local_check, NULL, local_tile_bytes);
