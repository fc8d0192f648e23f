/* runtime/exec/launch_args.c: a launch's arguments: the amp_arg constructors, the checks of each
 * argument against the kernel's parameters before anything moves, and setting them on the
 * OpenCL kernel.
 *
 * The checks speak the user's terms: a view is one argument and one parameter (AMP_VIEW(T, v),
 * named v), types are ampcl's ("a view of float", "int (by value)"), and every mismatched argument
 * is reported in one message. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/launch_args.h"
#include "exec/launch_debug.h"
#include "exec/launch_texture.h"
#include "exec/local_report.h"
#include "exec/param_type.h"

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
  case AMP_ELEM_INT64:
    return "long";
  case AMP_ELEM_UINT64:
    return "ulong";
  default:
    return NULL; /* a struct: its name is the user's */
  }
}

/* ---- parameter types ----------------------------------------------------------------------
 * Names are made canonical by param_type.c ("unsignedint" is "uint", typedefs of the source
 * followed). A name that stays unknown is a struct (or a typedef of one): its size comes from the
 * compiler (param_size.c), and a view of structs or amp_arg_bytes must have that size; anything
 * else is refused. */

static int is_pointer(const char *type) {
  size_t n = strlen(type);
  return n && type[n - 1] == '*';
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

/* ---- the kernel's parameters as the user wrote them -------------------------------------------
 * The compiler lists OpenCL parameters; the user wrote AMP_VIEW(T, v), which is two of them (the
 * buffer v_data and the shape v_shape; three in debug mode, with v_debug). The checks count and
 * name parameters the way the user wrote them: a view is one parameter named v, one argument. */

typedef struct user_param {
  cl_uint first; /* its first OpenCL parameter */
  cl_uint width; /* how many OpenCL parameters it is */
  int view;      /* declared with AMP_VIEW / AMP_CONST_VIEW */
  int texture;   /* declared with AMP_TEXTURE_READ / _WRITE: tp says how */
  int sampler;   /* declared with AMP_SAMPLER */
  amp__tex_param tp;
} user_param;

/* Whether OpenCL parameter p starts a view: a __global pointer followed by its int8 shape. */
static int starts_view(const amp__kernel_pool *pool, cl_uint p) {
  const amp__param *P = pool->params;
  return P[p].address == CL_KERNEL_ARG_ADDRESS_GLOBAL && is_pointer(P[p].type) &&
         p + 1 < pool->nparams && strcmp(P[p + 1].type, "int8") == 0;
}

/* The user's parameters of the pool's kernel, in order (out has room for nparams); returns how
 * many. In debug mode a view's third parameter counts with it when it is there (when it is not,
 * amp__debug_check_view says so). */
static size_t user_params(const amp__kernel_pool *pool, user_param *out) {
  size_t n = 0;
  for (cl_uint p = 0; p < pool->nparams; n++) {
    user_param u = {p, 1, starts_view(pool, p), 0, 0, {0, 0, {0, 0, 0}}};
    if (!u.view) {
      u.texture = amp__starts_texture(pool, p, &u.tp);
      u.sampler = !u.texture && amp__starts_sampler(pool, p);
      if (u.texture || u.sampler)
        u.width = 2;
    }
    if (u.view) {
      u.width = 2;
      if (pool->checked && p + 2 < pool->nparams &&
          pool->params[p + 2].address == CL_KERNEL_ARG_ADDRESS_GLOBAL &&
          strcmp(pool->params[p + 2].type, "int*") == 0)
        u.width = 3;
    }
    out[n] = u;
    p += u.width;
  }
  return n;
}

/* What a parameter is, in the user's terms: "a view of float", "a const view of pair_t",
 * "int (by value)", "__local float* (amp_arg_local)", "__global float* (a pointer, not a view)". */
static void describe_param(const amp__kernel_pool *pool, const user_param *u, const char *canon,
                           char *buf, size_t cap) {
  const amp__param *P = &pool->params[u->first];
  if (u->texture) {
    amp__describe_texture_param(&u->tp, buf, cap);
  } else if (u->sampler) {
    snprintf(buf, cap, "a sampler (AMP_SAMPLER)");
  } else if (amp__is_bare_image(pool, u->first)) {
    snprintf(buf, cap,
             "%s (an OpenCL image: declare it AMP_TEXTURE_READ(T, N, name) or "
             "AMP_TEXTURE_WRITE(T, N, name))",
             P->type);
  } else if (u->view) {
    int c = (P->qualifier & CL_KERNEL_ARG_TYPE_CONST) != 0;
    if (P->size && !amp__builtin_type_size(canon))
      snprintf(buf, cap, "a %sview of %s (%zu bytes)", c ? "const " : "", canon, P->size);
    else
      snprintf(buf, cap, "a %sview of %s", c ? "const " : "", canon);
  } else if (P->address == CL_KERNEL_ARG_ADDRESS_LOCAL) {
    snprintf(buf, cap, "__local %s (amp_arg_local)", P->type);
  } else if (P->address != CL_KERNEL_ARG_ADDRESS_PRIVATE || is_pointer(P->type)) {
    snprintf(buf, cap, "%s%s (a pointer, not a view: declare it AMP_VIEW(T, name))",
             address_name(P->address), P->type);
  } else if (P->size && !amp__builtin_type_size(canon)) {
    snprintf(buf, cap, "%s (by value, %zu bytes)", P->type, P->size);
  } else {
    snprintf(buf, cap, "%s (by value)", P->type);
  }
}

/* The parameter's name as the user wrote it: v for AMP_VIEW(T, v)'s v_data. */
static const char *param_name(const amp__kernel_pool *pool, const user_param *u, char *buf,
                              size_t cap) {
  const char *name = pool->params[u->first].name;
  return u->view ? amp__view_param_name(name, buf, cap) : name;
}

/* What an argument is, in the same terms. */
static void describe_arg(const amp_arg *a, char *buf, size_t cap) {
  switch (a->kind) {
  case AMP_ARG_VIEW: {
    const amp_array_view *v = a->u.view;
    const char *t = elem_cl_name(v->type.kind);
    if (t)
      snprintf(buf, cap, "a %sview of %s", v->read_only ? "read-only " : "", t);
    else
      snprintf(buf, cap, "a %sview of %zu-byte structs", v->read_only ? "read-only " : "",
               v->type.size);
    break;
  }
  case AMP_ARG_INT32:
    snprintf(buf, cap, "int (by value)");
    break;
  case AMP_ARG_UINT32:
    snprintf(buf, cap, "uint (by value)");
    break;
  case AMP_ARG_FLOAT:
    snprintf(buf, cap, "float (by value)");
    break;
  case AMP_ARG_DOUBLE:
    snprintf(buf, cap, "double (by value)");
    break;
  case AMP_ARG_BYTES:
    snprintf(buf, cap, "%zu bytes by value", a->u.bytes.size);
    break;
  case AMP_ARG_LOCAL:
    snprintf(buf, cap, "a __local buffer of %zu bytes", a->u.local_size);
    break;
  case AMP_ARG_TEXTURE:
  case AMP_ARG_SAMPLER:
    amp__describe_texture_arg(a, buf, cap);
    break;
  default:
    snprintf(buf, cap, "of kind %d, which is not an amp_arg_kind", (int)a->kind);
  }
}

/* Every mismatch of one launch, to report them in one message. */
typedef struct mismatches {
  amp_status status; /* KERNEL_ARGS when any is a type mismatch, else the first one's */
  size_t count;
  char text[1536];
  size_t len;
} mismatches;

static void note(mismatches *m, amp_status status, const char *fmt, ...) {
  if (!m->count || (status == AMP_ERROR_KERNEL_ARGS && m->status != AMP_ERROR_KERNEL_ARGS))
    m->status = status;
  m->count++;
  if (m->len + 2 >= sizeof m->text)
    return;
  if (m->len) {
    memcpy(m->text + m->len, "; ", 3);
    m->len += 2;
  }
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(m->text + m->len, sizeof m->text - m->len, fmt, ap);
  va_end(ap);
  if (w > 0)
    m->len = m->len + (size_t)w < sizeof m->text ? m->len + (size_t)w : sizeof m->text - 1;
}

/* Notes "argument i is <what it is>, but parameter '<name>' is <what that is><suffix>": the
 * descriptions are made only here, when a mismatch is found, not on every launch. */
static void note_kinds(mismatches *m, size_t i, const amp_arg *a, const amp__kernel_pool *pool,
                       const user_param *u, const char *canon, const char *suffix) {
  char pdesc[256], adesc[96], nbuf[64];
  describe_param(pool, u, canon, pdesc, sizeof pdesc);
  describe_arg(a, adesc, sizeof adesc);
  note(m, AMP_ERROR_KERNEL_ARGS, "argument %zu is %s, but parameter '%s' is %s%s", i, adesc,
       param_name(pool, u, nbuf, sizeof nbuf), pdesc, suffix);
}

/* Checks argument i against the user's parameter u, noting a mismatch. *param_const: u is a
 * const view. Fails at once only where the argument itself is broken (a dead view handle, bytes
 * with no data, an unknown kind). */
static amp_status check_arg(const amp_launch *l, size_t i, const amp__kernel_pool *pool,
                            const user_param *u, mismatches *m, int *param_const) {
  amp_status status = AMP_SUCCESS;
  const char *kname = pool->name, *source = l->kernel->program->source;
  const amp__param *P = &pool->params[u->first];
  const amp_arg *a = &l->args[i];
  char *pt = amp__canonical_type(source, P->type); /* the parameter's type, canonical */
  char nbuf[64];
  if (!pt)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  const char *pname = param_name(pool, u, nbuf, sizeof nbuf);
  *param_const = 0;
  switch (a->kind) {
  case AMP_ARG_VIEW: {
    amp_array_view *v = a->u.view;
    if (!u->view) {
      note_kinds(m, i, a, pool, u, pt, "");
      break;
    }
    AMP__TRY(amp__debug_check_view(pool, u->first, i));
    const char *want = elem_cl_name(v->type.kind);
    size_t psize = P->size ? P->size : amp__builtin_type_size(pt);
    if (want && strcmp(pt, want) != 0)
      note_kinds(m, i, a, pool, u, pt, "");
    else if (!want && psize && psize != v->type.size)
      note(m, AMP_ERROR_KERNEL_ARGS,
           "argument %zu is a view of %zu-byte structs, but parameter '%s' is a view of %s (%zu "
           "bytes)",
           i, v->type.size, pname, pt, psize);
    else if (want && psize &&
             psize != v->type.size) /* the name matched: a size differing is a bug */
      note(m, AMP_ERROR_KERNEL_ARGS,
           "argument %zu is a view of %zu-byte %s, but parameter '%s' is a view of %zu-byte %s", i,
           v->type.size, want, pname, psize, pt);
    *param_const = (P->qualifier & CL_KERNEL_ARG_TYPE_CONST) != 0;
    if (v->read_only && !*param_const)
      note(m, AMP_ERROR_ACCESS_DENIED,
           "argument %zu is a read-only view, but parameter '%s' is writable: declare it "
           "AMP_CONST_VIEW or pass a read-write view",
           i, pname);
    break;
  }
  case AMP_ARG_INT32:
  case AMP_ARG_UINT32:
  case AMP_ARG_FLOAT:
  case AMP_ARG_DOUBLE: {
    static const char *names[] = {"", "", "int", "uint", "float", "double"};
    if (u->view || P->address != CL_KERNEL_ARG_ADDRESS_PRIVATE || is_pointer(P->type) ||
        strcmp(pt, names[a->kind]) != 0)
      note_kinds(m, i, a, pool, u, pt, "");
    break;
  }
  case AMP_ARG_BYTES:
    if (!a->u.bytes.data || !a->u.bytes.size)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                "parallel_for_each(%s): argument %zu (bytes) has no data or size 0", kname, i);
    if (u->view || u->texture || u->sampler || P->address != CL_KERNEL_ARG_ADDRESS_PRIVATE ||
        is_pointer(P->type))
      note_kinds(m, i, a, pool, u, pt, "; pass a view (amp_arg_view) for a view parameter");
    else if (P->size && P->size != a->u.bytes.size)
      note(m, AMP_ERROR_KERNEL_ARGS,
           "argument %zu is %zu bytes by value, but parameter '%s' is %s (%zu bytes)", i,
           a->u.bytes.size, pname, P->type, P->size);
    break;
  case AMP_ARG_LOCAL:
    if (!a->u.local_size)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                "parallel_for_each(%s): argument %zu (local) has size 0", kname, i);
    if (P->address != CL_KERNEL_ARG_ADDRESS_LOCAL)
      note_kinds(m, i, a, pool, u, pt, ", not __local");
    break;
  case AMP_ARG_TEXTURE:
    if (!u->texture)
      note_kinds(m, i, a, pool, u, pt,
                 u->view ? "; a texture is read with amp_tex_get, not through a view" : "");
    else if (!amp__texture_fits(a, &u->tp))
      note_kinds(m, i, a, pool, u, pt, "");
    break;
  case AMP_ARG_SAMPLER:
    if (!u->sampler)
      note_kinds(m, i, a, pool, u, pt, "");
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

/* "a view of float 'a', int (by value) 'n'": the kernel's parameters, for a count mismatch. */
static void list_params(const amp__kernel_pool *pool, const user_param *up, size_t n,
                        const char *source, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && o + 1 < cap; i++) {
    char *pt = amp__canonical_type(source, pool->params[up[i].first].type);
    char desc[256], nbuf[64];
    describe_param(pool, &up[i], pt ? pt : pool->params[up[i].first].type, desc, sizeof desc);
    int w = snprintf(buf + o, cap - o, "%s%s '%s'", i ? ", " : "", desc,
                     param_name(pool, &up[i], nbuf, sizeof nbuf));
    free(pt);
    if (w < 0)
      break;
    o += (size_t)w;
  }
}

