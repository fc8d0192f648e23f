/* runtime/exec/launch_texture.h: a launch's textures together (launch_texture.c): the checks that
 * span its arguments, and ordering the kernel after the commands that use its textures. A
 * texture as one argument is arg_texture.c's. Both read the launch's table: an argument passes a
 * texture when its kind's texture hook gives one (arg_kinds.h). */
#ifndef AMPCL_RUNTIME_LAUNCH_TEXTURE_H
#define AMPCL_RUNTIME_LAUNCH_TEXTURE_H

#include "data/texture_impl.h"
#include "exec/launch_table.h"

/* Before anything moves, once the arguments match their parameters (the table's write flags are
 * set): every texture on the launch's accelerator, no texture both read and written, and each
 * written texture in a format the device's kernels can write at its rank. */
amp_status amp__check_texture_uses(const amp__launch_table *t);

/* The launch's textures, locked for the enqueue: each texture once, with whether it is written. */
typedef struct amp__tex_uses {
  amp_texture **tex;
  int *write;
  size_t n;
} amp__tex_uses;

/* Locks the launch's textures (in address order) and adds to *wait what the kernel must wait for.
 * Nothing to do without textures. */
amp_status amp__texture_uses_acquire(const amp__launch_table *t, amp__tex_uses *u,
                                     amp__evlist *wait);
/* Records the kernel's event (NULL: it was not enqueued) and unlocks; frees u's arrays. */
void amp__texture_uses_finish(amp__tex_uses *u, cl_event ev);

#endif /* AMPCL_RUNTIME_LAUNCH_TEXTURE_H */
