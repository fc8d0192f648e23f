/* launch_errors: every way a launch can be wrong fails with its own status and a reason, before
 * anything moves (kernel.h, amp_parallel_for_each).
 *
 * Proves, for each error: the expected amp_status; a message (amp_last_error) that names the
 * cause; no transfer happened (the counters stay at zero); and the user's host data are untouched.
 * Covered: a build failure (the whole build log, with line numbers of the user's source), a tile
 * too large for the device, a tile that does not divide (and the padded launch that works), too
 * much tile_static memory, a rank mismatch, a read-only view given to a writable parameter, a
 * view of the wrong element type, too few and too many arguments, an unknown kernel name, double
 * on a device without fp64 (simulated), released and NULL handles. A failed launch also keeps
 * newer results that sit on the device. The internal record of whether a launch reached the queue
 * (amp__launch's `enqueued`, which amp_blas_gemm's fallback between kernels relies on) says 0 after
 * a refused launch and 1 after one that ran. */
#include "check.h"
#include "core/accelerator_impl.h" /* runtime internal: to simulate a device without fp64 */
#include "exec/launch.h"           /* runtime internal: amp__launch */

static amp_accelerator_view *av;
static amp_accelerator *acc;

enum { N = 64 };
static int32_t h[N];      /* the user's data under the views */
static int32_t h_orig[N]; /* what it must still hold */

/* Nothing was copied since the last reset, and the host data are as they were. */
#define CHECK_NOTHING_MOVED()                                                                      \
  do {                                                                                             \
    amp_transfer_stats st_;                                                                        \
    CHECK_OK(amp_transfer_stats_get(NULL, &st_));                                                  \
    CHECK_EQ_INT(st_.to_device_count + st_.to_host_count + st_.device_copy_count, 0);              \
    CHECK(memcmp(h, h_orig, sizeof h) == 0);                                                       \
  } while (0)

/* Launches `k` with `args` on the test's view over N elements, the extent of its views. */
static amp_status launch(amp_kernel *k, const amp_arg *args, size_t n) {
  return amp_parallel_for_each(av, amp_extent1(N), k, args, n);
}

static const char *good_src =
    "__kernel void inc(AMP_VIEW(int, v)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(v, i[0]) += 1;\n"
    "}\n"
    "__kernel void inc2(AMP_VIEW(int, v)) {\n"
    "  AMP_INDEX2(idx);\n"
    "  amp_at(v, idx[0], idx[1]) += 1;\n"
    "}\n"
    /* not "read_only": that is an OpenCL C keyword (an image access qualifier) */
    "__kernel void copy_const(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(out, i[0]) = amp_at(in, i[0]);\n"
    "}\n"
    "__kernel void set_int(AMP_VIEW(int, v), int x) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(v, i[0]) = x;\n"
    "}\n"
    "__kernel void takes_float(AMP_VIEW(float, v)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(v, i[0]) = 1.0f;\n"
    "}\n"
    "__kernel void with_local(AMP_VIEW(int, v), __local int *scratch) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  scratch[idx.local_id[0]] = idx.global_id[0];\n"
    "  amp_barrier_wait();\n"
    "  amp_at(v, idx.global_id[0]) = scratch[idx.local_id[0]];\n"
    "}\n"
    /* padded launches: threads outside the data must not touch it */
    "__kernel void fill_padded(AMP_VIEW(int, v)) {\n"
    "  AMP_TILED_INDEX2(idx);\n"
    "  if (idx.global_id[0] < amp_extent(v, 0) && idx.global_id[1] < amp_extent(v, 1))\n"
    "    amp_at(v, idx.global_id[0], idx.global_id[1]) = idx.global_id[0] * 100 + "
    "idx.global_id[1];\n"
    "}\n"
    "__kernel void two_locals(AMP_VIEW(int, v), __local int *a, __local int *b) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  a[idx.local_id[0]] = 1; b[idx.local_id[0]] = 2;\n"
    "  amp_barrier_wait();\n"
    "  amp_at(v, idx.global_id[0]) = a[0] + b[0];\n"
    "}\n"
    "#ifdef AMP_HAS_DOUBLE\n"
    "__kernel void takes_double(AMP_VIEW(double, v), double s) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(v, i[0]) *= s;\n"
    "}\n"
    "__kernel void double_scalar(AMP_VIEW(int, v), double s) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(v, i[0]) = (int)s;\n"
    "}\n"
    "#endif\n";

