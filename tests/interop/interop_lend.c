/* tests/interop/interop_lend.c: amp_array_view_lend_cl_mem / _return_cl_mem. A view over host
 * memory is lent to the caller's kernel and to CLBlast: the lend copies in only what the device
 * lacks, the return marks what was written (all, or a range) as valid only on the device, and the
 * next synchronize brings exactly that back (the transfer counters show both). While lent, ampcl
 * refuses to write the data; bad returns leave the loan open and host memory untouched. */
#include <clblast_c.h>

#include "interop/raw_cl.h"

enum { N = 1024 };

typedef struct rig {
  amp_accelerator_view *av;
  amp_accelerator *acc;
  cl_context ctx;
  cl_device_id dev;
  cl_command_queue q; /* av's queue */
  cl_kernel raw;
  amp_kernel *k;
} rig;

/* The caller's kernel and ampcl's take turns on one view: one copy in, one copy back. */
static void whole(rig *r) {
  float host[N];
  for (int i = 0; i < N; i++)
    host[i] = (float)i;
  amp_array_view *v = NULL;
  cl_mem buf = NULL;
  size_t off = 1;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, host, &v));
  CHECK_OK(amp_array_view_lend_cl_mem(v, r->av, &buf, &off, NULL));
  CHECK_EQ_INT(off, 0);
  CHECK_COUNTS(r->acc, 1, 0, 0); /* made current on the device: the one copy in */
  CHECK_EQ_INT(raw_axpb(r->q, r->raw, buf, 0, N, 3.0f, 0.0f, NULL), CL_SUCCESS); /* 3i */
  /* while lent: ampcl does not write the data, nor lend it twice */
  cl_mem again = NULL;
  CHECK_STATUS(TEST_RUN(r->av, amp_extent1(N), r->k, amp_arg_view(v), amp_arg_float(1.0f),
                        amp_arg_float(1.0f)),
               AMP_ERROR_ACCESS_DENIED);
  CHECK_MSG("lent to OpenCL");
  CHECK_STATUS(amp_array_view_discard_data(v), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_array_view_lend_cl_mem(v, r->av, &again, &off, NULL),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("lent already");
  CHECK_OK(amp_array_view_return_cl_mem(v, r->av, AMP_CL_WROTE_ALL, 0, 0, NULL));
  CHECK(host[7] == 7.0f); /* the host copy is stale, not yet overwritten */
  CHECK_OK(TEST_RUN(r->av, amp_extent1(N), r->k, amp_arg_view(v), amp_arg_float(1.0f),
                    amp_arg_float(1.0f))); /* 3i + 1, where the data are */
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += host[i] != 3.0f * (float)i + 1.0f;
  CHECK_EQ_INT(bad, 0);
  CHECK_COUNTS(r->acc, 1, 1, 0);
  /* the caller wrote a range only: only that range comes back */
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_lend_cl_mem(v, r->av, &buf, &off, NULL));
  CHECK_EQ_INT(raw_axpb(r->q, r->raw, buf, 0, N, 0.0f, -5.0f, NULL), CL_SUCCESS); /* all -5 */
  CHECK_OK(amp_array_view_return_cl_mem(v, r->av, AMP_CL_WROTE_RANGE, 100, 50, NULL));
  CHECK_OK(amp_array_view_synchronize(v));
  amp_transfer_stats st = test_stats(r->acc);
  CHECK_EQ_INT(st.to_device_count, 0); /* current on the device already */
  CHECK_EQ_INT(st.to_host_bytes, 50 * sizeof(float));
  bad = 0;
  for (int i = 0; i < N; i++)
    bad += host[i] != (i >= 100 && i < 150 ? -5.0f : 3.0f * (float)i + 1.0f);
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(v));
}

/* A column block of a matrix: the lent offset is its element 0, and a range in the block's
 * row-major order marks just those elements (rows apart in the buffer). */
