/* runtime/exec/arg_mismatch.c: arguments that do not match their kernel's parameters, described
 * and collected in the user's terms (arg_mismatch.h). */
#include "exec/arg_mismatch.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exec/param_type.h"

int amp__is_pointer(const char *type) {
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

const char *amp__strip_suffix(const char *param, const char *suffix, char *buf, size_t cap) {
  size_t n = strlen(param), s = suffix ? strlen(suffix) : 0;
  if (s && n > s && strcmp(param + n - s, suffix) == 0 && n - s < cap) {
    memcpy(buf, param, n - s);
    buf[n - s] = '\0';
    return buf;
  }
  return param;
}

const char *amp__param_user_name(const amp__kernel_pool *pool, const amp__user_param *u, char *buf,
                                 size_t cap) {
  return amp__strip_suffix(pool->params[u->first].name, u->decl ? u->decl->name_suffix : NULL, buf,
                           cap);
}

void amp__describe_param(const amp__kernel_pool *pool, const amp__user_param *u, const char *canon,
                         char *buf, size_t cap) {
  const amp__param *P = &pool->params[u->first];
  if (u->decl) {
    u->decl->describe_param(pool, u, canon, buf, cap);
  } else if (amp__image_rank(P->type)) { /* not declared with AMP_TEXTURE_*: arg_texture.c */
    snprintf(buf, cap,
             "%s (an OpenCL image: declare it AMP_TEXTURE_READ(T, N, name) or "
             "AMP_TEXTURE_WRITE(T, N, name))",
             P->type);
  } else if (P->address == CL_KERNEL_ARG_ADDRESS_LOCAL) {
    snprintf(buf, cap, "__local %s (amp_arg_local)", P->type);
  } else if (P->address != CL_KERNEL_ARG_ADDRESS_PRIVATE || amp__is_pointer(P->type)) {
    snprintf(buf, cap, "%s%s (a pointer: pass a view of %s)", address_name(P->address), P->type,
             canon);
  } else if (P->size && !amp__builtin_type_size(canon)) {
    snprintf(buf, cap, "%s (by value, %zu bytes)", P->type, P->size);
  } else {
    snprintf(buf, cap, "%s (by value)", P->type);
  }
}

void amp__note(amp__mismatches *m, amp_status status, const char *fmt, ...) {
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

void amp__note_kinds(const amp__arg_check *c, size_t i, const char *suffix) {
  char pdesc[256], adesc[96], nbuf[64];
  amp__describe_param(c->t->pool, c->u, c->P->canon, pdesc, sizeof pdesc);
  c->t->arg[i].kind->describe(&c->t->launch->args[i], adesc, sizeof adesc);
  amp__note(c->m, AMP_ERROR_KERNEL_ARGS, "argument %zu is %s, but parameter '%s' is %s%s", i, adesc,
            amp__param_user_name(c->t->pool, c->u, nbuf, sizeof nbuf), pdesc, suffix);
}
