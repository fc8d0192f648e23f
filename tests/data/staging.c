/* staging: host <-> device copies staged through pinned buffers (runtime/data/staging.c) give the
 * same results and the same transfer counts as direct copies, and a failure half-way loses
 * nothing.
 *
 * Run with AMP_STAGING=force (staging on POCL too), a chunk that is not a multiple of the element
 * size and more chunks than the ring has buffers (tests/CMakeLists.txt sets both). Proves:
 *   - a kernel over views of N floats (N * 4 not a multiple of the chunk) reads inputs staged in
 *     and its result comes back staged: right values, one copy each way, exactly the bytes;
 *   - a row section (contiguous) and a column section (a rectangle, copied directly) of a matrix;
 *   - arrays: amp_copy_to_array / amp_copy_from_array;
 *   - asynchronous copies back (runtime/data/staging_read.c): synchronize_async and
 *     amp_copy_from_array_async give the right values and counts; a kernel launched right after
 *     the copy, its future released unwaited, does not overtake it; two copies back in flight at
 *     once; a chunk that fails to enqueue fails the call, and the retry brings everything back;
 *   - a chunk that fails to enqueue (AMP_STAGING_FAIL_AFTER) fails the launch or the synchronize
 *     with the OpenCL error, host data intact, and the retry afterwards gives the right result
 *     (the failure is also the proof that the staged path ran);
 *   - with two accelerators (the staging.two-devices run), two host threads staging at once, one
 *     per accelerator, each over views of its own half (amp-bench's split): both halves right, and
 *     each accelerator moved exactly its half each way, once (each has its own memcpy pool, run at
 *     the same time as the other's). */
#include <pthread.h>
#include <stdlib.h>

#include "check.h"

enum { N = 1000003, R = 300, C = 512 };

static const char *src = "__kernel void axpb(AMP_CONST_VIEW(float, x), AMP_VIEW(float, y)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(y, i[0]) = 2.0f * amp_at(x, i[0]) + 1.0f;\n"
                         "}\n"
                         "__kernel void inc1(AMP_VIEW(float, y)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(y, i[0]) += 1.0f;\n"
                         "}\n"
                         "__kernel void inc2(AMP_VIEW(float, m)) {\n"
                         "  AMP_INDEX2(i);\n"
                         "  amp_at(m, i[0], i[1]) += 1.0f;\n"
                         "}\n";

static int y_ok(const float *x, const float *y, long n) {
  long bad = 0;
  for (long i = 0; i < n; i++)
    if (y[i] != 2.0f * x[i] + 1.0f && bad++ < 3)
      fprintf(stderr, "y[%ld] = %g, want %g\n", i, y[i], 2.0f * x[i] + 1.0f);
  return bad == 0;
}

static void views(amp_accelerator_view *av, amp_kernel *axpb, float *x, float *y) {
  amp_array_view *vx = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx));
  amp_array_view *vy = test_discarded_view(amp_extent1(N), AMP_FLOAT, y);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent1(N), axpb, amp_arg_view(vx), amp_arg_view(vy)));
  CHECK_OK(amp_array_view_synchronize(vy));
  CHECK(y_ok(x, y, N));
  amp_transfer_stats st = test_stats(NULL);
  CHECK_EQ_INT(st.to_device_count, 1);
  CHECK_EQ_INT(st.to_device_bytes, (uint64_t)N * 4);
  CHECK_EQ_INT(st.to_host_count, 1);
  CHECK_EQ_INT(st.to_host_bytes, (uint64_t)N * 4);
  amp_array_view_release(vx);
  amp_array_view_release(vy);
}

static void sections(amp_accelerator_view *av, amp_kernel *inc2) {
  static float m[R * C], want[R * C];
  for (int i = 0; i < R * C; i++)
    want[i] = m[i] = (float)(i % 1009);
  amp_array_view *vm = NULL, *rows = NULL, *cols = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(R, C), AMP_FLOAT, m, &vm));
  CHECK_OK(amp_array_view_section(vm, amp_index2(7, 0), amp_extent2(250, C), &rows));
  CHECK_OK(amp_array_view_section(vm, amp_index2(0, 100), amp_extent2(R, 300), &cols));
  CHECK_OK(TEST_RUN(av, amp_extent2(250, C), inc2, amp_arg_view(rows)));
  CHECK_OK(amp_array_view_synchronize(rows));
  CHECK_OK(TEST_RUN(av, amp_extent2(R, 300), inc2, amp_arg_view(cols)));
  CHECK_OK(amp_array_view_synchronize(vm));
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      want[i * C + j] += (float)(i >= 7 && i < 257) + (float)(j >= 100 && j < 400);
  CHECK_EQ_INT(memcmp(m, want, sizeof m), 0);
  amp_array_view_release(rows);
  amp_array_view_release(cols);
  amp_array_view_release(vm);
}

