/* runtime/exec/launch.c: parallel_for_each (AMP §7).
 *
 * A launch is checked whole before anything moves: domain, tile limits, argument kinds against
 * the kernel's parameters (from -cl-kernel-arg-info), access and fp64. Only then are views made
 * valid on the accelerator (source.c) and the kernel enqueued. A failed launch leaves host data
 * and every copy as they were. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace_impl.h"
#include "data/source.h"
#include "exec/launch.h"
#include "exec/launch_debug.h"
#include "exec/program.h"

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

/* ---- parameter types ----------------------------------------------------------------------
 * The compiler reports each parameter's type as written (without spaces here: "float*",
 * "unsignedint", "real*" for a typedef, "structpair*"). To compare it with an argument, names are
 * made canonical: "unsigned int" is "uint", and a `typedef <type> name;` in the program's source
 * is followed to the type it names. A name that stays unknown is a struct (or a typedef of one):
 * its size comes from the compiler (param_size.c), and a view of structs or amp_arg_bytes must
 * have that size; anything else is refused. */

/* "unsignedint" -> "uint" and the like, in place. */
static void canonical_unsigned(char *t) {
  if (strncmp(t, "unsigned", 8) == 0 && t[8]) {
    t[0] = 'u';
    memmove(t + 1, t + 8, strlen(t + 8) + 1);
  }
}

static int is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The type a `typedef ... name;` of the source (no braces inside) makes `name` stand for, without
 * spaces (malloc'd), or NULL when the source has none. */
static char *typedef_of(const char *source, const char *name) {
  size_t nlen = strlen(name);
  for (const char *p = strstr(source, "typedef"); p; p = strstr(p + 7, "typedef")) {
    if ((p > source && is_ident(p[-1])) || is_ident(p[7]))
      continue;
    const char *end = strchr(p, ';');
    if (!end)
      break;
    const char *brace = memchr(p, '{', (size_t)(end - p));
    if (brace)
      continue; /* typedef struct { ... } name; : a struct */
    const char *last = end;
    while (last > p && !is_ident(last[-1]))
      last--;
    const char *first = last;
    while (first > p && is_ident(first[-1]))
      first--;
    if ((size_t)(last - first) != nlen || strncmp(first, name, nlen) != 0)
      continue;
    size_t cap = (size_t)(first - (p + 7)) + 1;
    char *out = malloc(cap), *o = out;
    if (!out)
      return NULL;
    for (const char *c = p + 7; c < first; c++)
      if (*c != ' ' && *c != '\t' && *c != '\n' && *c != '\r')
        *o++ = *c;
    *o = '\0';
    return out;
  }
  return NULL;
}

/* The canonical name of `type` (no spaces, no trailing '*'), following typedefs of the source a
 * few levels deep (malloc'd; NULL when out of memory). */
static char *canonical_type(const char *source, const char *type) {
  size_t n = strlen(type);
  while (n && type[n - 1] == '*')
    n--;
  char *t = malloc(n + 1);
  if (!t)
    return NULL;
  memcpy(t, type, n);
  t[n] = '\0';
  for (int depth = 0; depth < 8 && source; depth++) {
    canonical_unsigned(t);
    if (amp__builtin_type_size(t))
      break;
    char *next = typedef_of(source, t);
    if (!next)
      break;
    free(t);
    t = next;
  }
  canonical_unsigned(t);
  return t;
}

static int is_pointer(const char *type) {
  size_t n = strlen(type);
  return n && type[n - 1] == '*';
}

/* "16 x 16": n sizes of an OpenCL-order triple, written in AMP order. */
static void amp_order(const size_t *cl3, int n, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (int d = 0; d < n && o < cap; d++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%zu", d ? " x " : "", cl3[n - 1 - d]);
}

/* A kernel written for one tile shape (reqd_work_group_size, e.g. through AMP_TILE_SHAPE) runs
 * only with that tile: an untiled launch or another tile would give wrong results or none. */
static amp_status check_required_tile(const amp_launch *l, const amp__kernel_pool *pool,
                                      const size_t *local) {
  const size_t *rt = pool->required_tile;
  if (!rt[0] && !rt[1] && !rt[2])
    return AMP_SUCCESS;
  int krank = rt[2] > 1 ? 3 : rt[1] > 1 ? 2 : 1, rank = l->domain.rank;
  int n = krank > rank ? krank : rank;
  char want[64], got[64];
  amp_order(rt, n, want, sizeof want);
  if (!l->tiled)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "parallel_for_each(%s): the kernel is written for tiles of %s "
                          "(reqd_work_group_size / AMP_TILE_SHAPE), but the launch is not tiled; "
                          "launch it with amp_parallel_for_each_tiled and tiles of %s",
                          pool->name, want, want);
  size_t lc[3] = {local[0], local[1], local[2]};
  for (int d = rank; d < 3; d++)
    lc[d] = 1;
  if (lc[0] != rt[0] || lc[1] != rt[1] || lc[2] != rt[2]) {
    amp_order(lc, n, got, sizeof got);
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "parallel_for_each(%s): the kernel is written for tiles of %s "
                          "(reqd_work_group_size / AMP_TILE_SHAPE), but it was launched with "
                          "tiles of %s (AMP order)",
                          pool->name, want, got);
  }
  return AMP_SUCCESS;
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
              "parallel_for_each(%s): the extent (rank %d, %d x %d x %d) is not valid: ampcl "
              "supports ranks 1 to 3, and every dimension must be > 0",
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
  AMP__TRY(check_required_tile(l, pool, local));
  /* The kernel's own limit (registers, local memory). Where the driver's number is only a floor
   * (NVIDIA), a larger tile is tried and the driver's refusal, remembered, is the limit. */
  size_t refused = atomic_load(&pool->refused_tile);
  if (l->tiled && threads > pool->work_group_size &&
      (!acc->kernel_limit_is_floor || (refused && threads >= refused)))
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): a tile of %zu threads exceeds this kernel's limit on %s "
              "(whose own limit is %zu): %s (CL_KERNEL_WORK_GROUP_SIZE %zu; its registers "
              "(private memory) or its %llu bytes of tile_static memory (of %llu) allow no more; "
              "amp_kernel_limits reports them)",
              kname, threads, acc->props.device_path, acc->props.max_tile_size,
              refused ? "the driver refused a tile this large" : "the driver allows at most",
              pool->work_group_size, (unsigned long long)pool->static_local,
              (unsigned long long)acc->props.local_memory);
