/* runtime/algorithms/algo.c: the parts the algorithm files share (see algo.h). Their kernels are
 * files of kernels_cl/ embedded at build time; they are built through amp_program_create_builtin
 * (or, with a caller's operator in front, amp_program_create) and launched with
 * amp_parallel_for_each_ex, so copies in, waits, and what counts as written afterwards are the
 * launch path's. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/algo.h"
#include "core/knobs.h"
#include "data/elem_names.h"
#include "exec/program.h"

const char *amp__algo_type_name(amp_elem_kind kind, int vec4) {
  const amp__elem_names *n = amp__elem_names_of(kind);
  return vec4 ? n->cl4 : n->cl;
}

amp_status amp__algo_knob_either(amp__knob knob, const char *a, int a_means, const char *b,
                                 int b_means, int *out, const char *fn) {
  const char *env = amp__knob_get(knob);
  if (!env || !*env)
    return AMP_SUCCESS;
  if (strcmp(env, a) == 0)
    *out = a_means;
  else if (strcmp(env, b) == 0)
    *out = b_means;
  else
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT, "%s: %s=%s: expected %s or %s", fn,
                          amp__knob_name(knob), env, a, b);
  return AMP_SUCCESS;
}

amp_status amp__algo_check_view(amp_accelerator_view *view, const amp_array_view *v, int rank,
                                int kinds, int write, const char *name, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(view, AMP__MAGIC_VIEW, "accelerator view", fn));
  AMP__TRY(amp__check_handle(v, AMP__MAGIC_ARRAY_VIEW, "array view", fn));
  if (v->extent.rank != rank)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH, "%s: %s has rank %d; it must have rank %d", fn, name,
              v->extent.rank, rank);
  amp_elem_kind k = v->type.kind;
  int int32 = k == AMP_ELEM_INT32 || k == AMP_ELEM_UINT32;
  int number = int32 || k == AMP_ELEM_FLOAT || k == AMP_ELEM_DOUBLE;
  int int64 = k == AMP_ELEM_INT64 || k == AMP_ELEM_UINT64;
  if (kinds == AMP__ALGO_INT32 ? !int32 : kinds == AMP__ALGO_NUMBERS ? !number : !number && !int64)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s holds elements of kind %d (%s); it takes %s", fn,
              name, (int)k, amp__elem_names_of(k)->macro,
              kinds == AMP__ALGO_INT32     ? "AMP_INT32 or AMP_UINT32"
              : kinds == AMP__ALGO_NUMBERS ? "AMP_INT32, AMP_UINT32, AMP_FLOAT or AMP_DOUBLE"
                                           : "AMP_INT32, AMP_UINT32, AMP_FLOAT, AMP_DOUBLE, "
                                             "AMP_INT64 or AMP_UINT64");
  if (write && v->read_only)
    AMP__FAIL(AMP_ERROR_ACCESS_DENIED, "%s: %s is a read-only view, and it is written", fn, name);
  if (k == AMP_ELEM_DOUBLE && !view->acc->props.supports_double_precision)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "%s: %s holds doubles, but %s does not support double "
              "precision",
              fn, name, view->acc->props.device_path);
fail:
  return status;
}

amp_status amp__algo_check_indexed(amp_accelerator_view *view, const amp_array_view *index,
                                   const char *index_name, const amp_array_view *values,
                                   const char *values_name, const char *why, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__algo_check_view(view, index, 1, AMP__ALGO_INT32, 0, index_name, fn));
  AMP__TRY(amp__algo_check_view(view, values, 1, AMP__ALGO_NUMBERS, 0, values_name, fn));
  if (values->type.kind == AMP_ELEM_DOUBLE)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: %s holds doubles; it takes AMP_INT32, AMP_UINT32 or AMP_FLOAT (%s)", fn,
              values_name, why);
  if (values->extent.dim[0] != index->extent.dim[0])
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH, "%s: %s has %d elements but %s has %d", fn, index_name,
              index->extent.dim[0], values_name, values->extent.dim[0]);
fail:
  return status;
}

/* The algorithms' own kernels (no caller text in them) are kept for the life of the process, so
 * each is built once per device: the program cache frees a build with its last program
 * (program_cache.c), and an algorithm call would otherwise build its kernels again every time. The
 * caller gets its own reference (amp_kernel_release it as before). */
