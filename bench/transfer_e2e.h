/* bench/transfer_e2e.h: amp-transfer --addexp (transfer_e2e.c). */
#ifndef AMPCL_BENCH_TRANSFER_E2E_H
#define AMPCL_BENCH_TRANSFER_E2E_H

#include <ampcl.h>
#include <ampcl/opencl.h>

typedef struct transfer_setup {
  amp_accelerator *acc;
  amp_accelerator_view *view;
  cl_context cl;
  cl_command_queue q;
  int repeats;
} transfer_setup;

/* Prints the link time of add-exp's bytes and add-exp end to end over malloc'd and pinned memory
 * (n floats per array); 0 on success, 1 on a failure or a wrong result (reason printed). */
int transfer_addexp(const transfer_setup *t, long n);

#endif /* AMPCL_BENCH_TRANSFER_E2E_H */
