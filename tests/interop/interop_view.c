/* tests/interop/interop_view.c: amp_accelerator_view_create_from_cl. A program that made its own
 * context and queues before using ampcl hands them over: views on them profile as their queues do,
 * ampcl's arrays and buffers on the accelerator live in that context, and the caller's kernel and
 * ampcl's share one buffer with no copy. Bad objects are refused. Nothing here may use ampcl's
 * default view before the caller's context is handed over (the accelerator would make its own). */
#include "interop/raw_cl.h"

enum { N = 512 };

/* The caller's objects, made with plain OpenCL on the first OpenCL accelerator's device. */
typedef struct callers {
  cl_device_id dev;
  cl_context ctx, other;        /* `other`: a second context on the same device */
  cl_command_queue plain, prof; /* in ctx: without and with profiling */
  cl_command_queue foreign;     /* in other */
} callers;

static int make_callers(amp_accelerator *acc, callers *c) {
  cl_platform_id plat = NULL;
  cl_int err = CL_SUCCESS, e2 = CL_SUCCESS, e3 = CL_SUCCESS;
  REQUIRE_OK(amp_accelerator_get_cl_device(acc, &c->dev));
  REQUIRE_OK(amp_accelerator_get_cl_platform(acc, &plat));
  cl_context_properties cp[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  c->ctx = clCreateContext(cp, 1, &c->dev, NULL, NULL, &err);
  c->other = clCreateContext(cp, 1, &c->dev, NULL, NULL, &e2);
  REQUIRE_OK(err == CL_SUCCESS && e2 == CL_SUCCESS ? AMP_SUCCESS : AMP_ERROR_OPENCL);
  c->plain = clCreateCommandQueue(c->ctx, c->dev, 0, &err);
  c->prof = clCreateCommandQueue(c->ctx, c->dev, CL_QUEUE_PROFILING_ENABLE, &e2);
  c->foreign = clCreateCommandQueue(c->other, c->dev, 0, &e3);
  REQUIRE_OK(err == CL_SUCCESS && e2 == CL_SUCCESS && e3 == CL_SUCCESS ? AMP_SUCCESS
                                                                       : AMP_ERROR_OPENCL);
  return 0;
}

/* Refused before anything is handed over: NULLs, a queue of another context, an out-of-order
 * queue (where the device makes one). */
static void refused_objects(const callers *c) {
  amp_accelerator_view *v = NULL;
  CHECK_STATUS(amp_accelerator_view_create_from_cl(NULL, c->plain, &v), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("context is NULL");
  CHECK_STATUS(amp_accelerator_view_create_from_cl(c->ctx, NULL, &v), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("queue is NULL");
  CHECK_STATUS(amp_accelerator_view_create_from_cl(c->ctx, c->plain, NULL),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_accelerator_view_create_from_cl(c->ctx, c->foreign, &v),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("not to the context given");
  cl_command_queue_properties can = 0;
  clGetDeviceInfo(c->dev, CL_DEVICE_QUEUE_PROPERTIES, sizeof can, &can, NULL);
  if (can & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
    cl_int err = CL_SUCCESS;
    cl_command_queue ooo =
        clCreateCommandQueue(c->ctx, c->dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    CHECK_STATUS(amp_accelerator_view_create_from_cl(c->ctx, ooo, &v),
                 AMP_ERROR_UNSUPPORTED_FEATURE);
    CHECK_MSG("out of order");
    clReleaseCommandQueue(ooo);
  } else {
    printf("the device makes no out-of-order queue: that refusal is not tried\n");
  }
  CHECK(v == NULL);
}

/* The caller's kernel and ampcl's on one buffer of the caller's context; ampcl's own data (a view
 * over host memory) on the same view works as on any view. */
static void shared_buffer(const callers *c, amp_accelerator_view *av, amp_accelerator *acc) {
  cl_kernel raw = raw_kernel(c->ctx, c->dev);
  amp_kernel *k = test_kernel(amp_axpb_src, NULL, "amp_axpb");
  float out[N];
  cl_mem buf = raw_iota_buffer(c->ctx, N);
  amp_array *arr = NULL;
  amp_array_view *v = NULL;
  if (!raw || !k || !buf)
    return;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_EQ_INT(raw_axpb(c->plain, raw, buf, 0, N, 1.0f, 1.0f, NULL), CL_SUCCESS); /* i + 1 */
  CHECK_OK(amp_array_create_from_cl_mem(av, buf, amp_extent1(N), AMP_FLOAT, &arr));
  CHECK_OK(amp_array_view_of(arr, &v));
  /* the caller's kernel is on av's queue: ampcl's comes after it */
  CHECK_OK(TEST_RUN(av, amp_extent1(N), k, amp_arg_view(v), amp_arg_float(2.0f),
                    amp_arg_float(0.0f))); /* 2i + 2 */
  amp_array_view_release(v);
  CHECK_OK(amp_array_release(arr));
  CHECK_COUNTS(acc, 0, 0, 0);
  CHECK_EQ_INT(clEnqueueReadBuffer(c->plain, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
               CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != 2.0f * (float)i + 2.0f;
  CHECK_EQ_INT(bad, 0);
  /* ampcl's own view over host memory, on the caller's queue */
  amp_array_view *hv = NULL;
  float host[N];
  for (int i = 0; i < N; i++)
    host[i] = (float)i;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, host, &hv));
  CHECK_OK(
      TEST_RUN(av, amp_extent1(N), k, amp_arg_view(hv), amp_arg_float(-1.0f), amp_arg_float(0.0f)));
  CHECK_OK(amp_array_view_release(hv)); /* copies home */
  bad = 0;
  for (int i = 0; i < N; i++)
    bad += host[i] != -(float)i;
  CHECK_EQ_INT(bad, 0);
  CHECK_COUNTS(acc, 1, 1, 0);
  clReleaseMemObject(buf);
  amp_kernel_release(k);
  clReleaseKernel(raw);
}

int main(void) {
  amp_accelerator *acc = NULL;
  callers c;
  if (test_devices(&acc, 1) != 1) {
    fprintf(stderr, "no OpenCL accelerator\n");
    return 1;
  }
  if (make_callers(acc, &c))
    return 1;
  refused_objects(&c);
  amp_accelerator_view *av = NULL, *pv = NULL;
  bool prof = true;
  const long long queues = amp_live(AMP_CL_QUEUE);
  REQUIRE_OK(amp_accelerator_view_create_from_cl(c.ctx, c.plain, &av));
  CHECK_EQ_INT(amp_live(AMP_CL_QUEUE), queues + 1); /* ampcl's reference to the caller's queue */
  CHECK_OK(amp_accelerator_view_get_profiling(av, &prof));
  CHECK(!prof); /* as the queue was made */
  REQUIRE_OK(amp_accelerator_view_create_from_cl(c.ctx, c.prof, &pv));
  CHECK_OK(amp_accelerator_view_get_profiling(pv, &prof));
  CHECK(prof);
  cl_context used = NULL;
  cl_command_queue q = NULL;
  amp_accelerator *of = NULL;
  CHECK_OK(amp_accelerator_get_cl_context(acc, &used));
  CHECK(used == c.ctx); /* the accelerator's one context is the caller's now */
  CHECK_OK(amp_accelerator_view_get_cl_queue(av, &q));
  CHECK(q == c.plain);
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &of));
  CHECK(of == acc);
  /* another context for the same accelerator: refused, the first stays */
  amp_accelerator_view *late = NULL;
  CHECK_STATUS(amp_accelerator_view_create_from_cl(c.other, c.foreign, &late),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("one context for the life of the process");
  shared_buffer(&c, av, acc);
  CHECK_OK(amp_accelerator_view_release(av));
  CHECK_OK(amp_accelerator_view_release(pv));
  CHECK_EQ_INT(amp_live(AMP_CL_QUEUE), queues); /* ampcl's references went */
  clReleaseCommandQueue(c.plain);
  clReleaseCommandQueue(c.prof);
  clReleaseCommandQueue(c.foreign);
  clReleaseContext(c.other);
  clReleaseContext(c.ctx); /* ampcl keeps its own reference for the life of the process */
  return check_done();
}
