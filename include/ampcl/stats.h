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

/* The kinds of OpenCL object ampcl creates. */
typedef enum amp_cl_object_kind {
  AMP_CL_CONTEXT,
  AMP_CL_QUEUE,
  AMP_CL_MEM,
  AMP_CL_PROGRAM,
  AMP_CL_KERNEL,
  AMP_CL_EVENT,   /* reserved: events are not counted yet, the count stays 0 */
  AMP_CL_SAMPLER, /* kept for the life of the process, at most 8 per accelerator (texture.h) */
  AMP_CL_OBJECT_KINDS
} amp_cl_object_kind;

/* How many OpenCL objects of `kind` ampcl holds now, for leak checks. *released_by_user (when not
 * NULL) counts those that go away when the user releases every ampcl object and handle
 * (array views, arrays, views, programs, kernels, amp_host_alloc memory): it is 0 once they all
 * are. Built programs and their kernels stay in the build cache only while an amp_program uses
 * them (see amp_program_release). *process_life (when not NULL) counts those ampcl keeps for the
 * life of the process by design: one context and one default queue per accelerator used,
 * up to 8 buffers of at most 4 MiB kept for reuse after the last view of data with no caller's
 * memory went (empty views, the algorithms' temporaries; runtime/data/scratch.c), and the pinned
 * region per accelerator that amp_blas_gemm_multi keeps between its calls, and up to 8 scratch
 * buffers (512 MiB) of amp_blas_gemm's (runtime/data/retire.c), kept for its next calls. (Not
 * counted apart: the one-work-item timing kernel of timed GEMMs, kept once made.) Returns
 * AMP_ERROR_INVALID_ARGUMENT for a kind out of range. Thread-safe. */
AMP_API amp_status amp_cl_objects_live(amp_cl_object_kind kind, long long *released_by_user,
                                       long long *process_life);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_STATS_H */
