/* tests/core/cpu_count.c: ampcl counts the CPUs a process may run on, not the machine's
 * (runtime/core/cpu_count.c): an MPI rank bound to one core must start one staging thread, not
 * 14 on that core. The test narrows its own affinity mask and checks the count follows it. */
#define _GNU_SOURCE /* sched_getaffinity, sched_setaffinity */
#include "core/cpu_count.h"
#include "check.h"

#include <sched.h>

int main(void) {
  cpu_set_t all, one;
  CHECK(sched_getaffinity(0, sizeof all, &all) == 0);
  const int before = CPU_COUNT(&all);
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

  /* two CPUs, where the machine has them: two */
  int second = first + 1;
  while (second < CPU_SETSIZE && !CPU_ISSET(second, &all))
    second++;
  if (second < CPU_SETSIZE) {
    CPU_SET(second, &one);
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
    CHECK_EQ_INT(amp__usable_cpus(), 2);
  }

  CHECK(sched_setaffinity(0, sizeof all, &all) == 0);
  CHECK_EQ_INT(amp__usable_cpus(), before);
  return check_done();
}
