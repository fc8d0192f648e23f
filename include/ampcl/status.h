/* ampcl/status.h: status codes, their names and messages, and the reason for the last failure.
 *
 * Every fallible ampcl call returns an amp_status. AMP_SUCCESS is 0. Errors that come from
 * OpenCL keep OpenCL's (negative) number, so CL_OUT_OF_RESOURCES is -5 here too and can be looked
 * up in the OpenCL specification. ampcl's own errors live in the range -2000 .. -2099. C++ AMP
 * reports these conditions as exceptions (runtime_exception, out_of_memory,
 * invalid_compute_domain, unsupported_feature; spec §2.4); in C they are codes plus a message.
 *
 * The message: every failing call records a sentence naming what was wrong (the bad argument, the
 * limit it broke, and for kernels the compiler's whole build log). It lives per thread:
 * amp_last_error() returns the message of the last failed call made *by the calling thread*, so
 * threads never see each other's reasons. A successful call does not clear it.
 *
 * Set the environment variable AMP_DEBUG=1 to have every reason printed to stderr as it is
 * recorded. It also turns on debug mode's checked kernels (ampcl/kernel.h). */
#ifndef AMPCL_STATUS_H
#define AMPCL_STATUS_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, value, message): the one table that generates the enum, amp_status_name() and
 * amp_strerror(). OpenCL's codes first, then ampcl's own range. */
