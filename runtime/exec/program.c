/* runtime/exec/program.c: OpenCL C programs, the in-memory build cache, and kernel pools.
 *
 * Every program is built with ampcl's kernel prelude in front of it and "-cl-kernel-arg-info",
 * so the launcher can check arguments against the parameters. A `#line 1 "FILE"` after the prelude
 * makes the compiler count lines in the user's source and name the user's file. In debug mode
 * (AMP_DEBUG set) a program is built with -DAMP_DEBUG=1 as well, which gives it checked view
 * access (kernels_cl/prelude/ampcl_debug.h); that is another cache entry, and its kernels other
 * pools. Built programs are cached, keyed by the full text, the options and the device, while an
 * amp_program that has them stays alive: the last amp_program_release of every program using a
 * build frees it. The cache holds at most AMP_PROGRAM_CACHE_MAX builds (an environment variable,
 * read once; 64 when unset); past that the least recently used builds that no live amp_kernel uses
 * are evicted (and built again if used again). Builds that live kernels use are never evicted, so
 * the bound can be exceeded by them.
 *
 * There is deliberately no on-disk cache in ampcl: the drivers already keep one (POCL under
 * POCL_CACHE_DIR, NVIDIA under ~/.nv/ComputeCache), keyed on what only they know (compiler
 * version, work-group size), and a second layer would have to get invalidation, atomic writes and
 * concurrent processes right for a gain those caches already give. docs/KERNELS.md says more. */
#include "exec/program.h"
#include "core/clobjects.h"
#include "core/device_limits.h"
#include "core/env_parse.h"
#include "exec/build_log.h"
#include "exec/math_accuracy.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct amp__cache_entry cache_entry;
static void cache_forget(const amp_program *p);
static void cache_unpin(cache_entry *e);

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

/* The files of the kernel prelude, in the order they go in front of every program. */
static const char *const prelude_parts[] = {"ampcl_prelude",    "ampcl_atomics", "ampcl_index",
                                            "ampcl_debug",      "ampcl_texture", "ampcl_random",
                                            "ampcl_collectives"};
#define NPRELUDE_PARTS (sizeof prelude_parts / sizeof prelude_parts[0])

static int is_prelude_part(const char *name) {
  for (size_t i = 0; i < NPRELUDE_PARTS; i++)
    if (strcmp(name, prelude_parts[i]) == 0)
      return 1;
  return 0;
}

amp_status amp_program_create_builtin(const char *name, const char *options, amp_program **out) {
  amp_status status = AMP_SUCCESS;
  if (!name || !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_program_create_builtin: %s is NULL",
              name ? "out" : "name");
  for (size_t i = 0; i < amp__embedded_count; i++) {
    if (strcmp(amp__embedded_kernels[i].name, name) == 0 && !is_prelude_part(name)) {
      char label[160];
      snprintf(label, sizeof label, "builtin:%s", name);
      return new_program(label, amp__embedded_kernels[i].text, options, out);
    }
  }
  char known[1024] = "";
  for (size_t i = 0; i < amp__embedded_count; i++) {
    if (is_prelude_part(amp__embedded_kernels[i].name))
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
  cache_forget(program);
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
  /* two pools per accelerator: plain and checked (debug mode) */
  if (!k || !(k->name = strdup(name)) || !(k->pools = calloc(2 * nacc, sizeof *k->pools))) {
    if (k)
      free(k->name);
    amp__handle_retire(k);
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "amp_kernel_create: out of memory");
  }
  k->npools = 2 * nacc;
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
      cache_unpin(kernel->pools[i]->entry);
  free(kernel->name);
  free((void *)kernel->pools);
  amp__handle_retire(kernel);
  AMP__TRY(amp_program_release(p));
fail:
  return status;
}

AMP__DEFINE_REFCOUNT(amp_kernel, AMP__MAGIC_KERNEL, "kernel", kernel_destroy)

/* ---- the build cache ---------------------------------------------------------------------- */