typedef struct memo {
  char *key;
  amp_kernel *k;
  struct memo *next;
} memo;
static memo *memos;
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

static amp_kernel *memo_get(const char *key) {
  amp_kernel *k = NULL;
  pthread_mutex_lock(&memo_lock);
  for (memo *m = memos; m && !k; m = m->next)
    if (strcmp(m->key, key) == 0 && amp_kernel_retain(m->k) == AMP_SUCCESS)
      k = m->k;
  pthread_mutex_unlock(&memo_lock);
  return k;
}

static void memo_put(const char *key, amp_kernel *k) {
  memo *m = calloc(1, sizeof *m);
  if (!m || !(m->key = strdup(key)) || amp_kernel_retain(k) != AMP_SUCCESS) {
    if (m)
      free(m->key);
    free(m);
    return; /* not kept: built again next time */
  }
  m->k = k;
  pthread_mutex_lock(&memo_lock);
  m->next = memos;
  memos = m;
  pthread_mutex_unlock(&memo_lock);
}

/* "file|options|kname|prefix", malloc'd (NULL when out of memory: then nothing is remembered). */
static char *memo_key(const char *file, const char *options, const char *kname,
                      const char *prefix) {
  size_t n = strlen(file) + strlen(options ? options : "") + strlen(kname) +
             strlen(prefix ? prefix : "") + 4;
  char *key = malloc(n);
  if (key)
    snprintf(key, n, "%s|%s|%s|%s", file, options ? options : "", kname, prefix ? prefix : "");
  return key;
}

/* amp_program_create_builtin + amp_kernel_create, remembered. */
static amp_status builtin_kernel(const char *file, const char *options, const char *kname,
                                 amp_kernel **out) {
  amp_status status = AMP_SUCCESS;
  amp_program *p = NULL;
  char *key = memo_key(file, options, kname, NULL);
  if (key && (*out = memo_get(key))) {
    free(key);
    return AMP_SUCCESS;
  }
  AMP__TRY(amp_program_create_builtin(file, options, &p));
  AMP__TRY(amp_kernel_create(p, kname, out));
  if (key)
    memo_put(key, *out);
fail:
  amp_program_release(p); /* the kernel keeps it */
  free(key);
  return status;
}

/* A kernel of builtin file `file` with the caller's text in front of it. */
static amp_status prefixed_kernel(const char *file, const char *prefix, const char *options,
                                  const char *kname, amp_kernel **out) {
  amp_status status = AMP_SUCCESS;
  amp_program *p = NULL;
  char *text = NULL;
  {
    const char *body = NULL;
    for (size_t i = 0; i < amp__embedded_count; i++)
      if (strcmp(amp__embedded_kernels[i].name, file) == 0)
        body = amp__embedded_kernels[i].text;
    if (!body)
      AMP__FAIL(AMP_ERROR_NOT_FOUND, "no builtin kernel file \"%s\"", file);
    size_t a = strlen(prefix), b = strlen(body);
    if (a > SIZE_MAX - b - 2 || !(text = malloc(a + b + 2)))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "%s: out of memory for the program text", kname);
    memcpy(text, prefix, a);
    text[a] = '\n';
    memcpy(text + a + 1, body, b + 1);
    AMP__TRY(amp_program_create(text, options, &p));
  }
  AMP__TRY(amp_kernel_create(p, kname, out));
fail:
  amp_program_release(p); /* the kernel keeps it */
  free(text);
  return status;
}

