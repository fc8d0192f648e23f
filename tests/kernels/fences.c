/* kernel_fences: the prelude's standalone fences (amp_global_memory_fence,
 * amp_tile_static_memory_fence, amp_all_memory_fence) in the pattern they exist for, publishing
 * data through an atomic counter without a barrier: every writer stores its data, fences, and
 * bumps the counter; the one that bumps it last fences and reads everybody's data.
 *
 *   - global: each tile's sum goes to a view, and the last tile to arrive adds them up;
 *   - tile_static: each work item's value goes to tile_static memory, and the last work item of
 *     the tile to arrive adds them up;
 *   - all: both at once, data in global and tile_static memory, counted in tile_static memory;
 *   - and a fence in a kernel that is not tiled (AMP's fences need a tile barrier; these do not).
 *
 * What a CPU device can show: the results are checked against the host, but on POCL's CPU
 * device they come out right even with the fences removed. A tile's work items run one after
 * another on one core, x86 keeps each core's stores in order, and the atomics are compiled as
 * sequentially consistent, which the compiler does not move memory accesses across. Without a
 * fence the kernels are wrong on weakly ordered devices (GPUs, whose per-core caches are not
 * coherent), where the last arrival can read a partial sum or a slot that was not written yet;
 * this test is written to catch that when it runs on one. */
#include "check.h"

enum { MAX_TILE = 128, N = MAX_TILE * 48 };
/* tiles of 128 threads, or the most (a power of two) the device allows */
static int TILE = MAX_TILE, TILES = N / MAX_TILE;

static const char *src =
    "__kernel void last_tile_sums(AMP_CONST_VIEW(int, in), AMP_VIEW(int, partial),\n"
    "                             AMP_VIEW(uint, arrived), AMP_VIEW(int, total)) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static int sums[TILE];\n"
    "  const int l = idx.local_id[0], tiles = amp_extent(partial, 0);\n"
    "  sums[l] = amp_at(in, idx.global_id[0]);\n"
    "  amp_barrier_wait_with_tile_static_memory_fence();\n"
    "  for (int s = TILE / 2; s > 0; s >>= 1) {\n"
    "    if (l < s) sums[l] += sums[l + s];\n"
    "    amp_barrier_wait_with_tile_static_memory_fence();\n"
    "  }\n"
    "  if (l == 0) {\n"
    "    amp_at(partial, idx.tile[0]) = sums[0];\n"
    "    amp_global_memory_fence(); /* the partial sum is stored before the count says so */\n"
    "    if (amp_atomic_fetch_inc(&amp_at(arrived, 0)) == (uint)tiles - 1) {\n"
    "      amp_global_memory_fence(); /* and read after the count */\n"
    "      int t = 0;\n"
    "      for (int i = 0; i < tiles; i++)\n"
    "        t += *(volatile __global const int *)&amp_at(partial, i);\n"
    "      amp_at(total, 0) = t;\n"
    "    }\n"
    "  }\n"
    "}\n"
    "__kernel void last_item_sums(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out)) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static int slot[TILE];\n"
    "  tile_static uint arrived;\n"
    "  const int l = idx.local_id[0];\n"
    "  if (l == 0) arrived = 0;\n"
    "  amp_barrier_wait();\n"
    "  slot[l] = 3 * amp_at(in, idx.global_id[0]);\n"
    "  amp_tile_static_memory_fence(); /* slot[l] is stored before the count says so */\n"
    "  if (amp_atomic_fetch_inc(&arrived) == TILE - 1) {\n"
    "    amp_tile_static_memory_fence(); /* and read after */\n"
    "    int s = 0;\n"
    "    for (int i = 0; i < TILE; i++)\n"
    "      s += ((volatile __local int *)slot)[i];\n"
    "    amp_at(out, idx.tile[0]) = s;\n"
    "  }\n"
    "}\n"
    "__kernel void last_item_both(AMP_CONST_VIEW(int, in), AMP_VIEW(int, twice),\n"
    "                             AMP_VIEW(int, out)) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static int slot[TILE];\n"
    "  tile_static uint arrived;\n"
    "  const int l = idx.local_id[0], g = idx.global_id[0];\n"
    "  if (l == 0) arrived = 0;\n"
    "  amp_barrier_wait();\n"
    "  slot[l] = amp_at(in, g);\n"
    "  amp_at(twice, g) = 2 * amp_at(in, g);\n"
    "  amp_all_memory_fence(); /* both stores before the count */\n"
    "  if (amp_atomic_fetch_inc(&arrived) == TILE - 1) {\n"
    "    amp_all_memory_fence();\n"
    "    int s = 0;\n"
    "    for (int i = 0; i < TILE; i++)\n"
    "      s += ((volatile __local int *)slot)[i] +\n"
    "           *(volatile __global int *)&amp_at(twice, idx.tile_origin[0] + i);\n"
    "    amp_at(out, idx.tile[0]) = s;\n"
    "  }\n"
    "}\n"
    "__kernel void untiled(AMP_VIEW(int, out)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  amp_at(out, idx[0]) = idx[0];\n"
    "  amp_all_memory_fence();\n"
    "  amp_global_memory_fence();\n"
    "  amp_tile_static_memory_fence();\n"
    "  amp_at(out, idx[0]) += 1;\n"
    "}\n";

