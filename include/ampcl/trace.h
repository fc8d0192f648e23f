/* ampcl/trace.h: a timeline of everything ampcl does, for Perfetto and chrome://tracing.
 *
 * Run any program with AMP_TRACE=path.json in the environment and ampcl records every command it
 * enqueues (copies in and out, device copies, kernels, GEMMs, maps, markers), with the device's
 * own start and end times, and every ampcl call that waits on the host (synchronize, wait,
 * future wait, launch), and writes them as a Chrome trace-event JSON file: one track per
 * accelerator queue, one per host thread. Device times are put on the host's clock with each
 * command's enqueue time (OpenCL's CL_PROFILING_COMMAND_QUEUED, taken on the device's clock when
 * the host enqueued it), and the file's metadata says how far that offset drifted over the run.
 * Each event carries its arguments: bytes, kernel name, global and tile shape, and why a copy
 * happened ("copy in for kernel k", "synchronize", ...). docs/PROFILING.md shows how to read one.
 *
 * The file is written at exit and by amp_trace_flush(), which rewrites it with everything so
 * far. Recording is thread-safe. At most AMP_TRACE_MAX events are kept (default 1,000,000):
 * later ones are counted, not kept, and the file says how many were dropped. With AMP_TRACE
 * unset nothing is recorded and no file is written; the cost is one branch per command. */
#ifndef AMPCL_TRACE_H
#define AMPCL_TRACE_H

#include <stdbool.h>

#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True when AMP_TRACE is set (tracing is on for the whole process). */
AMP_API bool amp_trace_enabled(void);

/* Waits for the recorded commands to finish and (re)writes the trace file with every event so
 * far. Returns AMP_SUCCESS when tracing is off (nothing to do), AMP_ERROR_OUT_OF_MEMORY or an
 * OpenCL status if an event cannot be read, and AMP_ERROR_INVALID_ARGUMENT naming the path if the
 * file cannot be written. Safe from any thread. */
AMP_API amp_status amp_trace_flush(void);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_TRACE_H */
