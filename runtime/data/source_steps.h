/* runtime/data/source_steps.h: the coherence protocol's steps (source.c), for the files that
 * build on it: reading in place (source_map.c) and device arrays' whole copies (source_home.c).
 * Every function here is called with the source's lock held. */
#ifndef AMPCL_RUNTIME_SOURCE_STEPS_H
#define AMPCL_RUNTIME_SOURCE_STEPS_H

#include "data/source.h"

/* The default view of the accelerator at `index` in the list. */
amp_status amp__queue_of(size_t index, amp_accelerator_view **out);
/* Allocates the source's buffer on acc at first use there. */
amp_status amp__source_ensure_buffer(amp__source *s, amp_accelerator *acc);
/* Fails, naming `what`, while the source is mapped for reading in place. */
amp_status amp__source_refuse_mapped(const amp__source *s, const char *what);
/* Appends to deps the events a command on L must wait for: the last write, and for a writer the
 * reads since. Returns -1 when out of memory. */
int amp__location_deps(amp__evlist *deps, const amp__location *L, int writes);
/* `ev` is now L's last write (it implies every earlier command on L). */
void amp__location_record_write(amp__location *L, cl_event ev);
/* `ev`, on the in-order queue q, read L: it replaces L's earlier read on q. -1 out of memory. */
int amp__location_record_read(amp__location *L, cl_command_queue q, cl_event ev);
/* After a write at the home location: only home is valid. -1 when out of memory. */
int amp__source_valid_only_at_home(amp__source *s);
/* Makes `want` valid at the home location: the host, or the accelerator of a device array. */
amp_status amp__source_fetch_home(amp__source *s, const amp__rangeset *want, int async);
/* Gathers the latest contents of `want` in host memory (allocating it if needed). */
amp_status amp__source_host_latest(amp__source *s, const amp__rangeset *want);
/* Unmaps what s->map_ptr maps on q's accelerator; writers wait for it. */
cl_int amp__source_unmap_locked(amp__source *s, amp_accelerator_view *q);

#endif /* AMPCL_RUNTIME_SOURCE_STEPS_H */
