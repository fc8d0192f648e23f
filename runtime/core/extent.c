/* runtime/core/extent.c: extent, index and tiled extent arithmetic (AMP §4).
 *
 * Every computation is checked in the type it is done in: int components never overflow (a result
 * that would is reported, see extent.h), products of dimensions are checked in size_t. */
#include "ampcl/extent.h"

#include <limits.h>
#include <stdint.h>

#include "core/error.h"

/* amp_extent1..3 and amp_index1..3, alike but for the components a rank leaves unused: 1 in an
 * extent (so that its size is the product of all three), 0 in an index. */
#define RANK_CONSTRUCTORS(T, unused)                                                               \
  T T##1(int x0) {                                                                                 \
    T v = {1, {x0, unused, unused}};                                                               \
    return v;                                                                                      \
  }                                                                                                \
  T T##2(int x0, int x1) {                                                                         \
    T v = {2, {x0, x1, unused}};                                                                   \
    return v;                                                                                      \
  }                                                                                                \
  T T##3(int x0, int x1, int x2) {                                                                 \
    T v = {3, {x0, x1, x2}};                                                                       \
    return v;                                                                                      \
  }
RANK_CONSTRUCTORS(amp_extent, 1)
RANK_CONSTRUCTORS(amp_index, 0)

bool amp_extent_is_valid(amp_extent e) {
  if (e.rank < 1 || e.rank > AMP_MAX_RANK)
    return false;
  for (int d = 0; d < e.rank; d++)
    if (e.dim[d] <= 0)
      return false;
  return true;
}

size_t amp_extent_size(amp_extent e) {
  if (!amp_extent_is_valid(e))
    return 0;
  size_t n = 1;
  for (int d = 0; d < e.rank; d++) {
    if ((size_t)e.dim[d] > SIZE_MAX / n)
      return SIZE_MAX;
    n *= (size_t)e.dim[d];
  }
  return n;
}

bool amp_extent_contains(amp_extent e, amp_index idx) {
  if (!amp_extent_is_valid(e) || idx.rank != e.rank)
    return false;
  for (int d = 0; d < e.rank; d++)
    if (idx.i[d] < 0 || idx.i[d] >= e.dim[d])
      return false;
  return true;
}

bool amp_extent_equal(amp_extent a, amp_extent b) {
  if (a.rank != b.rank || a.rank < 1 || a.rank > AMP_MAX_RANK)
    return false;
  for (int d = 0; d < a.rank; d++)
    if (a.dim[d] != b.dim[d])
      return false;
  return true;
}

/* a + sign * b component-wise, or rank 0 (with the reason recorded) on a rank mismatch or an
 * overflow. */
static amp_index index_op(amp_index a, amp_index b, int sign, const char *fn) {
  amp_index r = {0, {0, 0, 0}};
  if (a.rank != b.rank || a.rank < 1 || a.rank > AMP_MAX_RANK)
    return r;
  for (int d = 0; d < a.rank; d++) {
    int bad = sign > 0 ? __builtin_add_overflow(a.i[d], b.i[d], &r.i[d])
                       : __builtin_sub_overflow(a.i[d], b.i[d], &r.i[d]);
    if (bad) {
      amp__set_error(AMP_ERROR_LIMIT_EXCEEDED,
                     "%s: %d %c %d in dimension %d does not fit in an int", fn, a.i[d],
                     sign > 0 ? '+' : '-', b.i[d], d);
      r.rank = 0;
      return r;
    }
  }
  r.rank = a.rank;
  return r;
}

amp_index amp_index_add(amp_index a, amp_index b) {
  return index_op(a, b, 1, "amp_index_add");
}

amp_index amp_index_sub(amp_index a, amp_index b) {
  return index_op(a, b, -1, "amp_index_sub");
}

amp_extent amp_extent_add(amp_extent e, amp_index delta) {
  amp_extent r = {0, {0, 0, 0}};
  if (e.rank != delta.rank || e.rank < 1 || e.rank > AMP_MAX_RANK)
    return r;
  r = e;
  for (int d = 0; d < e.rank; d++)
    if (__builtin_add_overflow(e.dim[d], delta.i[d], &r.dim[d])) {
      amp__set_error(AMP_ERROR_LIMIT_EXCEEDED,
                     "amp_extent_add: %d + %d in dimension %d does not fit in an int", e.dim[d],
                     delta.i[d], d);
      r.rank = 0;
      return r;
    }
  return r;
}

size_t amp_extent_linear(amp_extent e, amp_index idx) {
  if (!amp_extent_contains(e, idx) || amp_extent_size(e) == SIZE_MAX)
    return SIZE_MAX;
  size_t lin = 0;
  for (int d = 0; d < e.rank; d++)
    lin = lin * (size_t)e.dim[d] + (size_t)idx.i[d];
  return lin;
}

static amp_tiled_extent mk_tiled(amp_extent e, int rank, int t0, int t1, int t2) {
  amp_tiled_extent te = {e, {t0, t1, t2}, rank}; /* a rank mismatch is rejected at launch */
  return te;
}

static bool ranks_match(amp_tiled_extent te) {
  return te.tile_rank == 0 || te.tile_rank == te.extent.rank;
}

amp_tiled_extent amp_tile1(amp_extent e, int t0) {
  return mk_tiled(e, 1, t0, 1, 1);
}
amp_tiled_extent amp_tile2(amp_extent e, int t0, int t1) {
  return mk_tiled(e, 2, t0, t1, 1);
}
amp_tiled_extent amp_tile3(amp_extent e, int t0, int t1, int t2) {
  return mk_tiled(e, 3, t0, t1, t2);
}

bool amp_tiled_extent_divides(amp_tiled_extent te) {
  if (!amp_extent_is_valid(te.extent) || !ranks_match(te))
    return false;
  for (int d = 0; d < te.extent.rank; d++)
    if (te.tile[d] <= 0 || te.extent.dim[d] % te.tile[d] != 0)
      return false;
  return true;
}

amp_tiled_extent amp_tiled_extent_pad(amp_tiled_extent te) {
  if (!amp_extent_is_valid(te.extent) || !ranks_match(te))
    return te;
  for (int d = 0; d < te.extent.rank; d++) {
    int t = te.tile[d], x = te.extent.dim[d];
    if (t <= 0 || x % t == 0)
      continue; /* already a multiple: unchanged, even next to INT_MAX */
    if (x > INT_MAX - (t - x % t)) {
      amp__set_error(AMP_ERROR_LIMIT_EXCEEDED,
                     "amp_tiled_extent_pad: dimension %d (%d) padded to a multiple of the tile %d "
                     "would exceed INT_MAX (%d)",
                     d, x, t, INT_MAX);
      te.extent.rank = 0; /* rejected by every call, with the reason above */
      return te;
    }
    te.extent.dim[d] = x + (t - x % t);
  }
  return te;
}

amp_tiled_extent amp_tiled_extent_truncate(amp_tiled_extent te) {
  if (!amp_extent_is_valid(te.extent) || !ranks_match(te))
    return te;
  for (int d = 0; d < te.extent.rank; d++)
    if (te.tile[d] > 0)
      te.extent.dim[d] = te.extent.dim[d] / te.tile[d] * te.tile[d];
  return te;
}

size_t amp_tiled_extent_tile_count(amp_tiled_extent te) {
  if (!amp_tiled_extent_divides(te))
    return 0;
  size_t n = 1;
  for (int d = 0; d < te.extent.rank; d++) {
    size_t c = (size_t)(te.extent.dim[d] / te.tile[d]);
    if (c > SIZE_MAX / n)
      return SIZE_MAX;
    n *= c;
  }
  return n;
}