/* 4 MiB of tile_static memory, more than any device has (POCL: 2 MiB). In a program of its own:
 * some compilers (NVIDIA's ptxas) refuse such a kernel at build time, which would take the whole
 * program down with it; POCL builds it and ampcl refuses the launch. */
static const char *huge_src = "__kernel void huge_tile_static(AMP_VIEW(int, v)) {\n"
                              "  AMP_TILED_INDEX1(idx);\n"
                              "  tile_static int t[1 << 20];\n"
                              "  t[idx.local_id[0]] = 1;\n"
                              "  amp_barrier_wait();\n"
                              "  amp_at(v, idx.global_id[0]) = t[(idx.local_id[0] + 1) % "
                              "idx.tile_extent[0]];\n"
                              "}\n";

/* Kernel `name` of `src`, launched over a view of h, is refused with `want`, its message mentioning
 * each of `needles` (up to a NULL), and nothing moved. */
static void check_launch_refused(const char *src, const char *name, amp_status want,
                                 const char *const *needles) {
  amp_kernel *k = test_kernel(src, NULL, name);
  amp_array_view *v;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  amp_arg a[] = {amp_arg_view(v)};
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_STATUS(launch(k, a, 1), want);
  for (; *needles; needles++)
    CHECK_MSG(*needles);
  CHECK_NOTHING_MOVED();
  CHECK_OK(amp_array_view_release(v));
  amp_kernel_release(k);
}

static void test_build_failure(void) {
  /* line 3 of the user's source uses an undeclared name */
  const char *bad = "__kernel void broken(AMP_VIEW(int, v)) {\n"
                    "  AMP_INDEX1(i);\n"
                    "  amp_at(v, i[0]) = not_declared_anywhere;\n"
                    "}\n";
  check_launch_refused(bad, "broken", AMP_ERROR_BUILD_FAILED,
                       (const char *[]){"build log",
                                        "not_declared_anywhere", /* the compiler's own words */
                                        ":3:", /* the user's line: the prelude is not counted */
                                        NULL});
  /* amp_program_build reports the same, up front */
  amp_program *p;
  CHECK_OK(amp_program_create(bad, NULL, &p));
  CHECK_REFUSED(amp_program_build(p, acc), AMP_ERROR_BUILD_FAILED, ":3:");
  amp_program_release(p);
}

