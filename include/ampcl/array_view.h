/* ampcl/array_view.h: array_view over host memory, with lazy coherence (C++ AMP §5.2).
 *
 * An array view wraps memory the caller owns. Creating one copies nothing. When a kernel uses the
 * view on an accelerator view, the part of the data the view covers is copied there first, and
 * only if that accelerator does not already hold the latest contents; the copy then stays valid
 * for later kernels until the data are written somewhere else. Results come back to the host only
 * at synchronisation points: amp_array_view_synchronize(), host access through
 * amp_array_view_data(), or the release of the last view of the data. The rules are those of
 * ../docs/COHERENCE.md (docs/MODEL.md, data movement rules).
 *
 * Read-only views (amp_array_view_create_const; AMP's array_view<const T>) are never copied back,
 * and a kernel may not write through them. Host memory under a view may be read or written
 * directly only after a synchronize (or through the pointer amp_array_view_data() returns).
 *
 * Every transfer is counted per accelerator and per direction (ampcl/stats.h), so tests and users
 * can see exactly which copies happened.
 *
 * Threads: a view may be used from several threads, and views of one data source may be used on
 * several accelerator views at once; ampcl serialises the bookkeeping per data source. */
#ifndef AMPCL_ARRAY_VIEW_H
#define AMPCL_ARRAY_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accelerator.h"
#include "export.h"
#include "extent.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds of element a view can hold. AMP_ELEM_STRUCT is any user struct, known by its size;
 * the kernel declares the same struct in OpenCL C (mind the alignment of float4 members).
 * AMP_ELEM_INT64 / AMP_ELEM_UINT64 are int64_t / uint64_t on the host and long / ulong in OpenCL C
 * (which every full-profile device has; no fp64 is needed for them). */
typedef enum amp_elem_kind {
  AMP_ELEM_INT32 = 1,
  AMP_ELEM_UINT32 = 2,
  AMP_ELEM_FLOAT = 3,
  AMP_ELEM_DOUBLE = 4,
  AMP_ELEM_STRUCT = 5,
  AMP_ELEM_INT64 = 6,
  AMP_ELEM_UINT64 = 7
} amp_elem_kind;

/* An element type: its kind and size in bytes. Use the macros below. */
typedef struct amp_elem_type {
  amp_elem_kind kind;
  size_t size;
} amp_elem_type;

#define AMP_INT32     ((amp_elem_type){AMP_ELEM_INT32, 4})
#define AMP_UINT32    ((amp_elem_type){AMP_ELEM_UINT32, 4})
#define AMP_FLOAT     ((amp_elem_type){AMP_ELEM_FLOAT, 4})
#define AMP_DOUBLE    ((amp_elem_type){AMP_ELEM_DOUBLE, 8})
#define AMP_INT64     ((amp_elem_type){AMP_ELEM_INT64, 8})
#define AMP_UINT64    ((amp_elem_type){AMP_ELEM_UINT64, 8})
#define AMP_STRUCT(T) ((amp_elem_type){AMP_ELEM_STRUCT, sizeof(T)})

/* An array view (array_view<T,N> or array_view<const T,N> in AMP). Reference counted. */
typedef struct amp_array_view amp_array_view;

/* A read-write view over `data`, which holds amp_extent_size(extent) elements of `type` in
 * row-major order and must stay allocated until the last view of it is released. Nothing is
 * copied now. Kernels may read and write it; results reach `data` at synchronisation points. */
AMP_API amp_status amp_array_view_create(amp_extent extent, amp_elem_type type, void *data,
                                         amp_array_view **out);

/* A read-only view (array_view<const T,N>): copied to accelerators as needed, never copied back,
 * never written by kernels (a launch that would write it fails with AMP_ERROR_ACCESS_DENIED). */
AMP_API amp_status amp_array_view_create_const(amp_extent extent, amp_elem_type type,
                                               const void *data, amp_array_view **out);

/* Adds a reference / drops one. The release of the last view of a data source copies data that
 * are newer on an accelerator back to the host memory first (AMP's destructor), waits for pending
 * work, and returns the status of that copy; call amp_array_view_synchronize() before, to see
 * errors where you expect them. Releasing NULL does nothing; releasing a released view fails with
 * AMP_ERROR_INVALID_HANDLE. */
