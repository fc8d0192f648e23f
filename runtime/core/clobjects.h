/* runtime/core/clobjects.h: counts of the OpenCL objects ampcl holds, per kind.
 *
 * Every place in the runtime that creates an OpenCL object (clCreate..., or an enqueue that hands
 * back an event ampcl keeps) adds one with amp__clobj(kind, +1); every place that releases one
 * adds -1. The counts are read through amp_cl_objects_live() (ampcl/stats.h), so a test can
 * show that nothing ampcl created outlives its release: a leak inside the driver's allocations
 * that LeakSanitizer has to suppress is still seen here. */
#ifndef AMPCL_RUNTIME_CLOBJECTS_H
#define AMPCL_RUNTIME_CLOBJECTS_H

#include "ampcl/stats.h"
#include "core/error.h"

void amp__clobj(amp_cl_object_kind kind, int delta);
/* The same for objects ampcl keeps for the life of the process (an accelerator's context and
 * default queue): counted apart, since no call of the user's releases them. */
void amp__clobj_process(amp_cl_object_kind kind, int delta);

/* Releases ampcl's reference to an object it created and counts the object gone, in one call, so
 * that no release is left uncounted. */
void amp__release_mem(cl_mem mem);
void amp__release_queue(cl_command_queue queue);
void amp__release_kernel(cl_kernel kernel);
void amp__release_program(cl_program program);

#endif /* AMPCL_RUNTIME_CLOBJECTS_H */
