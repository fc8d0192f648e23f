/* runtime/core/cpu_count.c: the CPUs this process may run on (cpu_count.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT_S */
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cpu_count.h"

static int affinity_cpus(void) {
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online < 1)
    online = 1;
  /* a mask large enough for every CPU the kernel may report (CPU_ALLOC_SIZE rounds up) */
  long max = sysconf(_SC_NPROCESSORS_CONF);
  int ncpu = (int)(max > online ? max : online);
  if (ncpu < 1024)
    ncpu = 1024;
  cpu_set_t *set = CPU_ALLOC((size_t)ncpu);
  if (!set)
    return (int)online;
  size_t size = CPU_ALLOC_SIZE((size_t)ncpu);
  CPU_ZERO_S(size, set);
  int n = sched_getaffinity(0, size, set) == 0 ? CPU_COUNT_S(size, set) : (int)online;
  CPU_FREE(set);
  return n < 1 ? 1 : n;
}

/* ceil(quota / period) for a quota and period in microseconds; 0 for no limit (quota < 0) or
 * nonsense. */
static int cpus_of(long long quota, long long period) {
  if (quota <= 0 || period <= 0 || quota > (long long)INT_MAX * period)
    return 0;
  return (int)((quota + period - 1) / period);
}

/* The limit a cgroup directory sets: cgroup v2's cpu.max ("max 100000" or "200000 100000"), or
 * v1's cpu.cfs_quota_us and cpu.cfs_period_us; 0 for none. */
static int dir_limit(const char *dir, int v2) {
  char path[PATH_MAX];
  long long quota = -1, period = 0;
  if (v2) {
    char q[32] = "";
    if (snprintf(path, sizeof path, "%s/cpu.max", dir) >= (int)sizeof path)
      return 0;
    FILE *f = fopen(path, "r");
    if (!f)
      return 0;
    int got = fscanf(f, "%31s %lld", q, &period);
    fclose(f);
    if (got != 2 || strcmp(q, "max") == 0)
      return 0;
    char *end = NULL;
    quota = strtoll(q, &end, 10);
    return *end ? 0 : cpus_of(quota, period);
  }
  static const char *const name[2] = {"cpu.cfs_quota_us", "cpu.cfs_period_us"};
  long long *out[2] = {&quota, &period};
  for (int i = 0; i < 2; i++) {
    if (snprintf(path, sizeof path, "%s/%s", dir, name[i]) >= (int)sizeof path)
      return 0;
    FILE *f = fopen(path, "r");
    if (!f)
      return 0;
    int got = fscanf(f, "%lld", out[i]);
    fclose(f);
    if (got != 1)
      return 0;
  }
  return cpus_of(quota, period);
}

/* The smallest limit set on `base` + `rel` or any of its parents up to `base`; 0 for none. */
static int walk_up(const char *base, const char *rel, int v2) {
  char dir[PATH_MAX];
  if (snprintf(dir, sizeof dir, "%s%s", base, rel) >= (int)sizeof dir)
    return 0;
  size_t stop = strlen(base);
  int best = 0;
  for (;;) {
    int n = dir_limit(dir, v2);
    if (n > 0 && (best == 0 || n < best))
      best = n;
    char *slash = strrchr(dir, '/');
    if (!slash || (size_t)(slash - dir) < stop)
      break;
    *slash = '\0';
  }
  return best;
}

int amp__cpu_quota(const char *proc_cgroup, const char *root) {
  FILE *f = fopen(proc_cgroup, "r");
  if (!f)
    return 0;
  char line[4096], base[PATH_MAX];
  int best = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2)
      continue;
    *c1 = '\0';
    *c2 = '\0';
    const char *controllers = c1 + 1, *rel = c2 + 1;
    if (strcmp(rel, "/") == 0)
      rel = "";
    int n = 0;
    if (strcmp(line, "0") == 0 && *controllers == '\0') { /* cgroup v2 */
      if (snprintf(base, sizeof base, "%s", root) < (int)sizeof base)
        n = walk_up(base, rel, 1);
    } else { /* cgroup v1: the line whose controllers include cpu */
      char list[256];
      snprintf(list, sizeof list, ",%s,", controllers);
      if (!strstr(list, ",cpu,"))
        continue;
      if (snprintf(base, sizeof base, "%s/%s", root, controllers) < (int)sizeof base)
        n = walk_up(base, rel, 0);
      if (n == 0 && snprintf(base, sizeof base, "%s/cpu", root) < (int)sizeof base)
        n = walk_up(base, rel, 0);
    }
    if (n > 0 && (best == 0 || n < best))
      best = n;
  }
  fclose(f);
  return best;
}

int amp__usable_cpus(void) {
  int n = affinity_cpus(), quota = amp__cpu_quota("/proc/self/cgroup", "/sys/fs/cgroup");
  return quota > 0 && quota < n ? quota : n;
}
