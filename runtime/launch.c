/* runtime/launch.c: parallel_for_each (AMP §7).
 *
 * A launch is checked whole before anything moves: domain, tile limits, argument kinds against
 * the kernel's parameters (from -cl-kernel-arg-info), access and fp64. Only then are views made
 * valid on the accelerator (source.c) and the kernel enqueued. A failed launch leaves host data
 * and every copy as they were. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"
#include "source.h"

amp_arg amp_arg_view(amp_array_view *view) {
  amp_arg a = {AMP_ARG_VIEW, {.view = view}};
  return a;
}
amp_arg amp_arg_int(int32_t value) {
  amp_arg a = {AMP_ARG_INT32, {.i32 = value}};
  return a;
}
amp_arg amp_arg_uint(uint32_t value) {
  amp_arg a = {AMP_ARG_UINT32, {.u32 = value}};
  return a;
}
amp_arg amp_arg_float(float value) {
  amp_arg a = {AMP_ARG_FLOAT, {.f32 = value}};
  return a;
}
amp_arg amp_arg_double(double value) {
  amp_arg a = {AMP_ARG_DOUBLE, {.f64 = value}};
  return a;
}
amp_arg amp_arg_bytes(const void *data, size_t size) {
  amp_arg a = {AMP_ARG_BYTES, {.bytes = {data, size}}};
  return a;
}
amp_arg amp_arg_local(size_t bytes) {
  amp_arg a = {AMP_ARG_LOCAL, {.local_size = bytes}};
  return a;
}

static const char *elem_cl_name(amp_elem_kind k) {
  switch (k) {
  case AMP_ELEM_INT32:
    return "int";
  case AMP_ELEM_UINT32:
    return "uint";
  case AMP_ELEM_FLOAT:
    return "float";
  case AMP_ELEM_DOUBLE:
    return "double";
  default:
    return NULL; /* a struct: its name is the user's */
  }
}

/* A view parameter's name as the user wrote it: AMP_VIEW(T, v) names the buffer "v_data". */
static const char *view_name(const char *param, char *buf, size_t cap) {
  size_t n = strlen(param);
  if (n > 5 && strcmp(param + n - 5, "_data") == 0 && n - 5 < cap) {
    memcpy(buf, param, n - 5);
    buf[n - 5] = '\0';
    return buf;
  }
  return param;
}

static int same_type(const char *param, const char *want) {
  if (strcmp(param, want) == 0)
    return 1;
  /* some compilers spell uint "unsignedint" once spaces are gone */
  if (strncmp(want, "uint", 4) == 0 && strncmp(param, "unsignedint", 11) == 0 &&
      strcmp(param + 11, want + 4) == 0)
    return 1;
  return 0;
}

/* Checks the domain; fills OpenCL global and local sizes (reversed: AMP's last dimension is
 * OpenCL's dimension 0). */
static amp_status check_domain(const amp_launch *l, const amp_accelerator *acc,
                               const amp__kernel_pool *pool, size_t *global, size_t *local) {
  amp_status status = AMP_SUCCESS;
  const amp_extent e = l->domain;
  const char *kname = pool->name;
  if (!amp_extent_is_valid(e))
    AMP__FAIL(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
              "parallel_for_each(%s): the extent (rank %d, %d x %d x %d) is not valid: rank 1..3 "
              "and every dimension > 0",
              kname, e.rank, e.dim[0], e.dim[1], e.dim[2]);
  size_t threads = 1;
  for (int d = 0; d < e.rank; d++) {
    global[e.rank - 1 - d] = (size_t)e.dim[d];
    if (!l->tiled)
      continue;
    int t = l->tile[d];
    if (t <= 0)
      AMP__FAIL(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                "parallel_for_each(%s): tile size %d in dimension %d is not positive", kname, t, d);
    if (e.dim[d] % t != 0)
      AMP__FAIL(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                "parallel_for_each(%s): tile size %d does not divide the extent's dimension %d "
                "(%d); pad the tiled extent (amp_tiled_extent_pad) and check bounds in the kernel, "
                "or truncate it",
                kname, t, d, e.dim[d]);
    size_t lim = acc->props.max_tile_extent[AMP_MAX_RANK - e.rank + d];
    if ((size_t)t > lim)
      AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
                "parallel_for_each(%s): tile size %d in dimension %d exceeds %s's limit of %zu "
                "threads in that dimension",
                kname, t, d, acc->props.device_path, lim);
    local[e.rank - 1 - d] = (size_t)t;
    threads *= (size_t)t;
  }
  if (l->tiled && threads > acc->props.max_tile_size)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): a tile of %zu threads exceeds %s's limit of %zu threads per "
              "tile",
              kname, threads, acc->props.device_path, acc->props.max_tile_size);
  if (l->tiled && threads > pool->work_group_size)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): a tile of %zu threads exceeds this kernel's limit of %zu "
              "threads per tile on %s, whose own limit is %zu: the kernel's registers (private "
              "memory) or its %llu bytes of tile_static memory (of %llu) lower it; "
              "amp_kernel_limits reports both (CL_KERNEL_WORK_GROUP_SIZE)",
              kname, threads, pool->work_group_size, acc->props.device_path,
              acc->props.max_tile_size, (unsigned long long)pool->static_local,
              (unsigned long long)acc->props.local_memory);
