/* runtime/core/accelerator_impl.h: what the runtime knows about accelerators, views and futures. */
#ifndef AMPCL_RUNTIME_ACCELERATOR_H
#define AMPCL_RUNTIME_ACCELERATOR_H

/* C++ AMP's limit on threads per tile. ampcl holds every device to it, so that a tile that
 * runs on a CPU device also runs on a GPU. */
#define AMP__MAX_TILE_THREADS 1024
/* C++ AMP's limit on dimension 0 of a rank-3 tile (the slowest-varying one), kept on every device
 * too: GPUs report 64 in the OpenCL dimension it maps to, CPU devices far more. */
#define AMP__MAX_TILE_DEPTH 64

#include <pthread.h>
#include <stdatomic.h>

#include "ampcl/accelerator.h"
#include "ampcl/opencl.h"
#include "ampcl/stats.h"
#include "core/error.h"
#include "core/handle.h"

struct amp_accelerator {
  uint32_t magic;
  size_t index; /* position in the list; also the slot of per-accelerator data in sources */
  cl_platform_id platform;
  cl_device_id device; /* NULL for the host "cpu" */
  amp_accelerator_properties props;
  char *strings; /* one allocation holding every string of props */
  /* CL_KERNEL_WORK_GROUP_SIZE is not trusted as a limit on any implementation: NVIDIA's OpenCL
   * reports 256 for every kernel and runs a 12-register one in tiles of 1024 (docs/KERNELS.md
   * "Tiles above a kernel's reported limit"); Mesa's rusticl reports 32 and runs tiles of 256. A
   * tile above the reported number is tried, and the driver's refusal at enqueue, remembered per
   * kernel, is the limit (exec/launch.c). */
  /* CL_DEVICE_MAX_WORK_GROUP_SIZE as the device reports it; props.max_tile_size is that or AMP's
   * 1024 if smaller (AMP__MAX_TILE_THREADS). */
  size_t device_max_tile;
  /* The most tile_static memory a kernel may declare here: props.local_memory, or, on a device
   * that answers CL_DEVICE_COMPUTE_CAPABILITY_*_NV, the opt-in limit CUDA documents for that
   * compute capability (docs/KERNELS.md). Above props.local_memory, a kernel's own declared arrays
   * are the driver's to judge; a __local argument is not. */
  uint64_t declared_local_limit;
  /* CL_DEVICE_MAX_MEM_ALLOC_SIZE (0: not given) and CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes (where
   * a sub-buffer may start), read once here: every buffer and every plain pointer argument asks. */
  uint64_t max_alloc;
  size_t base_align;
  /* The 64-bit atomics the device lists: 0 none, 1 cl_khr_int64_base_atomics (add, sub, inc, dec,
   * exchange, compare-exchange), 2 cl_khr_int64_extended_atomics too (min, max, and, or, xor).
   * Kernels get it as AMP_INT64_ATOMICS (the prelude's 64-bit atomics), and amp_scan's single pass
   * publishes a tile's state and value in one 64-bit word where it is at least 1. */
  int has_int64_atomics;
  /* Whether the device's event timestamps measure anything (core/timestamps.c, measured at the
   * first amp_future_elapsed_ns): 0 not yet known, 1 usable, -1 not (why: timestamps_why, kept
   * for the life of the process, as the accelerator is). */
  _Atomic int timestamps;
  const char *timestamps_why;
  /* Whether float ([0]) and double ([1]) arithmetic here keeps a NaN's payload, so that debug
   * mode's poison survives `tmp[i] += x` (exec/debug_poison.c, measured at the first check): 0
   * not yet known, 1 kept, -1 not (NVIDIA's fp32 gives the canonical NaN). */
  _Atomic int nan_payload[2];
  /* amp_blas_gemm's device-specific kernels that failed to build here, one bit per plan
   * (runtime/blas/gemm_choice.c): their portable fallbacks from then on, on this accelerator only.
   */
  _Atomic unsigned gemm_broken_plans;
  /* AMP_DEVICE_LIMITS (core/device_limits.h), which lowers the properties above too: every
   * kernel's limit on threads per tile (0: its own), no images, unusable event timestamps. */
  size_t fault_kernel_tile;
  int fault_no_images;
  int fault_no_arg_info; /* AMP_DEVICE_LIMITS=arg_info=0: kernels read as without argument info */

  pthread_mutex_t lock; /* guards context and default_view creation */
  cl_context context;   /* created at first use */
  amp_accelerator_view *default_view;
  struct amp__stager *stager; /* pinned staging buffers (staging.c), made at first use */

  /* transfer counters (ampcl/stats.h) */
  _Atomic uint64_t to_device_count, to_device_bytes;
  _Atomic uint64_t to_host_count, to_host_bytes;
  _Atomic uint64_t device_copy_count, device_copy_bytes;
};