fail:
  return status;
}

static const char *address_name(cl_kernel_arg_address_qualifier a) {
  switch (a) {
  case CL_KERNEL_ARG_ADDRESS_GLOBAL:
    return "__global ";
  case CL_KERNEL_ARG_ADDRESS_LOCAL:
    return "__local ";
  case CL_KERNEL_ARG_ADDRESS_CONSTANT:
    return "__constant ";
  default:
    return "";
  }
}

/* Checks one argument against the parameter(s) it fills. Argument indices count from 0. */
static amp_status check_arg(const amp_launch *l, size_t i, const amp_accelerator *acc,
                            const amp__kernel_pool *pool, cl_uint p, int *param_const) {
  amp_status status = AMP_SUCCESS;
  const char *kname = pool->name, *source = l->kernel->program->source;
  const amp__param *P = pool->params;
  const amp_arg *a = &l->args[i];
  char *pt = NULL; /* the parameter's type, canonical */
  if (P && !(pt = canonical_type(source, P[p].type)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  const char *at = P ? address_name(P[p].address) : "";
  switch (a->kind) {
  case AMP_ARG_VIEW: {
    amp_array_view *v = a->u.view;
    status = amp__check_handle(v, AMP__MAGIC_ARRAY_VIEW, "array view", kname);
    if (status != AMP_SUCCESS) {
      char which[96];
      snprintf(which, sizeof which, "; argument %zu (counting from 0) is not a live array view", i);
      amp__append_error(which); /* the reason above names the kernel and the view */
      goto fail;
    }
    if (!P)
      break;
    const char *want = elem_cl_name(v->type.kind);
    char nbuf[64];
    const char *pname = amp__view_param_name(P[p].name, nbuf, sizeof nbuf);
    if (P[p].address != CL_KERNEL_ARG_ADDRESS_GLOBAL || !is_pointer(P[p].type) ||
        strcmp(P[p + 1].type, "int8") != 0)
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): argument %zu is a view of %s, but parameter '%s' is %s%s, "
                "not a view; declare it with AMP_VIEW(T, name) or AMP_CONST_VIEW(T, name)",
                kname, i, want ? want : "structs", pname, at, P[p].type);
    size_t psize = P[p].size ? P[p].size : amp__builtin_type_size(pt);
    if (want && strcmp(pt, want) != 0)
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): argument %zu is a view of %s, but parameter '%s' is a "
                "view of %s",
                kname, i, want, pname, pt);
    if (!want && psize && psize != v->type.size)
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): argument %zu is a view of %zu-byte structs, but parameter "
                "'%s' is a view of %s (%zu bytes)",
                kname, i, v->type.size, pname, pt, psize);
    if (want && psize && psize != v->type.size) /* the name matched: a size differing is a bug */
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): argument %zu is a view of %zu-byte %s, but parameter '%s' "
                "is a view of %zu-byte %s",
                kname, i, v->type.size, want, pname, psize, pt);
    AMP__TRY(amp__debug_check_view(pool, p, i));
    *param_const = (P[p].qualifier & CL_KERNEL_ARG_TYPE_CONST) != 0;
    if (v->read_only && !*param_const)
      AMP__FAIL(AMP_ERROR_ACCESS_DENIED,
                "parallel_for_each(%s): argument %zu is a read-only view, but parameter '%s' "
                "is writable; declare it AMP_CONST_VIEW or pass a read-write view",
                kname, i, pname);
    break;
  }
  case AMP_ARG_INT32:
  case AMP_ARG_UINT32:
  case AMP_ARG_FLOAT:
  case AMP_ARG_DOUBLE: {
    static const char *names[] = {"", "", "int", "uint", "float", "double"};
    const char *want = names[a->kind];
    if (P && (P[p].address != CL_KERNEL_ARG_ADDRESS_PRIVATE || is_pointer(P[p].type) ||
              strcmp(pt, want) != 0))
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): argument %zu is %s (by value), but parameter '%s' is %s%s",
                kname, i, want, P[p].name, at, P[p].type);
    break;
  }
  case AMP_ARG_BYTES:
    if (!a->u.bytes.data || !a->u.bytes.size)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                "parallel_for_each(%s): argument %zu (bytes) has no data or size 0", kname, i);
    if (P && (P[p].address != CL_KERNEL_ARG_ADDRESS_PRIVATE || is_pointer(P[p].type)))
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): argument %zu is %zu bytes by value, but parameter '%s' is "
                "%s%s; pass a view (amp_arg_view) for a pointer parameter",
                kname, i, a->u.bytes.size, P[p].name, at, P[p].type);
    if (P && P[p].size && P[p].size != a->u.bytes.size)
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): argument %zu is %zu bytes by value, but parameter '%s' is "
                "%s (%zu bytes)",
                kname, i, a->u.bytes.size, P[p].name, P[p].type, P[p].size);
    break;
  case AMP_ARG_LOCAL:
    if (!a->u.local_size)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                "parallel_for_each(%s): argument %zu (local) has size 0", kname, i);
    if (P && P[p].address != CL_KERNEL_ARG_ADDRESS_LOCAL)
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): argument %zu is a __local buffer, but parameter '%s' is "
                "%s%s, not __local",
                kname, i, P[p].name, at, P[p].type);
    if (a->u.local_size > acc->props.local_memory)
      AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
                "parallel_for_each(%s): argument %zu asks for %zu bytes of tile_static memory; "
                "%s has %llu",
                kname, i, a->u.local_size, acc->props.device_path,
                (unsigned long long)acc->props.local_memory);
    break;
  default:
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "parallel_for_each(%s): argument %zu has kind %d, which is not an amp_arg_kind",
              kname, i, (int)a->kind);
  }