fail:
  return status;
}

/* Checks each argument against its parameter(s) and decides which views are written. */
static amp_status check_args(const amp_launch *l, const amp_accelerator *acc,
                             const amp__kernel_pool *pool, amp__use *uses, size_t *nuses) {
  amp_status status = AMP_SUCCESS;
  const char *kname = pool->name;
  const amp__param *P = pool->params;
  cl_uint p = 0;
  size_t nu = 0;
  int need_fp64 = 0;
  for (size_t i = 0; i < l->nargs; i++) {
    const amp_arg *a = &l->args[i];
    cl_uint width = a->kind == AMP_ARG_VIEW ? 2 : 1;
    if (p + width > pool->nparams)
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): %zu arguments need more parameters than the kernel's %u "
                "(a view fills two: AMP_VIEW(T, name))",
                kname, l->nargs, pool->nparams);
    switch (a->kind) {
    case AMP_ARG_VIEW: {
      amp_array_view *v = a->u.view;
      status = amp__check_handle(v, AMP__MAGIC_ARRAY_VIEW, "array view", kname);
      if (status != AMP_SUCCESS)
        AMP__FAIL(status, "parallel_for_each(%s): argument %zu is not a live array view", kname, i);
      int param_const = 0;
      if (P) {
        const char *want = elem_cl_name(v->type.kind);
        char ptr[72], nbuf[64];
        snprintf(ptr, sizeof ptr, "%s*", want ? want : "");
        const char *pname = view_name(P[p].name, nbuf, sizeof nbuf);
        if (P[p].address != CL_KERNEL_ARG_ADDRESS_GLOBAL || strcmp(P[p + 1].type, "int8") != 0)
          AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                    "parallel_for_each(%s): argument %zu is a view, but parameter '%s' is not one; "
                    "declare it with AMP_VIEW(T, name) or AMP_CONST_VIEW(T, name)",
                    kname, i, pname);
        if (want && !same_type(P[p].type, ptr))
          AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                    "parallel_for_each(%s): argument %zu is a view of %s, but parameter '%s' is "
                    "%s",
                    kname, i, want, pname, P[p].type);
        param_const = (P[p].qualifier & CL_KERNEL_ARG_TYPE_CONST) != 0;
        if (v->read_only && !param_const)
          AMP__FAIL(AMP_ERROR_ACCESS_DENIED,
                    "parallel_for_each(%s): argument %zu is a read-only view, but parameter '%s' "
                    "is writable; declare it AMP_CONST_VIEW or pass a read-write view",
                    kname, i, pname);
      }
      if (v->type.kind == AMP_ELEM_DOUBLE)
        need_fp64 = 1;
      uses[nu].view = v;
      uses[nu].write = !v->read_only && !param_const;
      nu++;
      break;
    }
    case AMP_ARG_INT32:
    case AMP_ARG_UINT32:
    case AMP_ARG_FLOAT:
    case AMP_ARG_DOUBLE: {
      static const char *names[] = {"", "", "int", "uint", "float", "double"};
      const char *want = names[a->kind];
      if (P && !same_type(P[p].type, want))
        AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                  "parallel_for_each(%s): argument %zu is %s, but parameter '%s' is %s", kname, i,
                  want, P[p].name, P[p].type);
      if (a->kind == AMP_ARG_DOUBLE)
        need_fp64 = 1;
      break;
    }
    case AMP_ARG_BYTES:
      if (!a->u.bytes.data || !a->u.bytes.size)
        AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                  "parallel_for_each(%s): argument %zu (bytes) has no data or size 0", kname, i);
      break;
    case AMP_ARG_LOCAL:
      if (!a->u.local_size)
        AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                  "parallel_for_each(%s): argument %zu (local) has size 0", kname, i);
      if (P && P[p].address != CL_KERNEL_ARG_ADDRESS_LOCAL)
        AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                  "parallel_for_each(%s): argument %zu is a __local buffer, but parameter '%s' is "
                  "not __local",
                  kname, i, P[p].name);
      if (a->u.local_size > acc->props.local_memory)
        AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
                  "parallel_for_each(%s): argument %zu asks for %zu bytes of tile_static memory; "
                  "%s has %llu",
                  kname, i, a->u.local_size, acc->props.device_path,
                  (unsigned long long)acc->props.local_memory);
      break;
    default:
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                "parallel_for_each(%s): argument %zu has kind %d, "
                "which is not an amp_arg_kind",
                kname, i, (int)a->kind);
    }
    p += width;
  }
  if (p != pool->nparams)
    AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
              "parallel_for_each(%s): the arguments fill %u parameters but the kernel has %u (a "
              "view fills two)",
              kname, p, pool->nparams);
  if (need_fp64 && !acc->props.supports_double_precision)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "parallel_for_each(%s): double-precision data or arguments, but %s does not support "
              "double precision",
              kname, acc->props.device_path);
  *nuses = nu;