#define AMP_STATUS_TABLE(X)                                                                        \
  X(AMP_SUCCESS, 0, "success")                                                                     \
  X(AMP_CL_DEVICE_NOT_FOUND, -1, "OpenCL: device not found")                                       \
  X(AMP_CL_DEVICE_NOT_AVAILABLE, -2, "OpenCL: device not available")                               \
  X(AMP_CL_COMPILER_NOT_AVAILABLE, -3, "OpenCL: compiler not available")                           \
  X(AMP_CL_MEM_OBJECT_ALLOCATION_FAILURE, -4, "OpenCL: device memory allocation failed")           \
  X(AMP_CL_OUT_OF_RESOURCES, -5, "OpenCL: out of resources")                                       \
  X(AMP_CL_OUT_OF_HOST_MEMORY, -6, "OpenCL: out of host memory")                                   \
  X(AMP_CL_PROFILING_INFO_NOT_AVAILABLE, -7, "OpenCL: profiling information not available")        \
  X(AMP_CL_MEM_COPY_OVERLAP, -8, "OpenCL: overlapping copy")                                       \
  X(AMP_CL_BUILD_PROGRAM_FAILURE, -11, "OpenCL: program build failed")                             \
  X(AMP_CL_MISALIGNED_SUB_BUFFER_OFFSET, -13, "OpenCL: misaligned sub-buffer offset")              \
  X(AMP_CL_EXEC_STATUS_ERROR, -14, "OpenCL: a command waited on failed")                           \
  X(AMP_CL_INVALID_VALUE, -30, "OpenCL: invalid value")                                            \
  X(AMP_CL_INVALID_DEVICE, -33, "OpenCL: invalid device")                                          \
  X(AMP_CL_INVALID_CONTEXT, -34, "OpenCL: invalid context")                                        \
  X(AMP_CL_INVALID_COMMAND_QUEUE, -36, "OpenCL: invalid command queue")                            \
  X(AMP_CL_INVALID_MEM_OBJECT, -38, "OpenCL: invalid memory object")                               \
  X(AMP_CL_INVALID_BUILD_OPTIONS, -43, "OpenCL: invalid build options")                            \
  X(AMP_CL_INVALID_PROGRAM, -44, "OpenCL: invalid program")                                        \
  X(AMP_CL_INVALID_PROGRAM_EXECUTABLE, -45, "OpenCL: program not built for this device")           \
  X(AMP_CL_INVALID_KERNEL_NAME, -46, "OpenCL: no kernel of that name")                             \
  X(AMP_CL_INVALID_KERNEL, -48, "OpenCL: invalid kernel")                                          \
  X(AMP_CL_INVALID_ARG_INDEX, -49, "OpenCL: invalid kernel argument index")                        \
  X(AMP_CL_INVALID_ARG_VALUE, -50, "OpenCL: invalid kernel argument value")                        \
  X(AMP_CL_INVALID_ARG_SIZE, -51, "OpenCL: invalid kernel argument size")                          \
  X(AMP_CL_INVALID_KERNEL_ARGS, -52, "OpenCL: kernel arguments not all set")                       \
  X(AMP_CL_INVALID_WORK_DIMENSION, -53, "OpenCL: invalid work dimension")                          \
  X(AMP_CL_INVALID_WORK_GROUP_SIZE, -54, "OpenCL: invalid work-group size")                        \
  X(AMP_CL_INVALID_WORK_ITEM_SIZE, -55, "OpenCL: invalid work-item size")                          \
  X(AMP_CL_INVALID_GLOBAL_OFFSET, -56, "OpenCL: invalid global offset")                            \
  X(AMP_CL_INVALID_EVENT_WAIT_LIST, -57, "OpenCL: invalid event wait list")                        \
  X(AMP_CL_INVALID_EVENT, -58, "OpenCL: invalid event")                                            \
  X(AMP_CL_INVALID_OPERATION, -59, "OpenCL: invalid operation")                                    \
  X(AMP_CL_INVALID_BUFFER_SIZE, -61, "OpenCL: invalid buffer size")                                \
  X(AMP_CL_INVALID_GLOBAL_WORK_SIZE, -63, "OpenCL: invalid global work size")                      \
  X(AMP_CL_PLATFORM_NOT_FOUND_KHR, -1001, "OpenCL: no platform found (ICD loader)")                \
  X(AMP_ERROR_INVALID_ARGUMENT, -2001, "invalid argument")                                         \
  X(AMP_ERROR_INVALID_HANDLE, -2002, "NULL, released or wrong kind of handle")                     \
  X(AMP_ERROR_NOT_FOUND, -2003, "no accelerator with that device path")                            \
  X(AMP_ERROR_NO_PLATFORM, -2004, "no OpenCL platform: install pocl-opencl-icd or a GPU driver")   \
  X(AMP_ERROR_DEFAULT_ALREADY_USED, -2005, "the default accelerator was already chosen")           \
  X(AMP_ERROR_OUT_OF_MEMORY, -2006, "out of memory")                                               \
  X(AMP_ERROR_INVALID_COMPUTE_DOMAIN, -2007, "invalid compute domain (extent or tiling)")          \
  X(AMP_ERROR_UNSUPPORTED_FEATURE, -2008, "the accelerator does not support this")                 \
  X(AMP_ERROR_BUILD_FAILED, -2009, "kernel source failed to build (see the build log)")            \
  X(AMP_ERROR_LIMIT_EXCEEDED, -2010, "a device or kernel limit was exceeded")                      \
  X(AMP_ERROR_RANK_MISMATCH, -2011, "ranks do not match")                                          \
  X(AMP_ERROR_ACCESS_DENIED, -2012, "a read-only view was used for writing")                       \
  X(AMP_ERROR_IO, -2013, "a file could not be read")                                               \
  X(AMP_ERROR_KERNEL_ARGS, -2014, "kernel arguments do not match the kernel's parameters")         \
  X(AMP_ERROR_EXTENT_MISMATCH, -2015, "extents do not match")                                      \
  X(AMP_ERROR_OUT_OF_RANGE, -2016, "index or section out of range")                                \
  X(AMP_ERROR_ASSERT_FAILED, -2017, "an amp_assert in a kernel failed")                            \
  X(AMP_ERROR_OPENCL, -2099, "an OpenCL call failed with a code ampcl has no name for")

/* Status codes. Values of OpenCL errors are OpenCL's own. */
typedef enum amp_status {
#define AMP_STATUS_ENUM_(name, value, msg) name = (value),
  AMP_STATUS_TABLE(AMP_STATUS_ENUM_)
#undef AMP_STATUS_ENUM_
} amp_status;

/* The status's symbolic name, e.g. "AMP_ERROR_NOT_FOUND". Never NULL: an unknown value gives
 * "AMP_STATUS_UNKNOWN". The string is static. */
AMP_API const char *amp_status_name(amp_status status);

/* A short static description of the status, e.g. "no accelerator with that device path".
 * Never NULL. For the reason of a particular failure, use amp_last_error(). */
AMP_API const char *amp_strerror(amp_status status);

/* The reason for the last failed call made by this thread: a full sentence naming the argument,
 * the limit or the OpenCL call, and for build failures the whole build log. Never NULL; "" when
 * this thread has seen no failure. The string belongs to ampcl and stays valid until this thread's
 * next failing ampcl call. */
AMP_API const char *amp_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_STATUS_H */
