/* tile_sizes: every tile shape C++ AMP allows, and the kernels' own limits on tiles, on whatever
 * the default accelerator is (it prints one line per case, so its output on a GPU is the record).
 *
 * AMP guarantees tiles of up to 1024 threads, a rank-3 tile's first dimension up to 64. Proves:
 *   - amp_kernel_limits reports the kernel's and the device's limits (the kernel's at most the
 *     device's, the device's local memory, a reqd_work_group_size in AMP order) and refuses NULL
 *     and the host "cpu";
 *   - a tiled vector add over rank-1, 2 and 3 views and a tiled reduction (tile_static memory,
 *     barriers) verify against the host with tiles (1024), (32,32), (1,1024), (64,4,4) and
 *     (64,16,1);
 *   - with the same tiles, and in launches of 65535 tiles of 1, 131070 tiles of 2 and (with the
 *     argument "big") 65535 tiles of 1024 = 67,107,840 threads, every thread of every tile runs
 *     exactly once and its tiled index agrees with itself: each thread adds 1 to its tile's
 *     counter and sets its local id's bit in its tile's mask, and the host checks count == tile
 *     size and every bit set;
 *   - a kernel's own limit on threads per tile. Drivers report a per-kernel limit
 *     (CL_KERNEL_WORK_GROUP_SIZE); NVIDIA's OpenCL reports 256 for every kernel, yet runs a light
 *     kernel in tiles of 1024 (the cases above) and refuses at enqueue only a kernel whose
 *     registers do not fit (docs/KERNELS.md, "Tiles above a kernel's reported limit"). A
 *     register-heavy kernel either runs and verifies in tiles of 1024 (POCL), or is refused with
 *     AMP_ERROR_LIMIT_EXCEEDED naming registers, with the host data intact; a second launch of
 *     that size is then refused before any data moves (the transfer counters do not change), and
 *     the kernel runs and verifies in tiles of the size the driver reported;
 *   - a kernel that declares three quarters of the device's tile_static memory (at most 48 KiB)
 *     runs and verifies, and amp_kernel_limits reports what it declares, not more than the
 *     device has (Mesa's rusticl 22.3 reports twice what a kernel declares: ampcl measures that
 *     factor and divides by it, exec/local_report.c). */
#include "check.h"

static amp_accelerator_view *av;

/* The shapes: a vector add and a reduction per rank. */
static const char *shapes_src =
    "__kernel void vadd1(AMP_CONST_VIEW(float, a), AMP_CONST_VIEW(float, b), AMP_VIEW(float, c)) "
    "{\n"
    "  AMP_TILED_INDEX1(t);\n"
    "  amp_at(c, t.global_id[0]) = amp_at(a, t.global_id[0]) + amp_at(b, t.global_id[0]);\n"
    "}\n"
    "__kernel void vadd2(AMP_CONST_VIEW(float, a), AMP_CONST_VIEW(float, b), AMP_VIEW(float, c)) "
    "{\n"
    "  AMP_TILED_INDEX2(t);\n"
    "  const int i = t.global_id[0], j = t.global_id[1];\n"
    "  amp_at(c, i, j) = amp_at(a, i, j) + amp_at(b, i, j);\n"
    "}\n"
    "__kernel void vadd3(AMP_CONST_VIEW(float, a), AMP_CONST_VIEW(float, b), AMP_VIEW(float, c)) "
    "{\n"
    "  AMP_TILED_INDEX3(t);\n"
    "  const int i = t.global_id[0], j = t.global_id[1], k = t.global_id[2];\n"
    "  amp_at(c, i, j, k) = amp_at(a, i, j, k) + amp_at(b, i, j, k);\n"
    "}\n"
    /* each tile sums its elements (a flat view; the tile's threads in row-major order) */
    "#define REDUCE_BODY(n, lin, gl)                                                  \\\n"
    "  tile_static float s[1024];                                                    \\\n"
    "  s[lin] = amp_at(a, gl);                                                       \\\n"
    "  amp_barrier_wait_with_tile_static_memory_fence();                             \\\n"
    "  for (int w = 1; w < (n); w *= 2) {                                            \\\n"
    "    if (lin % (2 * w) == 0 && lin + w < (n)) s[lin] += s[lin + w];              \\\n"
    "    amp_barrier_wait_with_tile_static_memory_fence();                           \\\n"
    "  }\n"
    "__kernel void reduce1(AMP_CONST_VIEW(float, a), AMP_VIEW(float, sums)) {\n"
    "  AMP_TILED_INDEX1(t);\n"
    "  const int lin = t.local_id[0];\n"
    "  REDUCE_BODY(t.tile_extent[0], lin, t.global_id[0])\n"
    "  if (lin == 0) amp_at(sums, t.tile[0]) = s[0];\n"
    "}\n"
    "__kernel void reduce2(AMP_CONST_VIEW(float, a), AMP_VIEW(float, sums)) {\n"
    "  AMP_TILED_INDEX2(t);\n"
    "  const int n = t.tile_extent[0] * t.tile_extent[1];\n"
    "  const int lin = t.local_id[0] * t.tile_extent[1] + t.local_id[1];\n"
    "  const int tiles1 = get_num_groups(0);\n"
    "  const int tile = t.tile[0] * tiles1 + t.tile[1];\n"
    "  REDUCE_BODY(n, lin, tile * n + lin)\n"
    "  if (lin == 0) amp_at(sums, tile) = s[0];\n"
    "}\n"
    "__kernel void reduce3(AMP_CONST_VIEW(float, a), AMP_VIEW(float, sums)) {\n"
    "  AMP_TILED_INDEX3(t);\n"
    "  const int n = t.tile_extent[0] * t.tile_extent[1] * t.tile_extent[2];\n"
    "  const int lin = (t.local_id[0] * t.tile_extent[1] + t.local_id[1]) * t.tile_extent[2] +\n"
    "                  t.local_id[2];\n"
    "  const int tile = (t.tile[0] * get_num_groups(1) + t.tile[1]) * get_num_groups(0) + "
    "t.tile[2];\n"
    "  REDUCE_BODY(n, lin, tile * n + lin)\n"
    "  if (lin == 0) amp_at(sums, tile) = s[0];\n"
    "}\n";

