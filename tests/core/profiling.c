/* profiling: the profiling switch of accelerator views (runtime/core/profiling.c).
 *
 *   test_profiling default   (AMP_PROFILE unset) views profile: the queue has
 *                            CL_QUEUE_PROFILING_ENABLE and a kernel's future has a device time; a
 *                            view made with amp_accelerator_create_view_profiling(false) does not,
 *                            its futures say so (AMP_ERROR_UNSUPPORTED_FEATURE), its kernels are
 *                            right.
 *   test_profiling off       (AMP_PROFILE=0) no view profiles unless made with profiling on; the
 *                            error names AMP_PROFILE; amp_blas_gemm's engine choice, which times
 *                            both engines, still gives the right product (timed on the host).
 *   test_profiling bad       (AMP_PROFILE=yes) making a view fails naming the value.
 *   test_profiling traced    (AMP_PROFILE=0, AMP_TRACE set) every view profiles: a trace needs the
 *                            device times, so tracing wins over both switches. */
#include <ampcl/opencl.h>

#include "check.h"

static const char *src = "__kernel void twice(AMP_CONST_VIEW(int, x), AMP_VIEW(int, y)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(y, i[0]) = 2 * amp_at(x, i[0]) + 1;\n"
                         "}\n";

enum { N = 1000 };

/* What the view reports and what its OpenCL queue was made with agree, and equal `want`. */
static void check_profiling(amp_accelerator_view *av, bool want) {
  bool on = !want;
  CHECK_OK(amp_accelerator_view_get_profiling(av, &on));
  CHECK_EQ_INT(on, want);
  cl_command_queue q = NULL;
  cl_command_queue_properties props = 0;
  CHECK_OK(amp_accelerator_view_get_cl_queue(av, &q));
  CHECK(q &&
        clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) == CL_SUCCESS);
  CHECK_EQ_INT((props & CL_QUEUE_PROFILING_ENABLE) != 0, want);
}

/* Whether ampcl gives device times on the test's device (test_device_times): where not, a
 * profiled future is refused saying the timestamps measure nothing. */
static int times = 1;

/* y = 2x + 1 on `av`, checked on the host; the future's device time exists iff `profiled` (and
 * the device's timestamps measure something). */
static void run_kernel(amp_accelerator_view *av, amp_kernel *k, bool profiled) {
  static int x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = i - 300;
    y[i] = -1;
  }
  amp_array_view *vx = NULL, *vy = NULL;
  amp_future *done = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, y, &vy));
  amp_arg args[] = {amp_arg_view(vx), amp_arg_view(vy)};
  amp_launch l = {.domain = amp_extent1(N), .kernel = k, .args = args, .nargs = 2};
  CHECK_OK(amp_parallel_for_each_ex(av, &l, &done));
  uint64_t ns = 0;
  if (profiled && times) {
    CHECK_OK(amp_future_elapsed_ns(done, &ns));
    CHECK(ns > 0);
  } else if (profiled) {
    CHECK_STATUS(amp_future_elapsed_ns(done, &ns), AMP_ERROR_UNSUPPORTED_FEATURE);
    CHECK_MSG("measure nothing");
  } else {
    CHECK_STATUS(amp_future_elapsed_ns(done, &ns), AMP_ERROR_UNSUPPORTED_FEATURE);
    /* a driver may stamp even a queue without profiling; where its stamps measure nothing that
     * is the reason given */
    if (times || !strstr(amp_last_error(), "measure nothing"))
      CHECK_MSG("AMP_PROFILE=0");
    CHECK_OK(amp_future_wait(done)); /* the kernel itself ran */
  }
  CHECK_OK(amp_array_view_synchronize(vy));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += y[i] != 2 * x[i] + 1;
  CHECK_EQ_INT(bad, 0);
  amp_future_release(done);
  amp_array_view_release(vx);
  amp_array_view_release(vy);
}

