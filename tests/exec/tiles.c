/* tiles: tiled parallel_for_each, tile_static memory and barriers (AMP §7.3, the C++ AMP article).
 *
 * Proves: the tiled index fields (global_id, local_id, tile, tile_origin, tile_extent) are right
 * at ranks 1..3; the C++ AMP article's tile demonstration works (16x16 tiled 2x2, every thread
 * stores 42 in tile_static memory, waits at the barrier and sums its tile's four values: 4*42
 * everywhere); a thread reads what the *mirrored* thread of its tile wrote before the barrier,
 * which only works if the tile really shares memory and the barrier really waits; the C++ AMP
 * article's 16x16 tiled MatrixMultiply and the naive one agree with a host triple loop, for int and
 * float (in smaller tiles where the device allows fewer threads), and the read-only inputs are
 * copied to the device once for both kernels. */
#include "check.h"

static amp_accelerator_view *av;

static const char *tile_src =
    /* the C++ AMP article's demonstration: tile_static int local[2][2] (local is an OpenCL keyword)
     */
    "__kernel void tile_demo(AMP_VIEW(int, out)) {\n"
    "  AMP_TILED_INDEX2(idx);\n"
    "  tile_static int tile_mem[2][2];\n"
    "  tile_mem[idx.local_id[0]][idx.local_id[1]] = 42;\n"
    "  amp_barrier_wait();\n"
    "  amp_at(out, idx.global_id[0], idx.global_id[1]) =\n"
    "      tile_mem[0][0] + tile_mem[0][1] + tile_mem[1][0] + tile_mem[1][1];\n"
    "}\n"
    /* each thread publishes its global linear index, then reads the mirrored thread's */
    "__kernel void mirror(AMP_VIEW(int, out)) {\n"
    "  AMP_TILED_INDEX2(idx);\n"
    "  tile_static int tile_mem[256];\n"
    "  const int t0 = idx.tile_extent[0], t1 = idx.tile_extent[1];\n"
    "  tile_mem[idx.local_id[0] * t1 + idx.local_id[1]] =\n"
    "      idx.global_id[0] * amp_extent(out, 1) + idx.global_id[1];\n"
    "  amp_barrier_wait();\n"
    "  amp_at(out, idx.global_id[0], idx.global_id[1]) =\n"
    "      tile_mem[(t0 - 1 - idx.local_id[0]) * t1 + (t1 - 1 - idx.local_id[1])];\n"
    "}\n"
    "__kernel void fields1(AMP_VIEW(int, g), AMP_VIEW(int, l), AMP_VIEW(int, t), AMP_VIEW(int, o)) "
    "{\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  int i = idx.global_id[0];\n"
    "  amp_at(g, i) = i; amp_at(l, i) = idx.local_id[0];\n"
    "  amp_at(t, i) = idx.tile[0]; amp_at(o, i) = idx.tile_origin[0] * 1000 + idx.tile_extent[0];\n"
    "}\n"
    "__kernel void fields3(AMP_VIEW(int, l), AMP_VIEW(int, t), AMP_VIEW(int, o)) {\n"
    "  AMP_TILED_INDEX3(idx);\n"
    "  int i = idx.global_id[0], j = idx.global_id[1], k = idx.global_id[2];\n"
    "  amp_at(l, i, j, k) = idx.local_id[0] * 100 + idx.local_id[1] * 10 + idx.local_id[2];\n"
    "  amp_at(t, i, j, k) = idx.tile[0] * 100 + idx.tile[1] * 10 + idx.tile[2];\n"
    "  amp_at(o, i, j, k) = idx.tile_origin[0] * 100 + idx.tile_origin[1] * 10 + "
    "idx.tile_origin[2];\n"
    "}\n";

