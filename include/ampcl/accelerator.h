/* ampcl/accelerator.h: accelerators, accelerator views and completion futures (C++ AMP §3).
 *
 * An accelerator is one OpenCL device (of any platform), or the host location "cpu". The list is
 * built once, at the first call that needs it, and lives until the process ends: accelerator
 * handles are never released and stay valid for the life of the process.
 *
 * Device paths are stable strings of the form
 *
 *     ocl/<platform>/<n>
 *
 * where <platform> is the OpenCL platform name in lower case with every run of characters other
 * than letters and digits replaced by one '-' (for example "nvidia-cuda" or
 * "portable-computing-language"), and <n> is the device's position within that platform,
 * counting from 0. A second platform of the same name gets "~2" appended to its part, and so on.
 * Two paths are reserved: "cpu", the host (never a kernel target, as in AMP; the default only when
 * named so or when there is no OpenCL device), and "default", the default accelerator.
 *
 * The default accelerator is chosen at its first use, by these rules:
 *   1. the environment variable AMP_DEFAULT_ACCELERATOR, if set, names it by device path; an
 *      unknown path there is an error (AMP_ERROR_NOT_FOUND), never a silent fallback;
 *   2. otherwise the non-emulated accelerator with the most dedicated memory;
 *   3. otherwise an emulated one (a CPU device such as POCL's, ampcl's WARP): the one with the
 *      most memory, the first of equals (no implementation is preferred by its name;
 *      docs/IMPLEMENTATIONS.md says which ran ampcl's CPU workloads faster);
 *   4. with no OpenCL platform or device at all, "cpu", as AMP falls back to its CPU accelerator:
 *      the list then holds "cpu" alone, and amp_default_view and every launch on the default
 *      fail with AMP_ERROR_UNSUPPORTED_FEATURE, naming it and saying what to install.
 * amp_accelerator_set_default() may make the choice, once, before that first use.
 *
 * Threads: every function here may be called from any thread. */
#ifndef AMPCL_ACCELERATOR_H
#define AMPCL_ACCELERATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An accelerator (AMP §3.2). Owned by ampcl; valid until the process ends. */
typedef struct amp_accelerator amp_accelerator;
/* An accelerator view: one in-order queue on an accelerator (AMP §3.3). Reference counted. */
typedef struct amp_accelerator_view amp_accelerator_view;
/* A completion future (AMP's completion_future): ready when the work before it is done. */
typedef struct amp_future amp_future;

/* Properties of an accelerator (AMP §3.2.3), read from OpenCL once at enumeration. The strings
 * belong to ampcl and stay valid for the life of the process. */
typedef struct amp_accelerator_properties {
  const char *device_path;        /* stable path, see the top of this header */
  const char *description;        /* "<vendor> <name> (driver <version>)" */
  const char *vendor;             /* CL_DEVICE_VENDOR; "host" for cpu */
  const char *name;               /* CL_DEVICE_NAME */
  const char *driver_version;     /* CL_DRIVER_VERSION */
  const char *version;            /* CL_DEVICE_VERSION, e.g. "OpenCL 3.0 CUDA" */
  const char *platform_name;      /* CL_PLATFORM_NAME; "" for cpu */
  uint64_t dedicated_memory;      /* bytes of global memory (AMP reports KB: divide by 1024) */
  bool is_host;                   /* true only for "cpu", the host location; not a kernel target */
  bool is_emulated;               /* a CPU device (POCL and the like): ampcl's WARP */
  bool is_debug;                  /* always false: OpenCL has no debug layer to report */
  bool has_display;               /* always false: ampcl does not ask */
  bool supports_double_precision; /* full IEEE fp64 as OpenCL 1.2 requires it */
  bool supports_limited_double_precision; /* some fp64 support (true whenever the above is) */
  bool supports_cpu_shared_memory;        /* host and device share memory (unified memory) */
  size_t max_tile_size;      /* threads per tile: C++ AMP's 1024, or CL_DEVICE_MAX_WORK_GROUP_SIZE
                                where that is smaller (ampcl keeps AMP's limit on every device) */
  size_t max_tile_extent[3]; /* the most threads a tile may have in AMP dimension 0, 1, 2 of a
                                rank-3 tile (rank r uses the last r of these) */
  uint64_t local_memory;     /* bytes of tile_static (__local) memory per tile (on NVIDIA the
                                driver's 48 KB; a kernel may declare more there, up to the GPU's
                                opt-in limit: docs/KERNELS.md) */
  unsigned compute_units;    /* CL_DEVICE_MAX_COMPUTE_UNITS */
  unsigned max_clock_mhz;    /* CL_DEVICE_MAX_CLOCK_FREQUENCY */
  /* NVIDIA's compute capability as 10 * major + minor (90 for an H100 or H200), from
   * cl_nv_device_attribute_query; 0 on other devices. ampcl's tensor-core kernels need 90. */
  unsigned compute_capability;
} amp_accelerator_properties;