static void test_domains(amp_kernel *inc, amp_kernel *inc2) {
  amp_array_view *v1, *v2;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v1));
  CHECK_OK(amp_array_view_create(amp_extent2(8, 8), AMP_INT32, h, &v2));
  amp_arg a1[] = {amp_arg_view(v1)}, a2[] = {amp_arg_view(v2)};
  amp_accelerator_properties props;
  CHECK_OK(amp_accelerator_get_properties(acc, &props));
  char limit[32];
  CHECK_OK(amp_transfer_stats_reset());

  /* more threads per tile than the device allows (POCL: 4096) */
  int big = (int)props.max_tile_size * 2; /* e.g. 64 x 128 = 8192 */
  /* each dimension within the device's (64, or fewer where the device allows fewer threads) */
  int rows = props.max_tile_extent[1] < 64 ? (int)props.max_tile_extent[1] : 64;
  amp_tiled_extent te = amp_tile2(amp_extent2(rows, big / rows), rows, big / rows);
  CHECK_STATUS(amp_parallel_for_each_tiled(av, te, inc2, a2, 1), AMP_ERROR_LIMIT_EXCEEDED);
  int enqueued = -1;
  amp_launch big_launch = {te.extent, 1, {te.tile[0], te.tile[1], te.tile[2]}, inc2, a2, 1};
  CHECK_STATUS(amp__launch(av, &big_launch, NULL, &enqueued), AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_EQ_INT(enqueued, 0); /* what amp_blas_gemm's plan fallback relies on */
  snprintf(limit, sizeof limit, "%zu", props.max_tile_size);
  CHECK_MSG(limit);
  CHECK_MSG("threads per tile");
  /* C++ AMP's limit, 1024 threads per tile, on every device, also where the device takes more
   * (POCL 4096, Intel's CPU runtime 8192): a tile of 1025 is refused, naming AMP's limit */
  CHECK(props.max_tile_size <= 1024);
  /* (a tile within AMP's limit in each dimension is refused, on a device that allows fewer than
   * 1024 threads per tile, naming the device's limit) */
  const char *amp_limit =
      props.max_tile_size == 1024 ? "C++ AMP's limit of 1024 threads per tile" : limit;
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(1025), 1025), inc, a1, 1),
               AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG("C++ AMP's limit of 1024 threads per tile");
  CHECK_STATUS(
      amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(2, 1024), 2, 1024), inc2, a2, 1),
      AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG(amp_limit);
  CHECK_EQ_INT(test_transfers(), 0);
  /* C++ AMP's limit of 64 on a rank-3 tile's dimension 0, on every device (CPU devices would take
   * more), before any data moves */
  CHECK(props.max_tile_extent[0] <= 64);
  CHECK_STATUS(
      amp_parallel_for_each_tiled(av, amp_tile3(amp_extent3(65, 1, 1), 65, 1, 1), inc, a1, 1),
      AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG("C++ AMP's limit of 64 threads in that dimension");
  CHECK_EQ_INT(test_transfers(), 0);
  /* more threads in one dimension than the device allows, where a dimension's limit is below the
   * tile's (NVIDIA: 64 in OpenCL's dimension 2, AMP's dimension 0 of a rank-3 tile) */
  if (props.max_tile_extent[0] < props.max_tile_size) {
    int deep = (int)props.max_tile_extent[0] * 2;
    amp_tiled_extent t3 = amp_tile3(amp_extent3(deep, 1, 1), deep, 1, 1);
    CHECK_REFUSED(amp_parallel_for_each_tiled(av, t3, inc, a1, 1), AMP_ERROR_LIMIT_EXCEEDED,
                  "in that dimension");
  }

  /* a tile that does not divide the extent */
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(10, 7), 4, 4), inc2, a2, 1),
               AMP_ERROR_INVALID_COMPUTE_DOMAIN);
  CHECK_MSG("does not divide");
  CHECK_MSG("amp_tiled_extent_pad");
  /* non-positive tiles and extents */
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 0), inc, a1, 1),
               AMP_ERROR_INVALID_COMPUTE_DOMAIN);
  CHECK_MSG("not positive");
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(0), inc, a1, 1),
               AMP_ERROR_INVALID_COMPUTE_DOMAIN);
  CHECK_MSG("not valid");
  amp_extent rank4 = {4, {1, 1, 1}};
  CHECK_STATUS(amp_parallel_for_each(av, rank4, inc, a1, 1), AMP_ERROR_INVALID_COMPUTE_DOMAIN);

  /* a rank-1 tile on a rank-2 extent */
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent2(8, 8), 4), inc2, a2, 1),
               AMP_ERROR_RANK_MISMATCH);
  CHECK_MSG("rank-1 tile");
  CHECK_MSG("rank-2 extent");
  CHECK_MSG("use amp_tile2"); /* the message names the right constructor */
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile3(amp_extent2(8, 8), 2, 2, 2), inc2, a2, 1),
               AMP_ERROR_RANK_MISMATCH);
  CHECK_MSG("rank-3 tile");
  CHECK_MSG("use amp_tile2");
  CHECK_NOTHING_MOVED();
  CHECK_OK(amp_array_view_release(v1));
  CHECK_OK(amp_array_view_release(v2));
  CHECK_NOTHING_MOVED();
}

