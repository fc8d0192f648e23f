/* reduce.cl: one value from a rank-1 view, combining its elements with an associative and
 * commutative operator (runtime/algorithms/reduce.c: amp_reduce, amp_reduce_custom).
 *
 * Built from generated source: the runtime puts the operator first,
 *     T amp_reduce_op(T a, T b)   (sum, min, max, or the caller's text)
 * then `#define AMP_REDUCE_IDENTITY (...)`, then this file, with -DT=<element type> and
 * -DT4=<its 4-vector> as options. T is int, uint, float or double.
 *
 *   amp_reduce_tiles  Tile shape: 1-D tiles of exactly RED_TILE threads, a power of two (the
 *                     runtime passes -DRED_TILE: 256, or less where the device allows less). Each thread walks
 *                     the view with a grid stride, four elements at a time (one 16- or 32-byte
 *                     vector load when the view's first element is 4-element aligned, as it is
 *                     for whole views), keeps a private partial, and the tile then folds its RED_TILE
 *                     partials in tile_static memory (a tree, 8 steps for 256) and writes one value per
 *                     tile to `partial`. Domain: amp_extent1(G * RED_TILE) tiled by RED_TILE.
 *                     Launched twice: G tiles over the data, then one tile over the G partials.
 *
 * Elements are combined in an order that depends on the launch, so a float sum may differ from
 * a sequential one by rounding. */
#ifndef T /* the runtime always passes T (and T4); these defaults let the file build alone */
#define T float
#endif
#ifndef T4
#define T4 float4
#endif
#ifndef AMP_REDUCE_IDENTITY /* built alone: a sum */
#define AMP_REDUCE_IDENTITY 0
inline T amp_reduce_op(T a, T b) { return a + b; }
#endif
#ifndef RED_TILE /* the runtime passes it (reduce.c) */
#define RED_TILE 256
#endif
#if RED_TILE < 1 || (RED_TILE & (RED_TILE - 1)) != 0
#error "reduce.cl: RED_TILE must be a power of two"
#endif

__kernel void amp_reduce_tiles(AMP_CONST_VIEW(T, src), AMP_VIEW(T, partial)) {
  tile_static T sh[RED_TILE];
  const int lid = (int)get_local_id(0);
  const long n = amp_extent(src, 0), stride = (long)get_global_size(0);
  __global const T *p = &amp_at(src, 0);
  T acc = AMP_REDUCE_IDENTITY;
  long i = (long)get_global_id(0);
  if ((src_shape.s3 & 3) == 0) {
    const long n4 = n / 4;
    __global const T4 *p4 = (__global const T4 *)p;
    for (long j = i; j < n4; j += stride) {
      const T4 v = p4[j];
      acc = amp_reduce_op(acc, amp_reduce_op(amp_reduce_op(v.x, v.y), amp_reduce_op(v.z, v.w)));
    }
    for (long j = 4 * n4 + i; j < n; j += stride)
      acc = amp_reduce_op(acc, p[j]);
  } else {
    for (long j = i; j < n; j += stride)
      acc = amp_reduce_op(acc, p[j]);
  }
  sh[lid] = acc;
  amp_barrier_wait_with_tile_static_memory_fence();
  for (int s = RED_TILE / 2; s > 0; s >>= 1) {
    if (lid < s)
      sh[lid] = amp_reduce_op(sh[lid], sh[lid + s]);
    amp_barrier_wait_with_tile_static_memory_fence();
  }
  if (lid == 0)
    amp_at(partial, (int)get_group_id(0)) = sh[0];
}
