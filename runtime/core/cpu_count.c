/* runtime/core/cpu_count.c: the CPUs this process may run on (cpu_count.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT_S */
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/cpu_count.h"

int amp__usable_cpus(void) {
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
