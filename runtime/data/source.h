/* runtime/data/source.h: data sources, array views, and what a command needs from them.
 *
 * A data source is the memory a top-level view was created over, plus the copies ampcl made of it
 * on accelerators. Every view of one source shares the source's coherence record (source.c has
 * the protocol). Commands that use views (kernel launches, library calls such as GEMM) go through
 * amp__uses_acquire / amp__uses_finish, which copy in what is missing, give the events the
 * command must wait for, and record afterwards what the command read and wrote. */
#ifndef AMPCL_RUNTIME_SOURCE_H
#define AMPCL_RUNTIME_SOURCE_H

#include "ampcl/array_view.h"
#include "core/accelerator_impl.h"
#include "core/events.h"
#include "data/rangeset.h"

/* One accelerator's copy of a source. */
typedef struct amp__location {
  cl_mem buf;          /* the whole source's bytes, allocated at first use there */
  amp__rangeset valid; /* bytes this copy holds the latest contents of */
  cl_event last_write; /* the last command that wrote buf; it implies every earlier write */
  amp__evlist reads;   /* commands that read buf since last_write */
} amp__location;

typedef struct amp__source {
  pthread_mutex_t lock;
  _Atomic int views;   /* live views of this source */
  unsigned char *host; /* the caller's memory; or ampcl's (owns_host), or NULL until needed */
  int owns_host;
  int host_readonly; /* created from const memory: never written */
  struct amp__host_span
      *debug_span; /* its entry for the AMP_DEBUG overlap warning (rule 10), or NULL */
  long home;       /* -1: host memory is the source; else the accelerator index of a device
                      array, whose copy there is what synchronize brings data back to */
  size_t bytes;
  amp__rangeset host_valid;
  amp__evlist host_readers; /* host-to-device copies that may still read host memory */
  amp__evlist host_writers; /* device-to-host copies (asynchronous) that may still write it */
  size_t nloc;
  amp__location *loc; /* indexed by accelerator index */
  /* amp_array_view_map_read: while mapped, nothing may write the data (see
   * amp__source_refuse_mapped) */
  int mapped;
  long map_loc;  /* the accelerator whose buffer is mapped, or -1: the host memory itself */
  void *map_ptr; /* what clEnqueueMapBuffer returned (map_loc >= 0) */
  int transient; /* amp__array_view_create_transient: the last release does not wait */
  int wrapped;   /* the home buffer is the caller's cl_mem, retained (interop_mem.c): never kept */
  long lent_loc; /* lent to the caller's OpenCL commands on this accelerator, or -1
                    (interop_lend.c): nothing may write the data until they are done */
} amp__source;

struct amp_array_view {
  uint32_t magic;
  _Atomic int refs;
  amp__source *src;
  amp_elem_type type;
  amp_extent extent;
  size_t offset;               /* elements from the start of the source to element 0 */
  size_t stride[AMP_MAX_RANK]; /* elements between neighbours in each dimension; last is 1 */
  int read_only;
};

/* One view used by a command, and whether the command writes through it. */
typedef struct amp__use {
  amp_array_view *view;
  int write;
  amp__rangeset ranges;   /* the view's bytes: filled by amp__uses_acquire, freed by _finish */
  amp__rangeset poisoned; /* debug mode: what amp__use_poison filled (poison.c); the caller
                             frees it */
} amp__use;

/* Locks the sources of `uses` (each once, in address order), makes every view's part valid on the
 * view's accelerator (copying in what is missing), and appends to *wait the events the command
 * must wait for. On success the sources stay locked until amp__uses_finish. On failure they are
 * unlocked and nothing the caller owns has changed. */
amp_status amp__uses_acquire(amp_accelerator_view *q, amp__use *uses, size_t n, amp__evlist *wait);

/* Records the command's event (`done`, NULL if enqueueing failed) as a read or a write of each
 * use, marks written parts as valid only on q's accelerator, and unlocks. */
void amp__uses_finish(amp_accelerator_view *q, amp__use *uses, size_t n, cl_event done);

/* A source over `bytes` bytes of host memory (valid at the host), with one view. host may be
 * NULL: a source with no data (valid nowhere) whose host storage ampcl allocates when needed. */
amp_status amp__source_create(size_t bytes, void *host, int readonly, amp__source **out);
/* amp_array_view_create_empty, with the caller's function name in its error messages. */
amp_status amp__array_view_create_empty(amp_extent extent, amp_elem_type type, const char *fn,
                                        amp_array_view **out);
