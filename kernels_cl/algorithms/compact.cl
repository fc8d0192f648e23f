/* compact.cl: stream compaction of a rank-1 view (runtime/algorithms/compact.c: amp_copy_if,
 * amp_unique). The elements that are kept go to dst[0 ..), in their order, and their number to
 * total[0]. An element is kept when
 *   amp_copy_if:  the caller's `bool amp_predicate(T x)` (its text is put in front of this file)
 *                 says so;
 *   amp_unique:   (-DCOMPACT_UNIQUE) it is the first element or differs (!=) from the one before.
 * Built with -DT=<int, uint, float or double>, -DCI_WIDE=1 where T has 8 bytes, -DCI_PER=<elements
 * per thread; half as many for double>, -DCI_TILE=<threads per tile, a multiple of 32> (compact.c
 * picks both per path and call),
 * -DCI_WINDOW=<predecessors read at once in the look-back: 32>; CI_TILE * CI_PER <= 8192.
 * A tile covers CI_ITEMS = CI_TILE * CI_PER consecutive elements.
 *
 * `before`, the number kept by the tiles before this one, comes one of two ways:
 *   onepass = 1  decoupled look-back, as in onesweep.cl: the tile takes its number from the
 *                counter state[0], publishes its count at once in state[1 + t] (state in the
 *                top two bits, a 30-bit value: the runtime takes this path for n < 2^30 only),
 *                walks back over its predecessors, CI_WINDOW at a time as scan.cl does, to the
 *                first inclusive value and publishes its own. It waits only on tiles that have
 *                started (smaller numbers) and publish their count before waiting on anyone, so it
 *                ends on any device that keeps running a started work-group (onesweep.cl says
 *                which). Every read of another tile's word is atomic: atomic_or(p, 0) (OpenCL 1.2
 *                has no atomic load), or PTX's relaxed load in the warp path on the GPU.
 *   onepass = 0  three launches, no waiting between tiles: amp_compact_count writes each tile's
 *                count to state[t], amp_scan turns those into exclusive prefix sums, and
 *                amp_compact_write reads its tile's.
 * The status word stays 32 bits (2 flags, 30-bit value): a 64-bit word would need 64-bit atomics,
 * which OpenCL 1.2 leaves to extensions, and one read of a 32-bit word is all a look-back step
 * needs.
 *
 * amp_compact_write has two paths.
 *
 * The warp path (AMPCL_WARP, ampcl_warp.h: NVIDIA compute capability 7.0+, or its emulation with
 * -DAMPCL_WARP_EMULATE=1), CUB's shape:
 *   - loads straight into registers, warp-striped: element j (0 .. CI_PER-1) of lane l of warp w
 *     is tile element w * 32 * CI_PER + j * 32 + l (each load instruction reads 32 consecutive
 *     elements);
 *   - one ballot per j gives the warp's keep bits; a lane's slot in its warp's output is the
 *     popcounts of the earlier j's ballots plus popcount(ballot_j & lanemask_lt). For unique the
 *     element before (j, l) is (j, l - 1) through a shuffle up, (j - 1, 31) for lane 0 through a
 *     shuffle of lane 31, and for (0, 0) the element before from global memory;
 *   - the warps' counts go through CI_TILE / 32 tile_static words (one barrier); each thread adds
 *     those of the warps before its own;
 *   - the look-back is done by warp 0 alone (the other warps wait at the barrier after it): lane k
 *     reads the word of tile next - k atomically, two ballots find the nearest inclusive word and
 *     the nearest that has published nothing, a shuffle reduction adds the aggregates up to the
 *     first of those; it stops at an inclusive word and otherwise goes on from the first empty
 *     word (read again, spinning, when it is the nearest). In the emulation every warp runs the
 *     rounds (its functions wait at barriers), on the words warp 0 read, passed through
 *     tile_static memory, so that every warp makes the same decisions and the loop's trip count
 *     is the same for the whole tile;
 *   - each warp puts its kept elements, in order, at their places in a tile_static buffer
 *     (before the look-back, so that it overlaps the waiting); after the look-back the tile writes
 *     the buffer's first `count` elements to dst as one run, all threads together. Writing each
 *     j's run of a warp straight from registers (runs of about 16 elements for copy_if, 11 for
 *     unique's benchmark) was slower on an H200: copy_if 0.64-0.66 of the copy against 0.70-0.75,
 *     unique 0.62 against 0.68-0.69 (lab/NOTEBOOK.md, 2026-11-27, "ballots for the sort").
 * Three barriers a tile: after the tile number, after the warps' counts, after the look-back.
 *
 * The portable path (every other device): the tile is loaded into tile_static memory
 * (coalesced), thread t takes the CI_PER neighbouring elements at t * CI_PER, decides which are
 * kept and counts them, one tile-wide exclusive scan gives each thread its first output slot in
 * the tile, the first CI_WINDOW threads read a predecessor's word each and thread 0 adds them up,
 * the kept elements move to the front of the tile_static buffer, and the tile writes them out
 * from there (coalesced) after `before`. amp_compact_count (the three-pass form) always takes
 * this path's loads and scan. */