int main(void) {
  REQUIRE_VIEW(av);
  while (TILE > 1 && test_tile_allowed(av, NULL, 1, &TILE) != TEST_TILE_RUNS)
    TILE /= 2;
  TILES = N / TILE;
  if (TILE < MAX_TILE)
    printf("tiles of %d threads, the most this device allows (not %d)\n", TILE, MAX_TILE);
  static int in[N], partial[N], out[N], twice[N], want_tile[N];
  int total = 0, want_total = 0;
  unsigned arrived = 0;
  for (int i = 0; i < N; i++) {
    in[i] = (i * 7919) % 1000 - 300;
    want_total += in[i];
    want_tile[i / TILE] += in[i];
  }
  char opts[32];
  snprintf(opts, sizeof opts, "-DTILE=%d", TILE);
  amp_tiled_extent dom = amp_tile1(amp_extent1(N), TILE);
  amp_array_view *vin, *vp, *va, *vt, *vo, *vw;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, in, &vin));
  CHECK_OK(amp_array_view_create(amp_extent1(TILES), AMP_INT32, partial, &vp));
  CHECK_OK(amp_array_view_create(amp_extent1(1), AMP_UINT32, &arrived, &va));
  CHECK_OK(amp_array_view_create(amp_extent1(1), AMP_INT32, &total, &vt));
  CHECK_OK(amp_array_view_create(amp_extent1(TILES), AMP_INT32, out, &vo));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, twice, &vw));

  /* global: the last tile adds up the partial sums */
  amp_kernel *k = test_kernel(src, opts, "last_tile_sums");
  amp_arg a1[] = {amp_arg_view(vin), amp_arg_view(vp), amp_arg_view(va), amp_arg_view(vt)};
  if (k)
    CHECK_OK(amp_parallel_for_each_tiled(av, dom, k, a1, 4));
  CHECK_OK(amp_array_view_synchronize(vt));
  CHECK_OK(amp_array_view_synchronize(vp));
  CHECK_OK(amp_array_view_synchronize(va));
  CHECK_EQ_INT(total, want_total);
  CHECK_EQ_INT(arrived, TILES);
  CHECK(memcmp(partial, want_tile, (size_t)TILES * sizeof *partial) == 0);
  amp_kernel_release(k);

  /* tile_static: the last work item of each tile adds up the tile's slots */
  k = test_kernel(src, opts, "last_item_sums");
  amp_arg a2[] = {amp_arg_view(vin), amp_arg_view(vo)};
  if (k)
    CHECK_OK(amp_parallel_for_each_tiled(av, dom, k, a2, 2));
  CHECK_OK(amp_array_view_synchronize(vo));
  int bad = 0;
  for (int t = 0; t < TILES; t++)
    bad += out[t] != 3 * want_tile[t];
  CHECK_EQ_INT(bad, 0);
  amp_kernel_release(k);

  /* all: global and tile_static data, one fence */
  k = test_kernel(src, opts, "last_item_both");
  amp_arg a3[] = {amp_arg_view(vin), amp_arg_view(vw), amp_arg_view(vo)};
  if (k)
    CHECK_OK(amp_parallel_for_each_tiled(av, dom, k, a3, 3));
  CHECK_OK(amp_array_view_synchronize(vo));
  bad = 0;
  for (int t = 0; t < TILES; t++)
    bad += out[t] != 3 * want_tile[t];
  CHECK_EQ_INT(bad, 0);
  amp_kernel_release(k);

  /* a fence outside a tiled kernel */
  k = test_kernel(src, opts, "untiled");
  amp_arg a4[] = {amp_arg_view(vw)};
  if (k)
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, a4, 1));
  CHECK_OK(amp_array_view_synchronize(vw));
  bad = 0;
  for (int i = 0; i < N; i++)
    bad += twice[i] != i + 1;
  CHECK_EQ_INT(bad, 0);
  amp_kernel_release(k);

  amp_array_view_release(vin);
  amp_array_view_release(vp);
  amp_array_view_release(va);
  amp_array_view_release(vt);
  amp_array_view_release(vo);
  amp_array_view_release(vw);
  return check_done();
}
