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

#endif /* AMPCL_RUNTIME_ARRAY_IMPL_H */
