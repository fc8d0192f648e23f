/* array_view: lazy coherence of views over host memory (docs/MODEL.md, data movement rules 1-7
 * and 9), proved with the transfer counters (ampcl/stats.h), and every element type at ranks 1,
 * 2, 3.
 *
 * Proves: creating a view copies nothing; the first kernel copies in, a second kernel on the same
 * view copies nothing (cached); a read-only view is never copied back; discard_data skips the
 * copy-in; synchronize copies back once and a second synchronize copies nothing; data() hands the
 * host the only valid copy, so the next kernel copies in again; refresh after direct host writes
 * makes the next kernel see them; releasing the last view writes pending results back; wait()
 * waits for the kernel; a read-only matrix used by 10 kernels is copied exactly once. Results are
 * checked against host-computed references for int32, uint32, float, double and the C++ AMP
 * article's n-body particle struct. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "check.h"

static amp_accelerator_view *av;

/* ---- element types and ranks ---------------------------------------------------------------- */

static const char *types_src =
    "__kernel void twice_plus_one(AMP_VIEW(int, v)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(v, i[0]) = 2 * amp_at(v, i[0]) + 1;\n"
    "}\n"
    "__kernel void u32_mix(AMP_VIEW(uint, v)) {\n"
    "  AMP_INDEX2(idx);\n"
    "  amp_at(v, idx[0], idx[1]) = amp_at(v, idx[0], idx[1]) * 3u + (uint)(idx[0] * 100 + "
    "idx[1]);\n"
    "}\n"
    "__kernel void f32_rank3(AMP_CONST_VIEW(float, a), AMP_VIEW(float, r)) {\n"
    "  AMP_INDEX3(idx);\n"
    "  amp_at(r, idx[0], idx[1], idx[2]) =\n"
    "      0.5f * amp_at(a, idx[0], idx[1], idx[2]) + (float)(idx[0] - idx[1] + idx[2]);\n"
    "}\n"
    "#ifdef AMP_HAS_DOUBLE\n"
    "__kernel void f64_axpy(double alpha, AMP_CONST_VIEW(double, x), AMP_VIEW(double, y)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(y, i[0]) = alpha * amp_at(x, i[0]) + amp_at(y, i[0]);\n"
    "}\n"
    "#endif\n"
    "typedef struct { float4 position, velocity; } particle;\n"
    "__kernel void particle_step(AMP_VIEW(particle, p), float dt) {\n"
    "  AMP_INDEX1(i);\n"
    "  particle q = amp_at(p, i[0]);\n"
    "  q.position += q.velocity * dt;\n"
    "  q.velocity.w = (float)i[0];\n"
    "  amp_at(p, i[0]) = q;\n"
    "}\n";

/* The C++ AMP article's n-body particle, as the host sees it. */
typedef struct {
  cl_float4 position, velocity;
} particle;