/* Every thread once, its index consistent; a kernel with a required tile shape. */
static const char *cover_src =
    "#if RANK == 1\n"
    "#define IDX AMP_TILED_INDEX1(idx); const int tile = idx.tile[0]; const int lid = "
    "idx.local_id[0]\n"
    "#elif RANK == 2\n"
    "#define IDX AMP_TILED_INDEX2(idx); const int tile = idx.tile[0] * nt1 + idx.tile[1]; \\\n"
    "  const int lid = idx.local_id[0] * idx.tile_extent[1] + idx.local_id[1]\n"
    "#else\n"
    "#define IDX AMP_TILED_INDEX3(idx); \\\n"
    "  const int tile = (idx.tile[0] * nt1 + idx.tile[1]) * nt2 + idx.tile[2]; \\\n"
    "  const int lid = (idx.local_id[0] * idx.tile_extent[1] + idx.local_id[1]) * \\\n"
    "                  idx.tile_extent[2] + idx.local_id[2]\n"
    "#endif\n"
    "__kernel void cover(AMP_VIEW(int, cnt), AMP_VIEW(uint, mask), AMP_VIEW(int, wrong), int "
    "words,\n"
    "                    int nt1, int nt2) {\n"
    "  IDX;\n"
    /* the tiled index's fields agree in every dimension */
    "  for (int d = 0; d < RANK; d++)\n"
    "    if (idx.tile[d] * idx.tile_extent[d] + idx.local_id[d] != idx.global_id[d] ||\n"
    "        idx.tile_origin[d] + idx.local_id[d] != idx.global_id[d])\n"
    "      atomic_inc(&amp_at(wrong, 0));\n"
    "  atomic_inc(&amp_at(cnt, tile));\n"
    "  atomic_or(&amp_at(mask, tile * words + lid / 32), 1u << (lid % 32));\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(16, 4, 1))) void fixed(AMP_VIEW(int, o)) {\n"
    "  AMP_TILED_INDEX2(idx); amp_at(o, idx.global_id[0], idx.global_id[1]) = 1;\n"
    "}\n";