struct amp__cache_entry {
  uint64_t hash;
  char *text;    /* prelude + user source */
  char *options; /* as given to clBuildProgram */
  size_t acc_index;
  int checked;          /* built with -DAMP_DEBUG=1 (debug mode) */
  pthread_mutex_t lock; /* guards building and the pool list */
  cl_program program;   /* NULL until built */
  amp__kernel_pool *pools;
  /* The rest is guarded by cache_lock. */
  size_t users; /* live kernels holding one of its pools, plus callers working on it now */
  uint64_t last_use;
  const amp_program **owners; /* live programs that looked it up (they are not retained) */
  size_t nowners, capowners;
  struct amp__cache_entry *next;
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry *cache_head;
static size_t cache_count;
static uint64_t cache_tick;
static size_t cache_max; /* 0 until read from AMP_PROGRAM_CACHE_MAX */

static size_t cache_bound(void) {
  if (!cache_max) {
    cache_max = amp__env_program_cache_max(getenv("AMP_PROGRAM_CACHE_MAX"));
  }
  return cache_max;
}

static void free_entry(cache_entry *e) {
  for (amp__kernel_pool *pool = e->pools, *next; pool; pool = next) {
    next = pool->next;
    for (size_t i = 0; i < pool->nfree; i++) {
      clReleaseKernel(pool->free[i]);
      amp__clobj(AMP_CL_KERNEL, -1);
    }
    pthread_mutex_destroy(&pool->lock);
    free(pool->free);
    amp__params_free(pool->params, pool->nparams);
    free(pool->name);
    free(pool);
  }
  if (e->program) {
    clReleaseProgram(e->program);
    amp__clobj(AMP_CL_PROGRAM, -1);
  }
  pthread_mutex_destroy(&e->lock);
  free(e->owners);
  free(e->text);
  free(e->options);
  free(e);
}

/* Unlinks the entries that `gone` says go, with cache_lock held, into *out (a list through
 * `next`) to be freed after unlocking. */
static void unlink_if(int (*gone)(const cache_entry *), cache_entry **out) {
  for (cache_entry **pe = &cache_head; *pe;) {
    cache_entry *e = *pe;
    if (gone(e)) {
      *pe = e->next;
      e->next = *out;
      *out = e;
      cache_count--;
    } else {
      pe = &e->next;
    }
  }
}

static void free_list(cache_entry *list) {
  for (cache_entry *next; list; list = next) {
    next = list->next;
    free_entry(list);
  }
}

static int unused_and_unowned(const cache_entry *e) {
  return e->users == 0 && e->nowners == 0;
}

/* Evicts least recently used entries no one uses while the cache is over its bound; with
 * cache_lock held. */
static void evict_over_bound(cache_entry **out) {
  while (cache_count > cache_bound()) {
    cache_entry **victim = NULL;
    for (cache_entry **pe = &cache_head; *pe; pe = &(*pe)->next)
      if ((*pe)->users == 0 && (!victim || (*pe)->last_use < (*victim)->last_use))
        victim = pe;
    if (!victim)
      return;
    cache_entry *e = *victim;
    *victim = e->next;
    e->next = *out;
    *out = e;
    cache_count--;
  }
}

/* The end of a use of `e` that cache_lookup started (or that a kernel kept). */
static void cache_unpin(cache_entry *e) {
  cache_entry *dead = NULL;
  pthread_mutex_lock(&cache_lock);
  e->users--;
  if (unused_and_unowned(e))
    unlink_if(unused_and_unowned, &dead);
  pthread_mutex_unlock(&cache_lock);
  free_list(dead);
}

/* A program goes: it no longer owns any entry; entries left with no owner and no user go. */
static void cache_forget(const amp_program *p) {
  cache_entry *dead = NULL;
  pthread_mutex_lock(&cache_lock);
  for (cache_entry *e = cache_head; e; e = e->next)
    for (size_t i = 0; i < e->nowners; i++)
      if (e->owners[i] == p) {
        e->owners[i] = e->owners[--e->nowners];
        break;
      }
  unlink_if(unused_and_unowned, &dead);
  pthread_mutex_unlock(&cache_lock);
  free_list(dead);
}

static uint64_t fnv1a(uint64_t h, const char *s) {
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ull;
  }
  return h;
}

/* The prelude's parts, joined once; NULL only when out of memory. */
static char *prelude;
static pthread_once_t prelude_once = PTHREAD_ONCE_INIT;

