/* tests/interop/interop_mem.c: amp_array_create_from_cl_mem. A caller's buffer (and a sub-buffer)
 * becomes an array: the caller's kernel and ampcl's run on the same bytes with no copy between
 * them (the transfer counters stay 0), ampcl releases only its own reference, and the buffer
 * still holds the data afterwards. Bad buffers are refused, naming what is wrong. */
#include "interop/raw_cl.h"

enum { N = 1024 };

/* The caller's buffer is wrapped, written by the caller's kernel, then ampcl's, then read by the
 * caller: ampcl copies nothing. */
static int whole_buffer(amp_accelerator_view *av, cl_context ctx, cl_command_queue q, cl_kernel raw,
                        amp_kernel *k) {
  amp_accelerator *acc = test_acc_of(av);
  float out[N];
  cl_mem buf = raw_iota_buffer(ctx, N);
  if (!buf)
    return 1;
  CHECK_EQ_INT(raw_axpb(q, raw, buf, 0, N, 2.0f, 0.0f, NULL), CL_SUCCESS); /* x = 2i */
  clFinish(q);
  amp_array *arr = NULL;
  amp_array_view *v = NULL;
  const long long mems = amp_live(AMP_CL_MEM);
  CHECK_OK(amp_transfer_stats_reset());
  REQUIRE_OK(amp_array_create_from_cl_mem(av, buf, amp_extent1(N), AMP_FLOAT, &arr));
  CHECK_EQ_INT(amp_live(AMP_CL_MEM), mems + 1); /* ampcl's reference to the caller's buffer */
  REQUIRE_OK(amp_array_view_of(arr, &v));
  CHECK_OK(TEST_RUN(av, amp_extent1(N), k, amp_arg_view(v), amp_arg_float(3.0f),
                    amp_arg_float(1.0f))); /* x = 6i + 1 */
  CHECK_OK(amp_array_view_synchronize(v)); /* an array's home is its buffer: nothing moves */
  float one = 0;
  CHECK_OK(amp_array_get(arr, amp_index1(5), &one)); /* one element through ampcl: one copy */
  CHECK(one == 31.0f);
  CHECK_COUNTS(acc, 0, 1, 0);
  CHECK_OK(amp_array_view_release(v));
  CHECK_OK(amp_array_release(arr));
  CHECK_EQ_INT(amp_live(AMP_CL_MEM), mems); /* ampcl let go of its own reference */
  /* the caller's buffer is still valid and holds what ampcl's kernel wrote */
  CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != 6.0f * (float)i + 1.0f;
  CHECK_EQ_INT(bad, 0);
  clReleaseMemObject(buf);
  return 0;
}

/* A sub-buffer at the device's base-address alignment, as a 16 x 16 array: only its bytes change.
 */
static int sub_buffer(amp_accelerator_view *av, cl_context ctx, cl_device_id dev,
                      cl_command_queue q, amp_kernel *k) {
  cl_uint align_bits = 0;
  CHECK_EQ_INT(
      clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL),
      CL_SUCCESS);
  const size_t origin = align_bits / 8, count = origin / sizeof(float) + 256;
  float *host = malloc(count * sizeof *host), *out = malloc(count * sizeof *out);
  if (!host || !out)
    return 1;
  for (size_t i = 0; i < count; i++)
    host[i] = (float)i;
  cl_int err = CL_SUCCESS;
  cl_mem parent = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 count * sizeof *host, host, &err);
  cl_buffer_region region = {origin, 256 * sizeof(float)};
  cl_mem sub = err == CL_SUCCESS ? clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                                     CL_BUFFER_CREATE_TYPE_REGION, &region, &err)
                                 : NULL;
  REQUIRE_OK(err == CL_SUCCESS ? AMP_SUCCESS : AMP_ERROR_OPENCL);
  amp_array *arr = NULL;
  amp_array_view *v = NULL;
  CHECK_STATUS(amp_array_create_from_cl_mem(av, sub, amp_extent2(16, 17), AMP_FLOAT, &arr),
               AMP_ERROR_OUT_OF_RANGE); /* 1088 bytes; the sub-buffer has 1024 */
  CHECK_MSG("CL_MEM_SIZE is 1024");
  REQUIRE_OK(amp_array_create_from_cl_mem(av, sub, amp_extent2(16, 16), AMP_FLOAT, &arr));
  REQUIRE_OK(amp_array_view_of(arr, &v));
  amp_array_view *flat = NULL;
  REQUIRE_OK(amp_array_view_view_as(v, amp_extent1(256), &flat));
  CHECK_OK(TEST_RUN(av, amp_extent1(256), k, amp_arg_view(flat), amp_arg_float(-1.0f),
                    amp_arg_float(0.5f)));
  amp_array_view_release(flat);
  amp_array_view_release(v);
  CHECK_OK(amp_array_release(arr));
  CHECK_EQ_INT(clEnqueueReadBuffer(q, parent, CL_TRUE, 0, count * sizeof *out, out, 0, NULL, NULL),
               CL_SUCCESS);
  int bad = 0;
  for (size_t i = 0; i < count; i++)
    bad += out[i] != (i < origin / sizeof(float) ? host[i] : -host[i] + 0.5f);
  CHECK_EQ_INT(bad, 0);
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);
  free(host);
  free(out);
  return 0;
}

/* With a second accelerator: ampcl's kernel writes the array there, and the release of the view
 * brings that home into the caller's buffer (through the host: two copies each way). */
