/* bench/bench_parts.c: one piece of work per accelerator, each on its own host thread.
 *
 * The split columns (matmul's multi, fast-multi, gemm-multi, clblast-multi; add-exp's multi) give
 * each accelerator its own row block, over views of its own, and drive each from its own thread,
 * as a C++ AMP program does with one parallel_for over its accelerator_views. Then a part's
 * copies in and out (staged, from malloc'd memory, on the calling thread) do not wait for the
 * other parts' copies, and each GPU's data moves over its own link at the same time. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

typedef struct part_job {
  bench_part_fn fn;
  void *arg;
  int part, nparts;
  amp_status status;
  double kernel_ms; /* the part's device time */
  char why[200];    /* amp_last_error() is per thread: the worker's reason, kept for the note */
} part_job;

static void run_job(part_job *j) {
  j->status = j->fn(j->arg, j->part, &j->kernel_ms);
  if (j->status != AMP_SUCCESS && j->nparts > 1)
    snprintf(j->why, sizeof j->why, "part %d: %s", j->part, amp_last_error());
  else if (j->status != AMP_SUCCESS)
    snprintf(j->why, sizeof j->why, "%s", amp_last_error());
}

static void *part_main(void *p) {
  run_job(p);
  return NULL;
}

int bench_run_parts(bench_cell *cell, const char *what, int n, bench_part_fn fn, void *arg,
                    double *kernel_ms) {
  part_job jobs[BENCH_MAX_ACCS];
  pthread_t threads[BENCH_MAX_ACCS];
  int started[BENCH_MAX_ACCS] = {0};
  if (n < 1 || n > BENCH_MAX_ACCS)
    return bench_fail_why(cell, AMP_ERROR_INVALID_ARGUMENT, what, "bad number of parts");
  for (int p = 0; p < n; p++)
    jobs[p] = (part_job){.fn = fn, .arg = arg, .part = p, .nparts = n};
  for (int p = 1; p < n; p++)
    started[p] = pthread_create(&threads[p], NULL, part_main, &jobs[p]) == 0;
  run_job(&jobs[0]);
  for (int p = 1; p < n; p++) {
    if (started[p])
      pthread_join(threads[p], NULL);
    else
      run_job(&jobs[p]); /* no thread to be had: the part runs here, after the others */
  }
  *kernel_ms = 0;
  for (int p = 0; p < n; p++) {
    if (jobs[p].status != AMP_SUCCESS)
      return bench_fail_why(cell, jobs[p].status, what, jobs[p].why);
    if (isnan(jobs[p].kernel_ms))
      *kernel_ms = NAN; /* a part without a device time: none for the whole (x > NAN is false) */
    else if (jobs[p].kernel_ms > *kernel_ms)
      *kernel_ms = jobs[p].kernel_ms;
  }
  return 0;
}
