/* runtime/core/cl_probe.h: the plain-OpenCL scaffolding of the runtime's one-off measurements on a
 * device (cl_probe.c). */
#ifndef AMPCL_RUNTIME_CL_PROBE_H
#define AMPCL_RUNTIME_CL_PROBE_H

#include "core/accelerator_impl.h"

enum { AMP__PROBE_MEMS = 4 };

/* What one probe made: released together by amp__cl_probe_end. */
typedef struct amp__cl_probe {
  cl_context ctx;
  cl_device_id device;
  cl_command_queue queue;
  cl_program program;
  cl_kernel kernel;
  cl_mem mem[AMP__PROBE_MEMS];
  int nmem;
} amp__cl_probe;

/* Fills *p for acc: its context and device, a queue of the probe's own (properties `queue_props`)
 * and, where `src` is not NULL, `src` built with `options` and its kernel `kname`. Returns 0 when
 * all of it was made, else -1 (what was made is in *p, for amp__cl_probe_end). */
int amp__cl_probe_begin(amp_accelerator *acc, const char *src, const char *options,
                        const char *kname, cl_command_queue_properties queue_props,
                        amp__cl_probe *p);

/* Keeps `mem` (a buffer or an image the probe made; NULL is passed through) for
 * amp__cl_probe_end to release; at most AMP__PROBE_MEMS, a further one is released at once and
 * NULL returned. */
cl_mem amp__cl_probe_keep(amp__cl_probe *p, cl_mem mem);

/* A buffer of the probe's: clCreateBuffer(flags, bytes, host), kept; NULL where it failed. */
cl_mem amp__cl_probe_buffer(amp__cl_probe *p, cl_mem_flags flags, size_t bytes, void *host);

/* Releases the memory objects *p keeps (to make room for more). */
void amp__cl_probe_release_mems(amp__cl_probe *p);

/* Releases everything *p holds. */
void amp__cl_probe_end(amp__cl_probe *p);

#endif
