/* runtime/exec/program_cache.c: the in-memory cache of built programs.
 *
 * Built programs are cached, keyed by the full text (the prelude and the source), the options and
 * the device, while an amp_program that has them stays alive: the last amp_program_release of
 * every program using a build frees it. The cache holds at most AMP_PROGRAM_CACHE_MAX builds (an
 * environment variable, read once; 64 when unset); past that the least recently used builds that
 * no live amp_kernel uses are evicted (and built again if used again). Builds that live kernels
 * use are never evicted, so the bound can be exceeded by them.
 *
 * There is deliberately no on-disk cache in ampcl: the drivers already keep one (POCL under
 * POCL_CACHE_DIR, NVIDIA under ~/.nv/ComputeCache), keyed on what only they know (compiler
 * version, work-group size), and a second layer would have to get invalidation, atomic writes and
 * concurrent processes right for a gain those caches already give. docs/KERNELS.md says more. */
#include "exec/program_cache.h"
#include "core/clobjects.h"
#include "core/env_parse.h"
#include "core/knobs.h"
#include "exec/build_log.h"
#include "exec/program_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct amp__cache_entry cache_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry *cache_head;
static size_t cache_count;
static uint64_t cache_tick;
static size_t cache_max; /* 0 until read from AMP_PROGRAM_CACHE_MAX */

static size_t cache_bound(void) {
  if (!cache_max) {
    cache_max = amp__env_program_cache_max(amp__knob_get(AMP_KNOB_PROGRAM_CACHE_MAX));
  }
  return cache_max;
}

static void free_entry(cache_entry *e) {
  for (amp__kernel_pool *pool = e->pools, *next; pool; pool = next) {
    next = pool->next;
    amp__kernel_pool_free(pool);
  }
  if (e->program) {
    amp__release_program(e->program);
  }
  amp__type_sizes_free(&e->struct_sizes);
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

void amp__program_cache_unpin(cache_entry *e) {
  cache_entry *dead = NULL;
  pthread_mutex_lock(&cache_lock);
  e->users--;
  if (unused_and_unowned(e))
    unlink_if(unused_and_unowned, &dead);
  pthread_mutex_unlock(&cache_lock);
  free_list(dead);
}

void amp__program_cache_forget(const amp_program *p) {
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

amp_status amp__program_cache_lookup(const amp_program *p, amp_accelerator *acc, int checked,
                                     cache_entry **out) {
  amp_status status = AMP_SUCCESS;
  const char *pre = amp__prelude_text();
  char *line = amp__line_directive(p->label);
  size_t n = (pre ? strlen(pre) : 0) + (line ? strlen(line) : 0) + strlen(p->source) + 1;
  char *text = pre && line ? malloc(n) : NULL;
  char defines[AMP__DEVICE_DEFINES_MAX];
  amp__device_defines(p, acc, checked, defines);
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
