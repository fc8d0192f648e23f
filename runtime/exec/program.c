/* runtime/exec/program.c: OpenCL C programs and kernels, the handles (amp_program, amp_kernel),
 * and the two ways to a built program: amp_program_build and the pool of kernel objects a launch
 * takes one from (amp__kernel_pool_get).
 *
 * A program is its source and options; it is built per device when first used there, with
 * ampcl's kernel prelude in front (program_build.c), and the build is cached while a program that
 * has it lives (program_cache.c). A kernel keeps, per accelerator and mode, the pool of its
 * cl_kernel objects (kernel_pool.c), which keeps that build in the cache until the kernel is
 * released. In debug mode (AMP_DEBUG set) a program is built checked: another cache entry, and its
 * kernels other pools. */
#include "exec/program.h"
#include "core/knobs.h"
#include "exec/build_log.h"
#include "exec/program_build.h"
#include "exec/program_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct amp__cache_entry cache_entry;

/* ---- programs and kernels: the handles ---------------------------------------------------- */

static amp_status new_program(const char *label, const char *source, const char *options,
                              amp_program **out) {
  amp_program *p = amp__handle_alloc(sizeof *p);
  if (p) {
    p->label = strdup(label);
    p->source = strdup(source);
    p->options = strdup(options ? options : "");
  }
  if (!p || !p->label || !p->source || !p->options) {
    if (p) {
      free(p->label);
      free(p->source);
      free(p->options);
    }
    amp__handle_retire(p);
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory creating a program");
  }
  p->magic = AMP__MAGIC_PROGRAM;
  p->refs = 1;
  *out = p;
  return AMP_SUCCESS;
}

amp_status amp_program_create(const char *source, const char *options, amp_program **out) {
  amp_status status = AMP_SUCCESS;
  char label[512];
  if (!source || !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_program_create: %s is NULL",
              source ? "out" : "source");
  amp__source_label(source, label, sizeof label);
  AMP__TRY(new_program(label, source, options, out));
fail:
  return status;
}

amp_status amp_program_create_from_file(const char *path, const char *options, amp_program **out) {
  amp_status status = AMP_SUCCESS;
  char *text = NULL;
  FILE *f = NULL;
  if (!path || !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_program_create_from_file: %s is NULL",
              path ? "out" : "path");
  f = fopen(path, "rb");
  if (!f)
    AMP__FAIL(AMP_ERROR_IO, "amp_program_create_from_file: cannot open \"%s\"", path);
  if (fseek(f, 0, SEEK_END) != 0)
    AMP__FAIL(AMP_ERROR_IO, "amp_program_create_from_file: cannot read \"%s\"", path);
  long n = ftell(f);
  if (n < 0 || fseek(f, 0, SEEK_SET) != 0)
    AMP__FAIL(AMP_ERROR_IO, "amp_program_create_from_file: cannot read \"%s\"", path);
  text = malloc((size_t)n + 1);
  if (!text)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "amp_program_create_from_file: out of memory");
  if (fread(text, 1, (size_t)n, f) != (size_t)n)
    AMP__FAIL(AMP_ERROR_IO, "amp_program_create_from_file: short read of \"%s\"", path);
  text[n] = '\0';
  AMP__TRY(new_program(path, text, options, out));
fail:
  if (f)
    fclose(f);
  free(text);
  return status;
}

amp_status amp_program_create_builtin(const char *name, const char *options, amp_program **out) {
  amp_status status = AMP_SUCCESS;
  if (!name || !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_program_create_builtin: %s is NULL",
              name ? "out" : "name");
  for (size_t i = 0; i < amp__embedded_count; i++) {
    if (strcmp(amp__embedded_kernels[i].name, name) == 0 && !amp__prelude_has_part(name)) {
      char label[160];
      snprintf(label, sizeof label, "builtin:%s", name);
      return new_program(label, amp__embedded_kernels[i].text, options, out);
    }
  }
  char known[1024] = "";
  for (size_t i = 0; i < amp__embedded_count; i++) {
    if (amp__prelude_has_part(amp__embedded_kernels[i].name))
      continue;
    size_t len = strlen(known);
    snprintf(known + len, sizeof known - len, "%s%s", len ? ", " : "",
             amp__embedded_kernels[i].name);
  }
  AMP__FAIL(AMP_ERROR_NOT_FOUND,
            "amp_program_create_builtin: no kernel file \"%s\" in kernels_cl "
            "(there are: %s)",
            name, known);
fail:
  return status;
}

/* The last reference went: out of the build cache, and freed. */
static amp_status program_destroy(amp_program *program) {
  amp_status status = AMP_SUCCESS;
  amp__program_cache_forget(program);
  free(program->label);
  free(program->source);
  free(program->options);
  amp__handle_retire(program);
  return status;
}

AMP__DEFINE_REFCOUNT(amp_program, AMP__MAGIC_PROGRAM, "program", program_destroy)

