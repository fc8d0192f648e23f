/* runtime/data/array.c: device arrays (AMP §5.1).
 *
 * An array is a data source whose home is one accelerator (source.c: `home`). It keeps one view
 * of its whole extent, `whole`, which holds the source alive; views made with amp_array_view_of
 * are derived from it, so they share the array's coherence record. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ampcl/array.h"
#include "core/alloc_limit.h"
#include "core/clobjects.h"
#include "core/trace_impl.h"
#include "data/array_impl.h"
#include "data/source.h"

/* The caller's buffer becomes the home copy of the new array's source: retained, never kept for
 * reuse (source.c), its contents the array's. */
static void adopt_buffer(amp__source *s, amp_accelerator *acc, cl_mem buffer) {
  clRetainMemObject(buffer);
  amp__clobj(AMP_CL_MEM, 1); /* released with the source, as its own buffers are */
  s->loc[acc->index].buf = buffer;
  s->wrapped = 1;
}

amp_status amp__array_create_over(amp_accelerator_view *view, amp_extent extent, amp_elem_type type,
                                  cl_mem buffer, const char *fn, amp_array **out) {
  amp_status status = AMP_SUCCESS;
  amp_array *a = NULL;
  AMP__TRY(amp__check_handle(view, AMP__MAGIC_VIEW, "accelerator view", fn));
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
  a = amp__handle_alloc(sizeof *a);
  if (!a)
    AMP__TRY(amp__handle_alloc_status());
  AMP__TRY(amp__array_view_create_empty(extent, type, fn, &a->whole));
  if (buffer)
    adopt_buffer(a->whole->src, view->acc, buffer);
  else
    AMP__TRY(amp__check_alloc(view->acc, a->whole->src->bytes, fn));
  AMP__TRY(amp__source_make_array(a->whole->src, view->acc));
  amp_accelerator_view_retain(view);
  a->view = view;
  a->magic = AMP__MAGIC_ARRAY;
  a->refs = 1;
  *out = a;
  return AMP_SUCCESS;
fail:
  if (a)
    amp_array_view_release(a->whole);
  amp__handle_retire(a);
  return status;
}

amp_status amp_array_create(amp_accelerator_view *view, amp_extent extent, amp_elem_type type,
                            amp_array **out) {
  return amp__array_create_over(view, extent, type, NULL, "amp_array_create", out);
}

amp_status amp_array_create_from(amp_accelerator_view *view, amp_extent extent, amp_elem_type type,
                                 const void *src, amp_array **out) {
  amp_status status = AMP_SUCCESS;
  amp_array *a = NULL;
  if (!src || !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_array_create_from: %s is NULL",
              !src ? "src" : "out");
  AMP__TRY(amp_array_create(view, extent, type, &a));
  status = amp__source_write_home(a->whole->src, a->view, src, NULL);
  if (status != AMP_SUCCESS) {
    amp_array_release(a);
    goto fail;
  }
  *out = a;
fail:
  return status;
}

AMP__DEFINE_GETTER(amp_array_get_extent, amp_array, AMP__MAGIC_ARRAY, "array", amp_extent,
                   h->whole->extent)

amp_status amp_array_get_accelerator_view(const amp_array *array, amp_accelerator_view **out) {
  amp_status status = AMP__CHECK_GET(array, AMP__MAGIC_ARRAY, "array", out);
  if (status == AMP_SUCCESS)
    *out = array->view;
  return status;
}

amp_status amp_array_view_of(amp_array *array, amp_array_view **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(array, AMP__MAGIC_ARRAY, "array");
  AMP__CHECK_OUT(out);
  amp_index origin = {array->whole->extent.rank, {0, 0, 0}};
  AMP__TRY(amp_array_view_section(array->whole, origin, array->whole->extent, out));
fail:
  return status;
}

/* The last reference went: the array's whole view (its storage) and its accelerator view go too. */
static amp_status array_destroy(amp_array *array) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *whole = array->whole;
  amp_accelerator_view *view = array->view;
  amp__handle_retire(array);
  status = amp_array_view_release(whole);
  amp_accelerator_view_release(view);
  return status;
}

AMP__DEFINE_REFCOUNT(amp_array, AMP__MAGIC_ARRAY, "array", array_destroy)
