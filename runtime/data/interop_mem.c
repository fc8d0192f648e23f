/* runtime/data/interop_mem.c: an amp_array over the caller's cl_mem (ampcl/interop.h). The buffer
 * is checked (a buffer OpenCL knows, of the accelerator's context, large enough) and becomes the
 * home copy of a device array's source (array.c), retained and never freed by ampcl. */
#include "ampcl/interop.h"
#include "core/accelerator_impl.h"
#include "data/array_impl.h"

static const char *const fn = "amp_array_create_from_cl_mem";

/* What the caller's buffer is, as OpenCL answers. */
typedef struct mem_facts {
  cl_mem_object_type type;
  cl_context context;
  size_t size;
  cl_mem_flags flags;
} mem_facts;

/* The flags that would make some of ampcl's uses of an array fail: kernels read and write it, and
 * copies to and from the host (other accelerators, amp_array_get / _set, amp_copy_*) use it. */
static const cl_mem_flags limiting = CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
                                     CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS;

static amp_status ask_mem(cl_mem buffer, mem_facts *m) {
  cl_int err = clGetMemObjectInfo(buffer, CL_MEM_TYPE, sizeof m->type, &m->type, NULL);
  if (err == CL_SUCCESS)
    err = clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof m->context, &m->context, NULL);
  if (err == CL_SUCCESS)
    err = clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof m->size, &m->size, NULL);
  if (err == CL_SUCCESS)
    err = clGetMemObjectInfo(buffer, CL_MEM_FLAGS, sizeof m->flags, &m->flags, NULL);
  if (err != CL_SUCCESS)
    return amp__unknown_cl_object(fn, "buffer", buffer, "a memory object", "clGetMemObjectInfo",
                                  err);
  if (m->type != CL_MEM_OBJECT_BUFFER)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: buffer %p is an image (CL_MEM_TYPE 0x%x), not a buffer; ampcl's "
                          "textures are its images (ampcl/texture.h)",
                          fn, (void *)buffer, (unsigned)m->type);
  if (m->flags & limiting)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: buffer %p was made with access flags 0x%llx (CL_MEM_READ_ONLY, "
                          "CL_MEM_WRITE_ONLY or a CL_MEM_HOST_* limit); ampcl's kernels read and "
                          "write an array and its copies reach it from the host, so make the "
                          "buffer CL_MEM_READ_WRITE with host access",
                          fn, (void *)buffer, (unsigned long long)(m->flags & limiting));
  return AMP_SUCCESS;
}

/* The bytes of `extent` elements of `type`, or 0 when the product overflows (the view's own
 * checks then name the extent and type). */
static size_t extent_bytes(amp_extent extent, amp_elem_type type) {
  if (!amp_extent_is_valid(extent) || type.size == 0)
    return 0;
  size_t n = amp_extent_size(extent); /* SIZE_MAX when the product overflows */
  return n == SIZE_MAX || n > SIZE_MAX / type.size ? 0 : n * type.size;
}

amp_status amp_array_create_from_cl_mem(amp_accelerator_view *view, cl_mem buffer,
                                        amp_extent extent, amp_elem_type type, amp_array **out) {
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  mem_facts m;
  AMP__TRY(amp__check_handle(view, AMP__MAGIC_VIEW, "accelerator view", fn));
  if (!buffer || !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !buffer ? "buffer" : "out");
  AMP__TRY(ask_mem(buffer, &m));
  AMP__TRY(amp__context(view->acc, &ctx));
  if (m.context != ctx)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: buffer %p belongs to context %p, not to %s's context %p (make it in "
              "amp_accelerator_get_cl_context's context, or create the view from your context "
              "with amp_accelerator_view_create_from_cl)",
              fn, (void *)buffer, (void *)m.context, view->acc->props.device_path, (void *)ctx);
  const size_t bytes = extent_bytes(extent, type);
  if (bytes > m.size)
    AMP__FAIL(AMP_ERROR_OUT_OF_RANGE,
              "%s: extent %d x %d x %d (rank %d) of %zu-byte elements needs %zu bytes, but the "
              "buffer's CL_MEM_SIZE is %zu",
              fn, extent.dim[0], extent.rank > 1 ? extent.dim[1] : 1,
              extent.rank > 2 ? extent.dim[2] : 1, extent.rank, type.size, bytes, m.size);
  AMP__TRY(amp__array_create_over(view, extent, type, buffer, fn, out));
fail:
  return status;
}
