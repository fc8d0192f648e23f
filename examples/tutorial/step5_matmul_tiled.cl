/* Step 5: C = A * B in tiles. Each tile of work-items computes a TILE x TILE block of C, walking
 * along A's rows and B's columns one TILE x TILE block at a time: the tile copies the two blocks
 * into tile_static memory, waits, and multiplies them from there. Every element of A and B is read
 * from global memory once per tile instead of once per work-item.
 *
 * A tile has TILE / WPT x TILE work-items, and each one computes WPT elements of a column of the
 * block (rows r, r + TILE/WPT, ...): the element of B it loads from tile_static memory serves WPT
 * multiply-adds held in registers. That reuse is what makes the tiled kernel beat the naive one on
 * a CPU as well as on a GPU.
 *
 * Built with -DTILE=... -DWPT=...: the host launches tiles of (TILE / WPT, TILE) over
 * (ceil(m / TILE) * TILE / WPT, n) padded up to whole tiles (amp_tiled_extent_pad). Work-items past
 * C's edge load zeros, reach every barrier, and write nothing. */
#if !defined(TILE) || !defined(WPT) || TILE % WPT != 0
#error "build with -DTILE=<tile> -DWPT=<elements per work-item>, WPT dividing TILE"
#endif
#define STEP (TILE / WPT) /* work-item rows in a tile */

AMP_TILE_SHAPE(STEP, TILE)
__kernel void matmul_tiled(AMP_CONST_VIEW(float, a), AMP_CONST_VIEW(float, b), AMP_VIEW(float, c)) {
  AMP_TILED_INDEX2(idx);
  tile_static float ta[TILE][TILE];
  tile_static float tb[TILE][TILE];
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int r = idx.local_id[0], q = idx.local_id[1];
  const int row0 = idx.tile[0] * TILE; /* the block's first row of C */
  const int col = idx.global_id[1];
  float sum[WPT];
  for (int i = 0; i < WPT; i++)
    sum[i] = 0.0f;
  for (int k = 0; k < w; k += TILE) {
    for (int i = 0; i < WPT; i++) { /* each work-item loads WPT elements of each block */
      const int rr = r + i * STEP;
      ta[rr][q] = (row0 + rr < m && k + q < w) ? amp_at(a, row0 + rr, k + q) : 0.0f;
      tb[rr][q] = (k + rr < w && col < n) ? amp_at(b, k + rr, col) : 0.0f;
    }
    amp_barrier_wait(); /* both blocks are loaded */
    for (int t = 0; t < TILE; t++) {
      const float bt = tb[t][q];
      for (int i = 0; i < WPT; i++)
        sum[i] += ta[r + i * STEP][t] * bt;
    }
    amp_barrier_wait(); /* everyone is done with the blocks before the next k overwrites them */
  }
  for (int i = 0; i < WPT; i++) {
    const int row = row0 + r + i * STEP;
    if (row < m && col < n)
      amp_at(c, row, col) = sum[i];
  }
}
