/* tile_from_kernel: a kernel that states its tile (AMP_TILE_SHAPE, i.e. reqd_work_group_size) is
 * launched with amp_parallel_for_each, without stating the tile again, and runs tiled with the
 * kernel's own tile: tile_static memory shared within each tile, the barrier, the tiled index's
 * local ids and tile numbers, at ranks 1, 2 and 3, every element against the host. The same launch
 * tiled by hand gives the same result; a kernel without a stated tile still runs untiled. (Where
 * the kernel's tile does not fit the extent: tile_refused.) */
#include "check.h"

enum { R = 8, C = 16, N = R * C };

static const char *src =
    /* each thread: its tile's number, its local ids, and its right neighbour's value in the tile */
    "AMP_TILE_SHAPE(16) __kernel void t1(AMP_VIEW(int, v)) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static int t[16];\n"
    "  t[idx.local_id[0]] = idx.global_id[0];\n"
    "  amp_barrier_wait();\n"
    "  amp_at(v, idx.global_id[0]) =\n"
    "      idx.tile[0] * 10000 + idx.local_id[0] * 100 + t[(idx.local_id[0] + 1) % 16] % 100;\n"
    "}\n"
    "AMP_TILE_SHAPE(2, 8) __kernel void t2(AMP_VIEW(int, v)) {\n"
    "  AMP_TILED_INDEX2(idx);\n"
    "  tile_static int t[2][8];\n"
    "  t[idx.local_id[0]][idx.local_id[1]] = idx.local_id[0] * 8 + idx.local_id[1];\n"
    "  amp_barrier_wait();\n"
    "  amp_at(v, idx.global_id[0], idx.global_id[1]) = idx.tile[0] * 1000 + idx.tile[1] * 100 +\n"
    "      t[1 - idx.local_id[0]][7 - idx.local_id[1]];\n"
    "}\n"
    "AMP_TILE_SHAPE(2, 2, 4) __kernel void t3(AMP_VIEW(int, v)) {\n"
    "  AMP_TILED_INDEX3(idx);\n"
    "  tile_static int sum;\n"
    "  if (idx.local_id[0] == 0 && idx.local_id[1] == 0 && idx.local_id[2] == 0) sum = 0;\n"
    "  amp_barrier_wait();\n"
    "  atomic_add(&sum, 1);\n"
    "  amp_barrier_wait();\n"
    "  amp_at(v, idx.global_id[0], idx.global_id[1], idx.global_id[2]) =\n"
    "      sum * 1000 + idx.tile[0] * 100 + idx.tile[1] * 10 + idx.tile[2];\n"
    "}\n"
    "__kernel void plain(AMP_VIEW(int, v)) { AMP_INDEX1(i); amp_at(v, i[0]) = 7 * i[0]; }\n";

static int h[N];

/* The host's answer for kernel `rank` at flat element i over R x C (rank 1: N; rank 3: 2 x 4 x C).
 */
static int expected(int rank, int i) {
  if (rank == 1) {
    int tile = i / 16, l = i % 16;
    return tile * 10000 + l * 100 + (tile * 16 + (l + 1) % 16) % 100;
  }
  if (rank == 2) {
    int r = i / C, c = i % C, l0 = r % 2, l1 = c % 8;
    return (r / 2) * 1000 + (c / 8) * 100 + (1 - l0) * 8 + (7 - l1);
  }
  int a = i / (4 * C), b = (i / C) % 4, c = i % C;
  return 16 * 1000 + (a / 2) * 100 + (b / 2) * 10 + c / 4;
}

/* Runs kernel `name` over `e` untiled and, when te is given, tiled by hand; checks both. */
static void run(amp_accelerator_view *av, const char *name, int rank, amp_extent e,
                const amp_tiled_extent *te) {
  amp_kernel *k = test_kernel(src, NULL, name);
  if (!k)
    return;
  for (int pass = 0; pass < (te ? 2 : 1); pass++) {
    memset(h, 0xff, sizeof h);
    amp_array_view *v = NULL;
    CHECK_OK(amp_array_view_create(e, AMP_INT32, h, &v));
    amp_arg a[] = {amp_arg_view(v)};
    if (pass == 0)
      CHECK_OK(amp_parallel_for_each(av, e, k, a, 1));
    else
      CHECK_OK(amp_parallel_for_each_tiled(av, *te, k, a, 1));
    CHECK_OK(amp_array_view_synchronize(v));
    amp_array_view_release(v);
    int bad = 0;
    for (int i = 0; i < N; i++)
      bad += h[i] != (rank ? expected(rank, i) : 7 * i);
    if (bad)
      fprintf(stderr, "%s (%s): %d of %d elements wrong\n", name,
              pass ? "tiled by hand" : "untiled", bad, N);
    CHECK_EQ_INT(bad, 0);
  }
  amp_kernel_release(k);
}

int main(void) {
  REQUIRE_VIEW(av);
  const amp_tiled_extent te1 = amp_tile1(amp_extent1(N), 16);
  const amp_tiled_extent te2 = amp_tile2(amp_extent2(R, C), 2, 8);
  const amp_tiled_extent te3 = amp_tile3(amp_extent3(2, 4, C), 2, 2, 4);
  run(av, "t1", 1, amp_extent1(N), &te1);
  run(av, "t2", 2, amp_extent2(R, C), &te2);
  run(av, "t3", 3, amp_extent3(2, 4, C), &te3);
  run(av, "plain", 0, amp_extent1(N), NULL);
  return check_done();
}
