/* runtime/core/device_limits.c: AMP_DEVICE_LIMITS (device_limits.h): its parser, and where the
 * lowered capabilities take effect. The knob only ever lowers what a device answers; everything
 * that decides by a capability then reads the lowered property, as it would on a weaker device. */
#include "core/device_limits.h"
#include "core/knobs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/accelerator_impl.h"
#include "core/env_parse.h"

#define VAR "AMP_DEVICE_LIMITS"

static const char *const known = "tile=N, kernel_tile=N (1..1024), local=BYTES (1..2^40), "
                                 "fp64=0|1, images=0|1, profiling=0|1, int64_atomics=0|1|2, "
                                 "nan_payload=0|1, arg_info=0|1";

/* One item, `name=value`, of length n: 1, or 0 with why. */
static int item(const char *it, size_t n, amp__device_limits *l, unsigned *seen, char *why,
                size_t cap) {
  static const struct {
    const char *name;
    unsigned long long lo, hi;
  } items[] = {{"tile", 1, 1024},       {"kernel_tile", 1, 1024}, {"local", 1, 1ull << 40},
               {"fp64", 0, 1},          {"images", 0, 1},         {"profiling", 0, 1},
               {"int64_atomics", 0, 2}, {"nan_payload", 0, 1},    {"arg_info", 0, 1}};
  const char *eq = memchr(it, '=', n);
  size_t nlen = eq ? (size_t)(eq - it) : n;
  size_t k = 0;
  while (k < sizeof items / sizeof items[0] &&
         (strlen(items[k].name) != nlen || strncmp(items[k].name, it, nlen) != 0))
    k++;
  if (k == sizeof items / sizeof items[0]) {
    snprintf(why, cap, VAR ": item \"%.*s\" names no limit (known: %s)", (int)n, it, known);
    return 0;
  }
  char num[32] = "";
  size_t vlen = eq ? n - nlen - 1 : 0;
  unsigned long long v = 0;
  if (!eq || vlen == 0 || vlen >= sizeof num ||
      (memcpy(num, eq + 1, vlen), !amp__env_uint(num, items[k].lo, items[k].hi, &v))) {
    if (items[k].hi == 1)
      snprintf(why, cap,
               VAR ": item \"%.*s\": %s takes 0 (without it) or 1 (as the device answers)", (int)n,
               it, items[k].name);
    else
      snprintf(why, cap, VAR ": item \"%.*s\": %s takes a whole number from %llu to %llu", (int)n,
               it, items[k].name, items[k].lo, items[k].hi);
    return 0;
  }
  if (*seen & (1u << k)) {
    snprintf(why, cap, VAR ": item \"%.*s\": %s is given twice", (int)n, it, items[k].name);
    return 0;
  }
  *seen |= 1u << k;
  switch (k) {
  case 0:
    l->tile = (size_t)v;
    break;
  case 1:
    l->kernel_tile = (size_t)v;
    break;
  case 2:
    l->local = v;
    break;
  case 3:
    l->no_fp64 = v == 0;
    break;
  case 4:
    l->no_images = v == 0;
    break;
  case 5:
    l->no_profiling = v == 0;
    break;
  case 6:
    l->int64_atomics = (int)v + 1; /* 0 in the struct: not lowered */
    break;
  case 7:
    l->no_nan_payload = v == 0;
    break;
  default:
    l->no_arg_info = v == 0;
    break;
  }
  return 1;
}

int amp__device_limits_parse(const char *v, amp__device_limits *out, char *why, size_t cap) {
  amp__device_limits l;
  memset(&l, 0, sizeof l);
  memset(out, 0, sizeof *out);
  if (!v || !*v)
    return 1;
  unsigned seen = 0;
  for (const char *p = v;;) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == 0) {
      snprintf(why, cap, VAR "=%.200s: an empty item (expected items such as %s, by commas)", v,
               known);
      return 0;
    }
    if (!item(p, n, &l, &seen, why, cap))
      return 0;
    if (!end)
      break;
    p = end + 1;
  }
  /* a device limit is also every kernel's */
  if (l.tile && (!l.kernel_tile || l.kernel_tile > l.tile))
    l.kernel_tile = l.tile;
  *out = l;
  return 1;
}

static struct {
  pthread_once_t once;
  int ok;
  amp__device_limits limits;
  char why[320];
} g = {PTHREAD_ONCE_INIT, 0, {0, 0, 0, 0, 0, 0, 0, 0, 0}, ""};

static void read_env(void) {
  g.ok = amp__device_limits_parse(amp__knob_get(AMP_KNOB_DEVICE_LIMITS), &g.limits, g.why,
                                  sizeof g.why);
}

int amp__device_limits_check(char *why, size_t cap) {
  pthread_once(&g.once, read_env);
  if (!g.ok)
    snprintf(why, cap, "%s", g.why);
  return g.ok;
}

static size_t at_most(size_t v, size_t lim) {
  return lim && v > lim ? lim : v;
}

void amp__device_limits_apply(struct amp_accelerator *a) {
  pthread_once(&g.once, read_env);
  const amp__device_limits *l = &g.limits;
  if (!g.ok || a->props.is_host)
    return;
  amp_accelerator_properties *pr = &a->props;
  a->device_max_tile = at_most(a->device_max_tile, l->tile);
  pr->max_tile_size = at_most(pr->max_tile_size, l->tile);
  for (int k = 0; k < 3; k++)
    pr->max_tile_extent[k] = at_most(pr->max_tile_extent[k], l->tile);
  a->fault_kernel_tile = l->kernel_tile;
  if (l->local) {
    pr->local_memory = pr->local_memory > l->local ? l->local : pr->local_memory;
    a->declared_local_limit =
        a->declared_local_limit > l->local ? l->local : a->declared_local_limit;
  }
  if (l->no_fp64) {
    pr->supports_double_precision = false;
    pr->supports_limited_double_precision = false;
  }
  a->fault_no_images = l->no_images;
  a->fault_no_arg_info = l->no_arg_info;
  if (l->int64_atomics && l->int64_atomics - 1 < a->has_int64_atomics)
    a->has_int64_atomics = l->int64_atomics - 1;
  if (l->no_nan_payload) { /* as if exec/debug_poison.c had measured arithmetic losing payloads */
    atomic_store(&a->nan_payload[0], -1);
    atomic_store(&a->nan_payload[1], -1);
  }
  if (l->no_profiling) { /* as if core/timestamps.c had measured timestamps that measure nothing */
    a->timestamps_why = VAR " has profiling=0";
    atomic_store(&a->timestamps, -1);
  }
}

size_t amp__device_limits_kernel_tile(const struct amp_accelerator *a, size_t reported) {
  return at_most(reported, a->fault_kernel_tile);
}

cl_int amp__device_limits_enqueue(const struct amp_accelerator *a, const size_t *local) {
  if (!local || !a->fault_kernel_tile)
    return CL_SUCCESS;
  return local[0] * local[1] * local[2] > a->fault_kernel_tile ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}