fail:
  return status;
}

/* Sets every argument but the views' buffers and checks tile_static memory in total. */
static amp_status set_scalar_args(const amp_launch *l, cl_kernel k, const amp_accelerator *acc,
                                  const amp__kernel_pool *pool) {
  const char *kname = pool->name;
  amp_status status = AMP_SUCCESS;
  cl_uint p = 0;
  for (size_t i = 0; i < l->nargs; i++) {
    const amp_arg *a = &l->args[i];
    cl_int err = CL_SUCCESS;
    switch (a->kind) {
    case AMP_ARG_VIEW: {
      const amp_array_view *v = a->u.view;
      cl_int8 shape;
      memset(&shape, 0, sizeof shape);
      for (int d = 0; d < 3; d++)
        shape.s[d] = d < v->extent.rank ? v->extent.dim[d] : 1;
      shape.s[3] = (cl_int)v->offset;
      shape.s[4] = (cl_int)(v->extent.rank >= 2 ? v->stride[0] : 0);
      shape.s[5] = (cl_int)(v->extent.rank >= 3 ? v->stride[1] : 0);
      shape.s[7] = v->extent.rank;
      err = clSetKernelArg(k, p + 1, sizeof shape, &shape);
      p += 2;
      break;
    }
    case AMP_ARG_INT32:
      err = clSetKernelArg(k, p++, sizeof a->u.i32, &a->u.i32);
      break;
    case AMP_ARG_UINT32:
      err = clSetKernelArg(k, p++, sizeof a->u.u32, &a->u.u32);
      break;
    case AMP_ARG_FLOAT:
      err = clSetKernelArg(k, p++, sizeof a->u.f32, &a->u.f32);
      break;
    case AMP_ARG_DOUBLE:
      err = clSetKernelArg(k, p++, sizeof a->u.f64, &a->u.f64);
      break;
    case AMP_ARG_BYTES:
      err = clSetKernelArg(k, p++, a->u.bytes.size, a->u.bytes.data);
      break;
    case AMP_ARG_LOCAL:
      err = clSetKernelArg(k, p++, a->u.local_size, NULL);
      break;
    }
    if (err != CL_SUCCESS)
      AMP__FAIL(err == CL_INVALID_ARG_SIZE ? AMP_ERROR_KERNEL_ARGS : amp__cl_status(err),
                "parallel_for_each(%s): setting argument %zu failed: %s (%d)%s", kname, i,
                amp_status_name(amp__cl_status(err)), (int)err,
                err == CL_INVALID_ARG_SIZE ? "; its size differs from the parameter's" : "");
  }
  /* tile_static memory in total: what the kernel declares (measured once per device, when its
   * pool was made) plus the __local buffers of this launch. */
  cl_ulong used = pool->static_local;
  for (size_t i = 0; i < l->nargs; i++)
    if (l->args[i].kind == AMP_ARG_LOCAL)
      used += l->args[i].u.local_size;
  if (used > acc->props.local_memory)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): the kernel needs %llu bytes of tile_static memory per tile; "
              "%s has %llu",
              kname, (unsigned long long)used, acc->props.device_path,
              (unsigned long long)acc->props.local_memory);
fail:
  return status;
}

