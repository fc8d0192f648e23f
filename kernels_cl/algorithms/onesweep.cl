/* onesweep.cl: a least-significant-digit radix sort of 32-bit keys in one pass per 8-bit digit
 * (runtime/algorithms/onesweep.c; amp_sort and amp_sort_by_key take it on GPUs). Four passes
 * (shift 0, 8, 16, 24) after one histogram pass, each reading its keys once and writing them once.
 *
 * Built with -DK=<uint, int or float>, -DKEY_KIND=<0 uint, 1 int, 2 float>, -DHAS_VALUES=<0 or 1>
 * and, with values, -DV=<uint, int or float>. Keys are ordered as numbers through an
 * order-preserving map to uint (os_map; sort.cl uses the same one), kept mapped in tile_static
 * memory and mapped back on the way out.
 *
 * `state` is one uint view, zeroed by amp_onesweep_init:
 *   words 0..3             each pass's tile counter
 *   words 4..1027          the four digits' histograms over all keys (amp_onesweep_hist)
 *   words 1028..           per pass, per tile, per digit: one status word (below)
 *
 * amp_onesweep_pass, one launch per digit, tiles of OS_TILE (256) threads over OS_ITEMS
 * (256 * OS_PER) keys, in two versions: the portable one below, and on devices with warp functions
 * (ampcl_warp.h: NVIDIA's GPUs) one whose step 3 ranks the keys per warp (at the end of the file).
 * The portable pass:
 *   1. the tile takes the next number from its pass's counter, so tile t starts only after tiles
 *      0 .. t-1 have started, whatever order the device runs work-groups in;
 *   2. loads its keys (coalesced), counts them per digit, and publishes each digit's count at once
 *      ("aggregate"); tile 0 publishes its "inclusive" value instead: the digit's start over all
 *      keys (an exclusive scan of the histogram) plus its count;
 *   3. sorts its keys by the digit in tile_static memory, stably, as two 4-bit splits (each a
 *      count per (digit, thread) in a 16 x 256 table and one scan of the table);
 *   4. looks back: thread d walks over the tiles before it, adding their digit-d aggregates, until
 *      it meets an inclusive value; it then publishes its own inclusive value;
 * In tiles of fewer than 256 threads (the portable pass's fallbacks, 128 down to 32, where the
 * device allows fewer threads per tile) each thread does steps 2 and 4 for OS_DPT = 256 / OS_TILE
 * neighbouring digits in turn.
 *   5. writes its keys out: key e of the tile-local order goes to (its digit's position over all
 *      keys) + (e - the digit's first position in the tile), neighbouring threads neighbouring keys.
 *
 * A status word is the state in its top two bits (0 nothing yet, 1 aggregate, 2 inclusive) and the
 * value in the low 30 (so the runtime takes this path only for n < 2^30). It is written with one
 * atomic_max (an inclusive word is larger than any aggregate, so it is never replaced by one) and
 * read atomically (ampcl_load_relaxed: PTX's relaxed load on the GPU, atomic_or of 0
 * elsewhere), so a reader never sees a state without its value;
 * nothing else passes between tiles.
 *
 * Forward progress. OpenCL promises nothing about work-groups running at the same time. The walk in
 * step 4 waits only on a tile with a smaller number, which has therefore started (step 1) and
 * publishes its aggregates before it waits on anyone (step 2); tile 0 waits on no one. So the sort
 * ends on any device that keeps running a work-group once it has started while others spin: GPUs
 * (resident work-groups are scheduled until they finish), POCL's and Intel's CPU devices (a
 * work-group runs to its end on one worker thread; a spinning one holds its thread, never
 * another's) and devices that run work-groups one after another (then every predecessor has
 * finished). It could hang only where a started work-group can be starved by a spinning one; the
 * runtime therefore takes this path only on GPU devices by default and keeps the multi-pass sort
 * (sort.cl, no inter-tile waiting) for CPU devices and n >= 2^30 (onesweep.c).
 *
 * On POCL. With POCL's CPU device running several work-groups at once (its default thread pool),
 * this kernel gave wrong results, and crashed, until os_exclusive (a helper with barriers) was
 * forced inline (AMP_TILE_HELPER, below). CPU devices still take the multi-pass sort by default (the
 * one-pass sort was not measured there); the tests run this one on POCL with its threads. On the
 * GPU, amp-bench checks the sort's result after its timed runs as well as before. */
#ifndef K /* the runtime always passes these; the defaults let the file build alone */
#define K        uint
#define KEY_KIND 0
#endif
#ifndef HAS_VALUES
#define HAS_VALUES 0
#endif
#ifndef V
#define V uint
#endif
#include "ampcl_warp.h"