/* The fix for a tile that does not divide: pad, and check bounds in the kernel. */
static void test_padded(amp_kernel *fill_padded) {
  enum { R = 10, C = 7 };
  int32_t m[R * C + 4]; /* 4 guard elements after the data, outside the view */
  for (int i = 0; i < R * C + 4; i++)
    m[i] = -1;
  amp_array_view *v;
  CHECK_OK(amp_array_view_create(amp_extent2(R, C), AMP_INT32, m, &v));
  amp_tiled_extent te = amp_tiled_extent_pad(amp_tile2(amp_extent2(R, C), 4, 4));
  CHECK(amp_extent_equal(te.extent, amp_extent2(12, 8)));
  amp_arg a[] = {amp_arg_view(v)};
  int enqueued = -1;
  amp_launch l = {te.extent, 1, {te.tile[0], te.tile[1], te.tile[2]}, fill_padded, a, 1};
  CHECK_OK(amp__launch(av, &l, NULL, &enqueued));
  CHECK_EQ_INT(enqueued, 1);
  CHECK_OK(amp_array_view_release(v));
  int bad = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      bad += m[i * C + j] != i * 100 + j;
  CHECK_EQ_INT(bad, 0);
  CHECK(m[R * C] == -1 && m[R * C + 3] == -1);
}

static void test_local_memory(amp_kernel *with_local) {
  amp_accelerator_properties props;
  CHECK_OK(amp_accelerator_get_properties(acc, &props));
  amp_array_view *v;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  CHECK_OK(amp_transfer_stats_reset());
  amp_arg a[] = {amp_arg_view(v), amp_arg_local((size_t)props.local_memory + 4)};
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), with_local, a, 2),
               AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG("tile_static");
  char limit[32];
  snprintf(limit, sizeof limit, "%llu", (unsigned long long)props.local_memory);
  CHECK_MSG(limit);
  /* size 0 is no buffer at all */
  a[1] = amp_arg_local(0);
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), with_local, a, 2),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("size 0");
  /* a __local buffer for a parameter that is not __local */
  amp_arg wrong[] = {amp_arg_local(64), amp_arg_local(64)};
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), with_local, wrong, 2),
               AMP_ERROR_KERNEL_ARGS);
  /* two buffers that fit one by one but not together */
  amp_kernel *two = test_kernel(good_src, NULL, "two_locals");
  size_t part = (size_t)props.local_memory / 4 * 3;
  amp_arg both[] = {amp_arg_view(v), amp_arg_local(part), amp_arg_local(part)};
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), two, both, 3),
               AMP_ERROR_LIMIT_EXCEEDED);
  CHECK_MSG("tile_static");
  amp_kernel_release(two);
  /* tile_static memory declared in the kernel itself */
  amp_kernel *huge = test_kernel(huge_src, NULL, "huge_tile_static");
  amp_arg one[] = {amp_arg_view(v)};
  amp_status st = amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), huge, one, 1);
  if (st == AMP_ERROR_BUILD_FAILED) { /* refused by the compiler: the log says why */
    CHECK_MSG("shared");
  } else {
    CHECK_EQ_INT(st, AMP_ERROR_LIMIT_EXCEEDED);
    CHECK_MSG("tile_static memory per tile");
    CHECK_MSG(limit);
  }
  amp_kernel_release(huge);
  CHECK_NOTHING_MOVED();
  CHECK_OK(amp_array_view_release(v));
}

