/* sort.cl: one pass of a least-significant-digit radix sort of 32- or 64-bit keys, optionally
 * carrying 32- or 64-bit values (runtime/algorithms/sort.c: amp_sort, amp_sort_by_key). A sort is
 * 8 passes of 4-bit digits for 32-bit keys (shift 0, 4, ..., 28), 16 for 64-bit keys (shift 0, 4,
 * ..., 60), each stable, so the whole is a stable sort.
 *
 * Built with -DK=<uint, int, float, ulong, long or double> (the key type), -DK4=<its 4-vector>,
 * -DKEY_KIND=<0 uint, 1 int, 2 float, 3 ulong, 4 long, 5 double>, -DHAS_VALUES=<0 or 1>, with
 * values -DV=<uint, int, float, ulong, long or double>, and -DSORT_WIDE=1 when keys and values are
 * both 64-bit (the rank table is then ushort, to keep the tile_static memory under 32 KB). Keys
 * are ordered as numbers through a map to unsigned bits: int keys with the sign bit flipped,
 * float and double keys by the usual bit map (negative: all bits flipped; positive: sign bit
 * set), so -0.0 sorts before +0.0 and NaNs sort after +inf (negative NaNs before -inf).
 *
 * Tile shape: 1-D tiles of SORT_TILE (256) threads over SORT_KEYS (1024) keys, four neighbouring
 * keys per thread (one vector load); T = ceil(n / 1024) tiles, every launch. The runtime passes
 * -DSORT_TILE: 256 tuned, a power of two down to 32 where the device allows less (below, the
 * numbers are for 256). Per pass:
 *
 *   amp_sort_count    tile t counts its keys per digit (tile_static atomics) into
 *                     counts[d * T + t] (digit-major, so that an exclusive scan of counts, done
 *                     by amp_scan in between, gives each (digit, tile) its first output slot).
 *   amp_sort_scatter  tile t ranks its keys stably by digit in tile_static memory: each thread's
 *                     count per digit in a 16 x 256 table (a column per thread: no conflicts),
 *                     one exclusive scan of the 4096 entries gives every key its place in the
 *                     tile's keys ordered by digit; the keys are placed there, then written out in
 *                     that order, so threads next to each other write next to each other within a
 *                     digit's run. Values follow their keys. */
#ifndef K /* the runtime always passes these; the defaults let the file build alone */
#define K uint
#define K4 uint4
#define KEY_KIND 0
#endif
#ifndef HAS_VALUES
#define HAS_VALUES 0
#endif
#ifndef V
#define V uint
#endif
#ifndef SORT_WIDE
#define SORT_WIDE 0
#endif
#if KEY_KIND >= 3
typedef ulong sort_bits;
#else
typedef uint sort_bits;
#endif
#if SORT_WIDE
typedef ushort sort_rank; /* a count per (digit, thread) is <= 4, a place in the tile < 1024 */
#else
typedef uint sort_rank;
#endif
#ifndef SORT_TILE /* the runtime passes it (sort.c) */
#define SORT_TILE 256
#endif
#if SORT_TILE < 16 || (SORT_TILE & (SORT_TILE - 1)) != 0
#error "sort.cl: SORT_TILE must be a power of two, at least 16 (a thread per digit)"
#endif
#define SORT_KEYS (4 * SORT_TILE)
#define SORT_BITS 4
#define SORT_DIGITS 16

static inline sort_bits sort_map(K k) {
#if KEY_KIND == 1
  return as_uint(k) ^ 0x80000000u;
#elif KEY_KIND == 2
  const uint b = as_uint(k);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
#elif KEY_KIND == 4
  return as_ulong(k) ^ 0x8000000000000000ul;
#elif KEY_KIND == 5
  const ulong b = as_ulong(k);
  return (b & 0x8000000000000000ul) ? ~b : (b | 0x8000000000000000ul);
#else
  return (sort_bits)k;
#endif
}

#define SORT_DIGIT(k, shift) ((uint)(sort_map(k) >> (shift)) & (SORT_DIGITS - 1))

