/* runtime/data/array_impl.h: the runtime's side of ampcl/array.h: what an array is. */
#ifndef AMPCL_RUNTIME_ARRAY_IMPL_H
#define AMPCL_RUNTIME_ARRAY_IMPL_H

#include "ampcl/array.h"
#include "data/source.h"

/* A data source whose home is one accelerator, with one view of its whole extent that holds the
 * source alive (array.c). */
struct amp_array {
  uint32_t magic;
  _Atomic int refs;
  amp_accelerator_view *view;
  amp_array_view *whole;
};

/* amp_array_create, with `fn` naming the caller in errors; with `buffer` (not NULL: a cl_mem of
 * the view's context, at least the array's size) the array is over that buffer, retained: its
 * contents are the array's, nothing is allocated or copied. */
amp_status amp__array_create_over(amp_accelerator_view *view, amp_extent extent, amp_elem_type type,
                                  cl_mem buffer, const char *fn, amp_array **out);

#endif /* AMPCL_RUNTIME_ARRAY_IMPL_H */