static void test_fields(void) {
  enum { N = 96, T = 32 };
  static int g[N], l[N], t[N], o[N];
  amp_kernel *k = test_kernel(tile_src, NULL, "fields1");
  amp_array_view *v[4];
  int *mem[4] = {g, l, t, o};
  amp_arg a[4];
  for (int i = 0; i < 4; i++) {
    CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, mem[i], &v[i]));
    a[i] = amp_arg_view(v[i]);
  }
  CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), T), k, a, 4));
  for (int i = 0; i < 4; i++)
    CHECK_OK(amp_array_view_release(v[i]));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += g[i] != i || l[i] != i % T || t[i] != i / T || o[i] != (i / T * T) * 1000 + T;
  CHECK_EQ_INT(bad, 0);
  amp_kernel_release(k);

  enum { D0 = 4, D1 = 6, D2 = 8, T0 = 2, T1 = 3, T2 = 4 };
  static int l3[D0][D1][D2], t3[D0][D1][D2], o3[D0][D1][D2];
  int(*m3[3])[D1][D2] = {l3, t3, o3};
  k = test_kernel(tile_src, NULL, "fields3");
  for (int i = 0; i < 3; i++) {
    CHECK_OK(amp_array_view_create(amp_extent3(D0, D1, D2), AMP_INT32, m3[i], &v[i]));
    a[i] = amp_arg_view(v[i]);
  }
  CHECK_OK(
      amp_parallel_for_each_tiled(av, amp_tile3(amp_extent3(D0, D1, D2), T0, T1, T2), k, a, 3));
  for (int i = 0; i < 3; i++)
    CHECK_OK(amp_array_view_release(v[i]));
  bad = 0;
  for (int i = 0; i < D0; i++)
    for (int j = 0; j < D1; j++)
      for (int q = 0; q < D2; q++) {
        bad += l3[i][j][q] != (i % T0) * 100 + (j % T1) * 10 + q % T2;
        bad += t3[i][j][q] != (i / T0) * 100 + (j / T1) * 10 + q / T2;
        bad += o3[i][j][q] != (i / T0 * T0) * 100 + (j / T1 * T1) * 10 + q / T2 * T2;
      }
  CHECK_EQ_INT(bad, 0);
  amp_kernel_release(k);
}

static void test_tile_demo(void) {
  enum { N = 16 };
  static int out[N][N];
  amp_kernel *k = test_kernel(tile_src, NULL, "tile_demo");
  amp_array_view *v;
  CHECK_OK(amp_array_view_create(amp_extent2(N, N), AMP_INT32, out, &v));
  CHECK_OK(amp_array_view_discard_data(v));
  amp_arg a[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(N, N), 2, 2), k, a, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EVERY2(i, N, j, N, out[i][j] == 4 * 42);
  amp_array_view_release(v);
  amp_kernel_release(k);
}

/* Thread (l0, l1) of a t0 x t1 tile reads what thread (t0-1-l0, t1-1-l1) wrote. */
static void check_mirror(amp_kernel *k, int rows, int cols, int t0, int t1) {
  int *out = calloc((size_t)rows * cols, sizeof *out);
  if (!out)
    return;
  amp_array_view *v;
  CHECK_OK(amp_array_view_create(amp_extent2(rows, cols), AMP_INT32, out, &v));
  amp_arg a[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(rows, cols), t0, t1), k, a, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      int mi = i / t0 * t0 + (t0 - 1 - i % t0), mj = j / t1 * t1 + (t1 - 1 - j % t1);
      bad += out[i * cols + j] != mi * cols + mj;
    }
  if (bad)
    fprintf(stderr, "mirror %dx%d tiled %dx%d: %d wrong\n", rows, cols, t0, t1, bad);
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(v);
  free(out);
}

static void test_mirror(void) {
  amp_kernel *k = test_kernel(tile_src, NULL, "mirror");
  check_mirror(k, 16, 16, 2, 2);
  check_mirror(k, 16, 32, 4, 8);
  /* 256 threads: the whole tile_mem; where the device allows fewer threads per tile, the largest
   * shape it allows, halving the longer side */
  int t0 = 16, t1 = 16;
  while (t0 * t1 > 1 && test_tile_allowed(av, k, 2, (const int[]){t0, t1}) != TEST_TILE_RUNS) {
    if (t1 > t0)
      t1 /= 2;
    else
      t0 /= 2;
  }
  if (t0 * t1 < 256)
    printf("mirror: tiles of %d x %d, the most this device allows (not 16 x 16)\n", t0, t1);
  check_mirror(k, 32, 64, t0, t1);
  amp_kernel_release(k);
}