static void test_arguments(amp_kernel *inc, amp_kernel *copy_const, amp_kernel *takes_float,
                           amp_kernel *by_value) {
  amp_array_view *v, *vc;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, h, &vc));
  CHECK_OK(amp_transfer_stats_reset());

  /* a read-only view for a writable parameter */
  amp_arg ro[] = {amp_arg_view(vc)};
  CHECK_REFUSED(launch(inc, ro, 1), AMP_ERROR_ACCESS_DENIED, "read-only");
  CHECK_MSG("'v'"); /* names the parameter as written in AMP_VIEW(int, v) */
  amp_arg ro2[] = {amp_arg_view(v), amp_arg_view(vc)}; /* the second, writable, gets const */
  CHECK_REFUSED(launch(copy_const, ro2, 2), AMP_ERROR_ACCESS_DENIED, "argument 1");

  /* a view of int for a float* parameter */
  amp_arg wrong_type[] = {amp_arg_view(v)};
  CHECK_REFUSED(launch(takes_float, wrong_type, 1), AMP_ERROR_KERNEL_ARGS, "float");
  /* a scalar where a view goes, and a view where a scalar goes */
  amp_arg scalar_for_view[] = {amp_arg_int(1), amp_arg_int(2)};
  CHECK_STATUS(launch(inc, scalar_for_view, 2), AMP_ERROR_KERNEL_ARGS);

  /* a scalar of the wrong type, and a by-value struct of the wrong size */
  amp_arg float_for_int[] = {amp_arg_view(v), amp_arg_float(1.0f)};
  CHECK_REFUSED(launch(by_value, float_for_int, 2), AMP_ERROR_KERNEL_ARGS, "float");
  int64_t eight_bytes = 0; /* the parameter is a 4-byte int */
  amp_arg wrong_size[] = {amp_arg_view(v), amp_arg_bytes(&eight_bytes, sizeof eight_bytes)};
  CHECK_STATUS(launch(by_value, wrong_size, 2), AMP_ERROR_KERNEL_ARGS);
  amp_arg no_bytes[] = {amp_arg_view(v), amp_arg_bytes(NULL, 4)};
  CHECK_STATUS(launch(by_value, no_bytes, 2), AMP_ERROR_INVALID_ARGUMENT);
  /* too few and too many arguments */
  /* in debug mode too */
  CHECK_REFUSED(launch(inc, NULL, 0), AMP_ERROR_KERNEL_ARGS,
                "0 arguments given, but the kernel takes 1: a view of int 'v'");
  amp_arg too_many[] = {amp_arg_view(v), amp_arg_int(3)};
  CHECK_REFUSED(launch(inc, too_many, 2), AMP_ERROR_KERNEL_ARGS,
                "2 arguments given, but the kernel takes 1");
  amp_arg half_a_view[] = {amp_arg_view(v)};
  CHECK_STATUS(launch(copy_const, half_a_view, 1), AMP_ERROR_KERNEL_ARGS);
  /* args NULL with a count */
  CHECK_REFUSED(launch(inc, NULL, 1), AMP_ERROR_INVALID_ARGUMENT, "args is NULL");
  /* an argument kind that does not exist */
  amp_arg junk = amp_arg_int(0);
  junk.kind = (amp_arg_kind)99;
  amp_arg with_junk[] = {amp_arg_view(v), junk};
  CHECK_STATUS(launch(copy_const, with_junk, 2), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_NOTHING_MOVED();
  CHECK_OK(amp_array_view_release(v));
  CHECK_OK(amp_array_view_release(vc));
  CHECK_NOTHING_MOVED();
}

static void test_kernel_name(void) {
  check_launch_refused(good_src, "no_such_kernel", AMP_CL_INVALID_KERNEL_NAME,
                       (const char *[]){"no_such_kernel", NULL});
}

/* Double data or arguments on a device without fp64. POCL has fp64, so this simulates such a
 * device by clearing the property the launcher checks (runtime/core/accelerator_impl.h). */
static void test_no_fp64(void) {
  amp_accelerator_properties props;
  CHECK_OK(amp_accelerator_get_properties(acc, &props));
  if (!props.supports_double_precision) {
    printf("note: no fp64 here; the kernels below would not build, skipping\n");
    return;
  }
  amp_kernel *kd = test_kernel(good_src, NULL, "takes_double");
  amp_kernel *ks = test_kernel(good_src, NULL, "double_scalar");
  double d[N];
  for (int i = 0; i < N; i++)
    d[i] = i * 0.5;
  amp_array_view *vd, *v;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_DOUBLE, d, &vd));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  acc->props.supports_double_precision = false; /* simulate a device without fp64 */
  CHECK_OK(amp_transfer_stats_reset());
  amp_arg a[] = {amp_arg_view(vd), amp_arg_double(2.0)};
  CHECK_REFUSED(launch(kd, a, 2), AMP_ERROR_UNSUPPORTED_FEATURE, "double");
  amp_arg s[] = {amp_arg_view(v), amp_arg_double(2.0)}; /* only the scalar is double */
  CHECK_REFUSED(launch(ks, s, 2), AMP_ERROR_UNSUPPORTED_FEATURE, "double precision");
  CHECK_NOTHING_MOVED();
  acc->props.supports_double_precision = true;
  /* the same launch works on the real device */
  CHECK_OK(launch(kd, a, 2));
  CHECK_OK(amp_array_view_release(vd));
  CHECK(d[3] == 3.0);
  CHECK_EVERY(i, N, d[i] == i * 1.0);
  CHECK_OK(amp_array_view_release(v));
  amp_kernel_release(kd);
  amp_kernel_release(ks);
}

