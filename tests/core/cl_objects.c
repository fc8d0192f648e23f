/* cl_objects: every OpenCL object ampcl creates for the user's work is released with it.
 *
 * Runs a representative workload on two devices (two POCL devices in CI; the one device twice
 * where the implementation exposes one) (views, a section, arrays, launches, an
 * array-to-array copy across devices, async copies and their futures, a GEMM, a second queue,
 * pinned host memory), releases every handle, and asserts that amp_cl_objects_live counts zero
 * live contexts, queues, buffers, programs and kernels apart from what ampcl keeps for the
 * process (one context and one default queue per accelerator used, and at most 8 small buffers
 * kept for reuse). LeakSanitizer cannot see a
 * leaked cl_mem or cl_kernel, whose memory POCL allocates; this count can. */
#include "check.h"

static const char *src = "__kernel void add1(AMP_VIEW(int, v)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(v, i[0]) += 1;\n"
                         "}\n";

static const char *const kinds[] = {"context", "queue", "mem",    "program",
                                    "kernel",  "event", "sampler"};

static long long live(amp_cl_object_kind kind, long long *process) {
  long long n = -1;
  CHECK_OK(amp_cl_objects_live(kind, &n, process));
  return n;
}

static void workload(amp_accelerator *acc0, amp_accelerator *acc1) {
  enum { N = 64 };
  amp_accelerator_view *v0 = NULL, *v1 = NULL, *extra = NULL;
  CHECK_OK(amp_accelerator_default_view(acc0, &v0));
  CHECK_OK(amp_accelerator_default_view(acc1, &v1));
  CHECK_OK(amp_accelerator_create_view(acc0, AMP_QUEUING_MODE_AUTOMATIC, &extra));
  amp_kernel *add1 = test_kernel(src, NULL, "add1");
  if (!add1 || !v0 || !v1 || !extra)
    return;
  int data[N], out[N];
  for (int i = 0; i < N; i++)
    data[i] = i;
  amp_array_view *v = NULL, *sec = NULL, *av = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, data, &v));
  CHECK_OK(amp_array_view_section(v, amp_index1(8), amp_extent1(16), &sec));
  amp_arg a1[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each(v0, amp_extent1(N), add1, a1, 1));
  amp_arg a2[] = {amp_arg_view(sec)};
  CHECK_OK(amp_parallel_for_each(v1, amp_extent1(16), add1, a2, 1));
  CHECK_OK(amp_parallel_for_each(extra, amp_extent1(16), add1, a2, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += data[i] != i + 1 + 2 * (i >= 8 && i < 24);
  CHECK_EQ_INT(bad, 0);

  /* arrays on both devices, a copy between them, async copies and futures */
  amp_array *x = NULL, *y = NULL;
  CHECK_OK(amp_array_create_from(v0, amp_extent1(N), AMP_INT32, data, &x));
  CHECK_OK(amp_array_create(v1, amp_extent1(N), AMP_INT32, &y));
  CHECK_OK(amp_copy_array(x, y));
  CHECK_OK(amp_array_view_of(y, &av));
  amp_arg a3[] = {amp_arg_view(av)};
  CHECK_OK(amp_parallel_for_each(v1, amp_extent1(N), add1, a3, 1));
  amp_future *f = NULL;
  CHECK_OK(amp_copy_from_view_async(av, out, sizeof out, &f));
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));
  CHECK_EQ_INT(out[N - 1], data[N - 1] + 1);
  CHECK_OK(amp_copy_to_view_async(out, 16 * sizeof *out, sec, &f));
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));
  CHECK_OK(amp_accelerator_view_create_marker(v0, &f));
  CHECK_OK(amp_future_wait(f));
  CHECK_OK(amp_future_release(f));

  /* a small GEMM (CLBlast) when ampcl has it */
  float A[4] = {1, 2, 3, 4}, B[4] = {1, 0, 0, 1}, C[4] = {0};
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(2, 2), AMP_FLOAT, A, &va));
  CHECK_OK(amp_array_view_create(amp_extent2(2, 2), AMP_FLOAT, B, &vb));
  CHECK_OK(amp_array_view_create(amp_extent2(2, 2), AMP_FLOAT, C, &vc));
  amp_status gs = amp_blas_gemm(v0, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, va, vb, 0.0, vc, NULL);
  CHECK(gs == AMP_SUCCESS || gs == AMP_ERROR_UNSUPPORTED_FEATURE);
  if (gs == AMP_SUCCESS) {
    CHECK_OK(amp_array_view_synchronize(vc));
    CHECK(C[3] == 4.0f && C[1] == 2.0f);
  }

  /* pinned host memory */
  void *pinned = NULL;
  CHECK_OK(amp_host_alloc(acc0, 4096, &pinned));
  CHECK_OK(amp_host_free(pinned));

  CHECK(live(AMP_CL_MEM, NULL) > 0);
  CHECK(live(AMP_CL_KERNEL, NULL) > 0);
  CHECK(live(AMP_CL_PROGRAM, NULL) > 0);
  amp_array_view_release(va);
  amp_array_view_release(vb);
  amp_array_view_release(vc);
  amp_array_view_release(av);
  amp_array_view_release(sec);
  amp_array_view_release(v);
  amp_array_release(x);
  amp_array_release(y);
  amp_kernel_release(add1);
  amp_accelerator_view_wait(extra);
  amp_accelerator_view_release(extra);
  amp_accelerator_view_wait(v0);
  amp_accelerator_view_wait(v1);
}

