/* bench/transfer_e2e.c: amp-transfer --addexp: add-exp end to end from host memory, against the
 * link measured in the same run.
 *
 * The link: raw OpenCL copies of the same bytes from and to pinned memory (CL_MEM_ALLOC_HOST_PTR,
 * mapped), blocking: two arrays in, one out. That time is what no end-to-end run can beat. Then
 * add-exp (result = first + exp(second), add_exp_vec4 of kernels_cl/examples/add_exp.cl) through
 * views, timed from the views' creation to the result's synchronize, over malloc'd memory and over
 * memory from amp_host_alloc. Every result is checked against the host's expf before its time
 * counts. The ratio printed is link time / end-to-end time: 100% would be a run limited only by
 * the link. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "transfer_e2e.h"

#define MAX_R 64

/* Link time of 2 * bytes in and bytes out, from pinned memory (ms), or a negative number. */
static double link_ms(const transfer_setup *t, size_t bytes) {
  cl_int err;
  double ms[MAX_R];
  cl_mem d = clCreateBuffer(t->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem h = clCreateBuffer(t->cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
  void *p = err == CL_SUCCESS ? clEnqueueMapBuffer(t->q, h, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                   bytes, 0, NULL, NULL, &err)
                              : NULL;
  if (err != CL_SUCCESS || !d) {
    fprintf(stderr, "amp-transfer: pinned buffers of %zu bytes: OpenCL error %d\n", bytes, err);
    return -1;
  }
  memset(p, 3, bytes);
  for (int r = -1; r < t->repeats; r++) {
    double t0 = bench_now_ms();
    for (int i = 0; i < 2 && err == CL_SUCCESS; i++)
      err = clEnqueueWriteBuffer(t->q, d, CL_TRUE, 0, bytes, p, 0, NULL, NULL);
    if (err == CL_SUCCESS)
      err = clEnqueueReadBuffer(t->q, d, CL_TRUE, 0, bytes, p, 0, NULL, NULL);
    if (r >= 0)
      ms[r] = bench_now_ms() - t0;
  }
  clEnqueueUnmapMemObject(t->q, h, p, 0, NULL, NULL);
  clFinish(t->q);
  clReleaseMemObject(h);
  clReleaseMemObject(d);
  return err == CL_SUCCESS ? bench_stats_of(ms, t->repeats).median : -1;
}

/* One end-to-end add-exp over first/second into result (host memory of any kind); 0 on success,
 * with *ms its time, or 1 with the reason printed. */
static int addexp_once(const transfer_setup *t, amp_kernel *k, long n, const float *first,
                       const float *second, float *result, double *ms) {
  amp_array_view *f = NULL, *s = NULL, *r = NULL;
  amp_extent e = amp_extent1((int)n);
  double t0 = bench_now_ms();
  amp_status st = amp_array_view_create_const(e, AMP_FLOAT, first, &f);
  if (st == AMP_SUCCESS)
    st = amp_array_view_create_const(e, AMP_FLOAT, second, &s);
  if (st == AMP_SUCCESS)
    st = amp_array_view_create(e, AMP_FLOAT, result, &r);
  if (st == AMP_SUCCESS)
    st = amp_array_view_discard_data(r);
  if (st == AMP_SUCCESS) {
    amp_arg args[] = {amp_arg_view(f), amp_arg_view(s), amp_arg_view(r)};
    st = amp_parallel_for_each(t->view, amp_extent1((int)((n + 3) / 4)), k, args, 3);
  }
  if (st == AMP_SUCCESS)
    st = amp_array_view_synchronize(r);
  *ms = bench_now_ms() - t0;
  amp_array_view_release(f);
  amp_array_view_release(s);
  amp_array_view_release(r);
  if (st != AMP_SUCCESS) {
    fprintf(stderr, "amp-transfer: add-exp: %s\n  %s\n", amp_status_name(st), amp_last_error());
    return 1;
  }
  return 0;
}

static long wrong(long n, const float *first, const float *second, const float *result) {
  long bad = 0;
  for (long i = 0; i < n; i++) {
    float want = first[i] + expf(second[i]);
    bad += !(fabsf(result[i] - want) <= 1e-4f * fabsf(want) + 1e-6f);
  }
  return bad;
}

/* Median end-to-end time (ms) over host memory from `alloc` (malloc, or amp_host_alloc when
 * pinned), or a negative number. */
static double addexp_ms(const transfer_setup *t, amp_kernel *k, long n, int pinned) {
  size_t bytes = (size_t)n * sizeof(float);
  float *a[3] = {NULL, NULL, NULL};
  double ms[MAX_R], result = -1;
  for (int i = 0; i < 3; i++)
    if (pinned ? amp_host_alloc(t->acc, bytes, (void **)&a[i]) != AMP_SUCCESS
               : !(a[i] = malloc(bytes)))
      goto done;
  bench_fill_float(a[0], (size_t)n, 3);
  bench_fill_float(a[1], (size_t)n, 4);
  for (int r = -1; r < t->repeats; r++) {
    for (long i = 0; i < n; i++)
      a[2][i] = NAN;
    double one;
    if (addexp_once(t, k, n, a[0], a[1], a[2], &one))
      goto done;
    long bad = wrong(n, a[0], a[1], a[2]);
    if (bad) {
      fprintf(stderr, "amp-transfer: add-exp FAILED its check: %ld wrong elements\n", bad);
      goto done;
    }
    if (r >= 0)
      ms[r] = one;
  }
  result = bench_stats_of(ms, t->repeats).median;
done:
  for (int i = 0; i < 3; i++)
    if (pinned)
      amp_host_free(a[i]);
    else
      free(a[i]);
  return result;
}

int transfer_addexp(const transfer_setup *t, long n) {
  if (t->repeats > MAX_R || n < 1 || n > 0x7fffffffL)
    return 2;
  amp_program *prog = NULL;
  amp_kernel *k = NULL;
  if (amp_program_create_builtin("add_exp", NULL, &prog) != AMP_SUCCESS ||
      amp_kernel_create(prog, "add_exp_vec4", &k) != AMP_SUCCESS) {
    fprintf(stderr, "amp-transfer: add_exp: %s\n", amp_last_error());
    amp_program_release(prog);
    return 1;
  }
  size_t bytes = (size_t)n * sizeof(float);
  double link = link_ms(t, bytes);
  double e2e_m = addexp_ms(t, k, n, 0), e2e_p = addexp_ms(t, k, n, 1);
  amp_kernel_release(k);
  amp_program_release(prog);
  if (link < 0 || e2e_m < 0 || e2e_p < 0)
    return 1;
  double gb = 3.0 * (double)bytes / 1e9;
  printf("\nadd-exp end to end, %ld floats (3 arrays of %.0f MiB), median of %d\n", n,
         (double)bytes / 1048576.0, t->repeats);
  printf("%-34s %10s %10s %12s\n", "", "ms", "GB/s", "link/e2e");
  printf("%-34s %10.2f %10.2f %11.0f%%\n", "link: pinned copies, 2 in + 1 out", link,
         gb / link * 1e3, 100.0);
  printf("%-34s %10.2f %10.2f %11.0f%%\n", "views over malloc'd memory", e2e_m, gb / e2e_m * 1e3,
         100.0 * link / e2e_m);
  printf("%-34s %10.2f %10.2f %11.0f%%\n", "views over amp_host_alloc memory", e2e_p,
         gb / e2e_p * 1e3, 100.0 * link / e2e_p);
  return 0;
}
