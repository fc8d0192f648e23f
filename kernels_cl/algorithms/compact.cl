/* compact.cl: stream compaction of a rank-1 view (runtime/algorithms/compact.c: amp_copy_if,
 * amp_unique). The elements that are kept go to dst[0 ..), in their order, and their number to
 * total[0]. An element is kept when
 *   amp_copy_if:  the caller's `bool amp_predicate(T x)` (its text is put in front of this file)
 *                 says so;
 *   amp_unique:   (-DCOMPACT_UNIQUE) it is the first element or differs (!=) from the one before.
 * Built with -DT=<int, uint, float or double>, -DCI_PER=<elements per thread: 16, 8 for double>.
 *
 * Tile shape: 1-D tiles of CI_TILE (256) threads over CI_ITEMS = 256 * CI_PER elements. A tile
 * loads its elements into tile_static memory (coalesced), thread t takes the CI_PER neighbouring
 * elements at t * CI_PER, decides which are kept and counts them, one tile-wide exclusive scan
 * gives each thread its first output slot in the tile, the kept elements move to the front of the
 * tile_static buffer, and the tile writes them out from there (coalesced) after `before`, the
 * number kept by the tiles before it.
 *
 * `before` comes one of two ways:
 *   onepass = 1  decoupled look-back, as in onesweep.cl: the tile takes its number from the
 *                counter state[0], publishes its count at once in state[1 + t] (state in the
 *                top two bits, a 30-bit value: the runtime takes this path for n < 2^30 only),
 *                walks back over its predecessors, 32 at a time as scan.cl does, to the first
 *                inclusive value and publishes its own. It waits only on tiles that have started (smaller numbers) and publish
 *                their count before waiting on anyone, so it ends on any device that keeps
 *                running a started work-group (onesweep.cl says which).
 *   onepass = 0  three launches, no waiting between tiles: amp_compact_count writes each tile's
 *                count to state[t], amp_scan turns those into exclusive prefix sums, and
 *                amp_compact_write reads its tile's. */
#ifndef T /* the runtime always passes these; the defaults let the file build alone */
#define T float
#endif
#ifndef CI_PER
#define CI_PER 16
#endif
#define CI_TILE   256
#define CI_ITEMS  (CI_PER * CI_TILE)
#define CI_PAD(i) ((i) + ((i) >> 5))
#define CI_AGG    0x40000000u
#define CI_INC    0x80000000u
#define CI_FLAGS  0xc0000000u
#define CI_VALUE  0x3fffffffu
#define CI_WINDOW 32 /* predecessors read at once in the look-back */

#ifndef COMPACT_UNIQUE
#ifndef COMPACT_USER /* the runtime puts the caller's predicate in front; this lets the file build */
static bool amp_predicate(T x) {
  return x != (T)0;
}
#endif
#endif