static void join_prelude(void) {
  static const char head[] = "#define AMPCL_PRELUDE_EMBEDDED 1\n";
  const char *text[NPRELUDE_PARTS] = {0};
  size_t n = sizeof head;
  for (size_t p = 0; p < NPRELUDE_PARTS; p++) {
    for (size_t i = 0; i < amp__embedded_count; i++)
      if (strcmp(amp__embedded_kernels[i].name, prelude_parts[p]) == 0)
        text[p] = amp__embedded_kernels[i].text;
    n += (text[p] ? strlen(text[p]) : 0) + 1;
  }
  char *all = malloc(n);
  if (!all)
    return;
  size_t o = (size_t)snprintf(all, n, "%s", head);
  for (size_t p = 0; p < NPRELUDE_PARTS; p++)
    o += (size_t)snprintf(all + o, n - o, "%s\n", text[p] ? text[p] : "");
  prelude = all;
}

static const char *prelude_text(void) {
  pthread_once(&prelude_once, join_prelude);
  return prelude;
}

/* Whether programs are built, and kernels launched, checked: AMP_DEBUG set, now. */
static int checked_mode(void) {
  return amp__debug_enabled();
}

/* What ampcl adds to every build's options for `acc`: the device's compute capability as a macro
 * (the prelude's AMP_COMPUTE_CAPABILITY), for checked builds AMP_DEBUG, and, for a program whose
 * text uses fast_math_*, the mappings exec/math_accuracy.c measures on the device (a program that
 * does not use them neither waits for that measurement nor depends on it). */
#define DEVICE_DEFINES_MAX 512
static void device_defines(const amp_program *p, amp_accelerator *acc, int checked,
                           char out[DEVICE_DEFINES_MAX]) {
  int n = snprintf(out, DEVICE_DEFINES_MAX, " -DAMP_COMPUTE_CAPABILITY=%u%s",
                   acc->props.compute_capability, checked ? " -DAMP_DEBUG=1" : "");
  /* every function's mapping together is far below the room left */
  if (n > 0 && n < DEVICE_DEFINES_MAX && strstr(p->source, "fast_math_"))
    amp__fast_math_options(acc, out + n, DEVICE_DEFINES_MAX - (size_t)n);
}

/* The cache entry for (program, accelerator, checked or not), created if new, and in use by the
 * caller until cache_unpin. */
static amp_status cache_lookup(const amp_program *p, amp_accelerator *acc, int checked,
                               cache_entry **out) {
  amp_status status = AMP_SUCCESS;
  const char *pre = prelude_text();
  char *line = amp__line_directive(p->label);
  size_t n = (pre ? strlen(pre) : 0) + (line ? strlen(line) : 0) + strlen(p->source) + 1;
  char *text = pre && line ? malloc(n) : NULL;
  char defines[DEVICE_DEFINES_MAX];
  device_defines(p, acc, checked, defines);
  const size_t nopts = strlen(p->options) + sizeof " -cl-kernel-arg-info" + strlen(defines);
  char *opts = malloc(nopts);
  if (!text || !opts) {
    free(line);
    free(text);
    free(opts);
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory building a program");
  }
  snprintf(text, n, "%s%s%s", pre, line, p->source);
  free(line);
  snprintf(opts, nopts, "%s -cl-kernel-arg-info%s", p->options, defines);
  uint64_t h = fnv1a(fnv1a(14695981039346656037ull, text), opts) ^ acc->index;

  pthread_mutex_lock(&cache_lock);
  cache_entry *e = cache_head;
  for (; e; e = e->next)
    if (e->hash == h && e->acc_index == acc->index && strcmp(e->options, opts) == 0 &&
        strcmp(e->text, text) == 0)
      break;
  if (!e) {
    e = calloc(1, sizeof *e);
    if (e) {
      e->hash = h;
      e->text = text;
      e->options = opts;
      e->acc_index = acc->index;
      e->checked = checked;
      pthread_mutex_init(&e->lock, NULL);
      e->next = cache_head;
      cache_head = e;
      cache_count++;
      text = opts = NULL;
    } else {
      status = amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory building a program");
    }
  }
  size_t i = 0;
  for (; e && i < e->nowners && e->owners[i] != p; i++)
    ;
  if (e && i == e->nowners && e->nowners == e->capowners) {
    size_t cap = e->capowners ? 2 * e->capowners : 2;
    const amp_program **o = realloc((void *)e->owners, cap * sizeof *o);
    if (o) {
      e->owners = o;
      e->capowners = cap;
    }
  }
  if (e && i == e->nowners && e->nowners < e->capowners)
    e->owners[e->nowners++] = p;
  if (e && i == e->nowners) {
    status = amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory building a program");
    e = NULL;
  }
  cache_entry *dead = NULL;
  if (e) {
    e->users++;
    e->last_use = ++cache_tick;
    evict_over_bound(&dead);
  }
  pthread_mutex_unlock(&cache_lock);
  free_list(dead);
  free(text);
  free(opts);
  *out = e;
  return status;
}