/* About 100 live floats per thread: more registers than a tile of 1024 can have on a GPU. */
enum { N = 4096, DEPTH = 96 };
static const char *heavy_src =
    "#define DEPTH 96\n"
    "__kernel void heavy(AMP_CONST_VIEW(float, a), AMP_VIEW(float, c)) {\n"
    "  AMP_TILED_INDEX1(t);\n"
    "  const int i = t.global_id[0], n = amp_extent(a, 0);\n"
    "  float acc[DEPTH];\n"
    "  _Pragma(\"unroll\") for (int j = 0; j < DEPTH; j++)\n"
    "    acc[j] = amp_at(a, (i + j) % n) * (float)(j + 1);\n"
    "  for (int r = 0; r < 8; r++) {\n"
    "    _Pragma(\"unroll\") for (int j = 0; j < DEPTH; j++)\n"
    "      acc[j] = acc[j] * 0.5f + acc[(j + 1) % DEPTH] * 0.25f;\n"
    "  }\n"
    "  float s = 0.0f;\n"
    "  _Pragma(\"unroll\") for (int j = 0; j < DEPTH; j++) s += acc[j];\n"
    "  amp_at(c, i) = s;\n"
    "}\n";

static amp_kernel *kern(int rank, const char *name) {
  char opts[32];
  snprintf(opts, sizeof opts, "-DRANK=%d", rank);
  return test_kernel(cover_src, opts, name);
}

static amp_tiled_extent shape(int rank, const int *tile, const int *ntiles) {
  if (rank == 1)
    return amp_tile1(amp_extent1(tile[0] * ntiles[0]), tile[0]);
  if (rank == 2)
    return amp_tile2(amp_extent2(tile[0] * ntiles[0], tile[1] * ntiles[1]), tile[0], tile[1]);
  return amp_tile3(amp_extent3(tile[0] * ntiles[0], tile[1] * ntiles[1], tile[2] * ntiles[2]),
                   tile[0], tile[1], tile[2]);
}

/* One line per case: the launch succeeded and no slot was wrong. */
static void report(const char *what, const char *label, int NT, int T, amp_status st, long bad) {
  CHECK(st == AMP_SUCCESS && bad == 0);
  printf("%-10s %-16s %6d tiles of %4d threads: %s (%ld wrong)\n", what, label, NT, T,
         st == AMP_SUCCESS && bad == 0 ? "ok" : "FAILED", bad);
}

/* Whether a launch with a tile that `allow` (test_tile_allowed) says the device or the kernel may
 * not take ran; when it did not, it was refused with AMP_ERROR_LIMIT_EXCEEDED, which is checked and
 * said. */
static int shape_ran(const char *what, const char *label, amp_status st, int allow) {
  if (allow == TEST_TILE_RUNS || (allow == TEST_TILE_TRIED && st == AMP_SUCCESS)) {
    CHECK_OK(st);
    return 1;
  }
  CHECK_EQ_INT(st, AMP_ERROR_LIMIT_EXCEEDED);
  printf("%-10s %-16s refused, as it must be (%s): %s\n", what, label,
         allow == TEST_TILE_TRIED ? "above the kernel's limit, tried" : "above the device's limit",
         amp_last_error());
  return 0;
}

/* Every thread of every tile ran exactly once. */
static void cover(const char *label, int rank, const int *tile, const int *ntiles) {
  int T = 1, NT = 1;
  for (int d = 0; d < rank; d++) {
    T *= tile[d];
    NT *= ntiles[d];
  }
  int words = (T + 31) / 32;
  int *cnt = calloc((size_t)NT, sizeof *cnt);
  unsigned *mask = calloc((size_t)NT * (size_t)words, sizeof *mask);
  amp_kernel *k = kern(rank, "cover");
  int wrong = 0;
  amp_array_view *vc = NULL, *vm = NULL, *vw = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(NT), AMP_INT32, cnt, &vc));
  CHECK_OK(amp_array_view_create(amp_extent1(NT * words), AMP_UINT32, mask, &vm));
  CHECK_OK(amp_array_view_create(amp_extent1(1), AMP_INT32, &wrong, &vw));
  amp_arg args[] = {amp_arg_view(vc),
                    amp_arg_view(vm),
                    amp_arg_view(vw),
                    amp_arg_int(words),
                    amp_arg_int(rank > 1 ? ntiles[1] : 1),
                    amp_arg_int(rank > 2 ? ntiles[2] : 1)};
  int allow = test_tile_allowed(av, k, rank, tile);
  amp_status st = amp_parallel_for_each_tiled(av, shape(rank, tile, ntiles), k, args, 6);
  if (!shape_ran("cover", label, st, allow)) {
    CHECK_OK(amp_array_view_synchronize(vc));
    long moved = wrong;
    for (int t = 0; t < NT; t++)
      moved += cnt[t] != 0;
    CHECK_EQ_INT(moved, 0); /* nothing ran, the host data intact */
    goto done;
  }
  CHECK_OK(amp_array_view_synchronize(vc));
  CHECK_OK(amp_array_view_synchronize(vm));
  CHECK_OK(amp_array_view_synchronize(vw));
  long bad = wrong;
  for (int t = 0; t < NT; t++) {
    bad += cnt[t] != T;
    for (int w = 0; w < words; w++) {
      int bits = T - w * 32 >= 32 ? 32 : T - w * 32;
      unsigned want = bits == 32 ? 0xffffffffu : (1u << bits) - 1u;
      bad += mask[(size_t)t * (size_t)words + (size_t)w] != want;
    }
  }
  report("cover", label, NT, T, st, bad);