fail:
  free(pt);
  return status;
}

/* Checks each argument against its parameter(s) and decides which views are written. */
static amp_status check_args(const amp_launch *l, const amp_accelerator *acc,
                             const amp__kernel_pool *pool, amp__use *uses, size_t *nuses) {
  amp_status status = AMP_SUCCESS;
  const char *kname = pool->name;
  cl_uint p = 0;
  size_t nu = 0;
  int need_fp64 = 0;
  for (size_t i = 0; i < l->nargs; i++) {
    const amp_arg *a = &l->args[i];
    cl_uint width = a->kind == AMP_ARG_VIEW ? amp__debug_view_params(pool) : 1;
    if (p + width > pool->nparams)
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): %zu arguments need more parameters than the kernel's %u "
                "(a view fills two, three in debug mode: AMP_VIEW(T, name)); argument %zu has no "
                "parameter",
                kname, l->nargs, pool->nparams, i);
    int param_const = 0;
    AMP__TRY(check_arg(l, i, acc, pool, p, &param_const));
    if (a->kind == AMP_ARG_VIEW) {
      amp_array_view *v = a->u.view;
      if (v->type.kind == AMP_ELEM_DOUBLE)
        need_fp64 = 1;
      uses[nu].view = v;
      uses[nu].write = !v->read_only && !param_const;
      nu++;
    } else if (a->kind == AMP_ARG_DOUBLE) {
      need_fp64 = 1;
    }
    p += width;
  }
  if (p != pool->nparams)
    AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
              "parallel_for_each(%s): the arguments fill %u parameters but the kernel has %u (a "
              "view fills two, three in debug mode)",
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
      shape.s[6] = (cl_int)i; /* the argument's position, for debug mode's reports */
      shape.s[7] = v->extent.rank;
      err = clSetKernelArg(k, p + 1, sizeof shape, &shape);
      p += amp__debug_view_params(pool);
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
   * pool was made) plus the __local buffers of this launch. NVIDIA's driver reports CUDA's
   * default of 48 KB per block, yet builds and runs a kernel whose own (declared) tile_static
   * arrays take more, up to the GPU's opt-in limit, and refuses to build beyond that; a __local
   * argument, though, cannot take a tile past the 48 KB (bench/local_probe.c; docs/KERNELS.md).
   * There (kernel_limit_is_floor) a kernel that built with more is the driver's to judge, as long
   * as the launch adds no __local buffer. */
  cl_ulong used = pool->static_local, args_local = 0;
  for (size_t i = 0; i < l->nargs; i++)
    if (l->args[i].kind == AMP_ARG_LOCAL)
      args_local += l->args[i].u.local_size;
  used += args_local;
  if (used > acc->props.local_memory && (!acc->kernel_limit_is_floor || args_local))
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): the kernel needs %llu bytes of tile_static memory per tile; "
              "%s has %llu%s",
              kname, (unsigned long long)used, acc->props.device_path,
              (unsigned long long)acc->props.local_memory,
              acc->kernel_limit_is_floor
                  ? " (more only for tile_static arrays the kernel declares, with no __local "
                    "argument: this launch passes one)"
                  : "");
