/* runtime/exec/arg_view.c: an array view as a kernel argument (AMP_ARG_VIEW): amp_arg_view, the
 * AMP_VIEW / AMP_CONST_VIEW parameter it goes to, its checks, and its row of hooks
 * (arg_kinds.h).
 *
 * AMP_VIEW(T, v) declares two OpenCL parameters, the buffer v_data and the int8 shape v_shape,
 * and in debug mode a third, v_debug (the record, bound by launch_debug.c). The shape is set
 * before data moves; the buffer once the view's bytes are valid on the accelerator. */
#include <stdio.h>
#include <string.h>

#include "data/array_impl.h"
#include "data/elem_names.h"
#include "exec/arg_kinds.h"
#include "exec/arg_mismatch.h"
#include "exec/param_type.h"

amp_arg amp_arg_view(amp_array_view *view) {
  amp_arg a = {AMP_ARG_VIEW, {.view = view}};
  return a;
}

amp_array_view *amp__arg_view(const amp_arg *a) {
  return a->kind == AMP_ARG_ARRAY ? a->u.array->whole : a->u.view;
}

/* A __global pointer followed by its int8 shape; in debug mode the third, a __global int*, counts
 * with it when it is there (when it is not, amp__debug_check_record says so). */
static int view_declares(const amp__kernel_pool *pool, cl_uint p, amp__user_param *u) {
  const amp__param *P = pool->params;
  if (P[p].address != CL_KERNEL_ARG_ADDRESS_GLOBAL || !amp__is_pointer(P[p].type) ||
      p + 1 >= pool->nparams || strcmp(P[p + 1].type, "int8") != 0)
    return 0;
  u->width = 2;
  if (pool->checked && p + 2 < pool->nparams && P[p + 2].address == CL_KERNEL_ARG_ADDRESS_GLOBAL &&
      strcmp(P[p + 2].type, "int*") == 0)
    u->width = 3;
  return 1;
}

static void view_describe_param(const amp__kernel_pool *pool, const amp__user_param *u,
                                const char *canon, char *buf, size_t cap) {
  const amp__param *P = &pool->params[u->first];
  int c = (P->qualifier & CL_KERNEL_ARG_TYPE_CONST) != 0;
  if (P->size && !amp__builtin_type_size(canon))
    snprintf(buf, cap, "a %sview of %s (%zu bytes)", c ? "const " : "", canon, P->size);
  else
    snprintf(buf, cap, "a %sview of %s", c ? "const " : "", canon);
}

void amp__view_arg_describe(const amp_arg *a, char *buf, size_t cap) {
  const amp_array_view *v = amp__arg_view(a);
  const char *t = amp__elem_names_of(v->type.kind)->cl;
  if (t)
    snprintf(buf, cap, "a %sview of %s", v->read_only ? "read-only " : "", t);
  else
    snprintf(buf, cap, "a %sview of %zu-byte structs", v->read_only ? "read-only " : "",
             v->type.size);
}

amp_status amp__view_arg_check_own(const amp_arg *a, size_t i, const char *kname) {
  amp_status status =
      amp__check_handle(amp__arg_view(a), AMP__MAGIC_ARRAY_VIEW, "array view", kname);
  if (status != AMP_SUCCESS) {
    char which[96];
    snprintf(which, sizeof which, "; argument %zu (counting from 0) is not a live array view", i);
    amp__append_error(which); /* the reason above names the kernel and the view */
  }
  return status;
}

/* Element type (by name, or by size for structs) and access: a read-only view needs a const
 * parameter. */