static void test_types(void) {
  amp_program *p = NULL;
  amp_kernel *k_i32, *k_u32, *k_f32, *k_f64, *k_part;
  CHECK_OK(amp_program_create(types_src, NULL, &p));
  if (!p)
    return;
  CHECK_OK(amp_kernel_create(p, "twice_plus_one", &k_i32));
  CHECK_OK(amp_kernel_create(p, "u32_mix", &k_u32));
  CHECK_OK(amp_kernel_create(p, "f32_rank3", &k_f32));
  CHECK_OK(amp_kernel_create(p, "f64_axpy", &k_f64));
  CHECK_OK(amp_kernel_create(p, "particle_step", &k_part));
  amp_program_release(p);

  /* int32, rank 1, negative values included */
  enum { N1 = 333 };
  static int32_t vi[N1];
  for (int i = 0; i < N1; i++)
    vi[i] = i - 100;
  amp_array_view *v;
  CHECK_OK(amp_array_view_create(amp_extent1(N1), AMP_INT32, vi, &v));
  amp_arg a1[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N1), k_i32, a1, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EVERY(i, N1, vi[i] == 2 * (i - 100) + 1);
  amp_elem_type et;
  amp_extent ext;
  bool ro = true;
  CHECK_OK(amp_array_view_get_elem_type(v, &et));
  CHECK_EQ_INT(et.kind, AMP_ELEM_INT32);
  CHECK_EQ_INT(et.size, 4);
  CHECK_OK(amp_array_view_get_extent(v, &ext));
  CHECK(amp_extent_equal(ext, amp_extent1(N1)));
  CHECK_OK(amp_array_view_is_read_only(v, &ro));
  CHECK(!ro);
  CHECK_OK(amp_array_view_release(v));

  /* uint32, rank 2, values that wrap around */
  enum { R = 7, C = 13 };
  static uint32_t vu[R][C];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      vu[i][j] = 0xF0000000u + (uint32_t)(i * C + j);
  CHECK_OK(amp_array_view_create(amp_extent2(R, C), AMP_UINT32, vu, &v));
  amp_arg a2[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent2(R, C), k_u32, a2, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EVERY2(i, R, j, C,
               vu[i][j] == (0xF0000000u + (uint32_t)(i * C + j)) * 3u + (uint32_t)(i * 100 + j));
  CHECK_OK(amp_array_view_release(v));

  /* float, rank 3, a read-only input and a read-write output */
  enum { D0 = 3, D1 = 5, D2 = 17 };
  static float fa[D0][D1][D2], fr[D0][D1][D2];
  for (int i = 0; i < D0; i++)
    for (int j = 0; j < D1; j++)
      for (int l = 0; l < D2; l++)
        fa[i][j][l] = (float)(i * 1000 + j * 100 + l) * 0.25f;
  amp_array_view *va, *vr;
  CHECK_OK(amp_array_view_create_const(amp_extent3(D0, D1, D2), AMP_FLOAT, fa, &va));
  CHECK_OK(amp_array_view_create(amp_extent3(D0, D1, D2), AMP_FLOAT, fr, &vr));
  CHECK_OK(amp_array_view_is_read_only(va, &ro));
  CHECK(ro);
  amp_arg a3[] = {amp_arg_view(va), amp_arg_view(vr)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent3(D0, D1, D2), k_f32, a3, 2));
  CHECK_OK(amp_array_view_synchronize(vr));
  int bad = 0;
  for (int i = 0; i < D0; i++)
    for (int j = 0; j < D1; j++)
      for (int l = 0; l < D2; l++)
        bad += fr[i][j][l] != 0.5f * fa[i][j][l] + (float)(i - j + l);
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(va));
  CHECK_OK(amp_array_view_release(vr));

  /* double, rank 1, with a double scalar (POCL has fp64) */
  amp_accelerator *acc;
  amp_accelerator_properties props;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  CHECK_OK(amp_accelerator_get_properties(acc, &props));
  if (props.supports_double_precision) {
    enum { ND = 257 };
    static double x[ND], y[ND];
    for (int i = 0; i < ND; i++) {
      x[i] = 1.0 / (i + 1);
      y[i] = 1e-12 * i;
    }
    amp_array_view *vx, *vy;
    CHECK_OK(amp_array_view_create_const(amp_extent1(ND), AMP_DOUBLE, x, &vx));
    CHECK_OK(amp_array_view_create(amp_extent1(ND), AMP_DOUBLE, y, &vy));
    const double alpha = 3.0000000001; /* not representable in float */
    amp_arg a4[] = {amp_arg_double(alpha), amp_arg_view(vx), amp_arg_view(vy)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(ND), k_f64, a4, 3));
    CHECK_OK(amp_array_view_synchronize(vy));
    bad = 0;
    for (int i = 0; i < ND; i++)
      bad += fabs(y[i] - (alpha * x[i] + 1e-12 * i)) > 1e-15 * fabs(alpha * x[i]);
    CHECK_EQ_INT(bad, 0);
    CHECK_OK(amp_array_view_release(vx));
    CHECK_OK(amp_array_view_release(vy));
  } else {
    printf("note: the default accelerator has no fp64; the double case was skipped\n");
  }

  /* the C++ AMP article's n-body particle: a user struct of two float4 */
  enum { NP = 100 };
  static particle ps[NP];
  for (int i = 0; i < NP; i++)
    for (int c = 0; c < 4; c++) {
      ps[i].position.s[c] = (float)(i * 4 + c);
      ps[i].velocity.s[c] = (float)(c + 1) * 0.5f;
    }
  CHECK_OK(amp_array_view_create(amp_extent1(NP), AMP_STRUCT(particle), ps, &v));
  CHECK_OK(amp_array_view_get_elem_type(v, &et));
  CHECK_EQ_INT(et.kind, AMP_ELEM_STRUCT);
  CHECK_EQ_INT(et.size, 32);
  amp_arg a5[] = {amp_arg_view(v), amp_arg_float(2.0f)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(NP), k_part, a5, 2));
  CHECK_OK(amp_array_view_synchronize(v));
  bad = 0;
  for (int i = 0; i < NP; i++) {
    for (int c = 0; c < 4; c++)
      bad += ps[i].position.s[c] != (float)(i * 4 + c) + (float)(c + 1) * 0.5f * 2.0f;
    bad += ps[i].velocity.s[0] != 0.5f || ps[i].velocity.s[2] != 1.5f;
    bad += ps[i].velocity.s[3] != (float)i;
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(v));

  amp_kernel_release(k_i32);
  amp_kernel_release(k_u32);
  amp_kernel_release(k_f32);
  amp_kernel_release(k_f64);
  amp_kernel_release(k_part);
}

