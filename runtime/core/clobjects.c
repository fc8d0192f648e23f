/* runtime/core/clobjects.c: the live OpenCL object counters (clobjects.h). */
#include "core/clobjects.h"

#include <stdatomic.h>

static _Atomic long long live[AMP_CL_OBJECT_KINDS];
static _Atomic long long process[AMP_CL_OBJECT_KINDS];

void amp__clobj(amp_cl_object_kind kind, int delta) {
  if ((unsigned)kind < AMP_CL_OBJECT_KINDS)
    atomic_fetch_add(&live[kind], delta);
}

void amp__clobj_process(amp_cl_object_kind kind, int delta) {
  if ((unsigned)kind < AMP_CL_OBJECT_KINDS)
    atomic_fetch_add(&process[kind], delta);
}

/* amp__release_mem and its kin (clobjects.h): OpenCL's release of the type, then the count. */
#define RELEASE_COUNTED(fn, T, cl_release, kind)                                                   \
  void fn(T object) {                                                                              \
    cl_release(object);                                                                            \
    amp__clobj(kind, -1);                                                                          \
  }
RELEASE_COUNTED(amp__release_mem, cl_mem, clReleaseMemObject, AMP_CL_MEM)
RELEASE_COUNTED(amp__release_queue, cl_command_queue, clReleaseCommandQueue, AMP_CL_QUEUE)
RELEASE_COUNTED(amp__release_kernel, cl_kernel, clReleaseKernel, AMP_CL_KERNEL)
RELEASE_COUNTED(amp__release_program, cl_program, clReleaseProgram, AMP_CL_PROGRAM)

amp_status amp_cl_objects_live(amp_cl_object_kind kind, long long *released_by_user,
                               long long *process_life) {
  if ((unsigned)kind >= AMP_CL_OBJECT_KINDS)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "amp_cl_objects_live: kind %d is not an amp_cl_object_kind (0..%d)",
                          (int)kind, AMP_CL_OBJECT_KINDS - 1);
  if (released_by_user)
    *released_by_user = atomic_load(&live[kind]);
  if (process_life)
    *process_life = atomic_load(&process[kind]);
  return AMP_SUCCESS;
}
