/* runtime/exec/arg_pointer.c: an array view as a plain pointer parameter (AMP_ARG_POINTER), the
 * way an unchanged OpenCL kernel takes its data: `__global float *a`, `__global const float *a`,
 * `__constant float *a`. amp_arg_pointer asks for it; amp_arg_view binds so too when the driver
 * names the parameter a plain pointer (launch_table.c). Its row of hooks (arg_kinds.h) shares the
 * view kind's checks of element type and access (arg_view.c).
 *
 * A pointer reaches element 0 and what follows it, so the view's elements must be contiguous on
 * the device: a whole view, or a section whose rows follow each other. A section starting inside
 * its data is passed as an OpenCL sub-buffer, which must start on the device's base address
 * alignment; the sub-buffer lives in the launch table until the kernel is enqueued. */
#include <stdio.h>
#include <string.h>

#include "exec/arg_kinds.h"
#include "exec/arg_mismatch.h"
#include "exec/param_type.h"

amp_arg amp_arg_pointer(amp_array_view *view) {
  amp_arg a = {AMP_ARG_POINTER, {.view = view}};
  return a;
}

int amp__is_plain_pointer_param(const amp__kernel_pool *pool, cl_uint p) {
  if (!pool->params || p >= pool->nparams - (cl_uint)pool->asserts)
    return 0;
  const amp__param *P = &pool->params[p];
  amp__user_param u = {.first = p, .width = 1};
  return (P->address == CL_KERNEL_ARG_ADDRESS_GLOBAL ||
          P->address == CL_KERNEL_ARG_ADDRESS_CONSTANT) &&
         amp__is_pointer(P->type) && !amp__kind_view.declares(pool, p, &u);
}

/* The dimension whose stride breaks contiguity (counting from 0, AMP's order), or -1 when the
 * view's elements follow each other. A dimension of one element has no neighbours to break it. */
static int strided_dim(const amp_array_view *v) {
  size_t expect = 1;
  for (int d = v->extent.rank - 1; d >= 0; d--) {
    if (v->extent.dim[d] > 1 && v->stride[d] != expect)
      return d;
    expect *= (size_t)v->extent.dim[d];
  }
  return -1;
}

/* A plain pointer parameter, a contiguous view, an offset the device can start a buffer at; then
 * the element type and access, as for a view. */
static amp_status pointer_check(const amp__arg_check *c, size_t i) {
  const amp_array_view *v = c->t->launch->args[i].u.view;
  char nbuf[64];
  const char *pname = amp__param_user_name(c->t->pool, c->u, nbuf, sizeof nbuf);
  if (c->u->decl || !amp__is_plain_pointer_param(c->t->pool, c->u->first)) {
    amp__note_kinds(
        c, i, c->u->decl ? " (amp_arg_pointer is for a plain pointer: pass amp_arg_view)" : "");
    return AMP_SUCCESS;
  }
  int d = strided_dim(v);
  size_t align = c->t->acc->base_align, origin = 0; /* a sub-buffer's origin */
  if (d >= 0) {
    amp__note(c->m, AMP_ERROR_KERNEL_ARGS,
              "argument %zu is a strided section (dimension %d: %zu elements between neighbours "
              "where %d would follow each other), but parameter '%s' is a plain pointer, which "
              "needs contiguous elements: pass a whole view or a section of whole rows, or declare "
              "the parameter AMP_VIEW(T, %s)",
              i, d, v->stride[d], d + 1 < v->extent.rank ? v->extent.dim[d + 1] : 1, pname, pname);
  } else if (__builtin_mul_overflow(v->offset, v->type.size, &origin) || origin % align != 0) {
    amp__note(c->m, AMP_ERROR_KERNEL_ARGS,
              "argument %zu is a section starting %zu elements into its data, but parameter '%s' "
              "is a plain pointer, and %s starts a buffer only on multiples of %zu bytes: pass a "
              "section starting there, or declare the parameter AMP_VIEW(T, %s)",
              i, v->offset, pname, c->t->acc->props.device_path, align, pname);
  }
  amp__view_check_elements(c, i, pname);
  return AMP_SUCCESS;
}

/* Debug mode checks views through their v_debug record; a pointer has none. Each launch says so. */
static amp_status pointer_note_unchecked(const amp__launch_table *t, size_t i, cl_kernel k) {
  (void)k;
  if (t->pool->checked == AMP__CHECKED_DEBUG && t->pool->params)
    fprintf(stderr,
            "[ampcl] parallel_for_each(%s): debug mode does not check accesses through pointer "
            "parameter '%s' (argument %zu); declare it AMP_VIEW to have them checked\n",
            t->pool->name, t->pool->params[t->arg[i].first].name, i);
  return AMP_SUCCESS;
}

/* The view's buffer on the accelerator; a section starting inside it as a sub-buffer, which the
 * launch table releases once the kernel is enqueued. */
static amp_status pointer_set_buffer(const amp__launch_table *t, size_t i, cl_kernel k) {
  amp_status status = AMP_SUCCESS;
  const amp_array_view *v = t->launch->args[i].u.view;
  cl_mem buf = amp__view_buffer(v, t->acc);
  if (v->offset) {
    cl_int err = CL_SUCCESS;
    cl_buffer_region region = {v->offset * v->type.size, amp_extent_size(v->extent) * v->type.size};
    t->arg[i].sub = clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    AMP__CL(err, "clCreateSubBuffer (a section as a pointer)");
    buf = t->arg[i].sub;
  }
  AMP__CL(clSetKernelArg(k, t->arg[i].first, sizeof buf, &buf), "clSetKernelArg (pointer)");
fail:
  return status;
}

const amp__arg_kind amp__kind_pointer = {
    .kind = AMP_ARG_POINTER,
    .params = 1,
    .describe = amp__view_arg_describe,
    .check_own = amp__view_arg_check_own,
    .check = pointer_check,
    .fp64 = amp__view_arg_fp64,
    .writes = amp__view_arg_writes,
    .view = amp__view_arg_of,
    .set = pointer_note_unchecked,
    .set_data = pointer_set_buffer,
};
