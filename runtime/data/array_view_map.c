/* runtime/data/array_view_map.c: amp_array_view_map_read and amp_array_view_unmap, reading a view's
 * data where it is (the coherence side is amp__source_map_read in source.c). */
#include "ampcl/array_view.h"
#include "core/handle.h"
#include "data/source.h"

amp_status amp_array_view_map_read(amp_array_view *view, const void **data) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_array_view_map_read";
  AMP__TRY(amp__check_handle(view, AMP__MAGIC_ARRAY_VIEW, "array view", fn));
  if (!data)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: data is NULL", fn);
  /* contiguous: each dimension's stride is the product of the dimensions after it */
  size_t dense = 1;
  for (int d = view->extent.rank - 1; d >= 0; d--) {
    if (view->extent.dim[d] > 1 && view->stride[d] != dense)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                "%s: the view is not contiguous (dimension %d steps %zu elements, not %zu): map a "
                "whole view or a section of whole rows",
                fn, d, view->stride[d], dense);
    dense *= (size_t)view->extent.dim[d];
  }
  AMP__TRY(amp__source_map_read(view, data, fn));
fail:
  return status;
}

amp_status amp_array_view_unmap(amp_array_view *view) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_array_view_unmap";
  AMP__TRY(amp__check_handle(view, AMP__MAGIC_ARRAY_VIEW, "array view", fn));
  AMP__TRY(amp__source_unmap(view, fn));
fail:
  return status;
}