done:
  amp_array_view_release(vc);
  amp_array_view_release(vm);
  amp_array_view_release(vw);
  amp_kernel_release(k);
  free(cnt);
  free(mask);
}

typedef struct tile_shape {
  int rank, tile[3];
} tile_shape;

static amp_tiled_extent tiled(amp_extent e, const int *t) {
  return e.rank == 1   ? amp_tile1(e, t[0])
         : e.rank == 2 ? amp_tile2(e, t[0], t[1])
                       : amp_tile3(e, t[0], t[1], t[2]);
}

/* A vector add over 4 x 2 x 1 tiles' worth of elements, and a reduction of 6 tiles. */
static void one_shape(amp_kernel **vadd, amp_kernel **reduce, tile_shape s) {
  int threads = s.tile[0] * (s.rank > 1 ? s.tile[1] : 1) * (s.rank > 2 ? s.tile[2] : 1);
  int mult[3] = {4, 2, 1};
  amp_extent e = {s.rank, {1, 1, 1}};
  size_t n = 1;
  for (int d = 0; d < s.rank; d++) {
    e.dim[d] = s.tile[d] * mult[d];
    n *= (size_t)e.dim[d];
  }
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  if (!a || !b || !c) {
    CHECK(!"out of memory");
    return;
  }
  for (size_t i = 0; i < n; i++) {
    a[i] = (float)(i % 97);
    b[i] = (float)(i % 13) * 0.5f;
    c[i] = -1.0f;
  }
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL;
  CHECK_OK(amp_array_view_create_const(e, AMP_FLOAT, a, &va));
  CHECK_OK(amp_array_view_create_const(e, AMP_FLOAT, b, &vb));
  CHECK_OK(amp_array_view_create(e, AMP_FLOAT, c, &vc));
  amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
  char label[32];
  snprintf(label, sizeof label, "(%d%s%.0d%s%.0d)", s.tile[0], s.rank > 1 ? "," : "",
           s.rank > 1 ? s.tile[1] : 0, s.rank > 2 ? "," : "", s.rank > 2 ? s.tile[2] : 0);
  int allow = test_tile_allowed(av, vadd[s.rank - 1], s.rank, s.tile);
  amp_status st = amp_parallel_for_each_tiled(av, tiled(e, s.tile), vadd[s.rank - 1], args, 3);
  int ran = shape_ran("vector add", label, st, allow);
  CHECK_OK(amp_array_view_synchronize(vc));
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += c[i] != (ran ? a[i] + b[i] : -1.0f); /* refused: the host data intact */
  CHECK_EQ_INT(bad, 0);
  if (!ran) {
    amp_array_view *views[] = {va, vb, vc};
    for (size_t i = 0; i < 3; i++)
      amp_array_view_release(views[i]);
    free(a);
    free(b);
    free(c);
    return;
  }

  /* the reduction: 6 tiles laid out as (6) or (3, 2) or (3, 2, 1) tiles */
  int tiles_per[3] = {s.rank == 1 ? 6 : 3, 2, 1};
  amp_extent re = {s.rank, {1, 1, 1}};
  for (int d = 0; d < s.rank; d++)
    re.dim[d] = s.tile[d] * tiles_per[d];
  size_t rn = 6 * (size_t)threads;
  float *x = malloc(rn * sizeof *x), sums[6] = {0};
  if (!x) {
    CHECK(!"out of memory");
    return;
  }
  for (size_t i = 0; i < rn; i++)
    x[i] = (float)((i * 7) % 5);
  amp_array_view *vx = NULL, *vs = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1((int)rn), AMP_FLOAT, x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1(6), AMP_FLOAT, sums, &vs));
  amp_arg rargs[] = {amp_arg_view(vx), amp_arg_view(vs)};
  amp_status rst = amp_parallel_for_each_tiled(av, tiled(re, s.tile), reduce[s.rank - 1], rargs, 2);
  CHECK_OK(rst); /* vadd ran in this tile: so does the reduction */
  CHECK_OK(amp_array_view_synchronize(vs));
  int rbad = 0;
  for (int t = 0; t < 6; t++) {
    double want = 0;
    for (int i = 0; i < threads; i++)
      want += x[(size_t)t * (size_t)threads + (size_t)i];
    rbad += sums[t] != (float)want;
  }
  CHECK_EQ_INT(rbad, 0);
  printf("tile (%d%s%.0d%s%.0d) = %4d threads: vector add %s, reduction %s\n", s.tile[0],
         s.rank > 1 ? ", " : "", s.rank > 1 ? s.tile[1] : 0, s.rank > 2 ? ", " : "",
         s.rank > 2 ? s.tile[2] : 0, threads,
         st != AMP_SUCCESS ? "REFUSED"
         : bad             ? "WRONG"
                           : "verified",
         rst != AMP_SUCCESS ? "REFUSED"
         : rbad             ? "WRONG"
                            : "verified");
  amp_array_view *all[] = {va, vb, vc, vx, vs};
  for (size_t i = 0; i < 5; i++)
    amp_array_view_release(all[i]);
  free(a);
  free(b);
  free(c);
  free(x);
}

