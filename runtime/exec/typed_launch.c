/* runtime/exec/typed_launch.c: the entry of the typed launchers that ampcl_embed_cl generates from
 * a program's .cl files (cmake/ampclLaunchers.cmake; docs/KERNELS.md, "Typed launchers").
 *
 * A generated NAME_launch has one C parameter per kernel parameter, so the C compiler checks the
 * count and kind of its arguments; what it cannot see is checked here before the launch proper
 * (amp_parallel_for_each_ex), in the launcher's terms: a NULL kernel, a kernel of another name,
 * a NULL view or texture, named by its parameter, and a view whose element type is not the one the
 * kernel's text declares for it (elems[i]: the T of AMP_VIEW(T, v); view_elem_text.c). That last
 * check needs no argument information from the driver; the launch then checks element types again
 * from the driver's answers, as every launch does, where the driver gives them. */
#include <stdio.h>
#include <string.h>

#include "core/handle.h"
#include "exec/program.h"
#include "exec/view_elem_text.h"

amp_status amp_parallel_for_each_typed(amp_accelerator_view *view, const amp_launch *launch,
                                       int tile_rank, const char *kernel_name,
                                       const char *const *params, const char *const *elems,
                                       amp_future **done) {
  amp_status status = AMP_SUCCESS;
  const char *name = kernel_name ? kernel_name : "?";
  if (!launch || (launch->nargs && (!launch->args || !params)))
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s_launch: %s is NULL", name,
              !launch         ? "launch"
              : !launch->args ? "args"
                              : "params");
  if (!launch->kernel)
    AMP__FAIL(AMP_ERROR_INVALID_HANDLE,
              "%s_launch: the kernel is NULL; make it with %s_kernel(program, &kernel)", name,
              name);
  AMP__CHECK(launch->kernel, AMP__MAGIC_KERNEL, "kernel");
  if (kernel_name && strcmp(launch->kernel->name, kernel_name) != 0)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s_launch: the kernel given is %s, not %s; make it with %s_kernel(program, "
              "&kernel)",
              name, launch->kernel->name, name, name);
  for (size_t i = 0; i < launch->nargs; i++) {
    const amp_arg *a = &launch->args[i];
    const char *what = a->kind == AMP_ARG_VIEW      ? (a->u.view ? NULL : "view")
                       : a->kind == AMP_ARG_TEXTURE ? (a->u.texture ? NULL : "texture")
                                                    : NULL;
    if (what)
      AMP__FAIL(AMP_ERROR_INVALID_HANDLE,
                "%s_launch: the %s for parameter '%s' is NULL (the kernel's parameter %zu, "
                "counting from 0)",
                name, what, params[i] ? params[i] : "?", i);
  }
  char launcher[96];
  snprintf(launcher, sizeof launcher, "%s_launch", name);
  for (size_t i = 0; elems && i < launch->nargs; i++)
    if (elems[i] && launch->args[i].kind == AMP_ARG_VIEW)
      AMP__TRY(amp__check_view_elem_text(launcher, params[i] ? params[i] : "?", i,
                                         launch->args[i].u.view, elems[i],
                                         launch->kernel->program));
  if (launch->tiled && launch->domain.rank >= 1 && launch->domain.rank <= AMP_MAX_RANK &&
      tile_rank != 0 && tile_rank != launch->domain.rank)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH,
              "%s_launch: a rank-%d tile was given for a rank-%d extent; use amp_tile%d", name,
              tile_rank, launch->domain.rank, launch->domain.rank);
  if (!view)
    AMP__TRY(amp_default_view(&view));
  AMP__TRY(amp_parallel_for_each_ex(view, launch, done));
fail:
  return status;
}
