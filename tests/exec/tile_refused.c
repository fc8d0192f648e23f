/* tile_refused: a launch that cannot run the kernel as written is refused, never run wrong
 * (kernel.h, docs/KERNELS.md). A kernel written for one tile shape (AMP_TILE_SHAPE, i.e.
 * reqd_work_group_size) launched with another tile fails with AMP_ERROR_INVALID_ARGUMENT naming
 * both shapes in AMP order, and launched untiled over an extent its tile does not fit (one it does
 * not divide, or of lower rank) fails naming the kernel's tile; tile_static memory the kernel
 * declares beyond the device's is AMP_ERROR_LIMIT_EXCEEDED (on NVIDIA's OpenCL, which runs such a
 * kernel, only when a __local argument is added; the kernel itself then runs and is checked).
 * Nothing moves and host data stay. */
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

/* A tile of 16 whose tile_static array has BIG ints, the last 64 past the device's reported local
 * memory: thread l writes t[l] and t[BIG - 64 + l], each with its tile's number in it, and reads
 * what its neighbour wrote in both. Memory that wrapped at the reported size would put both
 * writes in one place, and tiles sharing memory would mix tile numbers: either gives a wrong sum.
 */
#define BIG_BODY                                                                                   \
  "  AMP_TILED_INDEX1(idx);\n"                                                                     \
  "  tile_static int t[BIG];\n"                                                                    \
  "  const int l = idx.local_id[0], r = (l + 1) % 16, tn = 1000 * idx.tile[0];\n"                  \
  "  t[l] = 1 + l + tn;\n"                                                                         \
  "  t[BIG - 64 + l] = 500 + l + tn;\n"                                                            \
  "  amp_barrier_wait();\n"                                                                        \
  "  amp_at(v, idx.global_id[0]) = t[r] + t[BIG - 64 + r];\n"

int main(void) {
  REQUIRE_VIEW(av);
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

  /* untiled, the kernel's own tile is taken (tile_from_kernel): refused where it does not fit */
  amp_array_view *v_odd = NULL;
  REQUIRE_OK(amp_array_view_section(v, amp_index2(0, 0), amp_extent2(R, C - 4), &v_odd));
  amp_arg a_odd[] = {amp_arg_view(v_odd)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent2(R, C - 4), tk, a_odd, 1),
               AMP_ERROR_INVALID_COMPUTE_DOMAIN);
  CHECK_MSG("tile size 8 (the kernel's own tile) does not divide the extent's dimension 1 (12)");
  amp_array_view_release(v_odd);
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(R, C), 8, 4), tk, a, 1),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("written for tiles of 4 x 8");
  CHECK_MSG("launched with tiles of 8 x 4");
  /* more threads than the kernel's tile (fewer where the device allows no 8 x 8: a tile above
   * the device's limit is refused for that first) */
  const int big8 = test_tile_allowed(av, NULL, 2, (const int[]){8, 8}) == TEST_TILE_RUNS;
  CHECK_STATUS(amp_parallel_for_each_tiled(
                   av, amp_tile2(amp_extent2(R, C), big8 ? 8 : 4, big8 ? 8 : 4), tk, a, 1),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG(big8 ? "tiles of 8 x 8" : "tiles of 4 x 4");
  CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 32), lk, a1, 1),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("written for tiles of 16 ");
  CHECK_MSG("launched with tiles of 32");
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), tk, a1, 1), AMP_ERROR_RANK_MISMATCH);
  CHECK_MSG("written for tiles of 4 x 8 (reqd_work_group_size / AMP_TILE_SHAPE), of rank 2, but "
            "the extent has rank 1");
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

  /* tile_static memory the kernel declares beyond the device's local memory: refused, except on
   * NVIDIA's OpenCL (the devices with a compute capability), whose driver reports 48 KB but runs
   * kernels that declare more (up to the GPU's opt-in limit: from compute capability 7.0, 64 KB
   * or more), as long as no __local argument is added; there it runs and is checked, and the same
   * kernel with a __local argument is refused. */
  amp_accelerator_properties props;
  REQUIRE_OK(test_props(av, &props));
  char opts[64];
  snprintf(opts, sizeof opts, "-DBIG=%llu", (unsigned long long)(props.local_memory / 4 + 64));
  static const char *big_src =
      "__kernel void big(AMP_VIEW(int, v)) {\n" BIG_BODY "}\n"
      "__kernel void big_arg(AMP_VIEW(int, v), __local int *extra) {\n" BIG_BODY
      "  extra[l] = 0;\n}\n";
  amp_kernel *big = test_kernel(big_src, opts, "big"),
             *big_arg = test_kernel(big_src, opts, "big_arg");
  for (int i = 0; i < N; i++)
    orig[i] = h[i];
  CHECK_OK(amp_transfer_stats_reset());
  amp_arg a2[] = {amp_arg_view(v1), amp_arg_local(16 * sizeof(int))};
  /* AMP_DEVICE_LIMITS=local=N: the device seen with N bytes, whatever its compute capability */
  const char *limits = getenv("AMP_DEVICE_LIMITS");
  const int local_limited = limits && strstr(limits, "local=") != NULL;
  if (big && props.compute_capability > 0 && props.compute_capability < 70 && !local_limited) {
    printf("a kernel declaring %llu bytes of tile_static memory: not tried on %s (compute "
           "capability %u allows no more than the 48 KB reported)\n",
           (unsigned long long)(props.local_memory + 256), props.device_path,
           props.compute_capability);
  } else if (big && (props.compute_capability == 0 || local_limited)) {
    CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), big, a1, 1),
                 AMP_ERROR_LIMIT_EXCEEDED);
    CHECK_MSG("tile_static memory");
    CHECK_UNMOVED(h, orig);
  } else if (big && big_arg) {
    CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), big_arg, a2, 2),
                 AMP_ERROR_LIMIT_EXCEEDED);
    CHECK_MSG("__local argument");
    CHECK_UNMOVED(h, orig);
    CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), big, a1, 1));
    CHECK_OK(amp_array_view_synchronize(v1));
    int wrong = 0;
    for (int i = 0; i < N; i++) {
      int r = (i % 16 + 1) % 16, tn = 1000 * (i / 16);
      wrong += h[i] != (1 + r + tn) + (500 + r + tn);
    }
    CHECK_EQ_INT(wrong, 0);
  }
  amp_kernel_release(big_arg);
  amp_kernel_release(big);
  amp_kernel_release(tk);
  amp_kernel_release(lk);
  CHECK_OK(amp_array_view_release(v));
  CHECK_OK(amp_array_view_release(v1));
  return check_done();
}