static void limits(void) {
  amp_accelerator *acc = NULL;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  amp_accelerator_properties p;
  CHECK_OK(amp_accelerator_get_properties(acc, &p));
  amp_kernel *k = test_kernel(shapes_src, NULL, "reduce1"), *f = kern(2, "fixed");
  amp_kernel_limits_info li;
  memset(&li, 0, sizeof li);
  CHECK_OK(amp_kernel_limits(k, acc, &li));
  CHECK(li.max_tile_threads >= 1 && li.max_tile_threads <= li.device_max_tile_threads);
  CHECK(li.device_max_tile_threads == p.max_tile_size);
  CHECK(li.device_local_bytes == p.local_memory);
  /* s[1024]; some drivers (POCL 5) report a kernel's tile_static bytes as 0 */
  CHECK(li.static_local_bytes >= 1024 * sizeof(int) || li.static_local_bytes == 0);
  CHECK(li.preferred_multiple >= 1);
  CHECK_EQ_INT(li.required_rank, 0);
  printf("limits reduce1 on %s: %zu threads per tile (device %zu), multiple %zu, private %llu "
         "B, local %llu of %llu B\n",
         p.device_path, li.max_tile_threads, li.device_max_tile_threads, li.preferred_multiple,
         (unsigned long long)li.private_bytes, (unsigned long long)li.static_local_bytes,
         (unsigned long long)li.device_local_bytes);
  CHECK_OK(amp_kernel_limits(f, acc, &li));
  CHECK_EQ_INT(li.required_rank, 2);
  CHECK_EQ_INT(li.required_tile[0], 4);
  CHECK_EQ_INT(li.required_tile[1], 16);
  /* bad input: *out unchanged */
  amp_kernel_limits_info keep = li;
  CHECK_STATUS(amp_kernel_limits(k, acc, NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_kernel_limits(NULL, acc, &li), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_kernel_limits(k, NULL, &li), AMP_ERROR_INVALID_HANDLE);
  amp_accelerator *cpu = NULL;
  if (amp_accelerator_find("cpu", &cpu) == AMP_SUCCESS) {
    CHECK_STATUS(amp_kernel_limits(k, cpu, &li), AMP_ERROR_UNSUPPORTED_FEATURE);
    CHECK_MSG("cpu");
  }
  CHECK(memcmp(&keep, &li, sizeof li) == 0);
  amp_kernel_release(k);
  amp_kernel_release(f);
}

/* A tile of 64 threads fills an int array of LOCAL_INTS, each element i with 7i + 3, and each
 * thread checks a stride of elements written by the others, from the top down. */
static const char *large_local_src =
    "__kernel void large_local(AMP_VIEW(int, ok)) {\n"
    "  AMP_TILED_INDEX1(t);\n"
    "  tile_static int s[LOCAL_INTS];\n"
    "  const int l = t.local_id[0];\n"
    "  for (int i = l; i < LOCAL_INTS; i += TILE) s[i] = 7 * i + 3;\n"
    "  amp_barrier_wait_with_tile_static_memory_fence();\n"
    "  int good = 1;\n"
    "  for (int i = LOCAL_INTS - 1 - l; i >= 0; i -= TILE) good &= s[i] == 7 * i + 3;\n"
    "  amp_at(ok, t.global_id[0]) = good;\n"
    "}\n";

static void large_local(void) {
  amp_accelerator *acc = NULL;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  amp_accelerator_properties p;
  CHECK_OK(amp_accelerator_get_properties(acc, &p));
  uint64_t bytes = p.local_memory / 4 * 3;
  if (bytes > 48 * 1024)
    bytes = 48 * 1024;
  bytes -= bytes % 4;
  /* tiles of 64 threads, or the most (a power of two) the device allows */
  int tile = 64;
  while (tile > 1 && test_tile_allowed(av, NULL, 1, &tile) != TEST_TILE_RUNS)
    tile /= 2;
  char opts[64];
  snprintf(opts, sizeof opts, "-DLOCAL_INTS=%llu -DTILE=%d", (unsigned long long)(bytes / 4), tile);
  amp_kernel *k = test_kernel(large_local_src, opts, "large_local");
  if (!k)
    return;
  amp_kernel_limits_info li;
  memset(&li, 0, sizeof li);
  CHECK_OK(amp_kernel_limits(k, acc, &li));
  /* what it declares, and what the implementation may add for its own use; POCL 5 reports 0 */
  CHECK(li.static_local_bytes == 0 || li.static_local_bytes >= bytes);
  CHECK(li.static_local_bytes <= li.device_local_bytes);
  int ok[128];
  for (int i = 0; i < 128; i++)
    ok[i] = -1;
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(128), AMP_INT32, ok, &v));
  amp_arg args[] = {amp_arg_view(v)};
  amp_status st = amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(128), tile), k, args, 1);
  CHECK_OK(st);
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = 0;
  for (int i = 0; i < 128; i++)
    bad += ok[i] != 1;
  CHECK_EQ_INT(bad, 0);
  printf("tile_static %llu of %llu B declared: amp_kernel_limits says %llu, %s\n",
         (unsigned long long)bytes, (unsigned long long)p.local_memory,
         (unsigned long long)li.static_local_bytes,
         st == AMP_SUCCESS && bad == 0 ? "verified" : "FAILED");
  amp_array_view_release(v);
  amp_kernel_release(k);
}