/* Exclusive prefix sums of one value per thread over the tile (sh: CI_TILE + 16 entries). */
static inline uint ci_exclusive(__local uint *sh, int lid, uint x, uint *total) {
  sh[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16) {
    uint s = 0;
    for (int i = 0; i < 16; i++) {
      const uint v = sh[lid * 16 + i];
      sh[lid * 16 + i] = s;
      s += v;
    }
    sh[CI_TILE + lid] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    uint s = 0;
    for (int i = 0; i < 16; i++) {
      const uint v = sh[CI_TILE + i];
      sh[CI_TILE + i] = s;
      s += v;
    }
    sh[CI_TILE + 16] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint r = sh[lid] + sh[CI_TILE + lid / 16];
  *total = sh[CI_TILE + 16];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}

/* Loads tile t's elements into buf (coalesced). The caller waits at a barrier after it. */
static inline void ci_stage(__global const T *p, int n, int t, int lid, __local T *buf) {
  const int base = t * CI_ITEMS, valid = min(CI_ITEMS, n - base);
  for (int k = 0; k < CI_PER; k++) {
    const int i = k * CI_TILE + lid;
    if (i < valid)
      buf[CI_PAD(i)] = p[base + i];
  }
}

/* This thread's CI_PER elements of the staged tile (element t * CI_ITEMS + lid * CI_PER + j goes
 * to x[j]) and which of them are kept (bit j). No barrier in here: the barriers stay in the
 * kernels (see onesweep.cl, step 3). */
static inline uint ci_keep(__global const T *p, int n, int t, int lid, __local const T *buf,
                           T *x) {
  const int base = t * CI_ITEMS, valid = min(CI_ITEMS, n - base);
  uint keep = 0;
#ifdef COMPACT_UNIQUE
  const int first = lid * CI_PER;
  T prev = first == 0 ? (base > 0 ? p[base - 1] : (T)0) : buf[CI_PAD(first - 1)];
#endif
  for (int j = 0; j < CI_PER; j++) {
    const int i = lid * CI_PER + j;
    x[j] = i < valid ? buf[CI_PAD(i)] : (T)0;
#ifdef COMPACT_UNIQUE
    const bool k = i < valid && (base + i == 0 || x[j] != prev);
    prev = x[j];
#else
    const bool k = i < valid && amp_predicate(x[j]);
#endif
    keep |= (uint)k << j;
  }
  return keep;
}

__kernel void amp_compact_count(AMP_CONST_VIEW(T, src), AMP_VIEW(uint, counts)) {
  tile_static T buf[CI_PAD(CI_ITEMS)];
  tile_static uint sh[CI_TILE + 17];
  const int lid = (int)get_local_id(0), t = (int)get_group_id(0);
  T x[CI_PER];
  ci_stage(&amp_at(src, 0), amp_extent(src, 0), t, lid, buf);
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint keep = ci_keep(&amp_at(src, 0), amp_extent(src, 0), t, lid, buf, x);
  uint total;
  ci_exclusive(sh, lid, popcount(keep), &total);
  if (lid == 0)
    amp_at(counts, t) = total;
  /* the entry past the last tile's, which the exclusive scan reads (its output there is the
   * total): zero, not whatever the buffer held */
  if (lid == 0 && t == (int)get_num_groups(0) - 1)
    amp_at(counts, t + 1) = 0u;
}

__attribute__((reqd_work_group_size(CI_TILE, 1, 1))) __kernel void
amp_compact_write(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst), AMP_VIEW(uint, state),
                  AMP_VIEW(uint, total), int onepass) {
  tile_static T buf[CI_PAD(CI_ITEMS)];
  tile_static uint sh[CI_TILE + 17];
  tile_static int tile, next;
  tile_static uint before, seen[CI_WINDOW];
  const int lid = (int)get_local_id(0), n = amp_extent(src, 0);
  const int tiles = n / CI_ITEMS + (n % CI_ITEMS != 0);
  volatile __global uint *st = (volatile __global uint *)&amp_at(state, 0);
  if (lid == 0)
    tile = onepass ? (int)atomic_inc(st) : (int)get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int t = tile;
  T x[CI_PER];
  ci_stage(&amp_at(src, 0), n, t, lid, buf);
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint keep = ci_keep(&amp_at(src, 0), n, t, lid, buf, x);
  barrier(CLK_LOCAL_MEM_FENCE); /* buf is rewritten below */
  uint count;
  uint at = ci_exclusive(sh, lid, popcount(keep), &count);
  if (lid == 0) {
    if (onepass)
      atomic_max(st + 1 + t, (t == 0 ? CI_INC : CI_AGG) | count);
    before = onepass ? 0u : st[t];
    next = onepass ? t - 1 : -1; /* the newest predecessor not yet added; -1: done */
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* The look-back, CI_WINDOW predecessors a round: the first CI_WINDOW threads read one word
   * each (newest first), then thread 0 adds them up to the first inclusive value, stopping
   * before a tile that has published nothing yet (read again from there next round). */
  while (next >= 0) {
    const int j0 = next;
    if (lid < CI_WINDOW)
      seen[lid] = j0 - lid >= 0 ? atomic_or(st + 1 + j0 - lid, 0u) : 0u; /* an atomic read */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      uint add = 0;
      int live = 1, took = 0, found = 0;
      for (int k = 0; k < CI_WINDOW; k++) { /* no early exit: the reads do not wait on each other */
        const uint w = seen[k], f = w & CI_FLAGS;
        live = live && j0 - k >= 0 && f != 0u;
        add += live ? (w & CI_VALUE) : 0u;
        took += live;
        if (live && f == CI_INC) {
          found = 1;
          live = 0;
        }
      }
      before += add;
      next = found ? -1 : j0 - took;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    if (onepass && t > 0)
      atomic_max(st + 1 + t, CI_INC | (before + count));
    if (t == tiles - 1)
      amp_at(total, 0) = before + count;
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* before: written by thread 0 */
  for (int j = 0; j < CI_PER; j++)
    if (keep & (1u << j)) {
      buf[CI_PAD(at)] = x[j];
      at++;
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global T *q = &amp_at(dst, 0) + before;
  for (int k = 0; k < CI_PER; k++) {
    const uint e = (uint)(k * CI_TILE + lid);
    if (e < count)
      q[e] = buf[CI_PAD(e)];
  }
}
