/* Step 4: each tile of the input adds up its elements, in a tree, through memory its work-items
 * share; work-item 0 of tile t writes sums[t].
 *
 * tile_sum_static: the tile's memory is `tile_static float part[TILE]`, sized when the program is
 *   built (-DTILE=...), so the kernel is right only when launched with tiles of exactly TILE.
 * tile_sum_local: the memory is a `__local` parameter the launch sizes (amp_arg_local), and the
 *   tile's size is read at run time (idx.tile_extent[0]): it works for any power-of-two tile. */
#ifndef TILE
#error "build with -DTILE=<the tile size the launch uses>"
#endif

AMP_TILE_SHAPE(TILE) __kernel void tile_sum_static(AMP_CONST_VIEW(float, in), AMP_VIEW(float, sums)) {
  AMP_TILED_INDEX1(idx);
  tile_static float part[TILE];
  const int me = idx.local_id[0];
  part[me] = amp_at(in, idx.global_id[0]);
  amp_barrier_wait(); /* every element of the tile is in part[] */
  for (int stride = TILE / 2; stride > 0; stride /= 2) {
    if (me < stride)
      part[me] += part[me + stride];
    amp_barrier_wait(); /* outside the if: every work-item of the tile reaches every barrier */
  }
  if (me == 0)
    amp_at(sums, idx.tile[0]) = part[0];
}

__kernel void tile_sum_local(AMP_CONST_VIEW(float, in), AMP_VIEW(float, sums), __local float *part) {
  AMP_TILED_INDEX1(idx);
  const int me = idx.local_id[0];
  part[me] = amp_at(in, idx.global_id[0]);
  amp_barrier_wait();
  for (int stride = idx.tile_extent[0] / 2; stride > 0; stride /= 2) {
    if (me < stride)
      part[me] += part[me + stride];
    amp_barrier_wait();
  }
  if (me == 0)
    amp_at(sums, idx.tile[0]) = part[0];
}
