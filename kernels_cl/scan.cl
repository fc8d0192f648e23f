/* scan.cl: prefix sums of a rank-1 view, inclusive (out[i] = in[0] + ... + in[i]) or exclusive
 * (out[i] = in[0] + ... + in[i-1], out[0] = 0), as reduce-then-scan in three launches
 * (runtime/algo_scan.c: amp_scan). Built with -DT=<int, uint, float or double> and -DT4=<its
 * 4-vector>.
 *
 * Tile shape: 1-D tiles of exactly SCAN_TILE (256) threads; a tile step covers SCAN_ITEMS (4096)
 * elements, 16 per thread: in amp_scan_apply thread t holds elements 16t .. 16t+15 of the step
 * (four vector loads and stores, scanned in registers, so one tile-wide scan of 256 thread sums
 * serves 4096 elements); amp_scan_sums reads the step as 4 rounds of 256 neighbouring 4-vectors.
 * The view is cut into G chunks of `chunk` elements (a multiple of 4096), one per tile; G <= 1024.
 *
 *   amp_scan_sums   tile g adds up its chunk and writes sums[g].
 *   amp_scan_carry  one tile: sums[0..G) becomes its exclusive prefix sums, in place.
 *   amp_scan_apply  tile g scans its chunk step by step, starting from sums[g], and writes out.
 *
 * Memory traffic: the input is read twice and the output written once (3n elements moved; a copy
 * moves 2n). src and dst may be the same view (in place). */
#ifndef T /* the runtime always passes T (and T4); these defaults let the file build alone */
#define T float
#endif
#ifndef T4
#define T4 float4
#endif
#define SCAN_TILE 256
#define SCAN_VECS 4 /* 4-vectors per thread and step in amp_scan_sums / amp_scan_apply */
#define SCAN_ITEMS (4 * SCAN_VECS * SCAN_TILE)

/* Four elements starting at i, zeros past n. */
static inline T4 scan_load(__global const T *p, long i, long n) {
  if (i + 3 < n)
    return vload4(0, p + i);
  T4 v = (T4)(0);
  if (i < n)
    v.x = p[i];
  if (i + 1 < n)
    v.y = p[i + 1];
  if (i + 2 < n)
    v.z = p[i + 2];
  return v;
}

/* Exclusive prefix sums of one value per thread across the tile, in sh[]; returns this thread's.
 * *total gets the tile's sum. Every thread of the tile must call it. */
static inline T tile_exclusive(__local T *sh, int lid, T x, T *total) {
  sh[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < SCAN_TILE; off <<= 1) {
    const T y = lid >= off ? sh[lid - off] : (T)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    sh[lid] += y;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const T incl = sh[lid];
  *total = sh[SCAN_TILE - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  return incl - x;
}

__kernel void amp_scan_sums(AMP_CONST_VIEW(T, src), AMP_VIEW(T, sums), int chunk) {
  tile_static T sh[SCAN_TILE];
  const int lid = (int)get_local_id(0), g = (int)get_group_id(0);
  const long n = amp_extent(src, 0), begin = (long)g * chunk, end = min(begin + chunk, n);
  __global const T *p = &amp_at(src, 0);
  T acc = 0;
  for (long base = begin; base < end; base += SCAN_ITEMS)
    for (int q = 0; q < SCAN_VECS; q++) {
      const T4 v = scan_load(p, base + 4 * (q * SCAN_TILE + lid), end);
      acc += (v.x + v.y) + (v.z + v.w);
    }
  sh[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = SCAN_TILE / 2; s > 0; s >>= 1) {
    if (lid < s)
      sh[lid] += sh[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    amp_at(sums, g) = sh[0];
}

__kernel void amp_scan_carry(AMP_VIEW(T, sums)) {
  tile_static T sh[SCAN_TILE];
  const int lid = (int)get_local_id(0), n = amp_extent(sums, 0);
  __global T *p = &amp_at(sums, 0);
  const long i = 4 * lid;
  const T4 v = scan_load(p, i, n);
  T total;
  const T e = tile_exclusive(sh, lid, (v.x + v.y) + (v.z + v.w), &total);
  const T4 ex = (T4)(e, e + v.x, e + v.x + v.y, e + v.x + v.y + v.z);
  if (i < n)
    p[i] = ex.x;
  if (i + 1 < n)
    p[i + 1] = ex.y;
  if (i + 2 < n)
    p[i + 2] = ex.z;
  if (i + 3 < n)
    p[i + 3] = ex.w;
}

__kernel void amp_scan_apply(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst), AMP_CONST_VIEW(T, sums),
                             int chunk, int inclusive) {
  tile_static T sh[SCAN_TILE];
  const int lid = (int)get_local_id(0), g = (int)get_group_id(0);
  const long n = amp_extent(src, 0), begin = (long)g * chunk, end = min(begin + chunk, n);
  __global const T *p = &amp_at(src, 0);
  __global T *q = &amp_at(dst, 0);
  T carry = amp_at(sums, g);
  for (long base = begin; base < end; base += SCAN_ITEMS) {
    /* this thread's SCAN_VECS * 4 neighbouring elements, one vector load each */
    const long i = base + 4 * SCAN_VECS * lid;
    T4 v[SCAN_VECS];
    T mine = 0;
    for (int k = 0; k < SCAN_VECS; k++) {
      v[k] = scan_load(p, i + 4 * k, end);
      mine += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    T total;
    T e = carry + tile_exclusive(sh, lid, mine, &total);
    for (int k = 0; k < SCAN_VECS; k++) {
      const long j = i + 4 * k;
      T4 r = (T4)(e, e + v[k].x, e + v[k].x + v[k].y, e + v[k].x + v[k].y + v[k].z);
      e = r.w + v[k].w;
      if (inclusive)
        r += v[k];
      if (j + 3 < end) {
        vstore4(r, 0, q + j);
      } else {
        if (j < end)
          q[j] = r.x;
        if (j + 1 < end)
          q[j + 1] = r.y;
        if (j + 2 < end)
          q[j + 2] = r.z;
      }
    }
    carry += total;
  }
}