/* Counts one copy command of `bytes` in the accelerator's transfer counters (ampcl/stats.h). */
typedef enum { AMP__TO_DEVICE, AMP__TO_HOST, AMP__DEVICE_COPY } amp__transfer;
static inline void amp__count_transfer(amp_accelerator *acc, amp__transfer t, uint64_t bytes) {
  _Atomic uint64_t *count = t == AMP__TO_DEVICE ? &acc->to_device_count
                            : t == AMP__TO_HOST ? &acc->to_host_count
                                                : &acc->device_copy_count;
  _Atomic uint64_t *sum = t == AMP__TO_DEVICE ? &acc->to_device_bytes
                          : t == AMP__TO_HOST ? &acc->to_host_bytes
                                              : &acc->device_copy_bytes;
  atomic_fetch_add(count, 1);
  atomic_fetch_add(sum, bytes);
}

struct amp_accelerator_view {
  uint32_t magic;
  _Atomic int refs;
  int is_default; /* owned by its accelerator: release is a no-op */
  amp_accelerator *acc;
  amp_queuing_mode mode;
  bool profiling; /* the queue records device times (profiling.c) */
  cl_command_queue queue;
};

/* What host-side work behind a future (an asynchronous copy done in its call) reports: its status
 * and reason; freed by whichever holder lets go last. */
typedef struct amp__async {
  _Atomic int refs;
  amp_status status;
  char *reason;
} amp__async;

struct amp_future {
  uint32_t magic;
  _Atomic int refs;
  amp__async *async; /* for host-side work: its outcome (the event says only done or failed) */
  cl_event event;
  cl_event start;   /* when not NULL, device time counts from the end of this command (work made of
                       several commands, such as a CLBlast call), or from its start with: */
  int from_start;   /* `start` is the work's own first command */
  int is_kernel;    /* a kernel's event: profiling information is available */
  uint64_t host_ns; /* work done on the host before the future was made (a GEMM through OpenBLAS
                       on a CPU device): its elapsed time, when not 0 */
};

/* Why the list holds only "cpu" (no OpenCL platform or device, with what to install), or "". */
const char *amp__no_device_reason(void);

/* Number of accelerators and the list (fails with the reason if enumeration failed). */
amp_status amp__accelerators(amp_accelerator ***list, size_t *count);

/* The accelerator whose device path is `path`; fails naming `fn` and the known paths when none
 * is. */
amp_status amp__accelerator_lookup(const char *path, const char *fn, amp_accelerator **out);

/* The accelerator's OpenCL context, created at first call. Fails for "cpu". */
amp_status amp__context(amp_accelerator *acc, cl_context *out);

/* A context for a user event: one that exists already (never creating the default accelerator's
 * as such: host-side work must not fix the default), else the first device's. */
amp_status amp__any_context(cl_context *out);

/* A future for host-side work that is already over (an asynchronous copy done in the call, which
 * keeps it in order with every later call): ready at once, its wait returning `outcome` and, on
 * failure, this thread's last error as the reason. */
amp_status amp__future_done(amp_status outcome, amp_future **out);
/* An asynchronous command's event becomes its future (*ev passes to it, and is NULL after); for a
 * blocking command (async_out NULL) nothing happens. */
amp_status amp__future_hand_over(cl_event *ev, amp_future **async_out);
void amp__async_release(amp__async *a);

/* After an enqueue on the view: submit now in immediate mode. */
void amp__view_enqueued(amp_accelerator_view *view);

/* A future that owns `event` (the caller's reference passes to it); submits the event's queue. */
/* Calls fn(e, status, data) once e has completed or failed: at once, here, when it already has
 * (oclgrind never calls a callback set on a completed event), else from the driver's callback.
 * Returns clSetEventCallback's error, having called nothing. */
cl_int amp__on_complete(cl_event e, void(CL_CALLBACK *fn)(cl_event, cl_int, void *), void *data);
amp_status amp__future_create(cl_event event, int is_kernel, amp_future **out);
/* The same for work of several commands: its device time runs from the end of the command
 * `start` (enqueued just before the work; its reference passes too) to the end of `event`. */
amp_status amp__future_create_span(cl_event start, cl_event event, amp_future **out);
/* A future for the work from future `first`'s command to future `last`'s, both kept: its device
 * time runs from the end of `first` (a stamp enqueued before the work) or, with from_start, from
 * its start (the work's own first command). */
amp_status amp__future_span(const amp_future *first, const amp_future *last, int from_start,
                            amp_future **out);

#endif /* AMPCL_RUNTIME_ACCELERATOR_H */
