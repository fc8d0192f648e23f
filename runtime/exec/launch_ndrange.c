/* runtime/exec/launch_ndrange.c: a launch stated in OpenCL's terms (amp_parallel_for_each_ndrange):
 * global and local sizes in OpenCL's dimension order, dimension 0 fastest, turned into AMP's
 * extent and tile, whose dimension 0 is the slowest. OpenCL's global_size[d] is AMP's
 * extent.dim[work_dim - 1 - d]; the kernel's get_global_id(d) sees the same index either way. */
#include <limits.h>

#include "ampcl/kernel.h"
#include "core/error.h"

amp_status amp_parallel_for_each_ndrange(amp_accelerator_view *view, amp_kernel *kernel,
                                         unsigned work_dim, const size_t *global_size,
                                         const size_t *local_size, const amp_arg *args,
                                         size_t nargs, amp_future **done) {
  amp_status status = AMP_SUCCESS;
  amp_launch l = {.domain = {.rank = (int)work_dim, .dim = {1, 1, 1}},
                  .tiled = local_size != NULL,
                  .tile = {1, 1, 1},
                  .kernel = kernel,
                  .args = args,
                  .nargs = nargs};
  if (work_dim < 1 || work_dim > AMP_MAX_RANK)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "amp_parallel_for_each_ndrange: work_dim is %u, but it must be 1, 2 or 3", work_dim);
  if (!global_size)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each_ndrange: global_size is NULL");
  for (unsigned d = 0; d < work_dim; d++) {
    int amp_d = (int)(work_dim - 1 - d);
    if (global_size[d] == 0 || global_size[d] > INT_MAX)
      AMP__FAIL(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                "amp_parallel_for_each_ndrange: global_size[%u] is %zu, but it must be 1 to %d", d,
                global_size[d], INT_MAX);
    if (local_size && (local_size[d] == 0 || global_size[d] % local_size[d] != 0))
      AMP__FAIL(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                "amp_parallel_for_each_ndrange: local_size[%u] is %zu, which does not divide "
                "global_size[%u] (%zu)",
                d, local_size[d], d, global_size[d]);
    l.domain.dim[amp_d] = (int)global_size[d];
    if (local_size)
      l.tile[amp_d] = (int)local_size[d];
  }
  return amp_parallel_for_each_ex(view, &l, done);
fail:
  return status;
}
