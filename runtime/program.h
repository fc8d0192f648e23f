/* runtime/program.h: programs built per device, and the kernels handed out for launches. */
#ifndef AMPCL_RUNTIME_PROGRAM_H
#define AMPCL_RUNTIME_PROGRAM_H

#include "accelerator.h"
#include "ampcl/kernel.h"

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

/* What the compiler says about one kernel parameter (clGetKernelArgInfo). */
typedef struct amp__param {
  cl_kernel_arg_address_qualifier address;
  cl_kernel_arg_type_qualifier qualifier;
  char type[64]; /* type name without spaces, e.g. "float*", "int8" */
  char name[64];
} amp__param;

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
  size_t work_group_size;         /* CL_KERNEL_WORK_GROUP_SIZE on this device */
  cl_ulong static_local;          /* CL_KERNEL_LOCAL_MEM_SIZE with no __local argument set: what the
                                     kernel declares itself (tile_static variables) */
  struct amp__cache_entry *entry; /* the build it belongs to */
  amp__kernel_pool *next;
};

/* The pool of `kernel` on `acc`, building the program there first if needed. */
amp_status amp__kernel_pool_get(amp_kernel *kernel, amp_accelerator *acc, amp__kernel_pool **out);
amp_status amp__kernel_take(amp__kernel_pool *pool, cl_kernel *out);
void amp__kernel_give_back(amp__kernel_pool *pool, cl_kernel k);

/* Embedded files of kernels_cl/ (generated at build time). */
typedef struct amp__embedded {
  const char *name;
  const char *text;
} amp__embedded;
extern const amp__embedded amp__embedded_kernels[];
extern const size_t amp__embedded_count;

#endif /* AMPCL_RUNTIME_PROGRAM_H */