fail:
  return status;
}

/* The status of a kernel enqueue the driver refused. A tile above the kernel's reported limit
 * on a driver where that limit is a floor (check_domain let it through) and refused for lack of
 * resources is the kernel's real limit: it is remembered, so the next launch of that size is
 * refused before data moves, and reported as such. */
static amp_status refused_launch(const amp_launch *l, const amp_accelerator *acc,
                                 amp__kernel_pool *pool, const size_t *local, cl_int err) {
  size_t threads = local[0] * local[1] * local[2];
  if (l->tiled && threads > pool->work_group_size &&
      (err == CL_OUT_OF_RESOURCES || err == CL_INVALID_WORK_GROUP_SIZE)) {
    size_t seen = atomic_load(&pool->refused_tile);
    while ((!seen || threads < seen) &&
           !atomic_compare_exchange_weak(&pool->refused_tile, &seen, threads))
      ;
    return amp__set_error(AMP_ERROR_LIMIT_EXCEEDED,
                          "parallel_for_each(%s): a tile of %zu threads exceeds this kernel's "
                          "limit on %s: the driver refused it (%s), as the kernel needs more "
                          "registers per thread than a tile this large can have; "
                          "CL_KERNEL_WORK_GROUP_SIZE %zu always runs",
                          pool->name, threads, acc->props.device_path,
                          amp_status_name(amp__cl_status(err)), pool->work_group_size);
  }
  return amp__set_error(amp__cl_status(err),
                        "parallel_for_each(%s): clEnqueueNDRangeKernel failed: %s (%d)", pool->name,
                        amp_status_name(amp__cl_status(err)), (int)err);
}