/* ---- coherence --------------------------------------------------------------------------------
 */

static const char *coh_src =
    "__kernel void add(AMP_VIEW(int, v), int delta) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(v, i[0]) += delta;\n"
    "}\n"
    "__kernel void copy_plus(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out), int delta) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(out, i[0]) = amp_at(in, i[0]) + delta;\n"
    "}\n"
    "__kernel void accumulate(AMP_CONST_VIEW(int, m), AMP_VIEW(int, out), int k) {\n"
    "  AMP_INDEX2(idx);\n"
    "  int prev = k == 1 ? 0 : amp_at(out, idx[0], idx[1]);\n"
    "  amp_at(out, idx[0], idx[1]) = prev + k * amp_at(m, idx[0], idx[1]);\n"
    "}\n";

enum { N = 1024 };

/* Rules 1-3 and 7: nothing at creation, one copy-in, cached for the second kernel, one copy-out. */
static void test_lazy_and_cached(amp_kernel *add) {
  static int32_t h[N];
  for (int i = 0; i < N; i++)
    h[i] = i;
  amp_array_view *v;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  amp_transfer_stats st = test_stats(NULL);
  CHECK_EQ_INT(st.to_device_count, 0); /* rule 1: creating a view copies nothing */
  CHECK_EQ_INT(st.to_host_count, 0);

  amp_arg a[] = {amp_arg_view(v), amp_arg_int(5)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), add, a, 2));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_device_count, 1); /* rule 2: the first use copies in */
  CHECK_EQ_INT(st.to_device_bytes, N * sizeof(int32_t));
  CHECK_EQ_INT(st.to_host_count, 0); /* rule 7: no copy-out before a synchronisation point */

  a[1] = amp_arg_int(7);
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), add, a, 2));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_device_count, 1); /* rule 3: the device copy is still the latest */
  CHECK_EQ_INT(st.to_host_count, 0);

  CHECK_OK(amp_array_view_synchronize(v));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 1);
  CHECK_EQ_INT(st.to_host_bytes, N * sizeof(int32_t));
  CHECK_EVERY(i, N, h[i] == i + 12);

  CHECK_OK(amp_array_view_synchronize(v)); /* the host is up to date: nothing to copy */
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 1);

  /* synchronize (read access) keeps the device copy valid: the next kernel copies nothing */
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), add, a, 2));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_device_count, 1);
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EQ_INT(h[10], 10 + 12 + 7);
  CHECK_OK(amp_array_view_release(v));
}

/* Rule 4 and rule 6: a read-only view is never copied back; discarded data is not copied in. */
static void test_readonly_and_discard(amp_kernel *copy_plus) {
  static int32_t in[N], out[N];
  for (int i = 0; i < N; i++) {
    in[i] = 3 * i;
    out[i] = -1;
  }
  amp_array_view *vin, *vout;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, in, &vin));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, out, &vout));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_discard_data(vout));
  amp_arg a[] = {amp_arg_view(vin), amp_arg_view(vout), amp_arg_int(1)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), copy_plus, a, 3));
  amp_transfer_stats st = test_stats(NULL);
  CHECK_EQ_INT(st.to_device_count, 1); /* only the input: the output was discarded */
  CHECK_EQ_INT(st.to_device_bytes, N * sizeof(int32_t));

  CHECK_OK(amp_array_view_synchronize(vin)); /* read-only: never copied back */
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 0);
  CHECK_EQ_INT(in[5], 15);

  CHECK_OK(amp_array_view_synchronize(vout));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 1);
  CHECK_EVERY(i, N, out[i] == 3 * i + 1);

  /* discard is transient: after the kernel wrote the output, a use copies nothing again and the
   * values it left are kept (the kernel's write made them valid) */
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_release(vin)); /* read-only: releasing copies nothing back */
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 0);
  CHECK_OK(amp_array_view_release(vout));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 0); /* the host already held the latest output */
}