/* C = A B through amp_blas_gemm's automatic choice on `av` (which times both engines the first
 * time), against a host product; the sizes are exact in float. */
static void run_gemm(amp_accelerator_view *av) {
  enum { M = 33, K = 17, P = 29 };
  static float a[M * K], b[K * P], c[M * P];
  for (int i = 0; i < M * K; i++)
    a[i] = (float)(i % 7 - 3);
  for (int i = 0; i < K * P; i++)
    b[i] = (float)(i % 5 - 2);
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent2(M, K), AMP_FLOAT, a, &va));
  CHECK_OK(amp_array_view_create_const(amp_extent2(K, P), AMP_FLOAT, b, &vb));
  CHECK_OK(amp_array_view_create(amp_extent2(M, P), AMP_FLOAT, c, &vc));
  CHECK_OK(amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, va, vb, 0.0, vc, NULL));
  CHECK_OK(amp_array_view_synchronize(vc));
  CHECK_EQ_INT(test_wrong_products(c, a, b, M, P, K), 0);
  amp_array_view_release(va);
  amp_array_view_release(vb);
  amp_array_view_release(vc);
}

int main(int argc, char **argv) {
  const char *mode = argc == 2 ? argv[1] : "";
  amp_accelerator *acc = NULL;
  REQUIRE_OK(amp_accelerator_get_default(&acc));
  if (strcmp(mode, "bad") == 0) {
    amp_accelerator_view *av = NULL;
    CHECK_STATUS(amp_default_view(&av), AMP_ERROR_INVALID_ARGUMENT);
    CHECK_MSG("AMP_PROFILE=yes");
    CHECK_STATUS(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_AUTOMATIC, &av),
                 AMP_ERROR_INVALID_ARGUMENT);
    CHECK_MSG("AMP_PROFILE=yes");
    CHECK(av == NULL);
    return check_done();
  }
  const bool dflt = strcmp(mode, "default") == 0, off = strcmp(mode, "off") == 0,
             traced = strcmp(mode, "traced") == 0;
  if (!dflt && !off && !traced) {
    fprintf(stderr, "usage: test_profiling default|off|bad|traced\n");
    return 1;
  }
  CHECK_EQ_INT(amp_trace_enabled(), traced);
  amp_accelerator_view *av = test_view();
  amp_kernel *k = test_kernel(src, NULL, "twice");
  if (!av || !k)
    return 1;
  times = test_device_times(acc);
  /* the default view and a plain new view follow AMP_PROFILE (and AMP_TRACE) */
  const bool by_default = !off || traced;
  check_profiling(av, by_default);
  run_kernel(av, k, by_default);
  amp_accelerator_view *plain = NULL, *yes = NULL, *no = NULL;
  CHECK_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_AUTOMATIC, &plain));
  CHECK_OK(amp_accelerator_create_view_profiling(acc, AMP_QUEUING_MODE_IMMEDIATE, true, &yes));
  CHECK_OK(amp_accelerator_create_view_profiling(acc, AMP_QUEUING_MODE_AUTOMATIC, false, &no));
  check_profiling(plain, by_default);
  check_profiling(yes, true);
  check_profiling(no, traced); /* off unless tracing */
  run_kernel(yes, k, true);
  run_kernel(no, k, traced);
  /* the engine choice of amp_blas_gemm times on the host where the view does not profile */
  run_gemm(off ? av : no);
  /* bad arguments */
  bool b;
  CHECK_STATUS(amp_accelerator_view_get_profiling(av, NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_accelerator_view_get_profiling(NULL, &b), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_accelerator_create_view_profiling(acc, AMP_QUEUING_MODE_AUTOMATIC, true, NULL),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("amp_accelerator_create_view_profiling");
  amp_accelerator_view_release(plain);
  amp_accelerator_view_release(yes);
  amp_accelerator_view_release(no);
  amp_kernel_release(k);
  return check_done();
}
