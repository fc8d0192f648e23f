/* runtime/exec/launch_args.c: a launch's arguments checked against the kernel's parameters, in a
 * fixed order, before anything moves (launch_args.h). What each kind checks is its own
 * (arg_kinds.h); the order and the one message for every mismatch are here.
 *
 * The checks speak the user's terms (arg_mismatch.h): a view is one argument and one parameter
 * (AMP_VIEW(T, v), named v), types are ampcl's ("a view of float", "int (by value)"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/arg_kinds.h"
#include "exec/arg_mismatch.h"
#include "exec/launch_args.h"
#include "exec/launch_debug.h"
#include "exec/launch_texture.h"
#include "exec/param_type.h"
#include "exec/view_elem_text.h"

/* The user's parameters of the pool's kernel, in order (out has room for nparams); returns how
 * many. A kind's macro declares some (a view's two or three OpenCL parameters are one); the rest
 * are one OpenCL parameter each. */
static size_t user_params(const amp__kernel_pool *pool, amp__user_param *out) {
  size_t n = 0;
  for (cl_uint p = 0; p < pool->nparams - (cl_uint)pool->asserts; n++) {
    amp__user_param u = {.first = p, .width = 1};
    u.decl = amp__arg_kind_declaring(pool, p, &u);
    out[n] = u;
    p += u.width;
  }
  return n;
}

/* Checks argument i against the user's parameter u through its kind's check, noting a mismatch in
 * m. */
static amp_status check_arg(const amp__launch_table *t, size_t i, const amp__user_param *u,
                            amp__mismatches *m) {
  const amp__param *P = &t->pool->params[u->first];
  amp__arg_check c = {t, u, P, m};
  return t->arg[i].kind->check(&c, i);
}

/* "a view of float 'a', int (by value) 'n'": the kernel's parameters, for a count mismatch. */
static void list_params(const amp__kernel_pool *pool, const amp__user_param *up, size_t n,
                        char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && o + 1 < cap; i++) {
    char desc[256], nbuf[64];
    amp__describe_param(pool, &up[i], pool->params[up[i].first].canon, desc, sizeof desc);
    int w = snprintf(buf + o, cap - o, "%s%s '%s'", i ? ", " : "", desc,
                     amp__param_user_name(pool, &up[i], nbuf, sizeof nbuf));
    if (w < 0)
      break;
    o += (size_t)w;
  }
}

/* Without the driver's parameter information: the count, in OpenCL parameters (a view fills two,
 * three in debug mode), then each view's element type against the kernel's text where the text
 * says it (view_elem_text.c). */
static amp_status check_count_only(const amp__launch_table *t) {
  amp_status status = AMP_SUCCESS;
  const amp__kernel_pool *pool = t->pool;
  const amp_launch *l = t->launch;
  if (t->params + (cl_uint)pool->asserts != pool->nparams)
    AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
              "parallel_for_each(%s): the %zu arguments fill %u OpenCL parameters (a view fills "
              "%u), but the kernel has %u; the driver gives no parameter names to say which differ",
              pool->name, l->nargs, t->params, amp__arg_width(pool, &amp__kind_view),
              pool->nparams);
  char who[160];
  snprintf(who, sizeof who, "parallel_for_each(%s)", pool->name);
  const amp__text_param *tp = pool->text;
  for (size_t i = 0; pool->ntext == (int)l->nargs && i < l->nargs; i++)
    if (tp[i].elem && l->args[i].kind == AMP_ARG_VIEW)
      AMP__TRY(amp__check_view_elem_text(who, tp[i].name ? tp[i].name : "?", i, l->args[i].u.view,
                                         tp[i].elem, l->kernel->program));
fail:
  return status;
}

/* With the driver's parameter information: parameters declared by hand without debug mode's
 * record, the count, then every argument against its parameter, reported together. */
static amp_status check_params(const amp__launch_table *t) {
  amp_status status = AMP_SUCCESS;
  const amp_launch *l = t->launch;
  const amp__kernel_pool *pool = t->pool;
  const char *kname = pool->name;
  amp__user_param stack_up[16], *up = stack_up;
  amp__mismatches m = {0};
  if (pool->nparams > 16 && !(up = malloc(pool->nparams * sizeof *up)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  size_t np = user_params(pool, up);
  for (size_t k = 0; k < np; k++) /* a view declared by hand, without debug mode's v_debug */
    AMP__TRY(amp__debug_check_record(pool, &up[k], k));
  if (np != l->nargs) {
    char list[1024];
    list_params(pool, up, np, list, sizeof list);
    AMP__FAIL(AMP_ERROR_KERNEL_ARGS,
              "parallel_for_each(%s): %zu argument%s given, but the kernel takes %zu%s%s", kname,
              l->nargs, l->nargs == 1 ? "" : "s", np, np ? ": " : "", list);
  }
  for (size_t i = 0; i < l->nargs; i++)
    AMP__TRY(check_arg(t, i, &up[i], &m));
  if (m.count == 1)
    AMP__FAIL(m.status, "parallel_for_each(%s): %s", kname, m.text);
  if (m.count > 1)
    AMP__FAIL(m.status,
              "parallel_for_each(%s): %zu arguments do not match the kernel's "
              "parameters: %s",
              kname, m.count, m.text);
fail:
  if (up != stack_up)
    free(up);
  return status;
}

amp_status amp__check_args(amp__launch_table *t) {
  amp_status status = AMP_SUCCESS;
  const amp_launch *l = t->launch;
  const char *kname = t->pool->name;
  int need_fp64 = 0;
  for (size_t i = 0; i < l->nargs; i++) /* each on its own: live handles, valid modes */
    if (t->arg[i].kind->check_own)
      AMP__TRY(t->arg[i].kind->check_own(&l->args[i], i, kname));
  AMP__TRY(t->pool->params ? check_params(t) : check_count_only(t));
  for (size_t i = 0; i < l->nargs; i++) {
    const amp__arg_kind *kind = t->arg[i].kind;
    need_fp64 |= kind->fp64 && kind->fp64(&l->args[i]);
    t->arg[i].write = kind->writes && kind->writes(t, i);
  }
  if (need_fp64 && !t->acc->props.supports_double_precision)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "parallel_for_each(%s): double-precision data or arguments, but %s does not support "
              "double precision",
              kname, t->acc->props.device_path);
  AMP__TRY(amp__check_texture_uses(t));
fail:
  return status;
}