/* Without the driver's parameter information only the count can be checked: in OpenCL
 * parameters, a view filling two (three in debug mode). */
static amp_status check_count_only(const amp_launch *l, const amp__kernel_pool *pool) {
  amp_status status = AMP_SUCCESS;
  cl_uint p = 0;
  for (size_t i = 0; i < l->nargs; i++)
    p += amp__arg_params(pool, l->args[i].kind);
  if (p != pool->nparams)
    AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
              "parallel_for_each(%s): the %zu arguments fill %u OpenCL parameters (a view fills "
              "%u), but the kernel has %u; the driver gives no parameter names to say which differ",
              pool->name, l->nargs, p, amp__debug_view_params(pool), pool->nparams);
fail:
  return status;
}

amp_status amp__check_args(const amp_launch *l, const amp_accelerator *acc,
                           const amp__kernel_pool *pool, amp__use *uses, size_t *nuses) {
  amp_status status = AMP_SUCCESS;
  const char *kname = pool->name;
  user_param stack_up[16], *up = stack_up;
  mismatches m = {0};
  size_t nu = 0;
  int need_fp64 = 0, stack_writes[16], *writes = stack_writes;
  for (size_t i = 0; i < l->nargs; i++) {
    const amp_arg *a = &l->args[i];
    if (a->kind == AMP_ARG_VIEW) {
      status = amp__check_handle(a->u.view, AMP__MAGIC_ARRAY_VIEW, "array view", kname);
      if (status != AMP_SUCCESS) {
        char which[96];
        snprintf(which, sizeof which, "; argument %zu (counting from 0) is not a live array view",
                 i);
        amp__append_error(which); /* the reason above names the kernel and the view */
        goto fail;
      }
    }
  }
  AMP__TRY(amp__check_texture_handles(l, kname));
  if (!pool->params) {
    AMP__TRY(check_count_only(l, pool));
  } else {
    if (pool->nparams > 16 && !(up = malloc(pool->nparams * sizeof *up)))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    size_t np = user_params(pool, up);
    for (size_t k = 0; k < np; k++) /* a view declared by hand, without debug mode's v_debug */
      if (pool->checked && up[k].view && up[k].width == 2)
        AMP__TRY(amp__debug_check_view(pool, up[k].first, k));
    if (np != l->nargs) {
      char list[1024];
      list_params(pool, up, np, l->kernel->program->source, list, sizeof list);
      AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(%s): %zu argument%s given, but the kernel takes %zu%s%s", kname,
                l->nargs, l->nargs == 1 ? "" : "s", np, np ? ": " : "", list);
    }
    for (size_t i = 0; i < l->nargs; i++) {
      int param_const = 0;
      AMP__TRY(check_arg(l, i, pool, &up[i], &m, &param_const));
      if (l->args[i].kind == AMP_ARG_VIEW) {
        amp_array_view *v = l->args[i].u.view;
        uses[nu].view = v;
        uses[nu].write = !v->read_only && !param_const;
        nu++;
      }
    }
    if (m.count == 1)
      AMP__FAIL(m.status, "parallel_for_each(%s): %s", kname, m.text);
    if (m.count > 1)
      AMP__FAIL(m.status,
                "parallel_for_each(%s): %zu arguments do not match the kernel's "
                "parameters: %s",
                kname, m.count, m.text);
  }
  if (!pool->params) { /* the views, all written unless read-only */
    for (size_t i = 0; i < l->nargs; i++)
      if (l->args[i].kind == AMP_ARG_VIEW) {
        uses[nu].view = l->args[i].u.view;
        uses[nu].write = !l->args[i].u.view->read_only;
        nu++;
      }
  }
  for (size_t i = 0; i < l->nargs; i++)
    if (l->args[i].kind == AMP_ARG_DOUBLE ||
        (l->args[i].kind == AMP_ARG_VIEW && l->args[i].u.view->type.kind == AMP_ELEM_DOUBLE))
      need_fp64 = 1;
  if (need_fp64 && !acc->props.supports_double_precision)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "parallel_for_each(%s): double-precision data or arguments, but %s does not support "
              "double precision",
              kname, acc->props.device_path);
  if (l->nargs > 16 && !(writes = malloc(l->nargs * sizeof *writes)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  amp__texture_arg_writes(l, pool, writes);
  AMP__TRY(amp__check_texture_uses(l, acc, writes, kname));
  *nuses = nu;
fail:
  if (writes != stack_writes)
    free(writes);
  if (up != stack_up)
    free(up);
  return status;
}

/* Sets every argument but the views' buffers and checks tile_static memory in total. */
amp_status amp__set_scalar_args(const amp_launch *l, cl_kernel k, const amp_accelerator *acc,
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
    case AMP_ARG_TEXTURE:
    case AMP_ARG_SAMPLER:
      AMP__TRY(amp__set_texture_arg(k, p, a, acc, kname, i));
      p += 2;
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
   * argument, though, cannot take a tile past the 48 KB (docs/KERNELS.md).
   * There (declared_local_limit above local_memory) a kernel that built with more is the driver's
   * to judge, as long as the launch adds no __local buffer. */
  cl_ulong used = pool->static_local, args_local = 0;
  for (size_t i = 0; i < l->nargs; i++)
    if (l->args[i].kind == AMP_ARG_LOCAL)
      args_local += l->args[i].u.local_size;
  used += args_local;
  /* Above the device's limit by the driver's report: some drivers report a multiple of what a
   * kernel declares (Mesa's rusticl 22.3: twice); the factor, measured once per device
   * (exec/local_report.c), turns the report back into the declared bytes. */
  cl_context context = NULL;
  if (used > acc->props.local_memory &&
      clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof context, &context, NULL) == CL_SUCCESS)
    used = amp__declared_local(context, acc->device, pool->static_local) + args_local;
  int declared_above = acc->declared_local_limit > acc->props.local_memory;
  if (declared_above && used > acc->declared_local_limit)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): the kernel declares %llu bytes of tile_static memory per "
              "tile; %s allows at most %llu (the GPU's opt-in limit for its compute capability)",
              kname, (unsigned long long)used, acc->props.device_path,
              (unsigned long long)acc->declared_local_limit);
  if (used > acc->props.local_memory && (!declared_above || args_local))
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): the kernel needs %llu bytes of tile_static memory per tile; "
              "%s has %llu%s",
              kname, (unsigned long long)used, acc->props.device_path,
              (unsigned long long)acc->props.local_memory,
              declared_above
                  ? " (more only for tile_static arrays the kernel declares, with no __local "
                    "argument: this launch passes one)"
                  : "");
fail:
  return status;
}
