/* kernel_histogram: a 256-bin histogram of 2^24 keys with the prelude's atomics, compared bin by
 * bin with the host's.
 *
 * Two kernels: one increments the global bins directly (amp_atomic_fetch_inc on a view's
 * element, every work item of every tile contending for 256 counters), and the usual faster shape,
 * which counts each tile's keys in tile_static bins first (amp_atomic_fetch_add on tile_static
 * memory) and then adds the tile's 256 counts to the global bins. Half the keys fall in one bin,
 * so that bin is as contended as a counter can be. */
#include <stdint.h>

#include "check.h"

enum { KEYS = 1 << 24, BINS = 256, PER_ITEM = 16, TILE = 256 };

static const char *src =
    "/* each work item counts PER_ITEM keys, items apart, so neighbours read neighbours */\n"
    "__kernel void hist_global(AMP_CONST_VIEW(uint, keys), AMP_VIEW(uint, bins)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  const int items = amp_extent(keys, 0) / PER_ITEM;\n"
    "  for (int k = 0; k < PER_ITEM; k++)\n"
    "    amp_atomic_fetch_inc(&amp_at(bins, amp_at(keys, idx[0] + k * items) >> 24));\n"
    "}\n"
    "__kernel void hist_tiled(AMP_CONST_VIEW(uint, keys), AMP_VIEW(uint, bins)) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static uint local_bins[256];\n"
    "  const int l = idx.local_id[0], items = amp_extent(keys, 0) / PER_ITEM;\n"
    "  for (int b = l; b < 256; b += idx.tile_extent[0])\n"
    "    local_bins[b] = 0;\n"
    "  amp_barrier_wait_with_tile_static_memory_fence();\n"
    "  for (int k = 0; k < PER_ITEM; k++)\n"
    "    amp_atomic_fetch_add(&local_bins[amp_at(keys, idx.global_id[0] + k * items) >> 24], 1u);\n"
    "  amp_barrier_wait_with_tile_static_memory_fence();\n"
    "  for (int b = l; b < 256; b += idx.tile_extent[0])\n"
    "    if (local_bins[b])\n"
    "      amp_atomic_fetch_add(&amp_at(bins, b), local_bins[b]);\n"
    "}\n";

int main(void) {
  REQUIRE_VIEW(av);
  /* small (oclgrind): 2^16 keys, still 16 tiles contending for the bins */
  const int nkeys = test_small() ? 1 << 16 : KEYS, items = nkeys / PER_ITEM;
  uint32_t *keys = malloc((size_t)nkeys * sizeof *keys);
  static uint32_t want[BINS], got[BINS];
  if (!keys)
    return 1;
  uint32_t x = 2463534242u;
  for (int i = 0; i < nkeys; i++) {
    x ^= x << 13; /* xorshift32 */
    x ^= x >> 17;
    x ^= x << 5;
    keys[i] = (i & 1) ? (x & 0x00ffffffu) | (0x7fu << 24) : x; /* half the keys in bin 0x7f */
    want[keys[i] >> 24]++;
  }
  /* tiles of 256, or the most (a power of two) the device allows: the kernel loops over the bins */
  int tile = TILE;
  while (tile > 1 && test_tile_allowed(av, NULL, 1, &tile) != TEST_TILE_RUNS)
    tile /= 2;
  if (tile < TILE)
    printf("hist_tiled in tiles of %d threads, the most this device allows (not %d)\n", tile, TILE);
  char opts[64];
  snprintf(opts, sizeof opts, "-DPER_ITEM=%d", PER_ITEM);
  const char *names[] = {"hist_global", "hist_tiled"};
  amp_array_view *vk;
  CHECK_OK(amp_array_view_create_const(amp_extent1(nkeys), AMP_UINT32, keys, &vk));
  for (int t = 0; t < 2; t++) {
    amp_kernel *k = test_kernel(src, opts, names[t]);
    amp_array_view *vb;
    memset(got, 0, sizeof got); /* the kernels add to the bins */
    CHECK_OK(amp_array_view_create(amp_extent1(BINS), AMP_UINT32, got, &vb));
    amp_arg a[] = {amp_arg_view(vk), amp_arg_view(vb)};
    if (k && t == 0)
      CHECK_OK(amp_parallel_for_each(av, amp_extent1(items), k, a, 2));
    if (k && t == 1)
      CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(items), tile), k, a, 2));
    CHECK_OK(amp_array_view_synchronize(vb));
    int bad = 0;
    uint64_t total = 0;
    for (int b = 0; b < BINS; b++) {
      total += got[b];
      if (got[b] != want[b] && bad++ == 0)
        fprintf(stderr, "%s: bin %d holds %u, the host counted %u\n", names[t], b, got[b], want[b]);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(total, nkeys);
    CHECK_EQ_INT(got[0x7f], want[0x7f]);
    amp_array_view_release(vb);
    amp_kernel_release(k);
  }
  amp_array_view_release(vk);
  free(keys);
  return check_done();
}
