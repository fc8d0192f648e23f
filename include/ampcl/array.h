/* ampcl/array.h: device arrays, explicit copies, and pinned host memory (C++ AMP §5.1, §5.3).
 *
 * An array is storage on one accelerator view's accelerator, bound to it for life (AMP's
 * array<T,N>). Its contents never move by themselves: they move only through amp_copy, or through
 * a view over the array used on another accelerator. A view over an array (amp_array_view_of) is
 * a view whose data source is the array instead of host memory. */
#ifndef AMPCL_ARRAY_H
#define AMPCL_ARRAY_H

#include <stddef.h>

#include "accelerator.h"
#include "array_view.h"
#include "export.h"
#include "extent.h"
#include "kernel.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_array amp_array;

/* An array of `extent` elements of `type` on the view's accelerator; contents undefined. More bytes
 * than the accelerator's largest buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE) is AMP_ERROR_LIMIT_EXCEEDED,
 * naming both sizes. */
AMP_API amp_status amp_array_create(amp_accelerator_view *view, amp_extent extent,
                                    amp_elem_type type, amp_array **out);

/* The same, filled from host memory holding amp_extent_size(extent) elements (blocking copy). */
AMP_API amp_status amp_array_create_from(amp_accelerator_view *view, amp_extent extent,
                                         amp_elem_type type, const void *src, amp_array **out);

AMP_API amp_status amp_array_get_extent(const amp_array *array, amp_extent *out);
AMP_API amp_status amp_array_get_accelerator_view(const amp_array *array,
                                                  amp_accelerator_view **out);

/* A read-write view whose data source is the array (AMP's array_view(array)). Kernels on the
 * array's accelerator use it in place; the array stays alive while views of it exist. */
AMP_API amp_status amp_array_view_of(amp_array *array, amp_array_view **out);

/* Releasing the last reference frees the device memory once the work using it is done. */
/* One element of the array, from or to the host (AMP's array(i, j) / array[idx]), exactly as
 * amp_array_view_get / amp_array_view_set on the array's whole view (array_view.h): only the
 * element's bytes move, the index is checked against the array's extent. */
AMP_API amp_status amp_array_get(amp_array *array, amp_index index, void *out);
AMP_API amp_status amp_array_set(amp_array *array, amp_index index, const void *value);

/* The array as a kernel argument, for an AMP_VIEW or AMP_CONST_VIEW parameter: the kernel gets the
 * array's whole view (as amp_array_view_of would give), in place on the array's accelerator, so a
 * launch needs no view of its own (AMP's capture of an array by reference). Everything a view
 * argument is checked for holds (element type, rank, const), and a dead array handle is refused
 * before anything moves. */
AMP_API amp_arg amp_arg_array(amp_array *array);

AMP_API amp_status amp_array_retain(amp_array *array);
AMP_API amp_status amp_array_release(amp_array *array);

/* ---- explicit copies (AMP's copy and copy_async) ------------------------------------------- */

/* Host memory to an array and back: `bytes` must equal the array's size in bytes. Blocking. The
 * copy runs on the array's accelerator view (the one it was created on), as AMP's copies do: an
 * array made on a view of its own (amp_accelerator_create_view) is filled there while kernels run
 * on other views of the accelerator, and a kernel that reads it waits only for its copy. */
AMP_API amp_status amp_copy_to_array(const void *src, size_t bytes, amp_array *dst);
AMP_API amp_status amp_copy_from_array(amp_array *src, void *dst, size_t bytes);

/* Between two arrays of equal extent and element type, on the same or different accelerators.
 *
 * Copies keep element types and shapes (all amp_copy_* between arrays and views, and their _async
 * forms, which check at the call): a different rank or extent, even of the same number of
 * elements, is AMP_ERROR_EXTENT_MISMATCH; a different element type (kind or size; two structs of
 * different sizes) is AMP_ERROR_INVALID_ARGUMENT. Both name the two sides and leave the
 * destination unchanged. Copies never reinterpret bits: amp_array_view_reinterpret_as and
 * amp_array_view_view_as are the ways to see data with another type or shape. */
AMP_API amp_status amp_copy_array(amp_array *src, amp_array *dst);

/* View to view of equal extents and element type (AMP's copy(view, view)): the source view's
 * latest contents are written into the destination view's data, which counts as written. */
AMP_API amp_status amp_copy_view(amp_array_view *src, amp_array_view *dst);

/* Host memory to a view and back (AMP's copy(iterator, view) and copy(view, iterator)): `bytes`
 * must equal the view's size; the host side is contiguous, row-major, and the view may be a
 * section. Copying into a view makes the host the only valid copy of the view's part; the next
 * use elsewhere copies it in. Blocking. */
AMP_API amp_status amp_copy_to_view(const void *src, size_t bytes, amp_array_view *dst);
AMP_API amp_status amp_copy_from_view(amp_array_view *src, void *dst, size_t bytes);

/* Asynchronous forms: the copy runs in the background; the future is ready when it is done, and
 * amp_future_wait returns the copy's status (with its reason in amp_last_error()). Host memory
 * passed to them, and the views' data, must stay untouched until then. */
AMP_API amp_status amp_copy_to_array_async(const void *src, size_t bytes, amp_array *dst,
                                           amp_future **out);
AMP_API amp_status amp_copy_from_array_async(amp_array *src, void *dst, size_t bytes,
                                             amp_future **out);
AMP_API amp_status amp_copy_array_async(amp_array *src, amp_array *dst, amp_future **out);
AMP_API amp_status amp_copy_view_async(amp_array_view *src, amp_array_view *dst, amp_future **out);
AMP_API amp_status amp_copy_to_view_async(const void *src, size_t bytes, amp_array_view *dst,
                                          amp_future **out);
AMP_API amp_status amp_copy_from_view_async(amp_array_view *src, void *dst, size_t bytes,
                                            amp_future **out);

/* ---- pinned host memory ---------------------------------------------------------------------- */

/* Host memory that transfers at full speed to and from `acc` (page-locked through
 * CL_MEM_ALLOC_HOST_PTR and mapped). Use it like malloc'd memory, under views or with amp_copy;
 * free it with amp_host_free. Views over it use it for copies directly. More bytes than the
 * accelerator's largest buffer is AMP_ERROR_LIMIT_EXCEEDED, naming both sizes. */
AMP_API amp_status amp_host_alloc(amp_accelerator *acc, size_t bytes, void **out);
AMP_API amp_status amp_host_free(void *ptr);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_ARRAY_H */
