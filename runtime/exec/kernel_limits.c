/* runtime/exec/kernel_limits.c: amp_kernel_limits, a kernel's own limits on one accelerator
 * (clGetKernelWorkGroupInfo), next to the device's. */
#include <string.h>

#include "ampcl/kernel_limits.h"
#include "core/accelerator_impl.h"
#include "core/error.h"
#include "core/handle.h"
#include "exec/local_report.h"
#include "exec/program.h"

amp_status amp_kernel_limits(amp_kernel *kernel, amp_accelerator *acc,
                             amp_kernel_limits_info *out) {
  amp_status status = AMP_SUCCESS;
  cl_kernel k = NULL;
  amp__kernel_pool *pool = NULL;
  AMP__CHECK(kernel, AMP__MAGIC_KERNEL, "kernel");
  AMP__CHECK(acc, AMP__MAGIC_ACCELERATOR, "accelerator");
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_kernel_limits(%s): out is NULL", kernel->name);
  if (acc->props.is_host || !acc->device)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "amp_kernel_limits(%s): %s is the host location and runs no kernels", kernel->name,
              acc->props.device_path);
  AMP__TRY(amp__kernel_pool_get(kernel, acc, &pool));
  AMP__TRY(amp__kernel_take(pool, &k));
  amp_kernel_limits_info r;
  memset(&r, 0, sizeof r);
  size_t required[3] = {0, 0, 0};
  cl_ulong priv = 0;
  AMP__CL(clGetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                   sizeof r.preferred_multiple, &r.preferred_multiple, NULL),
          "clGetKernelWorkGroupInfo(CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE)");
  AMP__CL(clGetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv,
                                   NULL),
          "clGetKernelWorkGroupInfo(CL_KERNEL_PRIVATE_MEM_SIZE)");
  AMP__CL(clGetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                   sizeof required, required, NULL),
          "clGetKernelWorkGroupInfo(CL_KERNEL_COMPILE_WORK_GROUP_SIZE)");
  /* within C++ AMP's 1024 (the device's max_tile_size), also where the driver would take more */
  r.max_tile_threads = pool->work_group_size < acc->props.max_tile_size ? pool->work_group_size
                                                                        : acc->props.max_tile_size;
  r.device_max_tile_threads = acc->props.max_tile_size;
  r.private_bytes = priv;
  /* what the kernel declares, where the driver reports a multiple of it (exec/local_report.c) */
  cl_context context = NULL;
  r.static_local_bytes = pool->static_local;
  if (clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof context, &context, NULL) == CL_SUCCESS)
    r.static_local_bytes = amp__declared_local(context, acc->device, pool->static_local);
  r.device_local_bytes = acc->props.local_memory;
  /* OpenCL lists dimension 0 fastest; AMP lists the slowest first. Trailing 1s of a required
   * size are not dimensions (a 1-D kernel reports (n, 1, 1)). */
  if (required[0] != 0) {
    int rank = required[2] > 1 ? 3 : required[1] > 1 ? 2 : 1;
    for (int d = 0; d < rank; d++)
      r.required_tile[d] = (int)required[rank - 1 - d];
    r.required_rank = rank;
  }
  *out = r;
fail:
  if (k)
    amp__kernel_give_back(pool, k);
  return status;
}