/* A small empty view's buffer is kept when the view goes (runtime/data/scratch.c), and the next
 * empty view of that size on that accelerator takes it instead of a new one; a large one is not
 * kept. */
static void scratch_reuse(amp_accelerator *acc) {
  enum { N = 1000 };
  amp_accelerator_view *av = NULL;
  amp_kernel *add1 = test_kernel(src, NULL, "add1");
  CHECK_OK(amp_accelerator_default_view(acc, &av));
  long long before = -1, kept = -1, after = -1;
  for (int round = 0; round < 3; round++) {
    amp_array_view *e = NULL;
    CHECK_OK(amp_array_view_create_empty(amp_extent1(N), AMP_INT32, &e));
    amp_arg a[] = {amp_arg_view(e)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), add1, a, 1));
    if (round == 0)
      live(AMP_CL_MEM, &before);
    CHECK_OK(amp_array_view_release(e));
    live(AMP_CL_MEM, round == 0 ? &kept : &after);
  }
  CHECK_EQ_INT(kept, before + 1); /* kept, not released */
  CHECK_EQ_INT(after, kept);      /* taken and kept again: no new buffer */
  /* 64 MiB: released, not kept */
  amp_array_view *big = NULL;
  long long p0 = -1, p1 = -1;
  live(AMP_CL_MEM, &p0);
  CHECK_OK(amp_array_view_create_empty(amp_extent1(16 << 20), AMP_INT32, &big));
  amp_arg b[] = {amp_arg_view(big)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(16), add1, b, 1));
  CHECK_OK(amp_array_view_release(big));
  live(AMP_CL_MEM, &p1);
  CHECK_EQ_INT(p1, p0);
  amp_kernel_release(add1);
}

int main(void) {
  amp_accelerator *acc0 = NULL, *acc1 = NULL;
  const char *path0 = test_device_path(0), *path1 = test_device_path(1);
  if (!path0) {
    fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  REQUIRE_OK(amp_accelerator_find(path0, &acc0));
  REQUIRE_OK(amp_accelerator_find(path1 ? path1 : path0, &acc1));
  const long long used = acc1 != acc0 ? 2 : 1; /* accelerators the workload uses */
  for (int k = 0; k < AMP_CL_OBJECT_KINDS; k++)
    CHECK_EQ_INT(live((amp_cl_object_kind)k, NULL), 0);
  workload(acc0, acc1);
  workload(acc0, acc1); /* a second time: the build cache and pools are reused, then freed */
  scratch_reuse(acc0);
  for (int k = 0; k < AMP_CL_OBJECT_KINDS; k++) {
    long long process = -1, n = live((amp_cl_object_kind)k, &process);
    if (n != 0)
      fprintf(stderr, "%lld %s object(s) still live after every release\n", n, kinds[k]);
    CHECK_EQ_INT(n, 0);
    if (k == AMP_CL_CONTEXT || k == AMP_CL_QUEUE)
      CHECK_EQ_INT(process, used); /* one per accelerator used */
    else if (k == AMP_CL_MEM)
      CHECK(process >= 0 && process <= 8); /* the buffers kept for reuse (runtime/data/scratch.c) */
    else
      CHECK_EQ_INT(process, 0);
  }
  long long dummy;
  CHECK_STATUS(amp_cl_objects_live(AMP_CL_OBJECT_KINDS, &dummy, NULL), AMP_ERROR_INVALID_ARGUMENT);
  return check_done();
}
