/* histogram.cl: bins[v] += 1 for every element v of a rank-1 int or uint view with 0 <= v < B,
 * B the number of bins (runtime/algorithms/histogram.c: amp_histogram). Other values are not counted.
 * Built with -DT=<int or uint>.
 *
 *   amp_histogram_zero   bins[i] = 0. Domain: amp_extent1(B), untiled.
 *   amp_histogram_local  Tile shape: 1-D tiles of HIST_TILE (256) threads, G tiles. Each tile
 *                        counts into its own copy of the bins in tile_static memory (B * 4 bytes,
 *                        passed as a __local argument; local atomic_inc), walking the view with a
 *                        grid stride, four elements a thread at a time (vload4), and then adds its
 *                        non-zero counts to the global bins (one global atomic_add per bin and
 *                        tile). Domain: amp_extent1(G * 256) tiled by 256.
 *   amp_histogram_global Untiled, for more bins than fit in tile_static memory: one global
 *                        atomic_inc per counted element, a grid stride as above. */
#ifndef T /* the runtime always passes T (and T4); these defaults let the file build alone */
#define T uint
#endif
#ifndef T4
#define T4 uint4
#endif
#ifndef HIST_TILE /* the runtime passes it (histogram.c): the threads per tile it launches */
#define HIST_TILE 256
#endif

__kernel void amp_histogram_zero(AMP_VIEW(uint, bins)) {
  AMP_INDEX1(idx);
  if (idx[0] < amp_extent(bins, 0))
    amp_at(bins, idx[0]) = 0;
}

#define HIST_COUNT(h, v)                \
  do {                                  \
    const uint u_ = (uint)(v);          \
    if (u_ < (uint)nb)                  \
      atomic_inc(&(h)[u_]);             \
  } while (0)

__kernel void amp_histogram_local(AMP_CONST_VIEW(T, src), AMP_VIEW(uint, bins),
                                  __local uint *h) {
  const int lid = (int)get_local_id(0), nb = amp_extent(bins, 0);
  for (int b = lid; b < nb; b += HIST_TILE)
    h[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const long n = amp_extent(src, 0), stride = (long)get_global_size(0);
  __global const T *p = &amp_at(src, 0);
  const long n4 = n / 4;
  for (long j = (long)get_global_id(0); j < n4; j += stride) {
    const T4 v = vload4(j, p);
    HIST_COUNT(h, v.x);
    HIST_COUNT(h, v.y);
    HIST_COUNT(h, v.z);
    HIST_COUNT(h, v.w);
  }
  for (long j = 4 * n4 + (long)get_global_id(0); j < n; j += stride)
    HIST_COUNT(h, p[j]);
  barrier(CLK_LOCAL_MEM_FENCE);
  __global uint *g = &amp_at(bins, 0);
  for (int b = lid; b < nb; b += HIST_TILE)
    if (h[b])
      atomic_add(&g[b], h[b]);
}

__kernel void amp_histogram_global(AMP_CONST_VIEW(T, src), AMP_VIEW(uint, bins)) {
  const int nb = amp_extent(bins, 0);
  const long n = amp_extent(src, 0), stride = (long)get_global_size(0);
  __global const T *p = &amp_at(src, 0);
  __global uint *g = &amp_at(bins, 0);
  for (long j = (long)get_global_id(0); j < n; j += stride)
    HIST_COUNT(g, p[j]);
}
