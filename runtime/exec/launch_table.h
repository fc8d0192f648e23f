/* runtime/exec/launch_table.h: one launch's arguments laid over its kernel's OpenCL parameters
 * (launch_table.c).
 *
 * The table says, for each argument, its kind (its row of hooks, exec/arg_kinds.h), its first
 * OpenCL parameter and how many it fills. It is built once per launch, from the arguments' kinds
 * and, for a view, whether its parameter is a plain pointer (then it is a pointer, arg_pointer.c);
 * without the driver's parameter information a view fills AMP_VIEW's parameters; the checks
 * (launch_args.c), the setters (each kind's own), debug mode (launch_debug.c), the textures'
 * ordering (launch_texture.c) and the copies of views (data/source.c, through amp__launch_uses)
 * all read it. No other code walks the argument list. */
#ifndef AMPCL_RUNTIME_LAUNCH_TABLE_H
#define AMPCL_RUNTIME_LAUNCH_TABLE_H

#include "data/source.h"
#include "exec/program.h"

typedef struct amp__arg_kind amp__arg_kind; /* exec/arg_kinds.h */

/* One argument of a launch. */
typedef struct amp__launch_arg {
  const amp__arg_kind *kind; /* its kind's row; an unknown kind has a row that refuses it */
  cl_uint first;             /* its first OpenCL parameter */
  cl_uint width;             /* how many OpenCL parameters it fills */
  int write;                 /* the kernel writes what it passes (a view, a texture): set by
                                amp__check_args once the parameters are known to match */
  cl_mem sub;                /* a sub-buffer its setter made (a section as a plain pointer,
                                arg_pointer.c), released with the table; NULL: none */
} amp__launch_arg;

typedef struct amp__launch_table {
  const amp_launch *launch;
  amp_accelerator *acc;
  const amp__kernel_pool *pool;
  amp__launch_arg *arg; /* launch->nargs rows, in the arguments' order */
  cl_uint params;       /* the OpenCL parameters the arguments fill together */
  amp__launch_arg stack[16];
} amp__launch_table;

/* Builds the table of launch l on the pool's kernel. Fails only when out of memory. A table
 * zeroed ({0}) and never built may be freed. */
amp_status amp__launch_table_init(amp__launch_table *t, const amp_launch *l, amp_accelerator *acc,
                                  const amp__kernel_pool *pool);
void amp__launch_table_free(amp__launch_table *t);

/* Sets on k, through each kind's setter, everything that is known before data moves (values,
 * shapes, samplers, images). */
amp_status amp__launch_set_args(const amp__launch_table *t, cl_kernel k);
/* Sets what is known only once the data is on the accelerator (a view's buffer). */
amp_status amp__launch_set_data(const amp__launch_table *t, cl_kernel k);
/* Fills uses (room for nargs) with the views the arguments pass and whether the kernel writes
 * them; returns how many. */
size_t amp__launch_uses(const amp__launch_table *t, amp__use *uses);

#endif /* AMPCL_RUNTIME_LAUNCH_TABLE_H */
