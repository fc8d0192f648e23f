/* runtime/exec/program_cache.h: the in-memory cache of built programs (program_cache.c). */
#ifndef AMPCL_RUNTIME_PROGRAM_CACHE_H
#define AMPCL_RUNTIME_PROGRAM_CACHE_H

#include "exec/program.h"

/* A struct type's size, as the build's probe found it (param_size.c); 0: unknown. */
typedef struct amp__type_size {
  char *type; /* as the compiler names it ("struct pair", "pair_t") */
  size_t size;
} amp__type_size;
typedef struct amp__type_sizes {
  amp__type_size *v;
  size_t n;
} amp__type_sizes;

/* One build: a program's full text and options on one accelerator, built or not yet. */
struct amp__cache_entry {
  uint64_t hash;
  char *text;    /* prelude + user source */
  char *options; /* as given to clBuildProgram */
  size_t acc_index;
  int checked;                  /* 0, AMP__CHECKED_DEBUG (-DAMP_DEBUG=1) or AMP__CHECKED_ROBUST
                                   (-DAMP_ROBUST=1) */
  pthread_mutex_t lock;         /* guards building and the pool list */
  cl_program program;           /* NULL until built */
  amp__type_sizes struct_sizes; /* the struct parameter types of its kernels, probed at its build */
  amp__kernel_pool *pools;
  /* The rest is guarded by program_cache.c's cache_lock. */
  size_t users; /* live kernels holding one of its pools, plus callers working on it now */
  uint64_t last_use;
  const amp_program **owners; /* live programs that looked it up (they are not retained) */
  size_t nowners, capowners;
  struct amp__cache_entry *next;
};

/* The cache entry for (program, accelerator, checked or not), created if new, and in use by the
 * caller until amp__program_cache_unpin. */
amp_status amp__program_cache_lookup(const amp_program *p, amp_accelerator *acc, int checked,
                                     struct amp__cache_entry **out);

/* The end of a use of `e` that amp__program_cache_lookup started (or that a kernel kept). */
void amp__program_cache_unpin(struct amp__cache_entry *e);

/* A program goes: it no longer owns any entry; entries left with no owner and no user go. */
void amp__program_cache_forget(const amp_program *p);

/* Once the entry's program is built: the sizes of the struct types among its kernels' parameters,
 * found by one probe build (param_size.c), into e->struct_sizes. Nothing when there are none. */
void amp__probe_struct_sizes(struct amp__cache_entry *e, amp_accelerator *acc);
void amp__type_sizes_free(amp__type_sizes *ts);

#endif /* AMPCL_RUNTIME_PROGRAM_CACHE_H */
