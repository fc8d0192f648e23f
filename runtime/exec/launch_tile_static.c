/* runtime/exec/launch_tile_static.c: a launch's tile_static memory in total: what the kernel
 * declares (measured once per device, when its pool was made) plus the __local buffers of this
 * launch (each argument kind's tile_bytes hook, arg_kinds.h).
 *
 * NVIDIA's driver reports CUDA's default of 48 KB per block, yet builds and runs a kernel whose own
 * (declared) tile_static arrays take more, up to the GPU's opt-in limit, and refuses to build
 * beyond that; a __local argument, though, cannot take a tile past the 48 KB (docs/KERNELS.md).
 * There (declared_local_limit above local_memory) a kernel that built with more is the driver's
 * to judge, as long as the launch adds no __local buffer. */
#include "exec/launch_tile_static.h"

#include "exec/arg_kinds.h"
#include "exec/local_report.h"

amp_status amp__check_tile_static(const amp__launch_table *t, cl_kernel k) {
  amp_status status = AMP_SUCCESS;
  const amp_accelerator *acc = t->acc;
  const amp__kernel_pool *pool = t->pool;
  const char *kname = pool->name;
  cl_ulong used = pool->static_local, args_local = 0;
  for (size_t i = 0; i < t->launch->nargs; i++)
    if (t->arg[i].kind->tile_bytes)
      args_local += t->arg[i].kind->tile_bytes(&t->launch->args[i]);
  used += args_local;
  /* Above the device's limit by the driver's report: some drivers report a multiple of what a
   * kernel declares (Mesa's rusticl 22.3: twice); the factor, measured once per device
   * (exec/local_report.c), turns the report back into the declared bytes. */
  cl_context context = NULL;
  if (used > acc->props.local_memory &&
      clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof context, &context, NULL) == CL_SUCCESS)
    used = amp__declared_local(context, acc->device, pool->static_local) + args_local;
  int declared_above = acc->declared_local_limit > acc->props.local_memory;
  if (declared_above && used > acc->declared_local_limit)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): the kernel declares %llu bytes of tile_static memory per "
              "tile; %s allows at most %llu (the GPU's opt-in limit for its compute capability)",
              kname, (unsigned long long)used, acc->props.device_path,
              (unsigned long long)acc->declared_local_limit);
  if (used > acc->props.local_memory && (!declared_above || args_local))
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): the kernel needs %llu bytes of tile_static memory per tile; "
              "%s has %llu%s",
              kname, (unsigned long long)used, acc->props.device_path,
              (unsigned long long)acc->props.local_memory,
              declared_above
                  ? " (more only for tile_static arrays the kernel declares, with no __local "
                    "argument: this launch passes one)"
                  : "");
fail:
  return status;
}
