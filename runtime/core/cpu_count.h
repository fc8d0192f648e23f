/* runtime/core/cpu_count.h: how many CPUs this process may run on. */
#ifndef AMPCL_CORE_CPU_COUNT_H
#define AMPCL_CORE_CPU_COUNT_H

/* The CPUs of the process's affinity mask (sched_getaffinity), not the machine's: an MPI rank that
 * mpirun binds to one core (Open MPI's default for one or two ranks) runs every thread it starts
 * on that core. Where the mask cannot be read, the online CPUs. At least 1. */
int amp__usable_cpus(void);

#endif /* AMPCL_CORE_CPU_COUNT_H */
