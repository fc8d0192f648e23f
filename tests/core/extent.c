/* extent: the host-side geometry of AMP §4 — extents, indexes and tiled extents.
 *
 * Proves: size/contains/equal/is_valid follow the documented rules (rank 1..3, positive
 * dimensions); index arithmetic is component-wise and a rank mismatch gives rank 0; linear
 * positions are row-major with idx[0] slowest; amp_tile1/2/3 keep the tile sizes and a tile of
 * the wrong rank never divides; divides, pad, truncate and tile_count agree with hand-computed
 * values. No device is needed. */
#include "check.h"

static void test_extent(void) {
  amp_extent e1 = amp_extent1(7), e2 = amp_extent2(3, 5), e3 = amp_extent3(2, 3, 4);
  CHECK_EQ_INT(e1.rank, 1);
  CHECK_EQ_INT(e2.rank, 2);
  CHECK_EQ_INT(e3.rank, 3);
  CHECK_EQ_INT(e3.dim[0], 2);
  CHECK_EQ_INT(e3.dim[2], 4);
  CHECK_EQ_INT(amp_extent_size(e1), 7);
  CHECK_EQ_INT(amp_extent_size(e2), 15);
  CHECK_EQ_INT(amp_extent_size(e3), 24);
  /* invalid extents have size 0 and are not valid */
  CHECK_EQ_INT(amp_extent_size(amp_extent2(3, 0)), 0);
  CHECK_EQ_INT(amp_extent_size(amp_extent1(-4)), 0);
  CHECK_EQ_INT(amp_extent_size(amp_extent3(-1, 2, 3)), 0); /* AMP: -6 (docs/DIFFERENCES.md) */
  amp_extent rank0 = {0, {1, 1, 1}}, rank4 = {4, {1, 1, 1}};
  CHECK_EQ_INT(amp_extent_size(rank0), 0);
  CHECK_EQ_INT(amp_extent_size(rank4), 0);
  CHECK(amp_extent_is_valid(e3));
  CHECK(!amp_extent_is_valid(amp_extent3(1, -1, 1)));
  CHECK(!amp_extent_is_valid(rank0));

  /* contains: bounds are [0, dim) in every dimension, and the ranks must match */
  CHECK(amp_extent_contains(e2, amp_index2(0, 0)));
  CHECK(amp_extent_contains(e2, amp_index2(2, 4)));
  CHECK(!amp_extent_contains(e2, amp_index2(3, 0)));
  CHECK(!amp_extent_contains(e2, amp_index2(0, 5)));
  CHECK(!amp_extent_contains(e2, amp_index2(-1, 0)));
  CHECK(!amp_extent_contains(e2, amp_index1(0)));
  CHECK(!amp_extent_contains(e2, amp_index3(0, 0, 0)));
  CHECK(amp_extent_contains(e3, amp_index3(1, 2, 3)));
  CHECK(!amp_extent_contains(e3, amp_index3(1, 2, 4)));

  /* equal: same rank and dimensions */
  CHECK(amp_extent_equal(e2, amp_extent2(3, 5)));
  CHECK(!amp_extent_equal(e2, amp_extent2(5, 3)));
  CHECK(!amp_extent_equal(amp_extent1(3), amp_extent2(3, 1)));
  CHECK(!amp_extent_equal(rank0, rank0));

  /* extent + index */
  amp_extent grown = amp_extent_add(e2, amp_index2(1, -2));
  CHECK(amp_extent_equal(grown, amp_extent2(4, 3)));
  CHECK_EQ_INT(amp_extent_add(e2, amp_index1(1)).rank, 0);
}

static void test_index(void) {
  amp_index a = amp_index3(1, 2, 3), b = amp_index3(10, 20, 30);
  amp_index s = amp_index_add(a, b), d = amp_index_sub(a, b);
  CHECK_EQ_INT(s.rank, 3);
  CHECK_EQ_INT(s.i[0], 11);
  CHECK_EQ_INT(s.i[1], 22);
  CHECK_EQ_INT(s.i[2], 33);
  CHECK_EQ_INT(d.rank, 3);
  CHECK_EQ_INT(d.i[0], -9);
  CHECK_EQ_INT(d.i[1], -18);
  CHECK_EQ_INT(d.i[2], -27);
  amp_index two = amp_index_add(amp_index2(4, 5), amp_index2(-4, 1));
  CHECK_EQ_INT(two.rank, 2);
  CHECK_EQ_INT(two.i[0], 0);
  CHECK_EQ_INT(two.i[1], 6);
  /* different ranks: rank 0, which every call rejects */
  CHECK_EQ_INT(amp_index_add(amp_index1(1), amp_index2(1, 1)).rank, 0);
  CHECK_EQ_INT(amp_index_sub(amp_index3(1, 1, 1), amp_index2(1, 1)).rank, 0);

  /* linear: row-major, idx[0] slowest */
  amp_extent e3 = amp_extent3(2, 3, 4);
  CHECK_EQ_INT(amp_extent_linear(e3, amp_index3(0, 0, 0)), 0);
  CHECK_EQ_INT(amp_extent_linear(e3, amp_index3(0, 0, 1)), 1);
  CHECK_EQ_INT(amp_extent_linear(e3, amp_index3(0, 1, 0)), 4);
  CHECK_EQ_INT(amp_extent_linear(e3, amp_index3(1, 0, 0)), 12);
  CHECK_EQ_INT(amp_extent_linear(e3, amp_index3(1, 2, 3)), 23);
  CHECK_EQ_INT(amp_extent_linear(amp_extent2(3, 5), amp_index2(2, 4)), 14);
  CHECK_EQ_INT(amp_extent_linear(amp_extent1(9), amp_index1(8)), 8);
  /* every index of e3 maps to a distinct position, in order */
  size_t want = 0;
  int ordered = 1;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++)
        ordered &= amp_extent_linear(e3, amp_index3(i, j, k)) == want++;
  CHECK(ordered);
}