AMP_API amp_status amp_array_view_retain(amp_array_view *view);
AMP_API amp_status amp_array_view_release(amp_array_view *view);

/* The view's extent, element type, and whether it is read-only. */
AMP_API amp_status amp_array_view_get_extent(const amp_array_view *view, amp_extent *out);
AMP_API amp_status amp_array_view_get_elem_type(const amp_array_view *view, amp_elem_type *out);
AMP_API amp_status amp_array_view_is_read_only(const amp_array_view *view, bool *out);

/* Declares the view's current contents unneeded (AMP's discard_data): the next use on an
 * accelerator that holds no valid copy skips the copy-in. It lasts until the next write. Discarded
 * data that a kernel only reads are never copied back: host memory keeps what it held. */
AMP_API amp_status amp_array_view_discard_data(amp_array_view *view);

/* Blocks until the host memory under the view holds its latest contents (AMP's synchronize(),
 * access_type_read): copies back only the parts that are newer elsewhere. Copies on accelerators
 * stay valid, so a later kernel reading the view copies nothing. */
AMP_API amp_status amp_array_view_synchronize(amp_array_view *view);

/* Synchronises the view for read-write host access and returns a pointer to its first element
 * (AMP's data(), which exists for rank-1 views: other ranks, except the whole view of an array,
 * give AMP_ERROR_RANK_MISMATCH). Afterwards the host holds the only valid copy of the part the view
 * covers, so the caller may read and write through the pointer until the next kernel use; that use
 * copies it in again. */
AMP_API amp_status amp_array_view_data(amp_array_view *view, void **out);

/* Host access to one element of a view of any rank (AMP's av(i, j) / av[idx] on the host): `index`
 * has the view's rank (AMP_ERROR_RANK_MISMATCH) and lies inside its extent (AMP_ERROR_OUT_OF_RANGE,
 * naming both). Only the element's bytes move: get copies them to host memory from wherever the
 * latest contents are (nothing when the host holds them) and reads them into *out; set writes
 * *value there and marks the accelerators' copies of those bytes stale, so the next kernel using
 * the view copies the new value in. out / value point to one element of the view's type (its
 * size: amp_elem_type.size). A read-only view refuses set (AMP_ERROR_ACCESS_DENIED). For many
 * elements, synchronize once and read the host memory (or amp_array_view_data), as in AMP. */
AMP_API amp_status amp_array_view_get(amp_array_view *view, amp_index index, void *out);
AMP_API amp_status amp_array_view_set(amp_array_view *view, amp_index index, const void *value);

/* After the caller wrote the host memory directly (not through amp_array_view_data), marks every
 * cached accelerator copy of the view's part stale (AMP's refresh()). */
AMP_API amp_status amp_array_view_refresh(amp_array_view *view);

/* Blocks until every kernel and copy that uses the view's data has finished. */
AMP_API amp_status amp_array_view_wait(amp_array_view *view);

/* ---- views without a data source, and views of views (AMP §5.2.2 - §5.2.5) ---------------- */

/* A read-write view with no data source (AMP's array_view(extent)): storage appears where the view
 * is first used, on an accelerator or, for host access, in memory ampcl owns and frees with the
 * last view. Its initial contents are undefined. A size larger than any accelerator's largest
 * buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE) fails here with AMP_ERROR_LIMIT_EXCEEDED, naming both
 * sizes. */
AMP_API amp_status amp_array_view_create_empty(amp_extent extent, amp_elem_type type,
                                               amp_array_view **out);

/* A view of the part of `view` that starts at `origin` and has `extent` (AMP's section()). Both
 * must have the view's rank and lie inside it (AMP_ERROR_OUT_OF_RANGE otherwise). The section
 * aliases the same data: writes through either are seen by both, also within one kernel. */
AMP_API amp_status amp_array_view_section(amp_array_view *view, amp_index origin, amp_extent extent,
                                          amp_array_view **out);

/* The part of `view` from `origin` to the view's end in every dimension (AMP's section(idx)):
 * amp_array_view_section with the extent the view's extent minus origin. The origin must have the
 * view's rank (AMP_ERROR_RANK_MISMATCH) and lie inside the view, so that the section holds at
 * least one element (AMP_ERROR_OUT_OF_RANGE). */
