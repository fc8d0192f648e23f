/* sample_reductions: the classic C++ AMP reduction samples (kernels_cl/samples/sample_reduction.cl:
 * global atomics, interleaved and sequential tile_static trees, unrolled, cascaded) against the
 * host's sum, at tiles of 256 and 32 threads, at sizes around one and two tiles and past a million
 * elements (several passes; up to 513 in the small runs, tests/check.h), reading a view of host
 * memory and, for one size, an array. A kernel launched with another tile than its build is
 * refused, and the host memory under the view stays as it was. */
#include "samples/sample_tiles.h"

static const int sizes[] = {1, 31, 255, 256, 257, 513, 100003, (1 << 20) + 7};
enum { NSIZES = sizeof sizes / sizeof sizes[0], MAXN = (1 << 20) + 7 };

static int32_t data[MAXN];

static int64_t host_sum(int n) {
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += data[i];
  return s;
}

static void check_tile(amp_accelerator_view *av, const sample_kernels *k) {
  const int tile = k->tile;
  for (int z = 0; z < NSIZES && !(test_small() && sizes[z] > 1000); z++) {
    const int n = sizes[z];
    amp_array_view *v = NULL;
    CHECK_OK(amp_array_view_create_const(amp_extent1(n), AMP_INT32, data, &v));
    for (int r = 0; r < SAMPLE_REDUCE_KINDS && v; r++) {
      int32_t got = -12345;
      CHECK_OK(sample_reduce(av, k, (sample_reduce_kind)r, amp_arg_view(v), n, 64, &got));
      if (got != host_sum(n))
        fprintf(stderr, "%s, tile %d, n %d: %d, the host's %lld\n", sample_reduce_names[r], tile, n,
                got, (long long)host_sum(n));
      CHECK_EQ_INT(got, host_sum(n));
    }
    amp_array_view_release(v);
  }
  /* from a device array, the cascaded kernel with few tiles: many elements a thread */
  const int na = test_small() ? 1000 : 100003;
  amp_array *a = NULL;
  CHECK_OK(amp_array_create_from(av, amp_extent1(na), AMP_INT32, data, &a));
  int32_t got = 0;
  if (a)
    CHECK_OK(sample_reduce(av, k, SAMPLE_REDUCE_CASCADED, amp_arg_array(a), na, 3, &got));
  CHECK_EQ_INT(got, host_sum(na));
  amp_array_release(a);
}

/* A tiled sample launched with a tile its build does not have: refused, nothing written. */
static void test_wrong_tile(amp_accelerator_view *av) {
  sample_kernels k;
  CHECK_OK(sample_kernels_create(64, &k));
  static int32_t out[4] = {7, 7, 7, 7}, orig[4] = {7, 7, 7, 7};
  amp_array_view *vin = NULL, *vout = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(256), AMP_INT32, data, &vin));
  CHECK_OK(amp_array_view_create(amp_extent1(4), AMP_INT32, out, &vout));
  if (k.carry && vin && vout) {
    amp_arg args[] = {amp_arg_view(vin), amp_arg_view(vout)};
    amp_transfer_stats_reset();
    CHECK(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(256), 32),
                                      k.reduce[SAMPLE_REDUCE_SEQUENTIAL], args,
                                      AMP_NARGS(args)) != AMP_SUCCESS);
    CHECK_MSG("64");
    CHECK_UNMOVED(out, orig);
  }
  amp_array_view_release(vout);
  amp_array_view_release(vin);
  sample_kernels_release(&k);
}

int main(void) {
  REQUIRE_VIEW(av);
  sample_fill(data, MAXN, 12345u, 256); /* -128 .. 127: sums of 2^20 fit an int */
  if (sample_check_tiles(av, check_tile))
    return 1;
  test_wrong_tile(av);
  return check_done();
}