static void test_handles(amp_kernel *inc) {
  amp_array_view *v, *dead;
  int32_t other[N] = {0};
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, other, &dead));
  CHECK_OK(amp_array_view_release(dead));
  CHECK_OK(amp_transfer_stats_reset());

  amp_arg released[] = {amp_arg_view(dead)};
  CHECK_REFUSED(launch(inc, released, 1), AMP_ERROR_INVALID_HANDLE, "not a live array view");
  amp_arg null_view[] = {amp_arg_view(NULL)};
  CHECK_STATUS(launch(inc, null_view, 1), AMP_ERROR_INVALID_HANDLE);
  amp_arg ok[] = {amp_arg_view(v)};
  CHECK_REFUSED(launch(NULL, ok, 1), AMP_ERROR_INVALID_HANDLE, "kernel is NULL");
  CHECK_REFUSED(amp_parallel_for_each(NULL, amp_extent1(N), inc, ok, 1), AMP_ERROR_INVALID_HANDLE,
                "accelerator view is NULL");
  CHECK_STATUS(amp_parallel_for_each_ex(av, NULL, NULL), AMP_ERROR_INVALID_ARGUMENT);
  /* a handle of the wrong kind: a view where a kernel goes */
  CHECK_REFUSED(launch((amp_kernel *)v, ok, 1), AMP_ERROR_INVALID_HANDLE, "not a kernel");
  /* a released kernel */
  amp_kernel *k2 = test_kernel(good_src, NULL, "inc");
  CHECK_OK(amp_kernel_release(k2));
  CHECK_REFUSED(launch(k2, ok, 1), AMP_ERROR_INVALID_HANDLE, "already released");
  CHECK_NOTHING_MOVED();
  CHECK_OK(amp_array_view_release(v));
}

/* A failed launch keeps what earlier kernels left on the device. */
static void test_failure_keeps_results(amp_kernel *inc, amp_kernel *takes_float) {
  int32_t d[N];
  for (int i = 0; i < N; i++)
    d[i] = i;
  amp_array_view *v;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, d, &v));
  amp_arg a[] = {amp_arg_view(v)};
  CHECK_OK(launch(inc, a, 1)); /* newer data on the device */
  CHECK_STATUS(launch(takes_float, a, 1), AMP_ERROR_KERNEL_ARGS);
  CHECK_EQ_INT(d[5], 5); /* not synchronised yet */
  CHECK_OK(launch(inc, a, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EVERY(i, N, d[i] == i + 2);
  CHECK_OK(amp_array_view_release(v));
}

int main(void) {
  av = test_view();
  if (!av)
    return 1;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  for (int i = 0; i < N; i++)
    h[i] = h_orig[i] = 1000 + i;
  amp_kernel *inc = test_kernel(good_src, NULL, "inc");
  amp_kernel *inc2 = test_kernel(good_src, NULL, "inc2");
  amp_kernel *copy_const = test_kernel(good_src, NULL, "copy_const");
  amp_kernel *takes_float = test_kernel(good_src, NULL, "takes_float");
  amp_kernel *with_local = test_kernel(good_src, NULL, "with_local");
  amp_kernel *fill_padded = test_kernel(good_src, NULL, "fill_padded");
  test_build_failure();
  test_domains(inc, inc2);
  test_padded(fill_padded);
  test_local_memory(with_local);
  amp_kernel *by_value = test_kernel(good_src, NULL, "set_int");
  test_arguments(inc, copy_const, takes_float, by_value);
  amp_kernel_release(by_value);
  test_kernel_name();
  test_no_fp64();
  test_handles(inc);
  test_failure_keeps_results(inc, takes_float);
  amp_kernel_release(inc);
  amp_kernel_release(inc2);
  amp_kernel_release(copy_const);
  amp_kernel_release(takes_float);
  amp_kernel_release(with_local);
  amp_kernel_release(fill_padded);
  return check_done();
}