static void column_block(rig *r) {
  float host[8 * 8];
  for (int i = 0; i < 64; i++)
    host[i] = (float)i;
  amp_array_view *m = NULL, *block = NULL;
  cl_mem buf = NULL;
  size_t off = 0;
  CHECK_OK(amp_array_view_create(amp_extent2(8, 8), AMP_FLOAT, host, &m));
  CHECK_OK(amp_array_view_section(m, amp_index2(1, 2), amp_extent2(4, 2), &block));
  CHECK_OK(amp_array_view_lend_cl_mem(block, r->av, &buf, &off, NULL));
  CHECK_EQ_INT(off, (8 + 2) * sizeof(float));
  const float minus[64] = {0};
  CHECK_EQ_INT(clEnqueueWriteBuffer(r->q, buf, CL_TRUE, 0, sizeof minus, minus, 0, NULL, NULL),
               CL_SUCCESS); /* the caller's command writes everything: 0 */
  /* the block's elements 1 to 4: (1,3), (2,2), (2,3), (3,2) of the matrix */
  CHECK_OK(amp_array_view_return_cl_mem(block, r->av, AMP_CL_WROTE_RANGE, 1, 4, NULL));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_synchronize(m));
  int bad = 0;
  for (int i = 0; i < 64; i++) {
    int zero = i == 8 + 3 || i == 16 + 2 || i == 16 + 3 || i == 24 + 2;
    bad += host[i] != (zero ? 0.0f : (float)i);
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(test_stats(r->acc).to_host_bytes, 4 * sizeof(float));
  amp_array_view_release(block);
  CHECK_OK(amp_array_view_release(m));
}

/* CLBlast's C API on a lent view, its event handed back as `done`; ampcl's kernel then reads
 * the result where it is. */
static void clblast(rig *r) {
  float host[N];
  for (int i = 0; i < N; i++)
    host[i] = (float)i;
  amp_array_view *v = NULL, *tail = NULL;
  cl_mem buf = NULL;
  size_t off = 0;
  cl_event ready = NULL, done = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, host, &v));
  CHECK_OK(amp_array_view_section(v, amp_index1(N / 2), amp_extent1(N / 2), &tail));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_lend_cl_mem(tail, r->av, &buf, &off, &ready));
  CHECK(ready != NULL);
  CHECK_EQ_INT(off, N / 2 * sizeof(float));
  CLBlastStatusCode cs =
      CLBlastSscal(N / 2, 2.0f, buf, off / sizeof(float), 1, &r->q, &done); /* tail x2 */
  CHECK_EQ_INT(cs, CLBlastSuccess);
  CHECK_OK(amp_array_view_return_cl_mem(tail, r->av, AMP_CL_WROTE_ALL, 0, 0, done));
  CHECK_OK(TEST_RUN(r->av, amp_extent1(N), r->k, amp_arg_view(v), amp_arg_float(1.0f),
                    amp_arg_float(1.0f))); /* +1 everywhere */
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += host[i] != (i < N / 2 ? (float)i : 2.0f * (float)i) + 1.0f;
  CHECK_EQ_INT(bad, 0);
  CHECK_COUNTS(r->acc, 2, 1, 0); /* the tail in, the head in for ampcl's kernel, one copy back */
  if (done)
    clReleaseEvent(done);
  if (ready)
    clReleaseEvent(ready);
  amp_array_view_release(tail);
  CHECK_OK(amp_array_view_release(v));
}