/* The C++ AMP article's MatrixMultiply: naive and 16x16 tiled, written with the prelude. T is the
 * element type, given as a build option. Both assume a.extent[1] == b.extent[0]; the tiled one also
 * that every dimension is a multiple of 16. */
static const char *matmul_src =
    "__kernel void matmul_naive(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {\n"
    "  AMP_INDEX2(idx);\n"
    "  T sum = 0;\n"
    "  for (int k = 0; k < amp_extent(a, 1); k++)\n"
    "    sum += amp_at(a, idx[0], k) * amp_at(b, k, idx[1]);\n"
    "  amp_at(c, idx[0], idx[1]) = sum;\n"
    "}\n"
    "#ifndef TS\n"
    "#define TS 16\n"
    "#endif\n"
    "__kernel void matmul_tiled(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {\n"
    "  AMP_TILED_INDEX2(t_idx);\n"
    "  const int row = t_idx.local_id[0], col = t_idx.local_id[1];\n"
    "  tile_static T locA[TS][TS];\n"
    "  tile_static T locB[TS][TS];\n"
    "  T sum = 0;\n"
    "  for (int i = 0; i < amp_extent(a, 1); i += TS) {\n"
    "    locA[row][col] = amp_at(a, t_idx.global_id[0], col + i);\n"
    "    locB[row][col] = amp_at(b, row + i, t_idx.global_id[1]);\n"
    "    amp_barrier_wait();\n"
    "    for (int k = 0; k < TS; k++)\n"
    "      sum += locA[row][k] * locB[k][col];\n"
    "    amp_barrier_wait();\n"
    "  }\n"
    "  amp_at(c, t_idx.global_id[0], t_idx.global_id[1]) = sum;\n"
    "}\n";

enum { M = 64, K = 48, N = 80 };

/* The tiled product's kernel for `type` and its tile edge in *ts: the article's 16, or 8, 4, 2
 * where the device, or the kernel built for it (amp_kernel_limits), allows fewer threads per tile
 * (every dimension above a multiple of each). */
static amp_kernel *matmul_tiled_kernel(const char *type, int *ts) {
  for (*ts = 16;; *ts /= 2) {
    char opts[32];
    snprintf(opts, sizeof opts, "-DT=%s -DTS=%d", type, *ts);
    amp_kernel *k = test_kernel(matmul_src, opts, "matmul_tiled");
    if (!k || *ts == 1 || test_tile_allowed(av, k, 2, (const int[]){*ts, *ts}) == TEST_TILE_RUNS) {
      if (*ts < 16)
        printf("matmul_tiled (%s): tiles of %d x %d, the most this device and kernel allow (not "
               "16 x 16)\n",
               type, *ts, *ts);
      return k;
    }
    amp_kernel_release(k);
  }
}

/* One matmul test's kernels and views (a, b, and the naive and tiled products c1 and c2). */
typedef struct {
  amp_kernel *naive, *tiled;
  amp_array_view *va, *vb, *vc1, *vc2;
} matmul_run;

/* Runs the naive and the tiled product of a (M x K) and b (K x N), elements `type` (`elem` to
 * ampcl), into c1 and c2, and synchronizes both. With `discard`, the products' old contents are
 * discarded and the counters reset before the launches, so that the caller can count what moved. */