/* amp__array_view_create_empty for a library temporary whose last release must not wait for
 * the commands using it (a GEMM's scratch, blas/gemm_general.c): as long as its contents never
 * reach host memory, that release hands its buffers to retire.c with the events of the commands
 * using them, instead of waiting for those: the next transient temporary of the same size takes
 * one once its commands have ended. Only device commands may use it. */
amp_status amp__array_view_create_transient(amp_extent extent, amp_elem_type type, const char *fn,
                                            amp_array_view **out);
/* Adds a view to the source (sections, projections, arrays' views). */
void amp__source_add_view(amp__source *s);
/* Makes the view's part valid at the home location (host or the array's accelerator). With
 * `async`, the copies are left running and *out gets a future for them (may be NULL). */
amp_status amp__source_sync_home(const amp_array_view *v, amp_future **async_out);
/* Makes the view's part valid on q's accelerator now (synchronize_to). */
amp_status amp__source_push(const amp_array_view *v, amp_accelerator_view *q);
/* Drops every copy of the view's part except the host's, without fetching (write access). */
amp_status amp__source_claim_host(const amp_array_view *v);
/* Drops one view; the last copies newer data home, waits, and frees the source. */
amp_status amp__source_release(amp__source *s);
/* Host access to the view's part (synchronize / data); `exclusive` invalidates device copies. */
amp_status amp__source_to_host(const amp_array_view *v, int exclusive);
/* discard_data (discard = 1) or refresh (discard = 0) of the view's part. */
amp_status amp__source_invalidate(const amp_array_view *v, int discard);
/* Waits for every command using the source. */
amp_status amp__source_wait(amp__source *s);
/* Device arrays: the source's home becomes acc, where its whole contents are valid. */
amp_status amp__source_make_array(amp__source *s, amp_accelerator *acc);
/* Whole-source copies between caller memory and the home copy of an array-backed source, enqueued
 * on `q`, the array's accelerator view (AMP's copies to and from an array run on its
 * accelerator_view). A copy on its own view runs beside the kernels of other views of the
 * accelerator, ordered with them only through the events of the data they share. */
amp_status amp__source_write_home(amp__source *s, amp_accelerator_view *q, const void *src,
                                  amp_future **async_out);
amp_status amp__source_read_home(amp__source *s, amp_accelerator_view *q, void *dst,
                                 amp_future **async_out);
/* Whole copy between two arrays on the same accelerator, in device memory, on q (AMP runs a copy
 * into an array on the array's accelerator_view). */
amp_status amp__source_copy_device(amp__source *src, amp__source *dst, amp_accelerator_view *q,
                                   amp_future **async_out);
/* The contiguous view's part, readable in place: mapped from the accelerator holding the latest
 * contents (no copy on a device that shares host memory), or the host memory when that holds it
 * (copying it there first when no one location does). Writes are refused until
 * amp__source_unmap. `fn` names the caller in errors. */
amp_status amp__source_map_read(const amp_array_view *v, const void **out, const char *fn);
amp_status amp__source_unmap(const amp_array_view *v, const char *fn);
/* Appends the view's byte ranges in the source to *out. */
int amp__view_ranges(const amp_array_view *v, amp__rangeset *out);

/* Debug mode's poison (poison.c): after amp__uses_acquire, with the sources still locked, the
 * bytes of use u's view that are valid nowhere (discarded) filled on q's accelerator with a pattern
 * no kernel computes by chance (a signalling NaN for 4- and 8-byte elements, 0xA5 bytes
 * otherwise), recorded in u->poisoned; the fills' events are appended to *wait. */
amp_status amp__use_poison(amp_accelerator_view *q, amp__use *u, amp__evlist *wait);
/* Whether the element at e (of `size` bytes) holds the poison, or a NaN made from it (the quiet
 * bit set, the sign changed: what arithmetic on it gives). */
int amp__is_poison(const unsigned char *e, size_t size);
/* Fills the whole elements of `size` bytes in to[0, bytes) with the poison, on the host. */
void amp__poison_fill_host(unsigned char *to, size_t bytes, size_t size);

/* The device buffer of a view on an accelerator (valid between acquire and finish). */
cl_mem amp__view_buffer(const amp_array_view *view, const amp_accelerator *acc);

#endif /* AMPCL_RUNTIME_SOURCE_H */
