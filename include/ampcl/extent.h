/* ampcl/extent.h: extents, indexes and tiled extents (C++ AMP §4).
 *
 * These are small structs passed by value, not handles: nothing to create or release.
 * ampcl supports ranks 1, 2 and 3 only (AMP_MAX_RANK). A rank of 0 or 4 and above, set by hand in
 * the struct, is refused by every call that takes an extent, index or tiled extent, with
 * AMP_ERROR_INVALID_COMPUTE_DOMAIN (launches, views, arrays) or AMP_ERROR_RANK_MISMATCH (when the
 * ranks of two operands differ), and a message naming the rank. Dimensions are row-major as in AMP:
 * dim[0] varies slowest, dim[rank-1] fastest. When ampcl launches a kernel it maps AMP dimension
 * rank-1 onto OpenCL dimension 0, so neighbouring work-items touch neighbouring elements (coalesced
 * on GPUs, vectorised on CPUs).
 *
 * The constructors never fail; a bad value (a rank mismatch, a non-positive size) is reported by
 * the call that uses it, with a message that names it. An extent with a zero or negative
 * dimension is well defined here (its size is 0) but is refused for allocation and launch.
 *
 * Overflow: the arithmetic below never wraps. A result that does not fit in an int (index and
 * extent sums, pad() next to INT_MAX) comes back with rank 0, which every call refuses, and the
 * reason (naming the values) is recorded for amp_last_error() with AMP_ERROR_LIMIT_EXCEEDED. A
 * size_t product that does not fit gives SIZE_MAX, which no allocation can satisfy. */
#ifndef AMPCL_EXTENT_H
#define AMPCL_EXTENT_H

#include <stdbool.h>
#include <stddef.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AMP_MAX_RANK 3

/* The shape of a domain or a view: extent<N> in AMP. */
typedef struct amp_extent {
  int rank;
  int dim[AMP_MAX_RANK];
} amp_extent;

/* A position in an extent: index<N> in AMP. Components may be negative (offsets). */
typedef struct amp_index {
  int rank;
  int i[AMP_MAX_RANK];
} amp_index;

/* An extent split into tiles of tile[0..rank-1] threads: tiled_extent<D0,D1,D2> in AMP, with the
 * tile sizes chosen at run time. A launch over it fails with AMP_ERROR_INVALID_COMPUTE_DOMAIN
 * unless every tile size divides the extent; pad() or truncate() make that so. */
typedef struct amp_tiled_extent {
  amp_extent extent;
  int tile[AMP_MAX_RANK];
  int tile_rank; /* how many tile sizes were given (amp_tileN); 0 means the extent's rank */
} amp_tiled_extent;

AMP_API amp_extent amp_extent1(int d0);
AMP_API amp_extent amp_extent2(int d0, int d1);
AMP_API amp_extent amp_extent3(int d0, int d1, int d2);
AMP_API amp_index amp_index1(int i0);
AMP_API amp_index amp_index2(int i0, int i1);
AMP_API amp_index amp_index3(int i0, int i1, int i2);

/* Number of points in the extent (the product of its dimensions); 0 if any dimension is not
 * positive or the rank is not 1..3; SIZE_MAX if the product does not fit in size_t. */
AMP_API size_t amp_extent_size(amp_extent e);

/* True when the extent is usable: rank 1..3 and every dimension positive. */
AMP_API bool amp_extent_is_valid(amp_extent e);

/* True when idx has the extent's rank and 0 <= idx.i[d] < e.dim[d] in every dimension. */
AMP_API bool amp_extent_contains(amp_extent e, amp_index idx);

/* True when both have the same rank and the same dimensions. */
AMP_API bool amp_extent_equal(amp_extent a, amp_extent b);

/* Component-wise arithmetic (AMP's operator+ and operator-). Operands of different ranks, or a
 * component that would overflow an int, give a result of rank 0, which every call rejects (the
 * overflow is also recorded for amp_last_error()). */
AMP_API amp_index amp_index_add(amp_index a, amp_index b);
AMP_API amp_index amp_index_sub(amp_index a, amp_index b);
AMP_API amp_extent amp_extent_add(amp_extent e, amp_index delta);

/* The row-major linear position of idx in e (idx[0] slowest), for host code. SIZE_MAX when e does
 * not contain idx (amp_extent_contains). */
AMP_API size_t amp_extent_linear(amp_extent e, amp_index idx);

/* Tiles the extent (AMP's extent::tile<D0,...>()). The number of tile sizes must equal the
 * extent's rank: use amp_tile1 for rank 1, amp_tile2 for rank 2, amp_tile3 for rank 3. */
AMP_API amp_tiled_extent amp_tile1(amp_extent e, int t0);
AMP_API amp_tiled_extent amp_tile2(amp_extent e, int t0, int t1);
AMP_API amp_tiled_extent amp_tile3(amp_extent e, int t0, int t1, int t2);

/* True when every tile size is positive and divides its dimension. */
AMP_API bool amp_tiled_extent_divides(amp_tiled_extent te);

/* Rounds each dimension up to a multiple of its tile (AMP's pad()). Kernels launched over a
 * padded extent must check bounds against the data's extent themselves. A dimension that already
 * is a multiple is unchanged (also next to INT_MAX). One that cannot be padded without exceeding
 * INT_MAX makes the result's extent rank 0 (refused by the launch), with the reason recorded for
 * amp_last_error() (AMP_ERROR_LIMIT_EXCEEDED). */
AMP_API amp_tiled_extent amp_tiled_extent_pad(amp_tiled_extent te);

/* Rounds each dimension down to a multiple of its tile (AMP's truncate()); the remainder is not
 * computed by the launch and is the caller's to handle. */
AMP_API amp_tiled_extent amp_tiled_extent_truncate(amp_tiled_extent te);

/* Number of tiles in the tiled extent (0 if it does not divide; SIZE_MAX if the count does not
 * fit in size_t). */
AMP_API size_t amp_tiled_extent_tile_count(amp_tiled_extent te);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_EXTENT_H */