static float heavy_ref(const float *a, int i) {
  float acc[DEPTH];
  for (int j = 0; j < DEPTH; j++)
    acc[j] = a[(i + j) % N] * (float)(j + 1);
  for (int r = 0; r < 8; r++)
    for (int j = 0; j < DEPTH; j++)
      acc[j] = acc[j] * 0.5f + acc[(j + 1) % DEPTH] * 0.25f;
  float s = 0.0f;
  for (int j = 0; j < DEPTH; j++)
    s += acc[j];
  return s;
}

static int heavy_ok(const float *a, const float *c) {
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float want = heavy_ref(a, i);
    if (fabsf(c[i] - want) > 1e-4f * fabsf(want) + 1e-4f && bad++ < 3)
      fprintf(stderr, "heavy: c[%d] = %g, want %g\n", i, c[i], want);
  }
  return bad == 0;
}

/* A register-heavy kernel in tiles of 1024: runs, or is refused before anything moves. */
static void heavy_kernel(void) {
  amp_accelerator *acc = NULL;
  amp_accelerator_properties props;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  CHECK_OK(amp_accelerator_get_properties(acc, &props));
  if (props.max_tile_size < 1024) {
    printf("this device runs tiles of at most %zu threads: the heavy kernel is not tried\n",
           props.max_tile_size);
    return;
  }
  static float a[N], c[N];
  for (int i = 0; i < N; i++)
    a[i] = (float)((i * 37) % 101) / 101.0f;
  amp_array_view *va = NULL, *vc = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, a, &va));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, c, &vc));
  amp_arg args[] = {amp_arg_view(va), amp_arg_view(vc)};
  int bad = 0;
  /* a register-heavy kernel in tiles of 1024 */
  amp_kernel *heavy = test_kernel(heavy_src, NULL, "heavy");
  for (int i = 0; i < N; i++)
    c[i] = -1.0f;
  CHECK_OK(amp_array_view_refresh(vc));
  amp_status st = amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 1024), heavy, args, 2);
  if (st == AMP_SUCCESS) {
    printf("heavy kernel ran in tiles of 1024\n");
    CHECK_OK(amp_array_view_synchronize(vc));
    CHECK(heavy_ok(a, c));
  } else {
    printf("heavy kernel in tiles of 1024 refused: %s\n", amp_last_error());
    CHECK_EQ_INT(st, AMP_ERROR_LIMIT_EXCEEDED);
    CHECK_MSG("registers");
    CHECK_OK(amp_array_view_synchronize(vc));
    bad = 0;
    for (int i = 0; i < N; i++)
      bad += c[i] != -1.0f;
    CHECK_EQ_INT(bad, 0); /* host data intact */
    /* refused again, now before anything moves */
    CHECK_OK(amp_array_view_discard_data(vc));
    uint64_t before = test_transfers();
    CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 1024), heavy, args, 2),
                 AMP_ERROR_LIMIT_EXCEEDED);
    CHECK_MSG("refused");
    CHECK_EQ_INT(test_transfers(), before);
    /* and it runs in tiles of the size the driver reported */
    int ok = 0;
    for (int tile = 512; tile >= 32 && !ok; tile /= 2) {
      st = amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), tile), heavy, args, 2);
      if (st == AMP_SUCCESS) {
        printf("heavy kernel ran in tiles of %d\n", tile);
        ok = 1;
      } else {
        CHECK_EQ_INT(st, AMP_ERROR_LIMIT_EXCEEDED);
      }
    }
    CHECK(ok);
    CHECK_OK(amp_array_view_synchronize(vc));
    CHECK(heavy_ok(a, c));
  }

  amp_kernel_release(heavy);
  amp_array_view_release(va);
  amp_array_view_release(vc);
}