__kernel void amp_sort_count(AMP_CONST_VIEW(K, src), AMP_VIEW(uint, counts), int shift) {
  tile_static uint hist[SORT_DIGITS];
  const int lid = (int)get_local_id(0), t = (int)get_group_id(0), T = (int)get_num_groups(0);
  const int n = amp_extent(src, 0);
  __global const K *p = &amp_at(src, 0);
  if (lid < SORT_DIGITS)
    hist[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int i = t * SORT_KEYS + 4 * lid;
  if (i + 3 < n) {
    const K4 v = vload4(0, p + i);
    atomic_inc(&hist[SORT_DIGIT(v.x, shift)]);
    atomic_inc(&hist[SORT_DIGIT(v.y, shift)]);
    atomic_inc(&hist[SORT_DIGIT(v.z, shift)]);
    atomic_inc(&hist[SORT_DIGIT(v.w, shift)]);
  } else {
    for (int j = i; j < min(i + 4, n); j++)
      atomic_inc(&hist[SORT_DIGIT(p[j], shift)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < SORT_DIGITS)
    amp_at(counts, lid * T + t) = hist[lid];
}

/* Exclusive prefix sums of one value per thread across the tile (sh: SORT_TILE entries). */
static AMP_TILE_HELPER uint sort_tile_exclusive(__local uint *sh, int lid, uint x) {
  sh[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < SORT_TILE; off <<= 1) {
    const uint y = lid >= off ? sh[lid - off] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    sh[lid] += y;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const uint r = sh[lid] - x;
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}

__kernel void amp_sort_scatter(AMP_CONST_VIEW(K, src), AMP_VIEW(K, dst),
#if HAS_VALUES
                               AMP_CONST_VIEW(V, vsrc), AMP_VIEW(V, vdst),
#endif
                               AMP_CONST_VIEW(uint, offsets), int shift) {
  tile_static sort_rank table[SORT_DIGITS * SORT_TILE]; /* [digit][thread] */
  tile_static uint sh[SORT_TILE];
  tile_static K keys[SORT_KEYS];
#if HAS_VALUES
  tile_static V vals[SORT_KEYS];
#endif
  tile_static uint start[SORT_DIGITS], out[SORT_DIGITS];
  const int lid = (int)get_local_id(0), t = (int)get_group_id(0), T = (int)get_num_groups(0);
  const int n = amp_extent(src, 0), base = t * SORT_KEYS, i = base + 4 * lid;
  const int valid = min(SORT_KEYS, n - base);
  __global const K *p = &amp_at(src, 0);
  K k[4];
  uint d[4];
  for (int j = 0; j < 4; j++) {
    k[j] = i + j < n ? p[i + j] : (K)0;
    d[j] = i + j < n ? SORT_DIGIT(k[j], shift) : SORT_DIGITS;
  }
  /* each thread's count per digit, in its own column */
  for (int b = 0; b < SORT_DIGITS; b++)
    table[b * SORT_TILE + lid] = 0;
  uint before[4] = {0, 0, 0, 0};
  for (int j = 0; j < 4; j++)
    if (d[j] < SORT_DIGITS)
      before[j] = table[d[j] * SORT_TILE + lid]++;
  barrier(CLK_LOCAL_MEM_FENCE);
  /* exclusive scan of the 4096 entries: 16 consecutive entries per thread */
  uint run = 0, mine[SORT_DIGITS];
  for (int e = 0; e < SORT_DIGITS; e++) {
    mine[e] = table[lid * SORT_DIGITS + e];
    run += mine[e];
  }
  uint acc = sort_tile_exclusive(sh, lid, run);
  for (int e = 0; e < SORT_DIGITS; e++) {
    table[lid * SORT_DIGITS + e] = (sort_rank)acc;
    acc += mine[e];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* place the keys in digit order within the tile */
#if HAS_VALUES
  __global const V *pv = &amp_at(vsrc, 0);
#endif
  for (int j = 0; j < 4; j++)
    if (d[j] < SORT_DIGITS) {
      const uint pos = table[d[j] * SORT_TILE + lid] + before[j];
      keys[pos] = k[j];
#if HAS_VALUES
      vals[pos] = pv[i + j];
#endif
    }
  if (lid < SORT_DIGITS) {
    start[lid] = table[lid * SORT_TILE];
    out[lid] = amp_at(offsets, lid * T + t);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global K *q = &amp_at(dst, 0);
#if HAS_VALUES
  __global V *qv = &amp_at(vdst, 0);
#endif
  for (int e = lid; e < valid; e += SORT_TILE) {
    const K key = keys[e];
    const uint b = SORT_DIGIT(key, shift);
    const uint to = out[b] + (uint)e - start[b];
    q[to] = key;
#if HAS_VALUES
    qv[to] = vals[e];
#endif
  }
}