static void test_tiles(void) {
  amp_tiled_extent t1 = amp_tile1(amp_extent1(64), 16);
  CHECK_EQ_INT(t1.extent.rank, 1);
  CHECK_EQ_INT(t1.tile[0], 16);
  CHECK(amp_tiled_extent_divides(t1));
  CHECK_EQ_INT(amp_tiled_extent_tile_count(t1), 4);

  amp_tiled_extent t2 = amp_tile2(amp_extent2(16, 16), 2, 2);
  CHECK_EQ_INT(t2.extent.rank, 2);
  CHECK_EQ_INT(t2.tile[0], 2);
  CHECK_EQ_INT(t2.tile[1], 2);
  CHECK(amp_tiled_extent_divides(t2));
  CHECK_EQ_INT(amp_tiled_extent_tile_count(t2), 64);

  amp_tiled_extent t3 = amp_tile3(amp_extent3(4, 6, 8), 2, 3, 4);
  CHECK_EQ_INT(t3.extent.rank, 3);
  CHECK_EQ_INT(t3.tile[2], 4);
  CHECK(amp_tiled_extent_divides(t3));
  CHECK_EQ_INT(amp_tiled_extent_tile_count(t3), 2 * 2 * 2);

  /* rank mismatch: a rank-1 tile on a rank-2 extent never divides and has no tiles */
  amp_tiled_extent bad = amp_tile1(amp_extent2(16, 16), 4);
  CHECK_EQ_INT(bad.tile_rank, 1);
  CHECK_EQ_INT(bad.extent.rank, 2); /* the extent is kept; the launch reports both ranks */
  CHECK(!amp_tiled_extent_divides(bad));
  CHECK_EQ_INT(amp_tiled_extent_tile_count(bad), 0);
  CHECK(!amp_tiled_extent_divides(amp_tile3(amp_extent2(4, 4), 2, 2, 1)));
  CHECK(!amp_tiled_extent_divides(amp_tile2(amp_extent1(4), 2, 2)));

  /* not dividing, non-positive tiles */
  amp_tiled_extent odd = amp_tile2(amp_extent2(10, 7), 4, 4);
  CHECK(!amp_tiled_extent_divides(odd));
  CHECK_EQ_INT(amp_tiled_extent_tile_count(odd), 0);
  CHECK(!amp_tiled_extent_divides(amp_tile1(amp_extent1(8), 0)));
  CHECK(!amp_tiled_extent_divides(amp_tile1(amp_extent1(8), -2)));

  /* pad rounds up, truncate rounds down; tiles are kept */
  amp_tiled_extent padded = amp_tiled_extent_pad(odd);
  CHECK(amp_extent_equal(padded.extent, amp_extent2(12, 8)));
  CHECK_EQ_INT(padded.tile[0], 4);
  CHECK_EQ_INT(padded.tile[1], 4);
  CHECK(amp_tiled_extent_divides(padded));
  CHECK_EQ_INT(amp_tiled_extent_tile_count(padded), 3 * 2);
  amp_tiled_extent cut = amp_tiled_extent_truncate(odd);
  CHECK(amp_extent_equal(cut.extent, amp_extent2(8, 4)));
  CHECK(amp_tiled_extent_divides(cut));
  CHECK_EQ_INT(amp_tiled_extent_tile_count(cut), 2 * 1);
  /* already dividing: pad and truncate change nothing */
  CHECK(amp_extent_equal(amp_tiled_extent_pad(t3).extent, t3.extent));
  CHECK(amp_extent_equal(amp_tiled_extent_truncate(t3).extent, t3.extent));
  /* rank 3 and rank 1 */
  amp_tiled_extent p3 = amp_tiled_extent_pad(amp_tile3(amp_extent3(5, 5, 5), 2, 3, 4));
  CHECK(amp_extent_equal(p3.extent, amp_extent3(6, 6, 8)));
  CHECK_EQ_INT(amp_tiled_extent_tile_count(p3), 3 * 2 * 2);
  amp_tiled_extent c1 = amp_tiled_extent_truncate(amp_tile1(amp_extent1(1000), 256));
  CHECK(amp_extent_equal(c1.extent, amp_extent1(768)));
  CHECK_EQ_INT(amp_tiled_extent_tile_count(c1), 3);
}

int main(void) {
  test_extent();
  test_index();
  test_tiles();
  return check_done();
}