static void arrays(amp_accelerator_view *av, const float *x, float *y) {
  amp_array *arr = NULL;
  CHECK_OK(amp_array_create(av, amp_extent1(N), AMP_FLOAT, &arr));
  CHECK_OK(amp_copy_to_array(x, (size_t)N * 4, arr));
  memset(y, 0, (size_t)N * 4);
  CHECK_OK(amp_copy_from_array(arr, y, (size_t)N * 4));
  CHECK_EQ_INT(memcmp(x, y, (size_t)N * 4), 0);
  amp_array_release(arr);
}

/* The kernel inc1 adds 1 to y. Copy back asynchronously, launch inc1 at once (the copy's future
 * released unwaited), then copy back again: the host sees the copy's values, then one more. */
static void async_back(amp_accelerator_view *av, amp_kernel *axpb, amp_kernel *inc1, float *x,
                       float *y) {
  amp_array_view *vx = NULL, *vy = NULL, *vz = NULL;
  amp_future *f = NULL, *g = NULL;
  float *z = malloc((size_t)N * 4);
  CHECK(z != NULL);
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, y, &vy));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, z, &vz));
  CHECK_OK(TEST_RUN(av, amp_extent1(N), axpb, amp_arg_view(vx), amp_arg_view(vy)));
  CHECK_OK(TEST_RUN(av, amp_extent1(N), axpb, amp_arg_view(vx), amp_arg_view(vz)));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_synchronize_async(vy, &f));
  CHECK_OK(amp_array_view_synchronize_async(vz, &g)); /* waits for the ring, not for f */
  CHECK_OK(amp_future_wait(f));
  CHECK(y_ok(x, y, N));
  CHECK_OK(amp_future_wait(g));
  CHECK(y_ok(x, z, N));
  amp_transfer_stats st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 2);
  CHECK_EQ_INT(st.to_host_bytes, (uint64_t)N * 8);
  amp_future_release(f);
  amp_future_release(g);
  /* a kernel right behind the copy back: the copy reads the values before it */
  CHECK_OK(TEST_RUN(av, amp_extent1(N), axpb, amp_arg_view(vx), amp_arg_view(vy)));
  CHECK_OK(amp_array_view_synchronize_async(vy, &f));
  amp_future_release(f);
  CHECK_OK(TEST_RUN(av, amp_extent1(N), inc1, amp_arg_view(vy)));
  CHECK_OK(amp_array_view_synchronize(vy));
  long bad = 0;
  for (long i = 0; i < N; i++)
    bad += y[i] != 2.0f * x[i] + 2.0f;
  CHECK_EQ_INT(bad, 0);
  /* a chunk that fails to enqueue fails the call; the retry brings everything back */
  CHECK_OK(TEST_RUN(av, amp_extent1(N), axpb, amp_arg_view(vx), amp_arg_view(vy)));
  setenv("AMP_STAGING_FAIL_AFTER", "5", 1);
  CHECK_STATUS(amp_array_view_synchronize_async(vy, &f), AMP_CL_OUT_OF_RESOURCES);
  unsetenv("AMP_STAGING_FAIL_AFTER");
  CHECK_OK(amp_array_view_synchronize_async(vy, &f));
  CHECK_OK(amp_future_wait(f));
  amp_future_release(f);
  CHECK(y_ok(x, y, N));
  amp_array_view_release(vx);
  amp_array_view_release(vy);
  amp_array_view_release(vz);
  /* an array's contents copied back asynchronously into malloc'd memory */
  amp_array *arr = NULL;
  CHECK_OK(amp_array_create(av, amp_extent1(N), AMP_FLOAT, &arr));
  CHECK_OK(amp_copy_to_array(x, (size_t)N * 4, arr));
  memset(z, 0, (size_t)N * 4);
  CHECK_OK(amp_copy_from_array_async(arr, z, (size_t)N * 4, &f));
  CHECK_OK(amp_future_wait(f));
  amp_future_release(f);
  CHECK_EQ_INT(memcmp(x, z, (size_t)N * 4), 0);
  amp_array_release(arr);
  free(z);
}