#include "ampcl_warp.h"

#ifndef T /* the runtime always passes these; the defaults let the file build alone */
#define T float
#endif
#ifndef CI_WIDE
#define CI_WIDE 0
#endif
#ifndef CI_PER
#define CI_PER 16
#endif
#ifndef CI_TILE
#define CI_TILE 256
#endif
#ifndef CI_WINDOW
#define CI_WINDOW 32 /* predecessors read at once in the look-back (1 .. 32) */
#endif
#ifndef CI_AGG_ONLY /* 1: tiles after the first never publish their inclusive value, so every
                     * look-back walks back to tile 0 through aggregates (for testing) */
#define CI_AGG_ONLY 0
#endif
#if CI_TILE % 32 != 0 || CI_WINDOW < 1 || CI_WINDOW > 32
#error "compact.cl: CI_TILE must be a multiple of 32 and CI_WINDOW within 1 .. 32"
#endif
#define CI_ITEMS  (CI_PER * CI_TILE)
#define CI_GROUPS (CI_TILE / 16) /* the portable scan: groups of 16 threads */
#define CI_WARPS  (CI_TILE / 32)
#define CI_PAD(i) ((i) + ((i) >> 5))
#define CI_AGG    0x40000000u
#define CI_INC    0x80000000u
#define CI_FLAGS  0xc0000000u
#define CI_VALUE  0x3fffffffu

#ifndef COMPACT_UNIQUE
#ifndef COMPACT_USER /* the runtime puts the caller's predicate in front; this lets the file build */
static bool amp_predicate(T x) {
  return x != (T)0;
}
#endif
#endif

/* Exclusive prefix sums of one value per thread over the tile (sh: CI_TILE + CI_GROUPS + 1
 * entries): CI_GROUPS threads add 16 values each, then thread 0 the CI_GROUPS sums. */
