/* stencil.cl: a 2-D stencil (convolution) of a float image with clamp-to-edge borders
 * (runtime/algorithms/stencil.c: amp_stencil_2d, amp_gaussian_blur):
 *
 *   dst(i, j) = sum over -r <= a, b <= r of w(a + r, b + r) * src(clamp(i + a), clamp(j + b))
 *
 * where w is a (2r + 1) x (2r + 1) view of weights, r <= ST_MAX_R (8), and clamp keeps a row
 * index in [0, H) and a column index in [0, W).
 *
 * Tile shape: 2-D tiles of ST_TILE x ST_TILE (16 x 16) threads, one output pixel each. The tile
 * first loads its (16 + 2r) x (16 + 2r) input window, halo included, into tile_static memory
 * (every thread loads several pixels, consecutive threads consecutive pixels of a row, so the
 * loads are coalesced; rows are padded by one float), and the weights into a second tile_static
 * array; after one barrier each thread sums its (2r + 1)^2 products from tile_static memory, so
 * every input pixel is read from global memory about (16 + 2r)^2 / 256 times per tile instead
 * of (2r + 1)^2. Domain: amp_extent2(ceil(H / 16) * 16, ceil(W / 16) * 16) tiled by (16, 16);
 * threads outside the image load but do not store. */
#define ST_TILE 16
#define ST_MAX_R 8
#define ST_SPAN (ST_TILE + 2 * ST_MAX_R)

__kernel void amp_stencil_tiles(AMP_CONST_VIEW(float, src), AMP_VIEW(float, dst),
                                AMP_CONST_VIEW(float, w), int r) {
  tile_static float win[ST_SPAN][ST_SPAN + 1];
  tile_static float wt[(2 * ST_MAX_R + 1) * (2 * ST_MAX_R + 1)];
  AMP_TILED_INDEX2(idx);
  const int H = amp_extent(src, 0), W = amp_extent(src, 1);
  const int span = ST_TILE + 2 * r, k = 2 * r + 1;
  const int lid = idx.local_id[0] * ST_TILE + idx.local_id[1];
  const int r0 = idx.tile_origin[0] - r, c0 = idx.tile_origin[1] - r;
  for (int e = lid; e < span * span; e += ST_TILE * ST_TILE) {
    const int y = e / span, x = e % span;
    const int gy = clamp(r0 + y, 0, H - 1), gx = clamp(c0 + x, 0, W - 1);
    win[y][x] = amp_at(src, gy, gx);
  }
  for (int e = lid; e < k * k; e += ST_TILE * ST_TILE)
    wt[e] = amp_at(w, e / k, e % k);
  amp_barrier_wait_with_tile_static_memory_fence();
  const int i = idx.global_id[0], j = idx.global_id[1];
  if (i >= H || j >= W)
    return;
  const int ly = idx.local_id[0], lx = idx.local_id[1];
  float sum = 0.0f;
  for (int a = 0; a < k; a++)
    for (int b = 0; b < k; b++)
      sum = fma(wt[a * k + b], win[ly + a][lx + b], sum);
  amp_at(dst, i, j) = sum;
}