static matmul_run matmul_both(const char *type, amp_elem_type elem, const void *a, const void *b,
                              void *c1, void *c2, bool discard) {
  matmul_run r;
  char opts[16];
  snprintf(opts, sizeof opts, "-DT=%s", type);
  r.naive = test_kernel(matmul_src, opts, "matmul_naive");
  int ts;
  r.tiled = matmul_tiled_kernel(type, &ts);
  CHECK_OK(amp_array_view_create_const(amp_extent2(M, K), elem, a, &r.va));
  CHECK_OK(amp_array_view_create_const(amp_extent2(K, N), elem, b, &r.vb));
  CHECK_OK(amp_array_view_create(amp_extent2(M, N), elem, c1, &r.vc1));
  CHECK_OK(amp_array_view_create(amp_extent2(M, N), elem, c2, &r.vc2));
  if (discard) {
    CHECK_OK(amp_array_view_discard_data(r.vc1));
    CHECK_OK(amp_array_view_discard_data(r.vc2));
    CHECK_OK(amp_transfer_stats_reset());
  }
  amp_arg a1[] = {amp_arg_view(r.va), amp_arg_view(r.vb), amp_arg_view(r.vc1)};
  amp_arg a2[] = {amp_arg_view(r.va), amp_arg_view(r.vb), amp_arg_view(r.vc2)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent2(M, N), r.naive, a1, 3));
  CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(M, N), ts, ts), r.tiled, a2, 3));
  CHECK_OK(amp_array_view_synchronize(r.vc1));
  CHECK_OK(amp_array_view_synchronize(r.vc2));
  return r;
}

/* The end of both matmul tests: both kernels' results matched, and everything released. */
static void matmul_done(int bad_naive, int bad_tiled, matmul_run *r) {
  CHECK_EQ_INT(bad_naive, 0);
  CHECK_EQ_INT(bad_tiled, 0);
  for (int i = 0; i < 4; i++)
    amp_array_view_release((amp_array_view *[]){r->va, r->vb, r->vc1, r->vc2}[i]);
  amp_kernel_release(r->naive);
  amp_kernel_release(r->tiled);
}

static void test_matmul_int(void) {
  static int a[M][K], b[K][N], c1[M][N], c2[M][N], ref[M][N];
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      a[i][k] = (i * 7 + k * 3) % 19 - 9;
  for (int k = 0; k < K; k++)
    for (int j = 0; j < N; j++)
      b[k][j] = (k * 5 + j * 11) % 23 - 11;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      int s = 0;
      for (int k = 0; k < K; k++)
        s += a[i][k] * b[k][j];
      ref[i][j] = s;
    }
  matmul_run r = matmul_both("int", AMP_INT32, a, b, c1, c2, true);
  amp_transfer_stats st;
  CHECK_OK(amp_transfer_stats_get(NULL, &st));
  CHECK_EQ_INT(st.to_device_count, 2); /* a and b, once each, for both kernels */
  CHECK_EQ_INT(st.to_device_bytes, sizeof a + sizeof b);
  CHECK_EQ_INT(st.to_host_count, 2);
  int bad1 = 0, bad2 = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      bad1 += c1[i][j] != ref[i][j];
      bad2 += c2[i][j] != ref[i][j];
    }
  matmul_done(bad1, bad2, &r);
}

static void test_matmul_float(void) {
  static float a[M][K], b[K][N], c1[M][N], c2[M][N], ref[M][N];
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      a[i][k] = (float)((i * 3 + k) % 11) * 0.25f - 1.0f;
  for (int k = 0; k < K; k++)
    for (int j = 0; j < N; j++)
      b[k][j] = (float)((k + j * 5) % 13) * 0.5f - 3.0f;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < K; k++)
        s += (double)a[i][k] * b[k][j];
      ref[i][j] = (float)s;
    }
  matmul_run r = matmul_both("float", AMP_FLOAT, a, b, c1, c2, false);
  int bad1 = 0, bad2 = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float tol = 1e-5f * (1.0f + fabsf(ref[i][j]));
      bad1 += !(fabsf(c1[i][j] - ref[i][j]) <= tol);
      bad2 += !(fabsf(c2[i][j] - ref[i][j]) <= tol);
    }
  matmul_done(bad1, bad2, &r);
}

int main(void) {
  av = test_view();
  if (!av)
    return 1;
  test_fields();
  test_tile_demo();
  test_mirror();
  test_matmul_int();
  test_matmul_float();
  return check_done();
}
