/* tiles.cl: the C++ AMP article's tile_static and tile_barrier demonstration.
 *
 * Launched over a 16 x 16 extent in 2 x 2 tiles (any even size works): the four threads of a tile
 * share `tile_mem`, a 2 x 2 int array in tile_static memory (the original calls it `local`, an OpenCL
 * C keyword). Each thread writes 42 into its own element, waits at the barrier until all four
 * have written, then reads its three neighbours' elements: only after the barrier are they
 * guaranteed to be there. Each thread records its tile's number and the sum it read (3 x 42). */
__kernel void tiles(AMP_VIEW(int, tile_number), AMP_VIEW(int, neighbours_sum)) {
  AMP_TILED_INDEX2(idx);
  /* 16 bytes shared by all the threads of a tile */
  tile_static int tile_mem[2][2];

  /* write this thread's element */
  tile_mem[idx.local_id[0]][idx.local_id[1]] = 42;

  /* the tile's barrier: every thread of the tile must reach it */
  amp_barrier_wait();

  /* now this thread may read the elements the other threads wrote */
  int sum = 0;
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 2; c++)
      if (r != idx.local_id[0] || c != idx.local_id[1])
        sum += tile_mem[r][c];

  const int tiles_per_row = amp_extent(tile_number, 1) / 2;
  amp_at(tile_number, idx.global_id[0], idx.global_id[1]) = idx.tile[0] * tiles_per_row + idx.tile[1];
  amp_at(neighbours_sum, idx.global_id[0], idx.global_id[1]) = sum;
}