int main(int argc, char **argv) {
  int skip = test_use_device_from_env(); /* tile_sizes.two: the second device */
  if (skip)
    return skip;
  av = test_view();
  if (!av)
    return 1;
  amp_accelerator_properties p;
  REQUIRE_OK(test_props(av, &p));
  printf("%s: %s, %zu threads per tile\n", p.device_path, p.description, p.max_tile_size);
  limits();
  large_local();

  amp_kernel *vadd[3] = {test_kernel(shapes_src, NULL, "vadd1"),
                         test_kernel(shapes_src, NULL, "vadd2"),
                         test_kernel(shapes_src, NULL, "vadd3")};
  amp_kernel *reduce[3] = {test_kernel(shapes_src, NULL, "reduce1"),
                           test_kernel(shapes_src, NULL, "reduce2"),
                           test_kernel(shapes_src, NULL, "reduce3")};
  static const struct {
    const char *label;
    tile_shape s;
    int ntiles[3];
  } cases[] = {
      {"(1024)", {1, {1024, 1, 1}}, {3}},         {"(32,32)", {2, {32, 32, 1}}, {2, 3}},
      {"(1,1024)", {2, {1, 1024, 1}}, {3, 2}},    {"(64,4,4)", {3, {64, 4, 4}}, {2, 1, 3}},
      {"(64,16,1)", {3, {64, 16, 1}}, {1, 2, 3}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    one_shape(vadd, reduce, cases[i].s);
    cover(cases[i].label, cases[i].s.rank, cases[i].s.tile, cases[i].ntiles);
  }
  if (p.max_tile_size < 1024) { /* a weaker device: its own largest tile, which must run */
    int t = (int)p.max_tile_size;
    one_shape(vadd, reduce, (tile_shape){1, {t, 1, 1}});
    cover("(device max)", 1, &t, (const int[]){3});
  }
  for (int i = 0; i < 3; i++) {
    amp_kernel_release(vadd[i]);
    amp_kernel_release(reduce[i]);
  }
  cover("(1) x 65535", 1, (const int[]){1}, (const int[]){65535});
  cover("(2) x 65535", 1, (const int[]){2}, (const int[]){65535});
  if (argc > 1 && strcmp(argv[1], "big") == 0)
    cover("(1024) x 65535", 1, (const int[]){1024}, (const int[]){65535});
  heavy_kernel();
  return check_done();
}
