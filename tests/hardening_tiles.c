/* hardening_tiles: a launch that cannot run the kernel as written is refused, never run wrong
 * (kernel.h, docs/KERNELS.md). A kernel written for one tile shape (AMP_TILE_SHAPE, i.e.
 * reqd_work_group_size) launched untiled or with another tile fails with
 * AMP_ERROR_INVALID_ARGUMENT naming both shapes in AMP order; tile_static memory the kernel
 * declares beyond the device's is AMP_ERROR_LIMIT_EXCEEDED. Nothing moves and host data stay. */
#include "check.h"

enum { R = 8, C = 16, N = R * C };

static const char *src =
    "AMP_TILE_SHAPE(4, 8) __kernel void tile_ids(AMP_VIEW(int, v)) {\n"
    "  AMP_TILED_INDEX2(idx);\n"
    "  tile_static int t[4][8];\n"
    "  t[idx.local_id[0]][idx.local_id[1]] = idx.local_id[0] * 100 + idx.local_id[1];\n"
    "  amp_barrier_wait();\n"
    "  amp_at(v, idx.global_id[0], idx.global_id[1]) = t[idx.local_id[0]][idx.local_id[1]];\n"
    "}\n"
    "AMP_TILE_SHAPE(16) __kernel void line(AMP_VIEW(int, v)) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  amp_at(v, idx.global_id[0]) = idx.local_id[0];\n"
    "}\n";

static int32_t h[N], orig[N];

int main(void) {
  amp_accelerator_view *av = test_view();
  if (!av)
    return 1;
  for (int i = 0; i < N; i++)
    h[i] = orig[i] = -1 - i;
  amp_kernel *tk = test_kernel(src, NULL, "tile_ids"), *lk = test_kernel(src, NULL, "line");
  if (!tk || !lk)
    return check_done();
  amp_array_view *v = NULL, *v1 = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent2(R, C), AMP_INT32, h, &v));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &v1));
  amp_arg a[] = {amp_arg_view(v)}, a1[] = {amp_arg_view(v1)};
  CHECK_OK(amp_transfer_stats_reset());

  CHECK_STATUS(amp_parallel_for_each(av, amp_extent2(R, C), tk, a, 1), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("tiles of 4 x 8");
  CHECK_MSG("not tiled");
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(R, C), 8, 4), tk, a, 1),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("written for tiles of 4 x 8");
  CHECK_MSG("launched with tiles of 8 x 4");
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(R, C), 8, 8), tk, a, 1),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("tiles of 8 x 8");
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 32), lk, a1, 1),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("written for tiles of 16 ");
  CHECK_MSG("launched with tiles of 32");
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), lk, a1, 1), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("tiles of 16");
  CHECK_UNMOVED(h, orig);

  /* The shape it was written for runs, with the right numbers. */
  CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(R, C), 4, 8), tk, a, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      bad += h[i * C + j] != (i % 4) * 100 + j % 8;
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), lk, a1, 1));
  CHECK_OK(amp_array_view_synchronize(v1));
  CHECK_EQ_INT(h[N - 1], 15);

  /* tile_static memory the kernel declares beyond the device's local memory */
  amp_accelerator *acc = NULL;
  amp_accelerator_properties props;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  REQUIRE_OK(amp_accelerator_get_properties(acc, &props));
  char opts[64];
  snprintf(opts, sizeof opts, "-DBIG=%llu", (unsigned long long)(props.local_memory / 4 + 64));
  amp_kernel *big =
      test_kernel("__kernel void big(AMP_VIEW(int, v)) {\n"
                  "  AMP_TILED_INDEX1(idx);\n"
                  "  tile_static int t[BIG];\n"
                  "  t[idx.local_id[0] * 64] = 1;\n"
                  "  amp_barrier_wait();\n"
                  "  amp_at(v, idx.global_id[0]) = t[(idx.local_id[0] * 64 + 64) % BIG];\n"
                  "}\n",
                  opts, "big");
  for (int i = 0; i < N; i++)
    orig[i] = h[i];
  CHECK_OK(amp_transfer_stats_reset());
  if (big) {
    CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), big, a1, 1),
                 AMP_ERROR_LIMIT_EXCEEDED);
    CHECK_MSG("tile_static memory");
    CHECK_UNMOVED(h, orig);
  }
  amp_kernel_release(big);
  amp_kernel_release(tk);
  amp_kernel_release(lk);
  CHECK_OK(amp_array_view_release(v));
  CHECK_OK(amp_array_view_release(v1));
  return check_done();
}