amp_status amp__algo_kernel(const char *file, const char *prefix, amp_elem_kind kind,
                            const char *kname, amp_kernel **out) {
  char options[64];
  snprintf(options, sizeof options, "-DT=%s -DT4=%s", amp__algo_type_name(kind, 0),
           amp__algo_type_name(kind, 1));
  return amp__algo_kernel_prefix(file, prefix, options, kname, out);
}

amp_status amp__algo_kernel_prefix(const char *file, const char *prefix, const char *options,
                                   const char *kname, amp_kernel **out) {
  if (!prefix)
    return builtin_kernel(file, options, kname, out);
  /* an operator's kernel is remembered too (reduce's built-in operators come this way; a
   * program's own operators are few) */
  char *key = memo_key(file, options, kname, prefix);
  if (key && (*out = memo_get(key))) {
    free(key);
    return AMP_SUCCESS;
  }
  amp_status status = prefixed_kernel(file, prefix, options, kname, out);
  if (status == AMP_SUCCESS && key)
    memo_put(key, *out);
  free(key);
  return status;
}

amp_status amp__algo_kernel_opts(const char *file, const char *options, const char *kname,
                                 amp_kernel **out) {
  return builtin_kernel(file, options, kname, out);
}

amp_status amp__algo_launch1(amp_accelerator_view *view, amp_kernel *k, size_t tiles, int tile,
                             const amp_arg *args, size_t nargs) {
  amp_status status = AMP_SUCCESS;
  if (tiles == 0 || tiles > (size_t)INT32_MAX / (size_t)tile)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%zu tiles of %d threads do not fit a launch", tiles, tile);
  amp_launch l = {amp_extent1((int)(tiles * (size_t)tile)), 1, {tile, 1, 1}, k, args, nargs};
  AMP__TRY(amp_parallel_for_each_ex(view, &l, NULL));
fail:
  return status;
}

size_t amp__algo_tiles(const amp_accelerator_view *view, size_t n, size_t per_tile, size_t cap) {
  size_t want = n / per_tile + (n % per_tile != 0);
  size_t fill = (size_t)(view->acc->props.compute_units ? view->acc->props.compute_units : 1) * 8;
  if (want > fill)
    want = fill;
  if (want > cap)
    want = cap;
  return want ? want : 1;
}

amp_status amp__algo_warp_path(const amp_accelerator_view *view, amp__knob knob, int *on,
                               const char **opts, const char *fn) {
  amp_status status = AMP_SUCCESS;
  int emulate = 0, wanted = 1;
  *on = 0;
  *opts = " -DAMPCL_WARP_OFF";
  AMP__TRY(amp__knob_int_in(AMP_KNOB_WARP_EMULATE, 0, 1, 0, &emulate, fn));
  AMP__TRY(amp__knob_int(knob, 1, &wanted, fn));
  *on = wanted && (emulate || view->acc->props.compute_capability >= AMP__ALGO_WARP_CC);
  if (*on)
    *opts = emulate ? " -DAMPCL_WARP_EMULATE=1" : "";
fail:
  return status;
}

int amp__algo_tile_fits(const amp_accelerator_view *view, int least, size_t local_per_thread,
                        size_t local_fixed) {
  const char *env = amp__knob_get(AMP_KNOB_ALGO_TILE); /* checked by amp__algo_tile */
  int forced = env && *env ? atoi(env) : 0;
  return (size_t)least <= view->acc->props.max_tile_size && (forced <= 0 || least <= forced) &&
         local_per_thread * (size_t)least + local_fixed <= view->acc->props.local_memory;
}