static void other_accelerator(amp_accelerator_view *av, cl_context ctx, cl_command_queue q,
                              amp_kernel *k) {
  amp_accelerator *list[2], *home = test_acc_of(av), *other = NULL;
  size_t n = test_devices(list, 2);
  for (size_t i = 0; i < n; i++)
    if (list[i] != home)
      other = list[i];
  if (!other) {
    printf(
        "one accelerator: the array is not used on another (POCL_DEVICES=\"pthread pthread\")\n");
    return;
  }
  float out[N];
  cl_mem buf = raw_iota_buffer(ctx, N);
  amp_accelerator_view *ov = NULL;
  amp_array *arr = NULL;
  amp_array_view *v = NULL;
  CHECK_OK(amp_accelerator_default_view(other, &ov));
  CHECK_OK(amp_array_create_from_cl_mem(av, buf, amp_extent1(N), AMP_FLOAT, &arr));
  CHECK_OK(amp_array_view_of(arr, &v));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(ov, amp_extent1(N), k, amp_arg_view(v), amp_arg_float(1.0f),
                    amp_arg_float(7.0f))); /* i + 7, on the other accelerator */
  CHECK_OK(amp_array_view_release(v));
  CHECK_OK(amp_array_release(arr));
  CHECK_COUNTS(NULL, 2, 2, 0);
  CHECK_EQ_INT(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != (float)i + 7.0f;
  CHECK_EQ_INT(bad, 0);
  clReleaseMemObject(buf);
}

/* Buffers that cannot be an array of the view: each refused, naming why, nothing retained. */
static void refused(amp_accelerator_view *av, cl_context ctx, cl_device_id dev) {
  cl_int err = CL_SUCCESS;
  cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 100 * sizeof(float), NULL, &err);
  amp_array *arr = NULL;
  const long long mems = amp_live(AMP_CL_MEM);
  CHECK_STATUS(amp_array_create_from_cl_mem(av, small, amp_extent1(101), AMP_FLOAT, &arr),
               AMP_ERROR_OUT_OF_RANGE);
  CHECK_MSG("needs 404 bytes, but the buffer's CL_MEM_SIZE is 400");
  CHECK_STATUS(
      amp_array_create_from_cl_mem(av, small, amp_extent2(1 << 30, 1 << 30), AMP_DOUBLE, &arr),
      AMP_ERROR_OUT_OF_RANGE); /* 2^63 bytes */
  CHECK_STATUS(amp_array_create_from_cl_mem(av, small, amp_extent3(1 << 30, 1 << 30, 1 << 30),
                                            AMP_DOUBLE, &arr),
               AMP_ERROR_LIMIT_EXCEEDED); /* the size overflows: the view's checks name it */
  CHECK_STATUS(amp_array_create_from_cl_mem(av, NULL, amp_extent1(1), AMP_FLOAT, &arr),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("buffer is NULL");
  CHECK_STATUS(amp_array_create_from_cl_mem(av, small, amp_extent1(1), AMP_FLOAT, NULL),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("out is NULL");
  CHECK_STATUS(amp_array_create_from_cl_mem(NULL, small, amp_extent1(1), AMP_FLOAT, &arr),
               AMP_ERROR_INVALID_HANDLE);
  /* a buffer ampcl's kernels could not write */
  cl_mem ro = clCreateBuffer(ctx, CL_MEM_READ_ONLY, 400, NULL, &err);
  CHECK_STATUS(amp_array_create_from_cl_mem(av, ro, amp_extent1(100), AMP_FLOAT, &arr),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("CL_MEM_READ_ONLY");
  clReleaseMemObject(ro);
  /* a buffer of another context on the same device */
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_mem foreign = other ? clCreateBuffer(other, CL_MEM_READ_WRITE, 400, NULL, &err) : NULL;
  CHECK(foreign != NULL);
  CHECK_STATUS(amp_array_create_from_cl_mem(av, foreign, amp_extent1(100), AMP_FLOAT, &arr),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("belongs to context");
  CHECK(arr == NULL);
  clReleaseMemObject(foreign);
  clReleaseContext(other);
  CHECK_EQ_INT(amp_live(AMP_CL_MEM), mems); /* no refused buffer was retained */
  clReleaseMemObject(small);
}

int main(void) {
  REQUIRE_RAW_OBJECTS(av, ctx, dev);
  cl_int err = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); /* the caller's own queue */
  REQUIRE_OK(err == CL_SUCCESS ? AMP_SUCCESS : AMP_ERROR_OPENCL);
  cl_kernel raw = raw_kernel(ctx, dev);
  amp_kernel *k = test_kernel(amp_axpb_src, NULL, "amp_axpb");
  if (!raw || !k)
    return check_done();
  /* a view on the caller's queue in ampcl's own context: accepted, and used for the sub-buffer */
  amp_accelerator_view *qv = NULL;
  REQUIRE_OK(amp_accelerator_view_create_from_cl(ctx, q, &qv));
  if (whole_buffer(av, ctx, q, raw, k) || sub_buffer(qv, ctx, dev, q, k))
    return 1;
  CHECK_OK(amp_accelerator_view_release(qv));
  other_accelerator(av, ctx, q, k);
  refused(av, ctx, dev);
  amp_kernel_release(k);
  clReleaseKernel(raw);
  clReleaseCommandQueue(q);
  return check_done();
}