/* How a view submits work (AMP's queuing_mode). */
typedef enum amp_queuing_mode {
  AMP_QUEUING_MODE_AUTOMATIC = 0, /* batch; submitted at flush, wait, or a copy to the host */
  AMP_QUEUING_MODE_IMMEDIATE = 1  /* every command is submitted as it is enqueued */
} amp_queuing_mode;

/* Number of accelerators, the host "cpu" included, into *out: 1 (only "cpu") when no OpenCL
 * platform or device is installed at all. Fails only if enumerating OpenCL itself fails. */
AMP_API amp_status amp_accelerator_count(size_t *out);

/* The accelerator at position index (0 .. count-1) into *out. OpenCL devices come first, in
 * platform order, then "cpu" last. */
AMP_API amp_status amp_accelerator_get(size_t index, amp_accelerator **out);

/* The accelerator whose device path is `path` into *out. "default" gives the default accelerator
 * (and fixes the choice); "cpu" gives the host. An unknown path fails with AMP_ERROR_NOT_FOUND
 * and a message listing the known paths. */
AMP_API amp_status amp_accelerator_find(const char *path, amp_accelerator **out);

/* The default accelerator into *out (choosing it now if this is the first use). */
AMP_API amp_status amp_accelerator_get_default(amp_accelerator **out);

/* Why the default accelerator is the one it is, as a sentence amp-info prints ("named by
 * AMP_DEFAULT_ACCELERATOR", "the non-CPU device with the most memory", ...), into *out: a string
 * that lives as long as the process. Chooses the default now if this is its first use. */
AMP_API amp_status amp_accelerator_default_reason(const char **out);

/* Makes the accelerator at `path` the default (AMP's accelerator::set_default). Succeeds once per
 * process, and only before the default is first used (by any call that needs it, such as
 * amp_default_view or a launch on the default view); a second call, or a call after first use,
 * fails with AMP_ERROR_DEFAULT_ALREADY_USED, names the accelerator already set or chosen, and
 * changes nothing. A refused path (NULL: AMP_ERROR_INVALID_ARGUMENT; unknown: AMP_ERROR_NOT_FOUND)
 * does not count as the one call. "cpu" names the CPU accelerator, as in AMP: host memory, no
 * queue, no kernels; with it as the default, amp_default_view fails with
 * AMP_ERROR_UNSUPPORTED_FEATURE saying so. "default" leaves the choice to the rules above. */
AMP_API amp_status amp_accelerator_set_default(const char *path);

/* Copies the accelerator's properties into *out. */
AMP_API amp_status amp_accelerator_get_properties(const amp_accelerator *acc,
                                                  amp_accelerator_properties *out);

/* The accelerator's default view into *out. The view belongs to the accelerator: it needs no
 * release (releasing it is allowed and does nothing). Fails for "cpu" with
 * AMP_ERROR_UNSUPPORTED_FEATURE. The default view uses AMP_QUEUING_MODE_AUTOMATIC. */
AMP_API amp_status amp_accelerator_default_view(amp_accelerator *acc, amp_accelerator_view **out);

