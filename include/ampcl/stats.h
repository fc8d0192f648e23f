/* ampcl/stats.h: transfer counters.
 *
 * ampcl counts every copy it makes between the host and an accelerator, per accelerator and per
 * direction, in commands and bytes. Tests use them to prove that a copy did or did not happen;
 * users use them to find redundant traffic. Counters are process-wide and thread-safe. */
#ifndef AMPCL_STATS_H
#define AMPCL_STATS_H

#include <stdint.h>

#include "accelerator.h"
#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_transfer_stats {
  uint64_t to_device_count;   /* host -> accelerator copy commands */
  uint64_t to_device_bytes;   /* bytes they moved */
  uint64_t to_host_count;     /* accelerator -> host copy commands */
  uint64_t to_host_bytes;     /* bytes they moved */
  uint64_t device_copy_count; /* copies within one accelerator's memory */
  uint64_t device_copy_bytes; /* bytes they moved */
} amp_transfer_stats;

/* The counters of one accelerator (acc != NULL), or their sum over all accelerators (acc NULL),
 * into *out. */
AMP_API amp_status amp_transfer_stats_get(const amp_accelerator *acc, amp_transfer_stats *out);

/* Sets every counter of every accelerator to zero. */
AMP_API amp_status amp_transfer_stats_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_STATS_H */