void amp__view_check_elements(const amp__arg_check *c, size_t i, const char *pname) {
  const amp_array_view *v = amp__arg_view(&c->t->launch->args[i]);
  const amp__param *P = c->P;
  const char *pt = c->P->canon;
  const char *want = amp__elem_names_of(v->type.kind)->cl;
  size_t psize = P->size ? P->size : amp__builtin_type_size(pt);
  if (want && strcmp(pt, want) != 0)
    amp__note_kinds(c, i, "");
  else if (!want && psize && psize != v->type.size)
    amp__note(c->m, AMP_ERROR_KERNEL_ARGS,
              "argument %zu is a view of %zu-byte structs, but parameter '%s' is a view of %s (%zu "
              "bytes)",
              i, v->type.size, pname, pt, psize);
  else if (want && psize && psize != v->type.size) /* the name matched: a size differing is a bug */
    amp__note(c->m, AMP_ERROR_KERNEL_ARGS,
              "argument %zu is a view of %zu-byte %s, but parameter '%s' is a view of %zu-byte %s",
              i, v->type.size, want, pname, psize, pt);
  if (v->read_only && !(P->qualifier & CL_KERNEL_ARG_TYPE_CONST) &&
      P->address != CL_KERNEL_ARG_ADDRESS_CONSTANT)
    amp__note(c->m, AMP_ERROR_ACCESS_DENIED,
              "argument %zu is a read-only view, but parameter '%s' is writable: declare it "
              "AMP_CONST_VIEW (or a const pointer) or pass a read-write view",
              i, pname);
}

static amp_status view_check(const amp__arg_check *c, size_t i) {
  char nbuf[64];
  const char *pname = amp__param_user_name(c->t->pool, c->u, nbuf, sizeof nbuf);
  if (c->u->decl != &amp__kind_view)
    amp__note_kinds(c, i, "");
  else
    amp__view_check_elements(c, i, pname);
  return AMP_SUCCESS;
}

int amp__view_arg_fp64(const amp_arg *a) {
  return amp__arg_view(a)->type.kind == AMP_ELEM_DOUBLE;
}

/* Written unless read-only or given to a const (or __constant) parameter; without parameter
 * information, unless read-only. */
int amp__view_arg_writes(const amp__launch_table *t, size_t i) {
  const amp__kernel_pool *pool = t->pool;
  const amp__param *P = pool->params ? &pool->params[t->arg[i].first] : NULL;
  int param_const = P && ((P->qualifier & CL_KERNEL_ARG_TYPE_CONST) != 0 ||
                          P->address == CL_KERNEL_ARG_ADDRESS_CONSTANT);
  return !amp__arg_view(&t->launch->args[i])->read_only && !param_const;
}

amp_array_view *amp__view_arg_of(const amp_arg *a) {
  return amp__arg_view(a);
}

/* The shape, v_shape: extent, offset and strides, and the argument's position for debug mode's
 * reports (kernels_cl/prelude/ampcl_prelude.h reads it). */
static amp_status view_set_shape(const amp__launch_table *t, size_t i, cl_kernel k) {
  const amp_array_view *v = amp__arg_view(&t->launch->args[i]);
  cl_int8 shape;
  memset(&shape, 0, sizeof shape);
  for (int d = 0; d < 3; d++)
    shape.s[d] = d < v->extent.rank ? v->extent.dim[d] : 1;
  shape.s[3] = (cl_int)v->offset;
  shape.s[4] = (cl_int)(v->extent.rank >= 2 ? v->stride[0] : 0);
  shape.s[5] = (cl_int)(v->extent.rank >= 3 ? v->stride[1] : 0);
  shape.s[6] = (cl_int)i; /* the argument's position, for debug mode's reports */
  shape.s[7] = v->extent.rank;
  return amp__set_value_param(k, t->arg[i].first + 1, sizeof shape, &shape, t->pool->name, i);
}

/* The buffer, v_data: the view's buffer on the accelerator, which exists once its bytes are
 * valid there. */
static amp_status view_set_buffer(const amp__launch_table *t, size_t i, cl_kernel k) {
  amp_status status = AMP_SUCCESS;
  cl_mem buf = amp__view_buffer(amp__arg_view(&t->launch->args[i]), t->acc);
  AMP__CL(clSetKernelArg(k, t->arg[i].first, sizeof buf, &buf), "clSetKernelArg (view buffer)");
fail:
  return status;
}

const amp__arg_kind amp__kind_view = {
    .kind = AMP_ARG_VIEW,
    .params = 2,
    .debug_record = 1,
    .name_suffix = "_data",
    .declares = view_declares,
    .describe_param = view_describe_param,
    .describe = amp__view_arg_describe,
    .check_own = amp__view_arg_check_own,
    .check = view_check,
    .fp64 = amp__view_arg_fp64,
    .writes = amp__view_arg_writes,
    .view = amp__view_arg_of,
    .set = view_set_shape,
    .set_data = view_set_buffer,
};