/* ---- build logs in the user's line numbers -------------------------------------------------- */

/* The runtime puts `#line 1` between the prelude and the user's source, so compilers report
 * lines of the user's source. Not every compiler honours it (NVIDIA's, driver 580, does not), so on
 * a failed build ampcl asks once per accelerator, with a tiny probe, and rewrites the log's
 * "<name>:LINE:COL:" positions itself where the compiler did not. Costs nothing unless a build
 * fails. */
static pthread_mutex_t honours_lock = PTHREAD_MUTEX_INITIALIZER;
static signed char *honours_line; /* per accelerator: 0 unknown, 1 honours #line, -1 does not */

static int compiler_honours_line(amp_accelerator *acc, cl_context ctx) {
  amp_accelerator **list = NULL;
  size_t n = 0;
  if (amp__accelerators(&list, &n) != AMP_SUCCESS)
    return 1;
  pthread_mutex_lock(&honours_lock);
  if (!honours_line)
    honours_line = calloc(n, 1);
  int known = honours_line ? honours_line[acc->index] : 1;
  pthread_mutex_unlock(&honours_lock);
  if (known)
    return known > 0;
  /* An error on physical line 5, which is line 1 after the directive. */
  const char *probe = "\n\n\n#line 1\nampcl_line_probe x;\n";
  cl_int err = CL_SUCCESS;
  long line = -1;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &probe, NULL, &err);
  amp__clobj(AMP_CL_PROGRAM, prog ? 1 : 0);
  if (err == CL_SUCCESS && clBuildProgram(prog, 1, &acc->device, "", NULL, NULL) != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = calloc(len + 1, 1);
    if (log && clGetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, len, log, NULL) ==
                   CL_SUCCESS)
      line = amp__log_first_line(log);
    free(log);
  }
  if (prog)
    clReleaseProgram(prog);
  amp__clobj(AMP_CL_PROGRAM, prog ? -1 : 0);
  int honours = line != 5; /* when in doubt, leave logs alone */
  pthread_mutex_lock(&honours_lock);
  if (honours_line)
    honours_line[acc->index] = (signed char)(honours ? 1 : -1);
  pthread_mutex_unlock(&honours_lock);
  return honours;
}

