/* runtime/exec/program.h: programs built per device, and the kernels handed out for launches
 * (program.c, program_build.c, program_cache.c, kernel_pool.c). */
#ifndef AMPCL_RUNTIME_PROGRAM_H
#define AMPCL_RUNTIME_PROGRAM_H

#include "ampcl/kernel.h"
#include "core/accelerator_impl.h"

struct amp_program {
  uint32_t magic;
  _Atomic int refs;
  char *label;   /* for messages: "<source>", a file path, or "builtin:<name>" */
  char *source;  /* the user's source, without the prelude */
  char *options; /* never NULL */
};

struct amp__kernel_pool;

struct amp_kernel {
  uint32_t magic;
  _Atomic int refs;
  amp_program *program;
  char *name;
  /* per accelerator index: its pool, once looked up; the kernel keeps the pool's build in the
   * cache until it is released */
  struct amp__kernel_pool *_Atomic *pools;
  size_t npools;
};

/* The checked builds (`checked`): debug mode's, which report a bad view access, and robust
 * mode's, where it reads 0 and its write is dropped (kernels_cl/prelude/ampcl_debug.h). */
enum { AMP__CHECKED_DEBUG = 1, AMP__CHECKED_ROBUST = 2 };

/* What the compiler says about one kernel parameter (clGetKernelArgInfo). */
typedef struct amp__param {
  cl_kernel_arg_address_qualifier address;
  cl_kernel_arg_type_qualifier qualifier;
  char *type;  /* type name without spaces, e.g. "float*", "int8"; any length (malloc'd) */
  char *canon; /* type followed through the program's typedefs and #defines, without '*'
                  (amp__canonical_type of the user's source), once when the pool is made:
                  each launch compares against it (malloc'd) */
  char *name;  /* the parameter's name, or "#<index>" when the driver gives none (malloc'd) */
  size_t size; /* bytes of the type (of the pointee, for pointers); 0 when unknown */
} amp__param;

/* Fills params[i].size for kernel k's parameters (param_size.c): from the name for built-in types
 * and typedefs or macros of them, and for struct types from the sizes the probe found when the
 * entry's program was built (amp__probe_struct_sizes). Sizes that cannot be found stay 0. */
struct amp__cache_entry;
void amp__param_sizes(cl_kernel k, const struct amp__cache_entry *e, amp__param *params, cl_uint n);

/* Frees the strings of n parameters and the array. NULL does nothing. */
void amp__params_free(amp__param *params, cl_uint n);

/* A pool of cl_kernel objects for one (program, device, kernel name), with the parameter info.
 * clSetKernelArg is not thread-safe on a shared cl_kernel, so each launch takes its own object
 * from the pool and gives it back after enqueueing. */
typedef struct amp__kernel_pool amp__kernel_pool;

struct amp__kernel_pool {
  pthread_mutex_t lock;
  cl_program program;
  char *name;
  cl_kernel *free;
  size_t nfree, cap;
  cl_uint nparams;
  amp__param *params;             /* NULL when the driver gives no argument info */
  struct amp__text_param *text;   /* without argument info: the kernel's parameters as its source
                                     writes them (exec/param_text.c), read once; else NULL */
  int ntext;                      /* their count; -1 when the text could not be read */
  size_t work_group_size;         /* CL_KERNEL_WORK_GROUP_SIZE on this device */
  size_t required_tile[3];        /* CL_KERNEL_COMPILE_WORK_GROUP_SIZE (reqd_work_group_size, OpenCL
                                     order x, y, z); all 0 when the kernel states none */
  _Atomic size_t refused_tile;    /* above work_group_size, which is tried (exec/launch.c): the
                                     smallest tile the driver refused for lack of resources, so
                                     later launches are refused before data moves; 0 = none yet */
  cl_ulong static_local;          /* CL_KERNEL_LOCAL_MEM_SIZE with no __local argument set: what the
                                     kernel declares itself (tile_static variables) */
  int checked;                    /* 0, or built checked (AMP__CHECKED_DEBUG, _ROBUST): views have a
                                     third parameter, v_debug, and launches go through
                                     runtime/exec/launch_debug.c */
  int asserts;                    /* 1: its last parameter is AMP_ASSERTS' record (amp_assert;
                                     launch_assert.c), which the user passes no argument for */
  struct amp__cache_entry *entry; /* the build it belongs to */
  amp__kernel_pool *next;
};

/* The pool of `kernel` on `acc`, building the program there first if needed; in debug mode
 * (AMP_DEBUG set when called) the checked build's pool. */
amp_status amp__kernel_pool_get(amp_kernel *kernel, amp_accelerator *acc, amp__kernel_pool **out);
amp_status amp__kernel_take(amp__kernel_pool *pool, cl_kernel *out);
void amp__kernel_give_back(amp__kernel_pool *pool, cl_kernel k);

/* A new pool for kernel `name` of the entry's built program (kernel_pool.c), with the kernel's
 * parameters, limits and one kernel object; and a pool freed with its kernel objects. */
amp_status amp__kernel_pool_new(struct amp__cache_entry *e, const char *name, const char *source,
                                amp_accelerator *acc, amp__kernel_pool **out);
void amp__kernel_pool_free(amp__kernel_pool *pool);

/* Embedded files of kernels_cl/ (generated at build time). */
typedef struct amp__embedded {
  const char *name;
  const char *text;
} amp__embedded;
extern const amp__embedded amp__embedded_kernels[];
extern const size_t amp__embedded_count;

#endif /* AMPCL_RUNTIME_PROGRAM_H */