/* data() gives the host the only valid copy; direct writes + refresh reach the next kernel. */
static void test_data_and_refresh(amp_kernel *add) {
  static int32_t h[N];
  for (int i = 0; i < N; i++)
    h[i] = 0;
  amp_array_view *v;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  amp_arg a[] = {amp_arg_view(v), amp_arg_int(1)};
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), add, a, 2));

  void *p = NULL;
  CHECK_OK(amp_array_view_data(v, &p));
  CHECK(p == (void *)h);
  amp_transfer_stats st = test_stats(NULL);
  CHECK_EQ_INT(st.to_device_count, 1);
  CHECK_EQ_INT(st.to_host_count, 1); /* data() synchronised */
  int32_t *d = p;
  CHECK_EQ_INT(d[0], 1);
  CHECK_EQ_INT(d[N - 1], 1);
  for (int i = 0; i < N; i++)
    d[i] = 100 + i; /* read-write access through data() */

  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), add, a, 2));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_device_count, 2); /* data() invalidated the device copy: copied in again */
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EVERY(i, N, h[i] == 100 + i + 1);

  /* after synchronize the device copy is still valid; write the host directly, then refresh */
  for (int i = 0; i < N; i++)
    h[i] = -i;
  CHECK_OK(amp_array_view_refresh(v));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), add, a, 2));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_device_count, 1); /* refresh made the cached copy stale */
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EVERY(i, N, h[i] == -i + 1);
  CHECK_OK(amp_array_view_release(v));
}

/* Rule 7: releasing the last view copies pending results home, without a synchronize. */
static void test_release_writes_back(amp_kernel *add) {
  int32_t *h = malloc(N * sizeof *h);
  if (!h)
    return;
  for (int i = 0; i < N; i++)
    h[i] = 2 * i;
  amp_array_view *v, *v2;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  v2 = v;
  CHECK_OK(amp_array_view_retain(v2)); /* a second reference to the same view */
  amp_arg a[] = {amp_arg_view(v), amp_arg_int(3)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), add, a, 2));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_release(v)); /* not the last reference: nothing happens */
  amp_transfer_stats st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 0);
  CHECK_EQ_INT(h[7], 14);
  CHECK_OK(amp_array_view_release(v2)); /* the last: the results come home */
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 1);
  CHECK_EVERY(i, N, h[i] == 2 * i + 3);
  free(h);
}

/* wait() blocks until the kernel using the view is done, and copies nothing. */
static void test_wait(amp_kernel *add) {
  static int32_t h[N];
  amp_array_view *v;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v));
  amp_arg a[] = {amp_arg_view(v), amp_arg_int(1)};
  amp_launch l = {amp_extent1(N), 0, {1, 1, 1}, add, a, 2};
  amp_future *done = NULL;
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_parallel_for_each_ex(av, &l, &done));
  CHECK_OK(amp_array_view_wait(v));
  bool ready = false;
  CHECK_OK(amp_future_is_ready(done, &ready));
  CHECK(ready);
  amp_transfer_stats st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 0);
  CHECK_OK(amp_future_release(done));
  CHECK_OK(amp_array_view_release(v));
}

/* A read-only matrix used by 10 kernels is copied to the device exactly once. */
static void test_matrix_ten_kernels(amp_kernel *accumulate) {
  enum { R = 48, C = 40 };
  static int32_t m[R][C], out[R][C];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = i * C + j - 500;
  amp_array_view *vm, *vo;
  CHECK_OK(amp_array_view_create_const(amp_extent2(R, C), AMP_INT32, m, &vm));
  CHECK_OK(amp_array_view_create(amp_extent2(R, C), AMP_INT32, out, &vo));
  CHECK_OK(amp_array_view_discard_data(vo));
  CHECK_OK(amp_transfer_stats_reset());
  for (int k = 1; k <= 10; k++) {
    amp_arg a[] = {amp_arg_view(vm), amp_arg_view(vo), amp_arg_int(k)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent2(R, C), accumulate, a, 3));
  }
  amp_transfer_stats st = test_stats(NULL);
  CHECK_EQ_INT(st.to_device_count, 1);
  CHECK_EQ_INT(st.to_device_bytes, sizeof m);
  CHECK_OK(amp_array_view_synchronize(vo));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 1);
  CHECK_EQ_INT(st.to_host_bytes, sizeof out);
  CHECK_EVERY2(i, R, j, C, out[i][j] == 55 * m[i][j]);
  CHECK_OK(amp_array_view_release(vm));
  CHECK_OK(amp_array_view_release(vo));
  st = test_stats(NULL);
  CHECK_EQ_INT(st.to_host_count, 1); /* neither release had anything to copy */
}

int main(void) {
  av = test_view();
  if (!av)
    return 1;
  test_types();
  amp_kernel *add = test_kernel(coh_src, NULL, "add");
  amp_kernel *copy_plus = test_kernel(coh_src, NULL, "copy_plus");
  amp_kernel *accumulate = test_kernel(coh_src, NULL, "accumulate");
  if (!add || !copy_plus || !accumulate)
    return check_done();
  test_lazy_and_cached(add);
  test_readonly_and_discard(copy_plus);
  test_data_and_refresh(add);
  test_release_writes_back(add);
  test_wait(add);
  test_matrix_ten_kernels(accumulate);
  amp_kernel_release(add);
  amp_kernel_release(copy_plus);
  amp_kernel_release(accumulate);
  return check_done();
}
