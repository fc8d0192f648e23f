/* runtime/exec/arg_mismatch.h: arguments that do not match their kernel's parameters, in the
 * user's terms (arg_mismatch.c): a view is one parameter named v (AMP_VIEW(T, v)), types are
 * ampcl's ("a view of float", "int (by value)"), and every mismatched argument of a launch is
 * reported in one message. The kinds' check hooks (arg_kinds.h) note what they find here. */
#ifndef AMPCL_RUNTIME_ARG_MISMATCH_H
#define AMPCL_RUNTIME_ARG_MISMATCH_H

#include "exec/arg_kinds.h"

/* Every mismatch of one launch, to report them in one message. */
typedef struct amp__mismatches {
  amp_status status; /* KERNEL_ARGS when any is a type mismatch, else the first one's */
  size_t count;
  char text[1536];
  size_t len;
} amp__mismatches;

/* What a kind's check hook is given: the parameter argument i goes to, and where to note. */
struct amp__arg_check {
  const amp__launch_table *t;
  const amp__user_param *u; /* the parameter, as the user wrote it */
  const amp__param *P;      /* its first OpenCL parameter (P->canon: its type, canonical) */
  amp__mismatches *m;
};

/* Notes one mismatch. */
void amp__note(amp__mismatches *m, amp_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Notes "argument i is <what it is>, but parameter '<name>' is <what that is><suffix>": the
 * descriptions are made only here, when a mismatch is found, not on every launch. */
void amp__note_kinds(const amp__arg_check *c, size_t i, const char *suffix);

/* What a parameter is, in the user's terms: a kind's own description for one its macro declared,
 * else "__local float* (amp_arg_local)", "__global float* (a pointer: pass a view of float)",
 * "int (by value)". canon: its type, canonical. */
void amp__describe_param(const amp__kernel_pool *pool, const amp__user_param *u, const char *canon,
                         char *buf, size_t cap);
/* The parameter's name as the user wrote it: v for AMP_VIEW(T, v)'s v_data. */
const char *amp__param_user_name(const amp__kernel_pool *pool, const amp__user_param *u, char *buf,
                                 size_t cap);
/* param without suffix at its end (NULL: none), in buf when it is there; else param itself. */
const char *amp__strip_suffix(const char *param, const char *suffix, char *buf, size_t cap);

/* Whether an OpenCL type name is a pointer ("float*"). */
int amp__is_pointer(const char *type);

#endif /* AMPCL_RUNTIME_ARG_MISMATCH_H */
