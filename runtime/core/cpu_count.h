/* runtime/core/cpu_count.h: how many CPUs this process may run on. */
#ifndef AMPCL_CORE_CPU_COUNT_H
#define AMPCL_CORE_CPU_COUNT_H

/* The CPUs of the process's affinity mask (sched_getaffinity), not the machine's: an MPI rank that
 * mpirun binds to one core (Open MPI's default for one or two ranks) runs every thread it starts
 * on that core. Where the mask cannot be read, the online CPUs. Fewer where the process's cgroup
 * (or one above it) has a CPU quota (a container started with `docker run --cpus 2` sees every
 * core of the host but gets two cores' time): amp__cpu_quota. At least 1. */
int amp__usable_cpus(void);

/* The CPUs a CFS quota gives the process whose cgroups `proc_cgroup` lists (a /proc/PID/cgroup
 * file), with the cgroup filesystem mounted at `root` (/sys/fs/cgroup): ceil(quota / period), the
 * smallest over its cgroup and the ones above it, from cgroup v2's cpu.max or v1's
 * cpu.cfs_quota_us and cpu.cfs_period_us. 0 where none is set or nothing can be read. */
int amp__cpu_quota(const char *proc_cgroup, const char *root);

#endif /* AMPCL_CORE_CPU_COUNT_H */