amp_status amp__algo_tile(const amp_accelerator_view *view, int tuned, int least,
                          size_t local_per_thread, size_t local_fixed, const char *what,
                          const char *fn, int *tile) {
  amp_status status = AMP_SUCCESS;
  int forced = 0;
  *tile = tuned;
  AMP__TRY(amp__knob_int_in(AMP_KNOB_ALGO_TILE, AMP__ALGO_LEAST_TILE, 1024, 0, &forced, fn));
  if (forced & (forced - 1))
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: AMP_ALGO_TILE=%d: expected a power of two", fn,
              forced);
  size_t allowed = view->acc->props.max_tile_size;
  uint64_t local = view->acc->props.local_memory;
  int t = tuned;
  while (t > least && ((size_t)t > allowed || (forced && t > forced) ||
                       local_per_thread * (size_t)t + local_fixed > local)) {
    int p = 1; /* the power of two below t: half of it, or below a knob's odd tile (96: 64) */
    while (p * 2 < t)
      p *= 2;
    t = p;
  }
  if ((size_t)t > allowed)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "%s: %s needs tiles of at least %d threads; %s allows %zu per tile", fn, what, t,
              view->acc->props.device_path, allowed);
  if (local_per_thread * (size_t)t + local_fixed > local)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "%s: %s needs %zu bytes of tile_static memory at its smallest tile (%d threads); "
              "%s has %llu",
              fn, what, local_per_thread * (size_t)t + local_fixed, t, view->acc->props.device_path,
              (unsigned long long)local);
  *tile = t;
  if (t < tuned && amp__debug_enabled()) {
    size_t at2 = local_per_thread * (size_t)t * 2 + local_fixed;
    if (forced && t * 2 > forced)
      fprintf(stderr,
              "[ampcl] debug: %s: tiles of %d threads (AMP_ALGO_TILE=%d; the tuned shape "
              "is %d)\n",
              what, t, forced, tuned);
    else if ((size_t)t * 2 > allowed)
      fprintf(stderr,
              "[ampcl] debug: %s: tiles of %d threads (the device allows %zu; the tuned "
              "shape is %d)\n",
              what, t, allowed, tuned);
    else
      fprintf(stderr,
              "[ampcl] debug: %s: tiles of %d threads (%d threads would need %zu bytes of "
              "tile_static memory; the device has %llu; the tuned shape is %d)\n",
              what, t, 2 * t, at2, (unsigned long long)local, tuned);
  }
fail:
  return status;
}

amp_status amp__algo_sort_views_begin(amp__algo_sort_views *v, amp_array_view *keys,
                                      amp_array_view *values, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__array_view_create_empty(keys->extent, keys->type, fn, &v->tk));
  if (values)
    AMP__TRY(amp__array_view_create_empty(values->extent, values->type, fn, &v->tv));
  v->from = keys;
  v->to = v->tk;
  v->vfrom = values;
  v->vto = v->tv;
fail:
  return status;
}

void amp__algo_sort_views_end(amp__algo_sort_views *v) {
  amp_array_view_release(v->tk);
  amp_array_view_release(v->tv);
  amp_array_view_release(v->counts);
}

amp_status amp__algo_sort_pass(amp_accelerator_view *view, amp_kernel *k, size_t tiles, int tile,
                               amp__algo_sort_views *v, const amp_arg *rest, size_t nrest) {
  amp_arg args[4 + AMP__ALGO_SORT_REST];
  size_t n = 0;
  if (nrest > AMP__ALGO_SORT_REST)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "amp__algo_sort_pass: %zu arguments after the views, "
                          "more than %d",
                          nrest, AMP__ALGO_SORT_REST);
  args[n++] = amp_arg_view(v->from);
  args[n++] = amp_arg_view(v->to);
  if (v->vfrom) {
    args[n++] = amp_arg_view(v->vfrom);
    args[n++] = amp_arg_view(v->vto);
  }
  for (size_t i = 0; i < nrest; i++)
    args[n++] = rest[i];
  amp_status status = amp__algo_launch1(view, k, tiles, tile, args, n);
  amp_array_view *x = v->from;
  v->from = v->to;
  v->to = x;
  x = v->vfrom;
  v->vfrom = v->vto;
  v->vto = x;
  return status;
}