/* A new view (a new in-order queue) on the accelerator into *out; reference count 1. All views of
 * one accelerator share one OpenCL context, so views (arrays, data copies) move between them
 * without host round trips. Release with amp_accelerator_view_release(). */
AMP_API amp_status amp_accelerator_create_view(amp_accelerator *acc, amp_queuing_mode mode,
                                               amp_accelerator_view **out);

/* As amp_accelerator_create_view, with OpenCL profiling on or off for the view's queue. On, the
 * driver timestamps every command, so amp_future_elapsed_ns reports device times and a trace
 * (ampcl/trace.h) has them; off, it skips the timestamps and amp_future_elapsed_ns fails with
 * AMP_ERROR_UNSUPPORTED_FEATURE. Other views (the default views included) profile unless
 * AMP_PROFILE=0 is set. With AMP_TRACE set every view profiles, whatever is asked here. */
AMP_API amp_status amp_accelerator_create_view_profiling(amp_accelerator *acc,
                                                         amp_queuing_mode mode, bool profiling,
                                                         amp_accelerator_view **out);

/* *out = whether the view's queue records device times (see above). */
AMP_API amp_status amp_accelerator_view_get_profiling(const amp_accelerator_view *view, bool *out);

/* The default accelerator's default view into *out: the convenience for code that does not care
 * where it runs. Examples pass views explicitly so the data flow shows. */
AMP_API amp_status amp_default_view(amp_accelerator_view **out);

/* The view's accelerator and queuing mode. */
AMP_API amp_status amp_accelerator_view_get_accelerator(const amp_accelerator_view *view,
                                                        amp_accelerator **out);
AMP_API amp_status amp_accelerator_view_get_queuing_mode(const amp_accelerator_view *view,
                                                         amp_queuing_mode *out);

/* Submits every command enqueued so far on the view to the device, without waiting. */
AMP_API amp_status amp_accelerator_view_flush(amp_accelerator_view *view);

/* Blocks until every command enqueued so far on the view has finished. */
AMP_API amp_status amp_accelerator_view_wait(amp_accelerator_view *view);

/* A future that becomes ready when every command enqueued on the view before this call has
 * finished (AMP's create_marker). The marker is submitted at once. Release the future with
 * amp_future_release(). */
AMP_API amp_status amp_accelerator_view_create_marker(amp_accelerator_view *view, amp_future **out);

/* Adds a reference / drops one. The last release waits for the view's commands, then frees it.
 * amp_accelerator_view_release(NULL) does nothing and returns AMP_SUCCESS. */
AMP_API amp_status amp_accelerator_view_retain(amp_accelerator_view *view);
AMP_API amp_status amp_accelerator_view_release(amp_accelerator_view *view);

/* Blocks until the future is ready. If the work it stands for failed, returns that failure. */
AMP_API amp_status amp_future_wait(amp_future *future);

/* *out = true when the future is ready (its work finished, or failed), without blocking. */
AMP_API amp_status amp_future_is_ready(amp_future *future, bool *out);

/* Calls callback(status, user_data) once the future is ready (AMP's completion_future::then).
 * If it already is, the call may happen before this function returns. The callback runs on a
 * thread of the OpenCL driver: keep it short, and make no blocking ampcl call from it. */
typedef void (*amp_future_callback)(amp_status status, void *user_data);
AMP_API amp_status amp_future_then(amp_future *future, amp_future_callback callback,
                                   void *user_data);

/* For a future returned by a kernel launch: the kernel's run time on the device in nanoseconds,
 * from OpenCL profiling events (start to end). Waits for the future first. For markers it fails
 * with AMP_ERROR_UNSUPPORTED_FEATURE. */
AMP_API amp_status amp_future_elapsed_ns(amp_future *future, uint64_t *out);

/* Reference counting for futures; amp_future_release(NULL) does nothing. Releasing does not wait
 * and does not cancel the work. */
AMP_API amp_status amp_future_retain(amp_future *future);
AMP_API amp_status amp_future_release(amp_future *future);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_ACCELERATOR_H */
