/* histogram_weighted.cl: amp_histogram_weighted (runtime/algorithms/histogram_weighted.c):
 * bins[v] = the sum of weights[i] over the elements i of src equal to v, for 0 <= v < B (the
 * number of bins); other values add nothing. k-means' new centres are this: the points' cluster
 * numbers as src, one coordinate as the weights (and weights of 1 for the counts).
 *
 *   amp_whist_zero    bins[i] = 0. Untiled, amp_extent1(B).
 *   amp_whist_local   1-D tiles of WH_TILE threads, a grid stride over the elements: each tile
 *                     sums into its own copy of the bins in tile_static memory (B * sizeof(W),
 *                     a __local argument), then adds its non-zero sums to the global bins (one
 *                     global atomic per bin and tile).
 *   amp_whist_global  for more bins than fit in tile_static memory: one global atomic per element.
 *
 * Built with -DT=<int or uint> (src), -DW=<int, uint or float> (weights and bins), -DWH_TILE.
 * Float sums go through compare-and-swap (the prelude's amp_atomic_fetch_add), in an order that
 * varies from run to run. */
#ifndef T
#define T int
#endif
#ifndef W
#define W float
#endif
#ifndef WH_TILE
#define WH_TILE 256
#endif

__kernel void amp_whist_zero(AMP_VIEW(W, bins)) {
  AMP_INDEX1(idx);
  if (idx[0] < amp_extent(bins, 0))
    amp_at(bins, idx[0]) = (W)0;
}

AMP_TILE_SHAPE(WH_TILE)
__kernel void amp_whist_local(AMP_CONST_VIEW(T, src), AMP_CONST_VIEW(W, weights),
                              AMP_VIEW(W, bins), __local W *h) {
  const int lid = (int)get_local_id(0), nb = amp_extent(bins, 0);
  for (int b = lid; b < nb; b += WH_TILE)
    h[b] = (W)0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int n = amp_extent(src, 0), stride = (int)get_global_size(0);
  for (int j = (int)get_global_id(0); j < n; j += stride) {
    const uint v = (uint)amp_at(src, j);
    if (v < (uint)nb)
      amp_atomic_fetch_add(&h[v], amp_at(weights, j));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < nb; b += WH_TILE)
    if (h[b] != (W)0)
      amp_atomic_fetch_add(&amp_at(bins, b), h[b]);
}

__kernel void amp_whist_global(AMP_CONST_VIEW(T, src), AMP_CONST_VIEW(W, weights),
                               AMP_VIEW(W, bins)) {
  const int nb = amp_extent(bins, 0);
  const int n = amp_extent(src, 0), stride = (int)get_global_size(0);
  for (int j = (int)get_global_id(0); j < n; j += stride) {
    const uint v = (uint)amp_at(src, j);
    if (v < (uint)nb)
      amp_atomic_fetch_add(&amp_at(bins, v), amp_at(weights, j));
  }
}