/* Bad loans and returns: refused with the reason, the loan left as it was, host memory intact. */
static void refused(rig *r) {
  float host[16], orig[16];
  for (int i = 0; i < 16; i++)
    host[i] = orig[i] = (float)i;
  amp_array_view *v = NULL, *ro = NULL;
  cl_mem buf = NULL;
  size_t off = 0;
  CHECK_OK(amp_array_view_create(amp_extent1(16), AMP_FLOAT, host, &v));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_STATUS(amp_array_view_lend_cl_mem(v, r->av, NULL, &off, NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("buffer is NULL");
  CHECK_STATUS(amp_array_view_lend_cl_mem(v, r->av, &buf, NULL, NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_array_view_lend_cl_mem(NULL, r->av, &buf, &off, NULL), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_array_view_lend_cl_mem(v, NULL, &buf, &off, NULL), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_array_view_return_cl_mem(v, r->av, AMP_CL_WROTE_ALL, 0, 0, NULL),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("not lent");
  CHECK_UNMOVED(host, orig);
  CHECK_OK(amp_array_view_lend_cl_mem(v, r->av, &buf, &off, NULL));
  CHECK_STATUS(amp_array_view_return_cl_mem(v, r->av, AMP_CL_WROTE_RANGE, 10, 7, NULL),
               AMP_ERROR_OUT_OF_RANGE);
  CHECK_MSG("7 elements from element 10, goes past the view's 16");
  CHECK_STATUS(amp_array_view_return_cl_mem(v, r->av, AMP_CL_WROTE_RANGE, SIZE_MAX, 2, NULL),
               AMP_ERROR_OUT_OF_RANGE);
  CHECK_STATUS(amp_array_view_return_cl_mem(v, r->av, (amp_cl_written)7, 0, 0, NULL),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("written is 7");
  /* `done` of another context */
  cl_int err = CL_SUCCESS;
  cl_context other = clCreateContext(NULL, 1, &r->dev, NULL, NULL, &err);
  cl_event foreign = other ? clCreateUserEvent(other, &err) : NULL;
  CHECK(foreign != NULL);
  CHECK_STATUS(amp_array_view_return_cl_mem(v, r->av, AMP_CL_WROTE_ALL, 0, 0, foreign),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("belongs to context");
  clSetUserEventStatus(foreign, CL_COMPLETE);
  clReleaseEvent(foreign);
  clReleaseContext(other);
  /* the loan is still open: the proper return ends it */
  CHECK_STATUS(amp_array_view_discard_data(v), AMP_ERROR_ACCESS_DENIED);
  CHECK_OK(amp_array_view_return_cl_mem(v, r->av, AMP_CL_WROTE_NOTHING, 0, 0, NULL));
  CHECK_OK(amp_array_view_synchronize(v)); /* nothing written: nothing comes back */
  CHECK_COUNTS(r->acc, 1, 0, 0);
  CHECK(memcmp(host, orig, sizeof host) == 0);
  /* a read-only view may be lent for reading, not written */
  CHECK_OK(amp_array_view_as_const(v, &ro));
  CHECK_OK(amp_array_view_lend_cl_mem(ro, r->av, &buf, &off, NULL));
  CHECK_STATUS(amp_array_view_return_cl_mem(ro, r->av, AMP_CL_WROTE_ALL, 0, 0, NULL),
               AMP_ERROR_ACCESS_DENIED);
  CHECK_MSG("read-only");
  CHECK_OK(amp_array_view_return_cl_mem(ro, r->av, AMP_CL_WROTE_NOTHING, 0, 0, NULL));
  amp_array_view_release(ro);
  CHECK_OK(amp_array_view_release(v));
  CHECK(memcmp(host, orig, sizeof host) == 0);
}

int main(void) {
  rig r = {0};
  REQUIRE_VIEW(av);
  r.av = av;
  r.acc = test_acc_of(av);
  if (raw_objects_of(av, &r.ctx, &r.dev))
    return 1;
  REQUIRE_OK(amp_accelerator_view_get_cl_queue(av, &r.q));
  r.raw = raw_kernel(r.ctx, r.dev);
  r.k = test_kernel(amp_axpb_src, NULL, "amp_axpb");
  if (!r.raw || !r.k)
    return check_done();
  whole(&r);
  column_block(&r);
  clblast(&r);
  refused(&r);
  amp_kernel_release(r.k);
  clReleaseKernel(r.raw);
  return check_done();
}