/* Builds the entry's program; called with e->lock held. */
static amp_status build(cache_entry *e, const amp_program *p, amp_accelerator *acc) {
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  cl_program prog = NULL;
  char *log = NULL, *plain_opts = NULL;
  AMP__TRY(amp__context(acc, &ctx));
  cl_int err = CL_SUCCESS;
  const char *src = e->text;
  char defines[DEVICE_DEFINES_MAX];
  device_defines(p, acc, e->checked, defines);
  size_t nplain = strlen(p->options) + strlen(defines) + 1;
  if (!(plain_opts = malloc(nplain)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory building a program");
  snprintf(plain_opts, nplain, "%s%s", p->options, defines);
  prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  amp__clobj(AMP_CL_PROGRAM, prog ? 1 : 0);
  AMP__CL(err, "clCreateProgramWithSource");
  err = clBuildProgram(prog, 1, &acc->device, e->options, NULL, NULL);
  if (err == CL_BUILD_PROGRAM_FAILURE) {
    /* NVIDIA's compiler (driver 580) emits PTX that ptxas rejects for a kernel without parameters
     * when -cl-kernel-arg-info is on. A second build without it tells a driver problem from an
     * error in the source: if that one succeeds, the program is used without argument checks. */
    cl_program plain = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    amp__clobj(AMP_CL_PROGRAM, plain ? 1 : 0);
    if (err == CL_SUCCESS &&
        clBuildProgram(plain, 1, &acc->device, plain_opts, NULL, NULL) == CL_SUCCESS) {
      if (amp__debug_enabled())
        fprintf(stderr,
                "[ampcl] %s built for %s only without -cl-kernel-arg-info: its launches "
                "are not checked against the kernel's parameters\n",
                p->label, acc->props.device_path);
      clReleaseProgram(prog);
      amp__clobj(AMP_CL_PROGRAM, -1);
      prog = plain;
      err = CL_SUCCESS;
    } else {
      if (plain)
        clReleaseProgram(plain);
      amp__clobj(AMP_CL_PROGRAM, plain ? -1 : 0);
      err = CL_BUILD_PROGRAM_FAILURE; /* report the first build's log */
    }
  }
  if (err != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    log = calloc(n + 1, 1);
    if (log)
      clGetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    status = amp__set_error(err == CL_BUILD_PROGRAM_FAILURE ? AMP_ERROR_BUILD_FAILED
                                                            : amp__cl_status(err),
                            "kernel source %s failed to build for %s (%s, options \"%s\"%s); "
                            "build log:\n",
                            p->label, acc->props.device_path, amp_status_name(amp__cl_status(err)),
                            p->options, e->checked ? ", debug mode: -DAMP_DEBUG=1" : "");
    if (!log || !*log) {
      amp__append_error("(the compiler gave no log)");
    } else if (compiler_honours_line(acc, ctx)) {
      amp__append_error(log);
    } else { /* the log in the user's lines (build_log.c) */
      char *shifted = amp__log_shift(log, amp__log_user_offset(e->text), p->label);
      amp__append_error(shifted ? shifted : log);
      free(shifted);
    }
    goto fail;
  }
  e->program = prog;
  prog = NULL;
fail:
  if (prog)
    clReleaseProgram(prog);
  amp__clobj(AMP_CL_PROGRAM, prog ? -1 : 0);
  free(log);
  free(plain_opts);
  return status;
}

amp_status amp_program_build(amp_program *program, amp_accelerator *acc) {
  amp_status status = AMP_SUCCESS;
  cache_entry *e;
  AMP__CHECK(program, AMP__MAGIC_PROGRAM, "program");
  AMP__CHECK(acc, AMP__MAGIC_ACCELERATOR, "accelerator");
  AMP__TRY(cache_lookup(program, acc, checked_mode(), &e));
  pthread_mutex_lock(&e->lock);
  if (!e->program)
    status = build(e, program, acc);
  pthread_mutex_unlock(&e->lock);
  cache_unpin(e);
fail:
  return status;
}

/* ---- kernel pools --------------------------------------------------------------------------- */

void amp__params_free(amp__param *params, cl_uint n) {
  for (cl_uint i = 0; params && i < n; i++) {
    free(params[i].type);
    free(params[i].name);
  }
  free(params);
}

/* A string parameter of clGetKernelArgInfo, whatever its length (malloc'd), or NULL. */
static char *arg_info_string(cl_kernel k, cl_uint i, cl_kernel_arg_info what) {
  size_t n = 0;
  if (clGetKernelArgInfo(k, i, what, 0, NULL, &n) != CL_SUCCESS || n == 0)
    return NULL;
  char *s = malloc(n + 1);
  if (s && clGetKernelArgInfo(k, i, what, n, s, NULL) != CL_SUCCESS) {
    free(s);
    return NULL;
  }
  if (s)
    s[n] = '\0';
  return s;
}

static void strip_spaces(char *s) {
  char *o = s;
  for (; *s; s++)
    if (*s != ' ')
      *o++ = *s;
  *o = '\0';
}

static amp_status new_pool(cache_entry *e, const char *name, amp_accelerator *acc,
                           amp__kernel_pool **out) {
  amp_status status = AMP_SUCCESS;
  cl_kernel k = NULL;
  amp__kernel_pool *pool = calloc(1, sizeof *pool);
  if (!pool || !(pool->name = strdup(name))) {
    free(pool);
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  cl_int err = CL_SUCCESS;
  k = clCreateKernel(e->program, name, &err);
  amp__clobj(AMP_CL_KERNEL, k ? 1 : 0);
  if (err == CL_INVALID_KERNEL_NAME)
    AMP__FAIL(AMP_CL_INVALID_KERNEL_NAME, "the program has no kernel function named \"%s\"", name);
  AMP__CL(err, "clCreateKernel");
  pthread_mutex_init(&pool->lock, NULL);
  pool->program = e->program;
  pool->checked = e->checked;
  pool->entry = e;
  AMP__CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof pool->nparams, &pool->nparams, NULL),
          "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
  AMP__CL(clGetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof pool->work_group_size, &pool->work_group_size, NULL),
          "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
  pool->work_group_size = amp__device_limits_kernel_tile(acc, pool->work_group_size);
  if (clGetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                               sizeof pool->required_tile, pool->required_tile, NULL) != CL_SUCCESS)
    memset(pool->required_tile, 0, sizeof pool->required_tile);
  if (clGetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof pool->static_local,
                               &pool->static_local, NULL) != CL_SUCCESS)
    pool->static_local = 0;
  pool->params = calloc(pool->nparams ? pool->nparams : 1, sizeof *pool->params);
  if (!pool->params)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  for (cl_uint i = 0; i < pool->nparams; i++) {
    amp__param *pa = &pool->params[i];
    if (clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof pa->address, &pa->address,
                           NULL) != CL_SUCCESS ||
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof pa->qualifier, &pa->qualifier,
                           NULL) != CL_SUCCESS ||
        !(pa->type = arg_info_string(k, i, CL_KERNEL_ARG_TYPE_NAME))) {
      /* no argument info from this driver (ampcl asks for it with -cl-kernel-arg-info): the
       * checks that need it are skipped */
      amp__params_free(pool->params, pool->nparams);
      pool->params = NULL;
      break;
    }
    if (!(pa->name = arg_info_string(k, i, CL_KERNEL_ARG_NAME))) {
      char num[16];
      snprintf(num, sizeof num, "#%u", i);
      if (!(pa->name = strdup(num)))
        AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    strip_spaces(pa->type);
  }
  amp__param_sizes(k, e->text, e->options, acc, pool->params, pool->nparams);
  amp__kernel_give_back(pool, k);
  *out = pool;
  return AMP_SUCCESS;