#ifndef OS_TILE /* the runtime passes it (onesweep.c): the warp pass takes 256 or 512, the
                  * portable pass a power of two from 32 to 256 (256 tuned; less where the device
                  * allows less) */
#define OS_TILE 256
#endif
#if AMPCL_WARP && OS_TILE != 256 && OS_TILE != 512
#error "onesweep.cl: the warp pass takes tiles of 256 or 512 threads"
#endif
#if !AMPCL_WARP && (OS_TILE < 16 || OS_TILE > 256 || (OS_TILE & (OS_TILE - 1)) != 0)
#error "onesweep.cl: the portable pass takes tiles of a power of two from 16 to 256 threads"
#endif
#ifndef OS_PER /* the runtime passes it (onesweep.c: OS_PER) */
#define OS_PER 8
#endif
#define OS_ITEMS   (OS_PER * OS_TILE)
#define OS_RADIX   256
#define OS_DPT     (OS_TILE < OS_RADIX ? OS_RADIX / OS_TILE : 1) /* digits per thread */
#define OS_PAD(i)  ((i) + ((i) >> 5)) /* one spare word per 32: per-thread runs hit 32 banks */
#define OS_AGG     0x40000000u
#define OS_INC     0x80000000u
#define OS_FLAGS   0xc0000000u
#define OS_VALUE   0x3fffffffu
#define OS_HIST    4
#define OS_STATUS  (4 + 4 * OS_RADIX)

static inline uint os_map(K k) {
#if KEY_KIND == 1
  return as_uint(k) ^ 0x80000000u;
#elif KEY_KIND == 2
  const uint b = as_uint(k);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
#else
  return (uint)k;
#endif
}

static inline K os_unmap(uint m) {
#if KEY_KIND == 1
  return as_int(m ^ 0x80000000u);
#elif KEY_KIND == 2
  return as_float((m & 0x80000000u) ? (m & 0x7fffffffu) : ~m);
#else
  return m;
#endif
}

__kernel void amp_onesweep_init(AMP_VIEW(uint, state)) {
  const int n = amp_extent(state, 0);
  for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0))
    amp_at(state, i) = 0u;
}