amp_status amp__launch(amp_accelerator_view *view, const amp_launch *launch, amp_future **done,
                       int *enqueued) {
  amp_status status = AMP_SUCCESS;
  *enqueued = 0;
  AMP__TRACE_BEGIN;
  amp__kernel_pool *pool = NULL;
  cl_kernel k = NULL;
  amp__use stack_uses[16], *uses = stack_uses;
  amp__evlist wait = {0};
  amp__launch_debug debug = {0};
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
  if (pool->checked)
    AMP__TRY(amp__debug_begin(&debug, acc, launch, pool, k));

  /* Everything is checked: now data may move. */
  char why[160] = "";
  if (amp__trace_on()) /* the reason is written only for the trace */
    snprintf(why, sizeof why, "copy in for kernel %s", pool->name);
  const char *prev_reason = amp__trace_reason(why);
  status = amp__uses_acquire(view, uses, nuses, &wait);
  amp__trace_reason(prev_reason);
  if (status != AMP_SUCCESS)
    goto fail;
  acquired = 1;
  cl_uint p = 0;
  for (size_t i = 0; i < launch->nargs; i++) {
    if (launch->args[i].kind == AMP_ARG_VIEW) {
      cl_mem buf = amp__view_buffer(launch->args[i].u.view, acc);
      AMP__CL(clSetKernelArg(k, p, sizeof buf, &buf), "clSetKernelArg (view buffer)");
      p += amp__debug_view_params(pool);
    } else {
      p += 1;
    }
  }
  int rank = launch->domain.rank;
  amp__flush_producers(wait.ev, wait.n, view->queue);
  /* An event only when something needs one: views to record, a future, or the trace. */
  const int tracing = amp__trace_on();
  const uint64_t t_enq = tracing ? amp__trace_now() : 0;
  cl_int err = clEnqueueNDRangeKernel(
      view->queue, k, (cl_uint)rank, NULL, global, launch->tiled ? local : NULL, (cl_uint)wait.n,
      wait.n ? wait.ev : NULL, nuses || done || tracing ? &ev : NULL);
  if (err != CL_SUCCESS)
    AMP__TRY(refused_launch(launch, acc, pool, local, err));
  *enqueued = 1;
  if (tracing) {
    char shape[96];
    int o =
        snprintf(shape, sizeof shape, "global %zu x %zu x %zu", global[2], global[1], global[0]);
    if (launch->tiled && o > 0 && (size_t)o < sizeof shape)
      snprintf(shape + o, sizeof shape - (size_t)o, ", tile %zu x %zu x %zu", local[2], local[1],
               local[0]);
    amp__trace_command(acc, view->queue, ev, "kernel", 0, pool->name, shape, t_enq);
  }
  amp__uses_finish(view, uses, nuses, ev);
  acquired = 0;
  amp__view_enqueued(view);
  if (pool->checked) /* debug mode: wait, and report a bad access */
    AMP__TRY(amp__debug_end(&debug, view->acc, view->queue, launch, pool));
  if (done) {
    AMP__TRY(amp__future_create(ev, 1, done));
    ev = NULL;
  }
fail:
  if (acquired)
    amp__uses_finish(view, uses, nuses, NULL);
  if (k)
    amp__kernel_give_back(pool, k);
  amp__debug_release(&debug);
  if (ev)
    clReleaseEvent(ev);
  amp__evlist_free(&wait);
  if (uses != stack_uses)
    free(uses);
  AMP__TRACE_END("amp_parallel_for_each");
  return status;
}

amp_status amp_parallel_for_each_ex(amp_accelerator_view *view, const amp_launch *launch,
                                    amp_future **done) {
  int enqueued;
  return amp__launch(view, launch, done, &enqueued);
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
  if (domain.extent.rank >= 1 && domain.extent.rank <= AMP_MAX_RANK && domain.tile_rank != 0 &&
      domain.tile_rank != domain.extent.rank)
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
