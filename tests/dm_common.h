/* tests/dm_common.h: helpers shared by the data-movement tests (tests/dm_*.c), which prove the
 * data movement rules of docs/MODEL.md with the transfer counters of ampcl/stats.h. */
#ifndef AMPCL_TESTS_DM_COMMON_H
#define AMPCL_TESTS_DM_COMMON_H

#include "check.h"

/* The counters of one accelerator (acc != NULL) or of all (acc NULL); a failure to read them is a
 * failed check (the zeros returned then must not pass for "no transfers"). */
static inline amp_transfer_stats dm_stats(const amp_accelerator *acc) {
  amp_transfer_stats st;
  memset(&st, 0, sizeof st);
  CHECK_OK(amp_transfer_stats_get(acc, &st));
  return st;
}

/* Checks every counter of `acc` (NULL: all accelerators) since the last reset. */
#define CHECK_COUNTS(acc, to_dev, to_host, dev_copy)                                               \
  do {                                                                                             \
    amp_transfer_stats st_ = dm_stats(acc);                                                        \
    CHECK_EQ_INT(st_.to_device_count, (to_dev));                                                   \
    CHECK_EQ_INT(st_.to_host_count, (to_host));                                                    \
    CHECK_EQ_INT(st_.device_copy_count, (dev_copy));                                               \
  } while (0)

/* Up to `max` accelerators that can run kernels (the host "cpu" left out); returns how many. */
static inline size_t dm_devices(amp_accelerator **out, size_t max) {
  size_t n = 0, found = 0;
  if (amp_accelerator_count(&n) != AMP_SUCCESS)
    return 0;
  for (size_t i = 0; i < n && found < max; i++) {
    amp_accelerator *a = NULL;
    amp_accelerator_properties p;
    if (amp_accelerator_get(i, &a) != AMP_SUCCESS ||
        amp_accelerator_get_properties(a, &p) != AMP_SUCCESS || p.is_host)
      continue;
    out[found++] = a;
  }
  return found;
}

/* The accelerator of an accelerator view (NULL on failure). */
static inline amp_accelerator *dm_acc_of(amp_accelerator_view *av) {
  amp_accelerator *a = NULL;
  if (amp_accelerator_view_get_accelerator(av, &a) != AMP_SUCCESS)
    return NULL;
  return a;
}

/* Launches `k` over `domain` on `av` with the given arguments; the status of the launch. */
#define DM_RUN(av, domain, k, ...)                                                                 \
  amp_parallel_for_each((av), (domain), (k), (const amp_arg[]){__VA_ARGS__},                       \
                        sizeof((const amp_arg[]){__VA_ARGS__}) / sizeof(amp_arg))

#endif /* AMPCL_TESTS_DM_COMMON_H */
