/* sample_reduction.cl: the classic C++ AMP reduction samples, from simple to cascaded, written anew
 * in OpenCL C with ampcl's prelude (tests/samples/reductions.c checks them against the host's
 * sum; amp-bench's samples.reduce rows measure them beside amp_reduce).
 *
 * Every kernel sums the rank-1 view `in` (n elements) into `partial`: the atomic one into
 * partial[0] (which the host zeroes), the tiled ones one sum per tile, partial[tile], which the
 * host reduces again with the same kernel until one element is left. A tiled launch covers n
 * rounded up to whole tiles; threads past the end add 0 and still reach every barrier.
 *
 *   reduce_atomic      one global atomic add per element: the simplest, serialised on one word
 *   reduce_interleaved tile_static tree with interleaved addressing (thread l adds l + s when
 *                      l is a multiple of 2s): half the threads idle at the first step already
 *   reduce_sequential  tile_static tree with sequential addressing (the first s threads add
 *                      l + s): the active threads stay contiguous
 *   reduce_unrolled    each thread adds two elements as it loads (tiles cover 2 * TILE), and the
 *                      tree's steps are unrolled for the tile size known at build time; every step
 *                      keeps its barrier, since OpenCL promises no lock-step within a tile
 *   reduce_cascaded    each thread first sums many elements in a register, striding by the whole
 *                      launch (the launch has as many tiles as the host chooses, not one per
 *                      TILE elements), then the sequential tree: the "cascade" of work per thread
 *
 * Options: -DT=int (default), uint, float; -DTILE=256 (default; threads per tile, a power of two,
 * which the host's tile must equal). */
#ifndef T
#define T int
#endif
#ifndef TILE
#define TILE 256
#endif

__kernel void reduce_atomic(AMP_CONST_VIEW(T, in), AMP_VIEW(T, partial)) {
  AMP_INDEX1(idx);
  if (idx[0] < amp_extent(in, 0))
    amp_atomic_fetch_add(&amp_at(partial, 0), amp_at(in, idx[0]));
}

/* The tile's sum of buf[0..TILE) into buf[0] by halving strides (sequential addressing). */
static void tile_tree_sequential(__local T *buf, int l) {
  for (int s = TILE / 2; s > 0; s >>= 1) {
    if (l < s)
      buf[l] += buf[l + s];
    amp_barrier_wait();
  }
}

AMP_TILE_SHAPE(TILE)
__kernel void reduce_interleaved(AMP_CONST_VIEW(T, in), AMP_VIEW(T, partial)) {
  AMP_TILED_INDEX1(idx);
  tile_static T buf[TILE];
  const int i = idx.global_id[0], l = idx.local_id[0];
  buf[l] = i < amp_extent(in, 0) ? amp_at(in, i) : (T)0;
  amp_barrier_wait();
  for (int s = 1; s < TILE; s <<= 1) {
    if (l % (2 * s) == 0)
      buf[l] += buf[l + s];
    amp_barrier_wait();
  }
  if (l == 0)
    amp_at(partial, idx.tile[0]) = buf[0];
}

AMP_TILE_SHAPE(TILE)
__kernel void reduce_sequential(AMP_CONST_VIEW(T, in), AMP_VIEW(T, partial)) {
  AMP_TILED_INDEX1(idx);
  tile_static T buf[TILE];
  const int i = idx.global_id[0], l = idx.local_id[0];
  buf[l] = i < amp_extent(in, 0) ? amp_at(in, i) : (T)0;
  amp_barrier_wait();
  tile_tree_sequential(buf, l);
  if (l == 0)
    amp_at(partial, idx.tile[0]) = buf[0];
}

AMP_TILE_SHAPE(TILE)
__kernel void reduce_unrolled(AMP_CONST_VIEW(T, in), AMP_VIEW(T, partial)) {
  AMP_TILED_INDEX1(idx);
  tile_static T buf[TILE];
  const int n = amp_extent(in, 0), l = idx.local_id[0];
  const int i = idx.tile[0] * (2 * TILE) + l;
  T v = i < n ? amp_at(in, i) : (T)0;
  if (i + TILE < n)
    v += amp_at(in, i + TILE);
  buf[l] = v;
  amp_barrier_wait();
#pragma unroll
  for (int s = TILE / 2; s > 0; s >>= 1) {
    if (l < s)
      buf[l] += buf[l + s];
    amp_barrier_wait();
  }
  if (l == 0)
    amp_at(partial, idx.tile[0]) = buf[0];
}

AMP_TILE_SHAPE(TILE)
__kernel void reduce_cascaded(AMP_CONST_VIEW(T, in), AMP_VIEW(T, partial)) {
  AMP_TILED_INDEX1(idx);
  tile_static T buf[TILE];
  const int n = amp_extent(in, 0), l = idx.local_id[0];
  const int stride = (int)get_global_size(0);
  T v = 0;
  for (int i = idx.global_id[0]; i < n; i += stride)
    v += amp_at(in, i);
  buf[l] = v;
  amp_barrier_wait();
  tile_tree_sequential(buf, l);
  if (l == 0)
    amp_at(partial, idx.tile[0]) = buf[0];
}