static void failures(amp_accelerator_view *av, amp_kernel *axpb, float *x, float *y) {
  amp_array_view *vx = NULL, *vy = NULL;
  for (long i = 0; i < N; i++)
    y[i] = -7.0f;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, y, &vy));
  /* copy-in fails at its third chunk */
  setenv("AMP_STAGING_FAIL_AFTER", "2", 1);
  CHECK_STATUS(TEST_RUN(av, amp_extent1(N), axpb, amp_arg_view(vx), amp_arg_view(vy)),
               AMP_CL_OUT_OF_RESOURCES);
  unsetenv("AMP_STAGING_FAIL_AFTER");
  long bad = 0;
  for (long i = 0; i < N; i++)
    bad += y[i] != -7.0f;
  CHECK_EQ_INT(bad, 0); /* host data intact */
  /* the retry copies everything in again and runs */
  CHECK_OK(TEST_RUN(av, amp_extent1(N), axpb, amp_arg_view(vx), amp_arg_view(vy)));
  /* copy back fails at its second chunk; the retry brings it all back */
  setenv("AMP_STAGING_FAIL_AFTER", "1", 1);
  CHECK_STATUS(amp_array_view_synchronize(vy), AMP_CL_OUT_OF_RESOURCES);
  unsetenv("AMP_STAGING_FAIL_AFTER");
  CHECK_OK(amp_array_view_synchronize(vy));
  CHECK(y_ok(x, y, N));
  amp_array_view_release(vx);
  amp_array_view_release(vy);
}

typedef struct half {
  amp_accelerator_view *av;
  amp_kernel *k;
  const float *x;
  float *y;
  long n;
  amp_status status;
} half;

static void *run_half(void *arg) {
  half *h = arg;
  amp_array_view *vx = NULL, *vy = NULL;
  amp_extent e = amp_extent1((int)h->n);
  amp_status st = amp_array_view_create_const(e, AMP_FLOAT, h->x, &vx);
  if (st == AMP_SUCCESS)
    st = amp_array_view_create(e, AMP_FLOAT, h->y, &vy);
  if (st == AMP_SUCCESS)
    st = amp_array_view_discard_data(vy);
  if (st == AMP_SUCCESS)
    st = TEST_RUN(h->av, e, h->k, amp_arg_view(vx), amp_arg_view(vy));
  if (st == AMP_SUCCESS)
    st = amp_array_view_synchronize(vy);
  if (vx)
    amp_array_view_release(vx);
  if (vy)
    amp_array_view_release(vy);
  h->status = st;
  return NULL;
}

static void two_accelerators(amp_kernel *axpb, const float *x, float *y) {
  amp_accelerator *acc[2];
  if (test_devices(acc, 2) < 2) {
    fprintf(stderr, "staging: one accelerator, no two-thread case\n");
    return;
  }
  const long lo = N / 2 - 77; /* halves of unequal sizes, neither a whole number of chunks */
  half h[2] = {{.k = axpb, .x = x, .y = y, .n = lo},
               {.k = axpb, .x = x + lo, .y = y + lo, .n = N - lo}};
  for (int p = 0; p < 2; p++)
    CHECK_OK(amp_accelerator_default_view(acc[p], &h[p].av));
  for (long i = 0; i < N; i++)
    y[i] = -1.0f;
  CHECK_OK(amp_transfer_stats_reset());
  pthread_t t;
  int started = pthread_create(&t, NULL, run_half, &h[1]) == 0;
  CHECK(started);
  run_half(&h[0]);
  if (started)
    pthread_join(t, NULL);
  else
    run_half(&h[1]);
  for (int p = 0; p < 2; p++) {
    CHECK_OK(h[p].status);
    amp_transfer_stats st = test_stats(acc[p]);
    CHECK_EQ_INT(st.to_device_count, 1);
    CHECK_EQ_INT(st.to_device_bytes, (uint64_t)h[p].n * 4);
    CHECK_EQ_INT(st.to_host_count, 1);
    CHECK_EQ_INT(st.to_host_bytes, (uint64_t)h[p].n * 4);
  }
  CHECK(y_ok(x, y, N));
}

int main(void) {
  const char *mode = getenv("AMP_STAGING");
  if (!mode || strcmp(mode, "force") != 0) {
    fprintf(stderr, "run with AMP_STAGING=force (tests/CMakeLists.txt does)\n");
    return 1;
  }
  REQUIRE_VIEW(av);
  float *x = malloc((size_t)N * 4), *y = malloc((size_t)N * 4);
  if (!x || !y)
    return 1;
  for (long i = 0; i < N; i++)
    x[i] = (float)(i % 4099) * 0.5f;
  amp_kernel *axpb = test_kernel(src, NULL, "axpb"), *inc2 = test_kernel(src, NULL, "inc2");
  views(av, axpb, x, y);
  sections(av, inc2);
  arrays(av, x, y);
  failures(av, axpb, x, y);
  amp_kernel *inc1 = test_kernel(src, NULL, "inc1");
  async_back(av, axpb, inc1, x, y);
  amp_kernel_release(inc1);
  two_accelerators(axpb, x, y);
  amp_kernel_release(axpb);
  amp_kernel_release(inc2);
  free(x);
  free(y);
  return check_done();
}