/* The four digits' counts over all keys, added into state[4 + 256 * digit + value]. */
__kernel void amp_onesweep_hist(AMP_CONST_VIEW(K, src), AMP_VIEW(uint, state)) {
  tile_static uint h[4 * OS_RADIX];
  const int lid = (int)get_local_id(0), n = amp_extent(src, 0);
  for (int i = lid; i < 4 * OS_RADIX; i += (int)get_local_size(0))
    h[i] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  __global const K *p = &amp_at(src, 0);
  for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0)) {
    const uint m = os_map(p[i]);
    atomic_inc(&h[m & 255u]);
    atomic_inc(&h[OS_RADIX + ((m >> 8) & 255u)]);
    atomic_inc(&h[2 * OS_RADIX + ((m >> 16) & 255u)]);
    atomic_inc(&h[3 * OS_RADIX + (m >> 24)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global uint *g = &amp_at(state, OS_HIST);
  for (int i = lid; i < 4 * OS_RADIX; i += (int)get_local_size(0))
    if (h[i])
      atomic_add(g + i, h[i]);
}

/* Step 4 for digit d of tile t, whose status words start at `mine`: walks back over digit d's words
 * of the tiles before t, adding their values to `before` (a word still 0 is read again), until
 * one is inclusive; then publishes tile t's inclusive value (tile 0 published it in step 2).
 * Returns the number of digit-d keys before the tile. No barrier: each thread walks alone. */
static inline uint os_look_back(volatile __global uint *mine, int d, int t, uint before,
                                uint count) {
  volatile __global uint *w = mine - OS_RADIX + d;
  for (bool done = t == 0; !done;) {
    const uint x = ampcl_load_relaxed(w); /* the word is written by atomic_max */
    const uint f = x & OS_FLAGS;
    if (f != 0u) {
      before += x & OS_VALUE;
      done = f == OS_INC;
      w -= OS_RADIX;
    }
  }
  if (t > 0)
    atomic_max(mine + d, OS_INC | (before + count));
  return before;
}

/* Exclusive prefix sums of one value per thread over the tile (sh: OS_TILE + 16 entries), in
 * three short steps instead of log2(256) rounds: OS_TILE / 16 threads each scan 16 entries, one
 * thread scans their OS_TILE / 16 sums. Every thread must call it. AMP_TILE_HELPER (the
 * prelude) inlines it: POCL 3.1 had left it a call (three calls, one in a loop), and with its
 * threads running several tiles at once the call's barriers did not hold a tile together
 * (lab/NOTEBOOK.md, 2026-11-27, "the onesweep sort on POCL's threads"). */
static AMP_TILE_HELPER uint os_exclusive(__local uint *sh, int lid, uint x) {
  sh[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < OS_TILE / 16) {
    uint s = 0;
    for (int i = 0; i < 16; i++) {
      const uint v = sh[lid * 16 + i];
      sh[lid * 16 + i] = s;
      s += v;
    }
    sh[OS_TILE + lid] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    uint s = 0;
    for (int i = 0; i < OS_TILE / 16; i++) {
      const uint v = sh[OS_TILE + i];
      sh[OS_TILE + i] = s;
      s += v;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint r = sh[lid] + sh[OS_TILE + lid / 16];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}

#if !AMPCL_WARP /* the portable pass; the warp pass follows */
__attribute__((reqd_work_group_size(OS_TILE, 1, 1))) __kernel void
amp_onesweep_pass(AMP_CONST_VIEW(K, src), AMP_VIEW(K, dst),
#if HAS_VALUES
                  AMP_CONST_VIEW(V, vsrc), AMP_VIEW(V, vdst),
#endif
                  AMP_VIEW(uint, state), int pass, int tiles) {
  tile_static uint keys[OS_PAD(OS_ITEMS)];
#if HAS_VALUES
  tile_static V vals[OS_PAD(OS_ITEMS)];
#endif
  tile_static ushort table[16 * OS_TILE];
  tile_static uint sh[OS_TILE + 16];
  tile_static uint hist[OS_RADIX];
  tile_static int offs[OS_RADIX];
  tile_static int tile;
  const int lid = (int)get_local_id(0), shift = 8 * pass;
  volatile __global uint *st = (volatile __global uint *)&amp_at(state, 0);
  if (lid == 0)
    tile = (int)atomic_inc(st + pass);
  for (int c = 0; c < OS_DPT; c++)
    hist[lid * OS_DPT + c] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int t = tile, n = amp_extent(src, 0), base = t * OS_ITEMS;
  const int valid = min(OS_ITEMS, n - base);
  __global const K *p = &amp_at(src, 0) + base;
#if HAS_VALUES
  __global const V *pv = &amp_at(vsrc, 0) + base;
#endif
  for (int k = 0; k < OS_PER; k++) {
    const int i = k * OS_TILE + lid;
    /* past the end: the largest key, so it stays behind every real key of the last digit */
    const uint m = i < valid ? os_map(p[i]) : 0xffffffffu;
    keys[OS_PAD(i)] = m;
#if HAS_VALUES
    vals[OS_PAD(i)] = i < valid ? pv[i] : (V)0;
#endif
    if (i < valid)
      atomic_inc(&hist[(m >> shift) & 255u]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  volatile __global uint *mine = st + OS_STATUS + ((long)pass * tiles + t) * OS_RADIX;
  /* Thread lid holds digits lid * OS_DPT .. lid * OS_DPT + OS_DPT - 1 (one, digit lid, in tiles
   * of 256 threads). */
  uint count[OS_DPT], before[OS_DPT], start[OS_DPT];
  /* keys of each digit before this tile, over all keys: tile 0 knows (the digits' starts, a scan
   * of the histogram), the others look back. The scan runs on every tile, so that no barrier sits
   * in a branch. */
  {
    uint x[OS_DPT], s = 0, c_all = 0;
    for (int c = 0; c < OS_DPT; c++) {
      count[c] = hist[lid * OS_DPT + c];
      x[c] = t == 0 ? st[OS_HIST + pass * OS_RADIX + lid * OS_DPT + c] : 0u;
      s += x[c];
      c_all += count[c];
    }
    uint b = os_exclusive(sh, lid, s);
    for (int c = 0; c < OS_DPT; c++) {
      before[c] = b;
      b += x[c];
      atomic_max(mine + lid * OS_DPT + c,
                 t == 0 ? OS_INC | (before[c] + count[c]) : OS_AGG | count[c]);
    }
    b = os_exclusive(sh, lid, c_all); /* each digit's first slot in the tile */
    for (int c = 0; c < OS_DPT; c++) {
      start[c] = b;
      b += count[c];
    }
  }
  /* Step 3: two stable splits of the tile's keys by 4 bits each (written out in the kernel: as a
   * helper function with barriers and private arrays inside, it read zeros from keys[] on POCL;
   * the cause was not found). Thread lid
   * takes the OS_PER keys at lid * OS_PER (a contiguous run of the current order), counts them in
   * its column of table[16][OS_TILE], one exclusive scan of the table (digit-major) gives each
   * (digit, thread) its first slot, and the keys move there. */
  for (int step = 0; step < 2; step++) {
    const int sub = shift + 4 * step;
    uint k[OS_PER], d[OS_PER], rank[OS_PER];
#if HAS_VALUES
    V v[OS_PER];
#endif
    for (int b = 0; b < 16; b++)
      table[b * OS_TILE + lid] = 0;
    for (int j = 0; j < OS_PER; j++) {
      const int at = OS_PAD(lid * OS_PER + j);
      k[j] = keys[at];
#if HAS_VALUES
      v[j] = vals[at];
#endif
      d[j] = (k[j] >> sub) & 15u;
      const uint c = table[d[j] * OS_TILE + lid];
      rank[j] = c;
      table[d[j] * OS_TILE + lid] = (ushort)(c + 1u);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint run = 0;
    for (int e = 0; e < 16; e++)
      run += table[lid * 16 + e];
    uint acc = os_exclusive(sh, lid, run);
    for (int e = 0; e < 16; e++) {
      const uint x = table[lid * 16 + e];
      table[lid * 16 + e] = (ushort)acc;
      acc += x;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < OS_PER; j++) {
      const int at = OS_PAD((int)(table[d[j] * OS_TILE + lid] + rank[j]));
      keys[at] = k[j];
#if HAS_VALUES
      vals[at] = v[j];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  /* Step 4: thread lid walks back over its digits' words. */
  for (int c = 0; c < OS_DPT; c++) {
    const int dg = lid * OS_DPT + c;
    before[c] = os_look_back(mine, dg, t, before[c], count[c]);
    offs[dg] = (int)before[c] - (int)start[c];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global K *q = &amp_at(dst, 0);
#if HAS_VALUES
  __global V *qv = &amp_at(vdst, 0);
#endif
  for (int k = 0; k < OS_PER; k++) {
    const int e = k * OS_TILE + lid;
    if (e < valid) {
      const uint m = keys[OS_PAD(e)];
      const int to = offs[(m >> shift) & 255u] + e;
      q[to] = os_unmap(m);
#if HAS_VALUES
      qv[to] = vals[OS_PAD(e)];
#endif
    }
  }
}

#else /* AMPCL_WARP: the pass with warp-wide ranking */

/* The same pass, with step 3 done per warp, as CUB's onesweep does it: no tile-wide barriers while
 * the keys are ranked.
 *   - Warp w of the tile takes keys w * 32 * OS_PER .. of it, key j of lane l at
 *     w * 32 * OS_PER + j * 32 + l (each load a coalesced row of 32), into registers.
 *   - For j = 0 .. OS_PER - 1 the warp ranks its 32 keys of row j at once: eight ballots, one per
 *     bit of the digit (AMPCL_MATCH_BITS), give each lane the lanes holding the same digit (on an
 *     H200 they made the pass 1.5x as fast as one match.any a key: lab/NOTEBOOK.md, 2026-11-27,
 *     "ballots for the sort"); the highest of them adds their number to the
 *     warp's own counter of that digit (whist[w][digit], tile_static) and hands the old value to
 *     the others; a key's rank in its warp is that value plus its same-digit lanes below it. So
 *     keys of one digit are numbered in their input order, which keeps the sort stable.
 *   - Thread d (< 256) then turns whist[..][d] into each warp's first slot among the tile's
 *     digit-d keys (their sum is the digit's count in the tile), publishes the count, and a scan
 *     over the 256 digits (warp scans) gives each digit's first slot in the tile; the keys move
 *     there in tile_static memory, and steps 4 and 5 are the portable pass's, by threads 0 .. 255
 *     for the digits' steps.
 * The tile is 256 threads, or 512 with -DOS_TILE=512 (more keys per tile: longer runs of one digit
 * in the writes, and fewer tiles to look back over).
 * Keys past the end of the input are 0xffffffff, so digit 255, and last: they are ranked with the
 * others (after every real key of that digit), left out of the published count and not written. */
__attribute__((reqd_work_group_size(OS_TILE, 1, 1))) __kernel void
amp_onesweep_pass(AMP_CONST_VIEW(K, src), AMP_VIEW(K, dst),
#if HAS_VALUES
                  AMP_CONST_VIEW(V, vsrc), AMP_VIEW(V, vdst),
#endif
                  AMP_VIEW(uint, state), int pass, int tiles) {
  tile_static uint keys[OS_ITEMS];
#if HAS_VALUES
  tile_static V vals[OS_ITEMS];
#endif
  tile_static uint whist[OS_TILE / 32][OS_RADIX];
  tile_static uint sh[OS_TILE / 32];
  tile_static uint first[OS_RADIX];
  tile_static int offs[OS_RADIX];
  tile_static int tile;
  AMPCL_WARP_SCRATCH(OS_TILE);
  const int lid = (int)get_local_id(0), lane = ampcl_lane(), w = lid / 32, shift = 8 * pass;
  const int dg = lid & (OS_RADIX - 1); /* the digit this thread's digit steps are for (lid < 256) */
  const bool digit_thread = lid < OS_RADIX;
  volatile __global uint *st = (volatile __global uint *)&amp_at(state, 0);
  if (lid == 0)
    tile = (int)atomic_inc(st + pass);
  for (int i = lid; i < OS_TILE / 32 * OS_RADIX; i += OS_TILE)
    whist[i / OS_RADIX][i % OS_RADIX] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int t = tile, n = amp_extent(src, 0), base = t * OS_ITEMS;
  const int valid = min(OS_ITEMS, n - base);
  const int mine0 = w * 32 * OS_PER + lane; /* this lane's key of row 0, within the tile */
  __global const K *p = &amp_at(src, 0) + base;
  uint k[OS_PER], rank[OS_PER];
#if HAS_VALUES
  __global const V *pv = &amp_at(vsrc, 0) + base;
  V v[OS_PER];
#endif
  for (int j = 0; j < OS_PER; j++) {
    const int i = mine0 + 32 * j;
    k[j] = i < valid ? os_map(p[i]) : 0xffffffffu;
#if HAS_VALUES
    v[j] = i < valid ? pv[i] : (V)0;
#endif
  }
  /* rank each row of 32 keys within the warp */
  const uint below = ampcl_lanemask_lt();
  for (int j = 0; j < OS_PER; j++) {
    const uint d = (k[j] >> shift) & 255u;
    uint peers;
    AMPCL_MATCH_BITS(peers, d, 8);
    const int top = 31 - (int)clz(peers);
    uint old = 0;
    if (lane == top) {
      old = whist[w][d];
      whist[w][d] = old + popcount(peers);
    }
    old = ampcl_shfl(old, top);
    rank[j] = old + popcount(peers & below);
    ampcl_warp_sync(); /* the next row's counters are read by other lanes */
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* thread lid = digit d: each warp's first slot among the tile's digit-d keys, and their count */
  uint total = 0;
  if (digit_thread)
    for (int i = 0; i < OS_TILE / 32; i++) {
      const uint c = whist[i][dg];
      whist[i][dg] = total;
      total += c;
    }
  const uint count = total - (lid == 255 ? (uint)(OS_ITEMS - valid) : 0u);
  volatile __global uint *mine = st + OS_STATUS + ((long)pass * tiles + t) * OS_RADIX;
  /* keys of digit lid before this tile, over all keys: tile 0 scans the histogram, the others
   * look back (below). `t` is the same in the whole tile, so the barriers in the scan are met by
   * every thread or by none. */
  uint before = 0;
  if (t == 0) {
    uint x = digit_thread ? st[OS_HIST + pass * OS_RADIX + dg] : 0u;
    const uint own = x;
    AMPCL_WARP_SCAN(x);
    if (lane == 31)
      sh[w] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < w; i++)
      x += sh[i];
    before = x - own;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (digit_thread)
    atomic_max(mine + dg, t == 0 ? OS_INC | (before + count) : OS_AGG | count);
  /* digit lid's first slot in the tile: an exclusive scan of the totals over the digits */
  {
    uint x = total;
    AMPCL_WARP_SCAN(x);
    if (lane == 31)
      sh[w] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < w; i++)
      x += sh[i];
    if (digit_thread)
      first[dg] = x - total;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; j < OS_PER; j++) {
    const uint d = (k[j] >> shift) & 255u;
    const uint at = first[d] + whist[w][d] + rank[j];
    keys[at] = k[j];
#if HAS_VALUES
    vals[at] = v[j];
#endif
  }
  /* Step 4: thread lid (< 256) walks back over digit lid's words. */
  if (digit_thread) {
    before = os_look_back(mine, dg, t, before, count);
    offs[dg] = (int)before - (int)first[dg];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global K *q = &amp_at(dst, 0);
#if HAS_VALUES
  __global V *qv = &amp_at(vdst, 0);
#endif
  for (int j = 0; j < OS_PER; j++) {
    const int e = j * OS_TILE + lid;
    if (e < valid) {
      const uint m = keys[e];
      const int to = offs[(m >> shift) & 255u] + e;
      q[to] = os_unmap(m);
#if HAS_VALUES
      qv[to] = vals[e];
#endif
    }
  }
}
#endif
