/* tile_shapes: every tile shape C++ AMP allows runs, on whatever the default accelerator is.
 *
 * AMP guarantees tiles of up to 1024 threads, a rank-3 tile's first dimension up to 64. Proves:
 *   - a tiled vector add and a tiled reduction (tile_static memory, barriers) verify against the
 *     host with tiles (1024), (32, 32), (1, 1024), (64, 4, 4) and (64, 16, 1);
 *   - launches of many tiles run every thread of every tile exactly once: 65535 tiles of 1,
 *     131070 tiles of 2 and 65535 tiles of 1024 (67,107,840 threads); each thread adds one to
 *     its own counter and checks that its tile, local and global indexes agree.
 * It prints one line per case, so its output on a GPU is the record (docs/perf/). */
#include "check.h"

static const char *src =
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
    "}\n"
    /* every thread counts itself once and checks its indexes agree */
    "__kernel void count1(AMP_VIEW(int, hits)) {\n"
    "  AMP_TILED_INDEX1(t);\n"
    "  const int ok = t.tile[0] * t.tile_extent[0] + t.local_id[0] == t.global_id[0] &&\n"
    "                 t.tile_origin[0] + t.local_id[0] == t.global_id[0];\n"
    "  amp_at(hits, t.global_id[0]) += ok ? 1 : 1000;\n"
    "}\n";

typedef struct shape {
  int rank, tile[3];
} shape;

static amp_tiled_extent tiled(amp_extent e, const int *t) {
  return e.rank == 1   ? amp_tile1(e, t[0])
         : e.rank == 2 ? amp_tile2(e, t[0], t[1])
                       : amp_tile3(e, t[0], t[1], t[2]);
}

/* A vector add over 4 x 2 x 1 tiles' worth of elements, and a reduction of 6 tiles. */
static void one_shape(amp_accelerator_view *av, amp_kernel **vadd, amp_kernel **reduce, shape s) {
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
  amp_status st = amp_parallel_for_each_tiled(av, tiled(e, s.tile), vadd[s.rank - 1], args, 3);
  CHECK_OK(st);
  CHECK_OK(amp_array_view_synchronize(vc));
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += c[i] != a[i] + b[i];
  CHECK_EQ_INT(bad, 0);

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
  CHECK_OK(rst);
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

/* `tiles` tiles of `t` threads: every thread ran once and its indexes agreed. */
static void many_tiles(amp_accelerator_view *av, amp_kernel *count, int tiles, int t) {
  size_t n = (size_t)tiles * (size_t)t;
  int *hits = calloc(n, sizeof *hits);
  if (!hits) {
    CHECK(!"out of memory");
    return;
  }
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1((int)n), AMP_INT32, hits, &v));
  amp_arg args[] = {amp_arg_view(v)};
  amp_status st =
      amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1((int)n), t), count, args, 1);
  CHECK_OK(st);
  CHECK_OK(amp_array_view_synchronize(v));
  size_t bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += hits[i] != 1;
  CHECK_EQ_INT(bad, 0);
  printf("%d tiles of %d (%zu threads): %s\n", tiles, t, n,
         st != AMP_SUCCESS ? "REFUSED"
         : bad             ? "WRONG (a thread ran not once, or its indexes disagreed)"
                           : "every thread ran exactly once");
  amp_array_view_release(v);
  free(hits);
}

int main(void) {
  amp_accelerator_view *av = test_view();
  if (!av)
    return 1;
  amp_accelerator *acc = NULL;
  amp_accelerator_properties p;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  REQUIRE_OK(amp_accelerator_get_properties(acc, &p));
  printf("%s: %s\n", p.device_path, p.description);
  amp_kernel *vadd[3] = {test_kernel(src, NULL, "vadd1"), test_kernel(src, NULL, "vadd2"),
                         test_kernel(src, NULL, "vadd3")};
  amp_kernel *reduce[3] = {test_kernel(src, NULL, "reduce1"), test_kernel(src, NULL, "reduce2"),
                           test_kernel(src, NULL, "reduce3")};
  amp_kernel *count = test_kernel(src, NULL, "count1");
  const shape shapes[] = {
      {1, {1024, 1, 1}}, {2, {32, 32, 1}}, {2, {1, 1024, 1}}, {3, {64, 4, 4}}, {3, {64, 16, 1}}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    one_shape(av, vadd, reduce, shapes[i]);
  many_tiles(av, count, 65535, 1);
  many_tiles(av, count, 131070, 2);
  many_tiles(av, count, 67107840 / 1024, 1024);
  for (int i = 0; i < 3; i++) {
    amp_kernel_release(vadd[i]);
    amp_kernel_release(reduce[i]);
  }
  amp_kernel_release(count);
  return check_done();
}