amp_status amp_parallel_for_each_ex(amp_accelerator_view *view, const amp_launch *launch,
                                    amp_future **done) {
  amp_status status = AMP_SUCCESS;
  amp__kernel_pool *pool = NULL;
  cl_kernel k = NULL;
  amp__use stack_uses[16], *uses = stack_uses;
  amp__evlist wait = {0};
  cl_event ev = NULL;
  size_t nuses = 0;
  int acquired = 0;
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};

  AMP__CHECK(view, AMP__MAGIC_VIEW, "accelerator view");
  if (!launch)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each_ex: launch is NULL");
  AMP__CHECK(launch->kernel, AMP__MAGIC_KERNEL, "kernel");
  if (launch->nargs && !launch->args)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "parallel_for_each(%s): args is NULL but nargs is %zu",
              launch->kernel->name, launch->nargs);
  amp_accelerator *acc = view->acc;
  AMP__TRY(amp__kernel_pool_get(launch->kernel, acc, &pool));
  AMP__TRY(check_domain(launch, acc, pool, global, local));
  if (launch->nargs > 16 && !(uses = malloc(launch->nargs * sizeof *uses)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  AMP__TRY(check_args(launch, acc, pool, uses, &nuses));
  AMP__TRY(amp__kernel_take(pool, &k));
  AMP__TRY(set_scalar_args(launch, k, acc, pool));

  /* Everything is checked: now data may move. */
  AMP__TRY(amp__uses_acquire(view, uses, nuses, &wait));
  acquired = 1;
  cl_uint p = 0;
  for (size_t i = 0; i < launch->nargs; i++) {
    if (launch->args[i].kind == AMP_ARG_VIEW) {
      cl_mem buf = amp__view_buffer(launch->args[i].u.view, acc);
      AMP__CL(clSetKernelArg(k, p, sizeof buf, &buf), "clSetKernelArg (view buffer)");
      p += 2;
    } else {
      p += 1;
    }
  }
  int rank = launch->domain.rank;
  amp__flush_producers(wait.ev, wait.n, view->queue);
  /* An event only when something needs one: views to record, or a future (they cost time). */
  AMP__CL(clEnqueueNDRangeKernel(view->queue, k, (cl_uint)rank, NULL, global,
                                 launch->tiled ? local : NULL, (cl_uint)wait.n,
                                 wait.n ? wait.ev : NULL, nuses || done ? &ev : NULL),
          "clEnqueueNDRangeKernel");
  amp__uses_finish(view, uses, nuses, ev);
  acquired = 0;
  amp__view_enqueued(view);
  if (done) {
    AMP__TRY(amp__future_create(ev, 1, done));
    ev = NULL;
  }
fail:
  if (acquired)
    amp__uses_finish(view, uses, nuses, NULL);
  if (k)
    amp__kernel_give_back(pool, k);
  if (ev)
    clReleaseEvent(ev);
  amp__evlist_free(&wait);
  if (uses != stack_uses)
    free(uses);
  return status;
}

amp_status amp_parallel_for_each(amp_accelerator_view *view, amp_extent domain, amp_kernel *kernel,
                                 const amp_arg *args, size_t nargs) {
  amp_launch l = {domain, 0, {1, 1, 1}, kernel, args, nargs};
  return amp_parallel_for_each_ex(view, &l, NULL);
}

amp_status amp_parallel_for_each_tiled(amp_accelerator_view *view, amp_tiled_extent domain,
                                       amp_kernel *kernel, const amp_arg *args, size_t nargs) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(kernel, AMP__MAGIC_KERNEL, "kernel");
  if (domain.tile_rank != 0 && domain.tile_rank != domain.extent.rank)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH,
              "parallel_for_each(%s): a rank-%d tile was given for a rank-%d extent; use "
              "amp_tile%d",
              kernel->name, domain.tile_rank, domain.extent.rank, domain.extent.rank);
  amp_launch l = {domain.extent, 1,    {domain.tile[0], domain.tile[1], domain.tile[2]},
                  kernel,        args, nargs};
  return amp_parallel_for_each_ex(view, &l, NULL);
fail:
  return status;
}

amp_status amp_parallel_for_each_default(amp_extent domain, amp_kernel *kernel, const amp_arg *args,
                                         size_t nargs) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator_view *view;
  AMP__TRY(amp_default_view(&view));
  AMP__TRY(amp_parallel_for_each(view, domain, kernel, args, nargs));
fail:
  return status;
}
