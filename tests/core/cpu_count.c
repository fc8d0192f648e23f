/* tests/core/cpu_count.c: ampcl counts the CPUs a process may run on, not the machine's
 * (runtime/core/cpu_count.c): an MPI rank bound to one core must start one staging thread, not
 * 14 on that core, and a container given two cores' time by a CPU quota must not start 64. The
 * test narrows its own affinity mask and checks the count follows it; it reads CPU quotas from
 * made-up cgroup trees (v2's cpu.max, v1's cpu.cfs_quota_us, limits on a parent, no limit,
 * nonsense, files missing). */
#define _GNU_SOURCE /* sched_getaffinity, sched_setaffinity, mkdtemp */
#include "core/cpu_count.h"
#include "check.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

/* Writes `text` to root/rel, making its directories. */
static void put(const char *rel, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  for (char *p = path + strlen(root) + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(path, 0700);
      *p = '/';
    }
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static int quota(const char *proc_cgroup_text, const char *fs) {
  char proc[512], base[512];
  put("proc-cgroup", proc_cgroup_text);
  snprintf(proc, sizeof proc, "%s/proc-cgroup", root);
  snprintf(base, sizeof base, "%s/%s", root, fs);
  return amp__cpu_quota(proc, base);
}

static void quotas(void) {
  snprintf(root, sizeof root, "/tmp/ampcl-cgroup-XXXXXX");
  CHECK(mkdtemp(root) != NULL);
  /* v2: the limit of the process's cgroup, or of one above it, the smallest */
  put("v2/a/cpu.max", "150000 100000\n");
  put("v2/a/b/cpu.max", "max 100000\n");
  CHECK_EQ_INT(quota("0::/a/b\n", "v2"), 2);
  put("v2/a/b/cpu.max", "100000 100000\n");
  CHECK_EQ_INT(quota("0::/a/b\n", "v2"), 1);
  put("v2/cpu.max", "max 100000\n"); /* the namespace's root, as a container sees it */
  CHECK_EQ_INT(quota("0::/\n", "v2"), 0);
  put("v2/cpu.max", "250000 100000\n");
  CHECK_EQ_INT(quota("0::/\n", "v2"), 3);
  put("v2/c/cpu.max", "abc 100000\n"); /* nonsense: no limit from it */
  CHECK_EQ_INT(quota("0::/c\n", "v2"), 3);
  /* v1: the line whose controllers include cpu, in its own folder or in cpu/ */
  put("v1/cpu,cpuacct/k8s/pod/cpu.cfs_quota_us", "300000\n");
  put("v1/cpu,cpuacct/k8s/pod/cpu.cfs_period_us", "100000\n");
  put("v1/cpu,cpuacct/k8s/cpu.cfs_quota_us", "-1\n");
  put("v1/cpu,cpuacct/k8s/cpu.cfs_period_us", "100000\n");
  CHECK_EQ_INT(quota("5:memory:/x\n3:cpu,cpuacct:/k8s/pod\n2:cpuset:/\n", "v1"), 3);
  CHECK_EQ_INT(quota("3:cpu,cpuacct:/k8s\n", "v1"), 0); /* -1: no limit */
  put("v1/cpu/cpu.cfs_quota_us", "50000\n");
  put("v1/cpu/cpu.cfs_period_us", "100000\n");
  CHECK_EQ_INT(quota("1:cpu:/\n", "v1"), 1);     /* half a CPU: one */
  CHECK_EQ_INT(quota("1:cpuacct:/\n", "v1"), 0); /* not the cpu controller */
  /* nothing to read */
  CHECK_EQ_INT(quota("0::/nowhere\n", "missing"), 0);
  CHECK_EQ_INT(amp__cpu_quota("/nonexistent/cgroup", "/nonexistent"), 0);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  CHECK(system(cmd) == 0);
}

int main(void) {
  quotas();
  /* this process: its affinity mask, and below it its cgroup's quota if there is one */
  const int q = amp__cpu_quota("/proc/self/cgroup", "/sys/fs/cgroup");
  cpu_set_t all, one;
  CHECK(sched_getaffinity(0, sizeof all, &all) == 0);
  const int mask = CPU_COUNT(&all), before = q > 0 && q < mask ? q : mask;
  CHECK_EQ_INT(amp__usable_cpus(), before);

  /* bound to the first CPU of the mask, as `mpirun -np 1` binds a rank: one */
  int first = 0;
  while (first < CPU_SETSIZE && !CPU_ISSET(first, &all))
    first++;
  CHECK(first < CPU_SETSIZE);
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
  CHECK_EQ_INT(amp__usable_cpus(), 1);

  /* two CPUs, where the machine has them: two (one under a quota of one) */
  int second = first + 1;
  while (second < CPU_SETSIZE && !CPU_ISSET(second, &all))
    second++;
  if (second < CPU_SETSIZE) {
    CPU_SET(second, &one);
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
    CHECK_EQ_INT(amp__usable_cpus(), q == 1 ? 1 : 2);
  }

  CHECK(sched_setaffinity(0, sizeof all, &all) == 0);
  CHECK_EQ_INT(amp__usable_cpus(), before);
  return check_done();
}