fail:
  if (k)
    clReleaseKernel(k);
  amp__clobj(AMP_CL_KERNEL, k ? -1 : 0);
  amp__params_free(pool->params, pool->nparams);
  free(pool->name);
  free(pool);
  return status;
}

amp_status amp__kernel_pool_get(amp_kernel *kernel, amp_accelerator *acc, amp__kernel_pool **out) {
  amp_status status = AMP_SUCCESS;
  cache_entry *e;
  const int checked = checked_mode();
  const size_t slot = 2 * acc->index + (size_t)checked;
  /* Fast path: this kernel already found its pool on this accelerator, in this mode. */
  amp__kernel_pool *known = slot < kernel->npools ? atomic_load(&kernel->pools[slot]) : NULL;
  if (known) {
    *out = known;
    return AMP_SUCCESS;
  }
  AMP__TRY(cache_lookup(kernel->program, acc, checked, &e));
  pthread_mutex_lock(&e->lock);
  if (!e->program)
    status = build(e, kernel->program, acc);
  amp__kernel_pool *pool = NULL;
  if (status == AMP_SUCCESS) {
    for (pool = e->pools; pool; pool = pool->next)
      if (strcmp(pool->name, kernel->name) == 0)
        break;
    if (!pool) {
      status = new_pool(e, kernel->name, acc, &pool);
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
    /* The kernel keeps the entry in use (the pin taken by cache_lookup) while it remembers the
     * pool; a second thread that found it too gives its pin back. */
    if (slot < kernel->npools && atomic_compare_exchange_strong(&kernel->pools[slot], &none, pool))
      return AMP_SUCCESS;
  }
  cache_unpin(e);
fail:
  return status;
}

amp_status amp__kernel_take(amp__kernel_pool *pool, cl_kernel *out) {
  amp_status status = AMP_SUCCESS;
  pthread_mutex_lock(&pool->lock);
  cl_kernel k = pool->nfree ? pool->free[--pool->nfree] : NULL;
  pthread_mutex_unlock(&pool->lock);
  if (!k) {
    cl_int err = CL_SUCCESS;
    k = clCreateKernel(pool->program, pool->name, &err);
    AMP__CL(err, "clCreateKernel");
    amp__clobj(AMP_CL_KERNEL, 1);
  }
  *out = k;
fail:
  return status;
}

void amp__kernel_give_back(amp__kernel_pool *pool, cl_kernel k) {
  pthread_mutex_lock(&pool->lock);
  if (pool->nfree == pool->cap) {
    size_t cap = pool->cap ? 2 * pool->cap : 4;
    cl_kernel *p = realloc(pool->free, cap * sizeof *p);
    if (!p) {
      pthread_mutex_unlock(&pool->lock);
      clReleaseKernel(k);
      amp__clobj(AMP_CL_KERNEL, -1);
      return;
    }
    pool->free = p;
    pool->cap = cap;
  }
  pool->free[pool->nfree++] = k;
  pthread_mutex_unlock(&pool->lock);
}