AMP_API amp_status amp_array_view_section_from(amp_array_view *view, amp_index origin,
                                               amp_array_view **out);

/* Row i of a rank-2 view (a rank-1 view) or plane i of a rank-3 view (a rank-2 view): AMP's
 * projection v[i]. */
AMP_API amp_status amp_array_view_project(amp_array_view *view, int i, amp_array_view **out);

/* A rank-1 view (of contiguous data) seen with another extent (AMP's view_as()): the new extent
 * may cover as many elements or fewer (the first ones), never more (AMP_ERROR_EXTENT_MISMATCH).
 * As in AMP, only rank-1 views and the whole view of an array (amp_array_view_of) can be
 * reshaped; other ranks give AMP_ERROR_RANK_MISMATCH. */
AMP_API amp_status amp_array_view_view_as(amp_array_view *view, amp_extent extent,
                                          amp_array_view **out);

/* A rank-1 view (of contiguous data) seen as elements of another type (AMP's reinterpret_as()):
 * a rank-1 view whose extent is scaled by the ratio of the sizes; the byte size must divide into
 * whole elements of the new type (AMP_ERROR_INVALID_ARGUMENT). Rank 1 and whole array views only,
 * as view_as. */
AMP_API amp_status amp_array_view_reinterpret_as(amp_array_view *view, amp_elem_type type,
                                                 amp_array_view **out);

/* A read-only view of the same data (array_view<const T> made from array_view<T>). */
AMP_API amp_status amp_array_view_as_const(amp_array_view *view, amp_array_view **out);

/* ---- synchronisation with access types (AMP §5.2.6) --------------------------------------- */

/* What the host intends to do with the data after a synchronize. */
typedef enum amp_access_type {
  AMP_ACCESS_READ = 1,      /* read: accelerator copies stay valid */
  AMP_ACCESS_WRITE = 2,     /* overwrite all: nothing is fetched, accelerator copies are dropped */
  AMP_ACCESS_READ_WRITE = 3 /* read and write: fetched, accelerator copies are dropped */
} amp_access_type;

/* amp_array_view_synchronize with an access type. Writing access needs a read-write view. */
AMP_API amp_status amp_array_view_synchronize_access(amp_array_view *view, amp_access_type access);

/* Starts the copy back and returns at once with a future that is ready when the host memory holds
 * the latest contents (AMP's synchronize_async). Release the future with amp_future_release. */
AMP_API amp_status amp_array_view_synchronize_async(amp_array_view *view, amp_future **out);

/* Copies the view's data to the accelerator of `target` now, ahead of the kernels that will use
 * it there (AMP's synchronize_to). Nothing is copied if that accelerator already holds them. */
AMP_API amp_status amp_array_view_synchronize_to(amp_array_view *view,
                                                 amp_accelerator_view *target);

/* ---- reading in place (beyond AMP) -------------------------------------------------------- */

/* *data points at the latest contents of the view, readable by the host until
 * amp_array_view_unmap, without bringing them into the host memory the view was made over:
 *  - where one accelerator holds them, its buffer is mapped for reading (clEnqueueMapBuffer): on
 *    a device that shares the host's memory (a CPU device such as POCL: the accelerator property
 *    supports_cpu_shared_memory) nothing is copied; on a GPU the driver copies them once, counted
 *    as a copy to the host;
 *  - where the host holds them, *data is the host memory itself; spread over several places,
 *    they are gathered there first (as amp_array_view_synchronize would).
 * The view must be contiguous (a whole view, or a section of whole rows). While mapped, kernels
 * and copies may read the data, but anything that would write it (a kernel writing the view,
 * write access from the host, discard_data, refresh, a copy into it) fails with
 * AMP_ERROR_ACCESS_DENIED, and the data stays as it was. A second map of the same data is
 * AMP_ERROR_INVALID_ARGUMENT. Releasing the last view of mapped data unmaps it. This is how a
 * frame of an animation is read each step (examples/nbody --window). */
AMP_API amp_status amp_array_view_map_read(amp_array_view *view, const void **data);

/* Ends amp_array_view_map_read on the view's data (through any view of the same data); *data is
 * then no longer valid. AMP_ERROR_INVALID_ARGUMENT when it is not mapped. */
AMP_API amp_status amp_array_view_unmap(amp_array_view *view);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_ARRAY_VIEW_H */
