/* tile_compact.cl: the prelude's tile collectives (kernels_cl/prelude/ampcl_collectives.h) in one
 * kernel: a tile-wide reduce, an exclusive scan with its total, and a broadcast. A lesson beside
 * the matmul course; tests/lessons/prelude_lessons.c checks it.
 *
 * What it computes, for each tile of TILE consecutive elements of `in`:
 *   - above[]: the tile's elements above the tile's mean, packed at the start of the tile's slice
 *     of `above` in their order (stream compaction within the tile), and count[tile] how many;
 *   - from_first[i] = in[i] - in[first element of i's tile].
 *
 * The steps, each one collective that every thread of the tile calls with its own value:
 *   1. amp_tile_reduce(float, sum, x, scratch): the tile's sum, to every thread; / TILE the mean.
 *   2. amp_tile_scan_exclusive_total(int, sum, keep, iscratch, &kept): each thread's position
 *      among the kept elements (the number of kept elements before it) and, in `kept`, their
 *      number. A kept thread writes its element at that position: no two threads write one place,
 *      and the order is kept.
 *   3. amp_tile_broadcast(float, x, 0, scratch): thread 0's element, to every thread.
 * Written by hand, each is a loop of steps over a tile_static array with a barrier after each
 * (as in matmul_tiled.cl's tiles, or docs/KERNELS.md's tile_exclusive_sum); the collectives are
 * the same loops, already checked. Every thread reaches every collective, as with a barrier: the
 * `if (keep)` comes after the scan, not around it.
 *
 * AMP_TILED_INDEX1(idx) tells the collectives that the tiles are 1-D; a collective may reuse
 * the scratch array of the one before it, since each ends at a barrier.
 *
 * Tile shape: TILE threads (-DTILE=128, the default; a power of two or not, up to 1024). The
 * launch covers `in` exactly: its extent is a multiple of TILE.
 *     amp_arg args[] = {amp_arg_view(in), amp_arg_view(above), amp_arg_view(count),
 *                       amp_arg_view(from_first)};
 *     amp_launch l = {amp_extent1(n), 1, {TILE}, k, args, AMP_NARGS(args)};
 */
#ifndef TILE
#define TILE 128
#endif

AMP_TILE_SHAPE(TILE)
__kernel void tile_compact(AMP_CONST_VIEW(float, in), AMP_VIEW(float, above),
                           AMP_VIEW(int, count), AMP_VIEW(float, from_first)) {
  AMP_TILED_INDEX1(idx);
  tile_static float scratch[TILE];
  tile_static int iscratch[TILE];
  const float x = amp_at(in, idx.global_id[0]);

  const float mean = amp_tile_reduce(float, sum, x, scratch) / TILE;

  const int keep = x > mean;
  int kept;
  const int at = amp_tile_scan_exclusive_total(int, sum, keep, iscratch, &kept);
  if (keep)
    amp_at(above, idx.tile_origin[0] + at) = x;
  if (idx.local_id[0] == 0)
    amp_at(count, idx.tile[0]) = kept;

  const float first = amp_tile_broadcast(float, x, 0, scratch);
  amp_at(from_first, idx.global_id[0]) = x - first;
}