amp_status amp_kernel_create(amp_program *program, const char *name, amp_kernel **out) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *k = NULL;
  AMP__CHECK(program, AMP__MAGIC_PROGRAM, "program");
  if (!name || !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_kernel_create: %s is NULL", name ? "out" : "name");
  amp_accelerator **accs = NULL;
  size_t nacc = 0;
  AMP__TRY(amp__accelerators(&accs, &nacc));
  k = amp__handle_alloc(sizeof *k);
  /* three pools per accelerator: plain, debug mode's and robust mode's */
  if (!k || !(k->name = strdup(name)) || !(k->pools = calloc(3 * nacc, sizeof *k->pools))) {
    if (k)
      free(k->name);
    amp__handle_retire(k);
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "amp_kernel_create: out of memory");
  }
  k->npools = 3 * nacc;
  atomic_fetch_add(&program->refs, 1);
  k->program = program;
  k->magic = AMP__MAGIC_KERNEL;
  k->refs = 1;
  *out = k;
fail:
  return status;
}

/* The last reference went: its builds unpinned in the cache, then its program released. */
static amp_status kernel_destroy(amp_kernel *kernel) {
  amp_status status = AMP_SUCCESS;
  amp_program *p = kernel->program;
  for (size_t i = 0; i < kernel->npools; i++)
    if (kernel->pools[i])
      amp__program_cache_unpin(kernel->pools[i]->entry);
  free(kernel->name);
  free((void *)kernel->pools);
  amp__handle_retire(kernel);
  AMP__TRY(amp_program_release(p));
fail:
  return status;
}

AMP__DEFINE_REFCOUNT(amp_kernel, AMP__MAGIC_KERNEL, "kernel", kernel_destroy)

/* ---- builds and pools, through the cache --------------------------------------------------- */

/* How programs are built, and kernels launched, now: AMP__CHECKED_DEBUG with AMP_DEBUG set, else
 * AMP__CHECKED_ROBUST with AMP_ROBUST=1 (a value that is neither 0 nor 1 counts as 1: a program
 * asked for safety gets it), else 0. */
static int checked_mode(void) {
  if (amp__debug_enabled())
    return AMP__CHECKED_DEBUG;
  const char *robust = amp__knob_get(AMP_KNOB_ROBUST);
  return robust && strcmp(robust, "0") != 0 ? AMP__CHECKED_ROBUST : 0;
}

amp_status amp_program_build(amp_program *program, amp_accelerator *acc) {
  amp_status status = AMP_SUCCESS;
  cache_entry *e;
  AMP__CHECK(program, AMP__MAGIC_PROGRAM, "program");
  AMP__CHECK(acc, AMP__MAGIC_ACCELERATOR, "accelerator");
  AMP__TRY(amp__program_cache_lookup(program, acc, checked_mode(), &e));
  pthread_mutex_lock(&e->lock);
  if (!e->program)
    status = amp__program_build_entry(e, program, acc);
  pthread_mutex_unlock(&e->lock);
  amp__program_cache_unpin(e);
fail:
  return status;
}

amp_status amp__kernel_pool_get(amp_kernel *kernel, amp_accelerator *acc, amp__kernel_pool **out) {
  amp_status status = AMP_SUCCESS;
  cache_entry *e;
  const int checked = checked_mode();
  const size_t slot = 3 * acc->index + (size_t)checked;
  /* Fast path: this kernel already found its pool on this accelerator, in this mode. */
  amp__kernel_pool *known = slot < kernel->npools ? atomic_load(&kernel->pools[slot]) : NULL;
  if (known) {
    *out = known;
    return AMP_SUCCESS;
  }
  AMP__TRY(amp__program_cache_lookup(kernel->program, acc, checked, &e));
  pthread_mutex_lock(&e->lock);
  if (!e->program)
    status = amp__program_build_entry(e, kernel->program, acc);
  amp__kernel_pool *pool = NULL;
  if (status == AMP_SUCCESS) {
    for (pool = e->pools; pool; pool = pool->next)
      if (strcmp(pool->name, kernel->name) == 0)
        break;
    if (!pool) {
      status = amp__kernel_pool_new(e, kernel->name, kernel->program->source, acc, &pool);
      if (status == AMP_SUCCESS) {
        pool->next = e->pools;
        e->pools = pool;
      }
    }
  }
  pthread_mutex_unlock(&e->lock);
  amp__kernel_pool *none = NULL;
  if (status == AMP_SUCCESS) {
    *out = pool;
    /* The kernel keeps the entry in use (the pin taken by amp__program_cache_lookup) while it
     * remembers the pool; a second thread that found it too gives its pin back. */
    if (slot < kernel->npools && atomic_compare_exchange_strong(&kernel->pools[slot], &none, pool))
      return AMP_SUCCESS;
  }
  amp__program_cache_unpin(e);
fail:
  return status;
}
