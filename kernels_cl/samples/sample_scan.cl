/* sample_scan.cl: the classic C++ AMP prefix-sum samples, written anew in OpenCL C with ampcl's
 * prelude (tests/samples/scans.c checks them against the host's running sum; amp-bench's
 * samples.scan rows measure them beside amp_scan).
 *
 *   scan_hillis_steele  a tile's inclusive scan, Hillis and Steele: log2(TILE) steps, each
 *                       thread adding the element `offset` to its left, through two tile_static
 *                       buffers that swap roles each step (n log n additions)
 *   scan_blelloch       a tile's exclusive scan, Blelloch's work-efficient one over 2 * TILE
 *                       elements (two per thread): an up-sweep builds sums in a tree, the root is
 *                       cleared, a down-sweep hands each left child's sum to the right (2n
 *                       additions)
 *   scan_add_carry      the multi-tile step: once every tile's total (written by either kernel to
 *                       sums[tile]) is itself scanned, each element gets its tile's carry, the
 *                       total of the tiles before it
 *
 * A scan longer than a tile is three launches: the tile scan (writing sums), a scan of sums (the
 * same again when there are more tiles than a tile holds), then scan_add_carry. The host drives
 * it (tests/samples/sample_scan.h). Threads past the end read 0 and write nothing.
 *
 * Options: -DT=int (default), uint, float; -DTILE=256 (default; threads per tile, a power of two,
 * which the host's tile must equal). */
#ifndef T
#define T int
#endif
#ifndef TILE
#define TILE 256
#endif

AMP_TILE_SHAPE(TILE)
__kernel void scan_hillis_steele(AMP_CONST_VIEW(T, in), AMP_VIEW(T, out), AMP_VIEW(T, sums)) {
  AMP_TILED_INDEX1(idx);
  tile_static T buf[2][TILE];
  const int n = amp_extent(in, 0), i = idx.global_id[0], l = idx.local_id[0];
  int from = 0;
  buf[0][l] = i < n ? amp_at(in, i) : (T)0;
  amp_barrier_wait();
  for (int offset = 1; offset < TILE; offset <<= 1) {
    const int to = 1 - from;
    buf[to][l] = l >= offset ? buf[from][l] + buf[from][l - offset] : buf[from][l];
    amp_barrier_wait();
    from = to;
  }
  if (i < n)
    amp_at(out, i) = buf[from][l];
  if (l == TILE - 1)
    amp_at(sums, idx.tile[0]) = buf[from][l];
}

AMP_TILE_SHAPE(TILE)
__kernel void scan_blelloch(AMP_CONST_VIEW(T, in), AMP_VIEW(T, out), AMP_VIEW(T, sums)) {
  AMP_TILED_INDEX1(idx);
  tile_static T buf[2 * TILE];
  const int n = amp_extent(in, 0), l = idx.local_id[0];
  const int base = idx.tile[0] * (2 * TILE);
  const int a = base + l, b = base + l + TILE;
  buf[l] = a < n ? amp_at(in, a) : (T)0;
  buf[l + TILE] = b < n ? amp_at(in, b) : (T)0;
  /* up-sweep: after the step of width d, buf[k*2d + 2d - 1] holds the sum of its 2d elements */
  int d = 1;
  for (int active = TILE; active > 0; active >>= 1, d <<= 1) {
    amp_barrier_wait();
    if (l < active) {
      const int right = (2 * l + 2) * d - 1;
      buf[right] += buf[right - d];
    }
  }
  amp_barrier_wait();
  if (l == 0) {
    amp_at(sums, idx.tile[0]) = buf[2 * TILE - 1];
    buf[2 * TILE - 1] = 0;
  }
  /* down-sweep: each node hands its value to its left child and left + value to its right */
  for (int active = 1; active <= TILE; active <<= 1) {
    d >>= 1;
    amp_barrier_wait();
    if (l < active) {
      const int right = (2 * l + 2) * d - 1;
      const T left = buf[right - d];
      buf[right - d] = buf[right];
      buf[right] += left;
    }
  }
  amp_barrier_wait();
  if (a < n)
    amp_at(out, a) = buf[l];
  if (b < n)
    amp_at(out, b) = buf[l + TILE];
}

/* out[i] += the carry of i's tile of `per` elements: carries[tile] when the tile totals were
 * scanned exclusively (shift 0), carries[tile - 1] (0 for the first) when inclusively (shift 1). */
__kernel void scan_add_carry(AMP_VIEW(T, out), AMP_CONST_VIEW(T, carries), int per, int shift) {
  AMP_INDEX1(idx);
  const int i = idx[0], tile = i / per - shift;
  if (i < amp_extent(out, 0) && tile >= 0)
    amp_at(out, i) += amp_at(carries, tile);
}