static AMP_TILE_HELPER uint ci_exclusive(__local uint *sh, int lid, uint x, uint *total) {
  sh[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < CI_GROUPS) {
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
    for (int i = 0; i < CI_GROUPS; i++) {
      const uint v = sh[CI_TILE + i];
      sh[CI_TILE + i] = s;
      s += v;
    }
    sh[CI_TILE + CI_GROUPS] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint r = sh[lid] + sh[CI_TILE + lid / 16];
  *total = sh[CI_TILE + CI_GROUPS];
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
  tile_static uint sh[CI_TILE + CI_GROUPS + 1];
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

#if AMPCL_WARP
#if defined(AMPCL_WARP_EMULATE) && AMPCL_WARP_EMULATE
#define CI_EMU 1
#else
#define CI_EMU 0
#endif
/* The loops over j and the shuffle sum are unrolled on the GPU (x[] and bal[] stay in registers),
 * not in the emulation: Intel's CPU compiler crashed now and then (in its barrier pass) on the
 * emulation's barriers in unrolled loops. */
#define CI_CAT2(a, b) a##b
#define CI_CAT(a, b)  CI_CAT2(a, b)
#define CI_AS_T(v)    CI_CAT(as_, T)(v)
/* r = lane `from`'s e, and r = lane (this - 1)'s e (lane 0: its own), for e of type T. Statements,
 * not functions: the emulation's warp functions are macros that need its scratch in scope. */
#if CI_WIDE
#define CI_SHFL(r, e, from)                                                                        \
  do {                                                                                             \
    uint2 v_ = as_uint2(e);                                                                        \
    v_.x = ampcl_shfl(v_.x, (from));                                                               \
    v_.y = ampcl_shfl(v_.y, (from));                                                               \
    (r) = CI_AS_T(v_);                                                                             \
  } while (0)
#define CI_SHFL_UP1(r, e)                                                                          \
  do {                                                                                             \
    uint2 v_ = as_uint2(e);                                                                        \
    v_.x = ampcl_shfl_up(v_.x, 1);                                                                 \
    v_.y = ampcl_shfl_up(v_.y, 1);                                                                 \
    (r) = CI_AS_T(v_);                                                                             \
  } while (0)
#else
#define CI_SHFL(r, e, from) ((r) = CI_AS_T(ampcl_shfl(as_uint(e), (from))))
#define CI_SHFL_UP1(r, e)   ((r) = CI_AS_T(ampcl_shfl_up(as_uint(e), 1)))
#endif

/* A read of another tile's status word that is atomic under the memory model: with CI_RELAXED
 * (the default) ampcl_load_relaxed, PTX's relaxed load on the GPU (CUB reads these words the same
 * way); otherwise OpenCL 1.2's atomic_or(p, 0), which the notebook measured as dearer
 * (lab/NOTEBOOK.md, "the look-back's reads made atomic"). */
#ifndef CI_RELAXED
#define CI_RELAXED 1
#endif
static inline uint ci_read(volatile __global uint *p) {
  return CI_RELAXED ? ampcl_load_relaxed(p) : atomic_or(p, 0u);
}

/* The lowest set bit's index, 32 for 0 (OpenCL 1.2 has no ctz). */
static inline int ci_ctz(uint x) {
  return (int)popcount((x & (0u - x)) - 1u);
}

__attribute__((reqd_work_group_size(CI_TILE, 1, 1))) __kernel void
amp_compact_write(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst), AMP_VIEW(uint, state),
                  AMP_VIEW(uint, total), int onepass) {
  AMPCL_WARP_SCRATCH(CI_TILE);
  tile_static int tile;
  tile_static uint wsum[CI_WARPS], before_sh;
#if CI_EMU
  tile_static uint seen[32];
#endif
  tile_static T kept[CI_ITEMS];
  const int lid = (int)get_local_id(0), lane = lid & 31, warp = lid >> 5;
  const int n = amp_extent(src, 0), tiles = n / CI_ITEMS + (n % CI_ITEMS != 0);
  __global const T *p = &amp_at(src, 0);
  volatile __global uint *st = (volatile __global uint *)&amp_at(state, 0);
  if (lid == 0)
    tile = onepass ? (int)atomic_inc(st) : (int)get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int t = tile, base = t * CI_ITEMS, valid = min(CI_ITEMS, n - base);
  const int wbase = warp * 32 * CI_PER; /* this warp's first element in the tile */

  /* 1. loads, warp-striped, and the keep ballots */
  T x[CI_PER];
  uint bal[CI_PER], wcount = 0;
#if !CI_EMU
#pragma unroll
#endif
  for (int j = 0; j < CI_PER; j++) {
    const int i = wbase + j * 32 + lane;
    x[j] = i < valid ? p[base + i] : (T)0;
  }
#ifdef COMPACT_UNIQUE
  /* the element before lane 0's: for j = 0 the one before this warp's first, in global memory */
  T edge = lane == 0 && wbase < valid && base + wbase > 0 ? p[base + wbase - 1] : (T)0;
#endif
#if !CI_EMU
#pragma unroll
#endif
  for (int j = 0; j < CI_PER; j++) {
    const int i = wbase + j * 32 + lane;
#ifdef COMPACT_UNIQUE
    T up;
    CI_SHFL_UP1(up, x[j]);
    const T prev = lane == 0 ? edge : up;
    const int k = i < valid && (base + i == 0 || x[j] != prev);
    CI_SHFL(edge, x[j], 31); /* lane 31's: the element before lane 0's at j + 1 */
#else
    const int k = i < valid && amp_predicate(x[j]);
#endif
    bal[j] = ampcl_ballot(k);
    wcount += popcount(bal[j]);
  }

  /* 2. the warps' counts: this warp's offset in the tile, and the tile's count */
  if (lane == 0)
    wsum[warp] = wcount;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint woff = 0, count = 0;
  for (int w = 0; w < CI_WARPS; w++) {
    const uint c = wsum[w];
    woff += w < warp ? c : 0u;
    count += c;
  }

  /* 3. the warp's kept elements to their places in the tile's output order, in tile_static
   * memory (written out in step 5; done here so that it overlaps the look-back's waiting) */
  {
    const uint lt = ampcl_lanemask_lt();
    uint at = woff;
#if !CI_EMU
#pragma unroll
#endif
    for (int j = 0; j < CI_PER; j++) {
      if ((bal[j] >> lane) & 1u)
        kept[at + popcount(bal[j] & lt)] = x[j];
      at += popcount(bal[j]);
    }
  }

  /* 4. the look-back (see the header): warp 0 on the GPU, every warp in the emulation */
  if (lid == 0 && onepass)
    atomic_max(st + 1 + t, (t == 0 ? CI_INC : CI_AGG) | count);
#if CI_EMU
  {
#else
  if (warp == 0) {
#endif
    uint sum = 0;
    int next = onepass ? t - 1 : -1; /* the newest predecessor not yet added; -1: done */
    while (next >= 0) {
      const int j = next - lane; /* lane k reads tile next - k's word */
      const int reads = lane < CI_WINDOW && j >= 0;
#if CI_EMU
      if (warp == 0)
        seen[lane] = reads ? ci_read(st + 1 + j) : 0u;
      barrier(CLK_LOCAL_MEM_FENCE);
      const uint w = seen[lane];
      barrier(CLK_LOCAL_MEM_FENCE);
#else
      const uint w = reads ? ci_read(st + 1 + j) : 0u;
#endif
      const uint f = w & CI_FLAGS;
      const int empty = ci_ctz(ampcl_ballot(f == 0u)), inc = ci_ctz(ampcl_ballot(f == CI_INC));
      const int done = inc < empty, take = done ? inc + 1 : empty; /* lanes 0 .. take-1 add */
      uint v = lane < take ? (w & CI_VALUE) : 0u;
#if !CI_EMU
#pragma unroll
#endif
      for (int m = 16; m >= 1; m >>= 1)
        v += ampcl_shfl_xor(v, m);
      sum += v;
      next = done ? -1 : next - take; /* take = 0: tile `next` has published nothing yet */
    }
    if (lid == 0) {
#if !CI_AGG_ONLY
      if (onepass && t > 0)
        atomic_max(st + 1 + t, CI_INC | (sum + count));
#endif
      before_sh = onepass ? sum : st[t];
      if (t == tiles - 1)
        amp_at(total, 0) = before_sh + count;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* before_sh: written by thread 0; kept[]: by every thread */

  /* 5. the tile's kept elements are one run of dst, written by all threads together */
  __global T *q = &amp_at(dst, 0) + before_sh;
  for (uint e = (uint)lid; e < count; e += CI_TILE)
    q[e] = kept[e];
}

#else /* the portable path */

__attribute__((reqd_work_group_size(CI_TILE, 1, 1))) __kernel void
amp_compact_write(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst), AMP_VIEW(uint, state),
                  AMP_VIEW(uint, total), int onepass) {
  tile_static T buf[CI_PAD(CI_ITEMS)];
  tile_static uint sh[CI_TILE + CI_GROUPS + 1];
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
#if !CI_AGG_ONLY
    if (onepass && t > 0)
      atomic_max(st + 1 + t, CI_INC | (before + count));
#endif
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
#endif
