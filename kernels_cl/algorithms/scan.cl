/* scan.cl: prefix sums of a rank-1 view, inclusive (out[i] = in[0] + ... + in[i]) or exclusive
 * (out[i] = in[0] + ... + in[i-1], out[0] = 0) (runtime/algorithms/scan.c: amp_scan), two ways:
 * reduce-then-scan in three launches (below), and a single pass with decoupled look-back (at the
 * end of the file: the default for int, uint and float where the device has 64-bit atomics). Built with
 * -DT=<int, uint, float or double> and -DT4=<its 4-vector>.
 *
 * Tile shape: 1-D tiles of exactly SCAN_TILE threads, a power of two from 32 to 256 (the runtime
 * passes -DSCAN_TILE: 256, the tuned shape, or less where the device allows less; below, the
 * numbers are for 256). amp_scan_sums reads steps of SCAN_ITEMS (4096) elements as 4 rounds of
 * 256 neighbouring 4-vectors; amp_scan_apply works in
 * steps of APPLY_ITEMS (2048): the tile loads them into tile_static memory with the same coalesced
 * pattern, thread t then scans elements 8t .. 8t+7 of the step from there (one tile-wide scan of
 * 256 thread sums serves 2048 elements) and rewrites them in place, and the tile stores the step
 * as it loaded it. The view is cut into G chunks of `chunk` elements (a multiple of 4096), one
 * per tile; G <= 4 * SCAN_TILE.
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
#ifndef SCAN_TILE /* the runtime passes it (scan.c: scan_shape) */
#define SCAN_TILE 256
#endif
#if SCAN_TILE < 32 || (SCAN_TILE & (SCAN_TILE - 1)) != 0
#error "scan.cl: SCAN_TILE must be a power of two, at least 32"
#endif
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

/* Four elements stored from i, none at or past n. */
static inline void scan_store(__global T *q, long i, long n, T4 r) {
  if (i + 3 < n) {
    vstore4(r, 0, q + i);
    return;
  }
  if (i < n)
    q[i] = r.x;
  if (i + 1 < n)
    q[i + 1] = r.y;
  if (i + 2 < n)
    q[i + 2] = r.z;
}

/* The sum of a 4-vector's elements. */
static inline T sum4(T4 v) {
  return (v.x + v.y) + (v.z + v.w);
}

/* A 4-vector's exclusive prefix sums, starting from e: (e, e + v.x, ...). The next start is the
 * result's .w + v.w; adding v gives the inclusive sums. */
static inline T4 scan4(T4 v, T e) {
  return (T4)(e, e + v.x, e + v.x + v.y, e + v.x + v.y + v.z);
}

/* Exclusive prefix sums of one value per thread across a tile of `threads` threads, in sh[];
 * returns this thread's. *total gets the tile's sum. Every thread of the tile must call it. */
static AMP_TILE_HELPER T tile_exclusive_n(__local T *sh, int lid, T x, T *total, int threads) {
  sh[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < threads; off <<= 1) {
    const T y = lid >= off ? sh[lid - off] : (T)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    sh[lid] += y;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const T incl = sh[lid];
  *total = sh[threads - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  return incl - x;
}

static inline T tile_exclusive(__local T *sh, int lid, T x, T *total) {
  return tile_exclusive_n(sh, lid, x, total, SCAN_TILE);
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
      acc += sum4(v);
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
  const T e = tile_exclusive(sh, lid, sum4(v), &total);
  scan_store(p, i, n, scan4(v, e));
}

/* amp_scan_apply's step: APPLY_VECS 4-vectors per thread, APPLY_ITEMS elements, staged in
 * tile_static memory (20 KB for double with its padding, 22 KB with sh[]: within any device's
 * 32 KB). buf slot of
 * 4-vector v: one spare slot after every 4 (APPLY_AT), which keeps both the coalesced and the
 * per-thread pattern free of bank conflicts for 32-byte vectors (double4). */
#define APPLY_VECS  2
#define APPLY_ITEMS (4 * APPLY_VECS * SCAN_TILE)
#define APPLY_AT(v) ((v) + ((v) >> 2))

__kernel void amp_scan_apply(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst), AMP_CONST_VIEW(T, sums),
                             int chunk, int inclusive) {
  tile_static T sh[SCAN_TILE];
  tile_static T4 buf[APPLY_AT(APPLY_VECS * SCAN_TILE)];
  const int lid = (int)get_local_id(0), g = (int)get_group_id(0);
  const long n = amp_extent(src, 0), begin = (long)g * chunk, end = min(begin + chunk, n);
  __global const T *p = &amp_at(src, 0);
  __global T *q = &amp_at(dst, 0);
  T carry = amp_at(sums, g);
  for (long base = begin; base < end; base += APPLY_ITEMS) {
    /* coalesced loads: neighbouring threads, neighbouring 4-vectors */
    for (int k = 0; k < APPLY_VECS; k++) {
      const int v = k * SCAN_TILE + lid;
      buf[APPLY_AT(v)] = scan_load(p, base + 4 * v, end);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* this thread's APPLY_VECS * 4 neighbouring elements */
    T mine = 0;
    for (int c = 0; c < APPLY_VECS; c++) {
      const T4 x = buf[APPLY_AT(APPLY_VECS * lid + c)];
      mine += sum4(x);
    }
    T total;
    T e = carry + tile_exclusive(sh, lid, mine, &total);
    for (int c = 0; c < APPLY_VECS; c++) {
      const int s = APPLY_AT(APPLY_VECS * lid + c);
      const T4 x = buf[s];
      const T4 o = scan4(x, e);
      e = o.w + x.w;
      buf[s] = inclusive ? o + x : o;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < APPLY_VECS; k++) {
      const int v = k * SCAN_TILE + lid;
      scan_store(q, base + 4 * v, end, buf[APPLY_AT(v)]);
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* buf is refilled by the next step */
    carry += total;
  }
}

/* ---- Single pass: decoupled look-back ------------------------------------------------------
 *
 * The three launches above read the input twice. amp_scan_onepass reads it once and writes the
 * output once, what a copy moves: each tile takes the next tile number from a counter (so tiles
 * start in order, whatever order the device schedules work-groups in), scans its ONE_ITEMS
 * elements in tile_static memory, and gets the sum of everything before it from the tiles before
 * it:
 *
 *   - it publishes its own sum at once (state 1: "aggregate"), so that later tiles need not wait
 *     for its predecessors;
 *   - it walks back over the tiles before it, 32 at a time (32 threads read one each, one thread
 *     adds them up), adding aggregates, until it meets one that published its inclusive prefix
 *     (state 2), adds that and stops; it waits only on a tile that has published nothing yet
 *     (state 0), which has already started (it took a smaller number) and publishes without
 *     waiting on anyone, so the walk always ends;
 *   - it publishes its inclusive prefix (state 2) and writes its elements.
 *
 * What a tile publishes is one 64-bit word, the state in the high half and the value's 32 bits
 * in the low half, written and read with one 64-bit atomic (cl_khr_int64_base_atomics). A
 * reader therefore never sees a state without its value: no ordering between two stores is
 * needed, which OpenCL 1.2's fences do not promise across work-groups (on an NVIDIA GPU a flag
 * and a value stored separately with mem_fence between them were seen out of order at 2^28
 * elements). So only 32-bit T (int, uint, float) take this path; double scans in three passes.
 *
 * The same bits on every run (SCAN_ORDERED, which the runtime sets for float). Which published
 * prefix a look-back meets depends on timing, and a float sum on the order of its additions: added
 * newest first up to whatever prefix was there, the same input gave other last bits from run to
 * run (POCL with 16 threads on 2 cores: 38 of 100 runs differed). With SCAN_ORDERED a tile
 * publishes its aggregate and its inclusive prefix in two words of their own (word 1 + 2t and
 * 2 + 2t), and its look-back first finds the newest predecessor j with a prefix (phase 1), then
 * adds the aggregates of j + 1 .. t - 1 to it oldest first (from the window it read, when that
 * window started at t - 1; else read again, 32 at a time: phase 2). Every prefix is then
 * (((A0 + A1) + A2) + ...) + At, the aggregates added left to right, whatever the timing. int and
 * uint sums are the same in any order and keep the one-word look-back. SCAN_AGG_ONLY (the
 * runtime's AMP_SCAN_AGG_ONLY=1, for tests) publishes no prefix but tile 0's, so that every
 * look-back walks back to tile 0 through aggregates.
 *
 * Where the tile's elements live. A tile spends much of its life waiting (for its tile number,
 * for its loads, for the look-back), so the scan runs at the rate of the tiles a multiprocessor
 * holds at once, and that is set by registers per thread. The elements therefore stay in
 * tile_static memory from load to store, never in registers: neighbouring threads load
 * neighbouring 4-vectors (whole lines per warp) into buf, each thread then reads its own
 * ONE_PER neighbouring elements as ONE_VECS 4-vectors, adds them up, and later rewrites them
 * in place as prefix sums, which neighbouring threads store back as they were loaded. buf is
 * swizzled so that neither pattern has bank conflicts: 4-vector v sits at v ^ (owner & 7),
 * owner = v / ONE_VECS the thread that scans it. The 8 threads that read 4-vectors at once hit 8
 * different 16-byte columns of the 128 bytes the banks span ((owner & 7) differs while
 * ONE_VECS * owner is a multiple of 8), and 8 threads storing neighbouring 4-vectors share an owner,
 * so they land in a permutation of 8 neighbouring slots. On an H100 this took the kernel from 60
 * registers per thread to 38 and the scan from 0.72 to 0.88 of a copy's rate (lab/NOTEBOOK.md).
 *
 * `state` is a uint view of 2 * (tiles + 1) elements (2 * (2 tiles + 1) with SCAN_ORDERED), read as
 * 64-bit words: word 0 holds the tile counter (in its low half), word 1 + t tile t's publication.
 * amp_scan_init zeroes it first.
 * Tile shape: exactly ONE_TILE threads (reqd_work_group_size; the runtime passes -DONE_TILE=128
 * -DONE_PER=32, the fastest of the shapes measured on an H100 that fits 32 KiB of tile_static
 * memory). Compiled only with -DSCAN_ONEPASS, so that the three passes build on any device. */
#ifdef SCAN_ONEPASS
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define SCAN_AS_(t) as_##t
#define SCAN_AS(t)  SCAN_AS_(t)

__kernel void amp_scan_init(AMP_VIEW(uint, state)) {
  const int i = (int)get_global_id(0);
  if (i < amp_extent(state, 0))
    amp_at(state, i) = 0u;
}

#ifndef ONE_TILE /* the runtime passes it (algo_scan.c: SCAN_ONE_TILE) */
#define ONE_TILE 128 /* threads per tile, at least ONE_WINDOW */
#endif
#ifndef ONE_PER /* the runtime passes it (algo_scan.c: SCAN_ONE_PER) */
#define ONE_PER 32 /* elements per thread, a multiple of 32 (8 4-vectors: see the swizzle) */
#endif
#if ONE_PER % 32 != 0 || ONE_TILE < 32 || ONE_TILE % 32 != 0
#error "scan.cl: ONE_PER must be a multiple of 32 and ONE_TILE a multiple of 32"
#endif
#define ONE_ITEMS  (ONE_PER * ONE_TILE) /* elements per tile */
#define ONE_VECS   (ONE_PER / 4)        /* 4-vectors per thread */
#define ONE_WINDOW 32                   /* predecessors read at once in the look-back */
#define ONE_SWZ(v) ((v) ^ (((v) / ONE_VECS) & 7)) /* where 4-vector v sits in buf */

/* Thread 0's half of a look-back round: adds up the window seen[] (newest first, seen[k] is
 * tile j0 - k) up to and including the first inclusive prefix, stopping before a tile that has
 * published nothing. Returns how many tiles it added; *found: it met an inclusive prefix. No
 * early exit, so the 32 reads of seen[] do not wait on each other. */
static inline int window_sum(__local const ulong *seen, int j0, T *add, int *found) {
  int live = 1, took = 0;
  T a = 0;
  for (int k = 0; k < ONE_WINDOW; k++) {
    const ulong w = seen[k];
    const uint st = (uint)(w >> 32);
    live = live && j0 - k >= 0 && st != 0u;
    a += live ? SCAN_AS(T)((uint)w) : (T)0;
    took += live;
    if (live && st == 2u) {
      *found = 1;
      live = 0;
    }
  }
  *add = a;
  return took;
}

#define SCAN_BITS(x) as_uint(x)
#ifndef SCAN_AGG_ONLY /* 1 (AMP_SCAN_AGG_ONLY, for tests): only tile 0 publishes its prefix, so */
#define SCAN_AGG_ONLY 0 /* every look-back walks back to it through aggregates */
#endif
#if SCAN_AGG_ONLY
#define SCAN_PUBLISH false
#else
#define SCAN_PUBLISH true
#endif
#ifndef SCAN_ORDERED /* the runtime passes 1 for float (scan.c) */
#define SCAN_ORDERED 0
#endif

#if SCAN_ORDERED
/* Thread 0's half of a round of the ordered look-back (phase 1): the window's inclusive prefixes
 * p[] and aggregates a[] (newest first: p[k] and a[k] are tile j0 - k's words) are walked up to
 * the first published prefix, stopping at a tile that has published neither. Returns the next
 * window's newest tile (-1 when the prefix was found). Where the window starts at the tile just
 * before this one (t - 1), it holds every aggregate the sum needs, and *before gets it at once:
 * the prefix plus the aggregates after it, oldest first. Otherwise *before gets the prefix and
 * *from its tile, and phase 2 adds the aggregates. */
static inline int window_find(__local const ulong *p, __local const ulong *a, int j0, int t,
                              __local T *before, __local int *from) {
  for (int k = 0; k < ONE_WINDOW; k++) { /* ends at tile 0 at the latest */
    if ((uint)(p[k] >> 32) == 2u) {
      T b = SCAN_AS(T)((uint)p[k]);
      if (j0 == t - 1) {
        for (int m = k - 1; m >= 0; m--)
          b += SCAN_AS(T)((uint)a[m]);
      } else {
        *from = j0 - k;
      }
      *before = b;
      return -1;
    }
    if ((uint)(a[k] >> 32) == 0u || j0 - k == 0)
      return j0 - k; /* nothing yet (tile 0: no prefix yet): read again from here */
  }
  return j0 - ONE_WINDOW; /* all aggregates: on to the older tiles */
}
#endif

__attribute__((reqd_work_group_size(ONE_TILE, 1, 1))) __kernel void
amp_scan_onepass(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst), AMP_VIEW(uint, state), int inclusive) {
  tile_static T sh[ONE_TILE];
  tile_static T4 buf[ONE_ITEMS / 4];
  tile_static ulong seen[ONE_WINDOW];
#if SCAN_ORDERED
  tile_static ulong seen_agg[ONE_WINDOW];
  tile_static int from; /* the predecessor whose inclusive prefix starts the sum; -1: none yet */
#endif
  tile_static int tile, next;
  tile_static T before; /* the sum of every element before this tile */
  const int lid = (int)get_local_id(0);
  volatile __global ulong *word = (volatile __global ulong *)&amp_at(state, 0);
  if (lid == 0)
    tile = (int)atom_inc(word);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int t = tile;
  const long n = amp_extent(src, 0), base = (long)t * ONE_ITEMS;
  __global const T *p = &amp_at(src, 0);
  __global T *q = &amp_at(dst, 0);
  for (int k = 0; k < ONE_VECS; k++) { /* coalesced: neighbouring threads, neighbouring vectors */
    const int v = k * ONE_TILE + lid;
    buf[ONE_SWZ(v)] = scan_load(p, base + 4 * v, n);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  T mine = 0; /* the sum of this thread's ONE_PER neighbouring elements */
  for (int c = 0; c < ONE_VECS; c++) {
    const T4 x = buf[ONE_SWZ(ONE_VECS * lid + c)];
    mine += sum4(x);
  }
  T total;
  T e = tile_exclusive_n(sh, lid, mine, &total, ONE_TILE);
#if SCAN_ORDERED
  if (lid == 0) {
    atom_xchg(word + 1 + 2 * t, ((ulong)1 << 32) | SCAN_BITS(total)); /* the aggregate */
    if (t == 0)
      atom_xchg(word + 2, ((ulong)2 << 32) | SCAN_BITS(total)); /* the inclusive prefix */
    before = 0;
    next = t - 1;
    from = -1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* Phase 1: find the newest predecessor with its inclusive prefix published, every tile after it
   * having published its aggregate; a window with a tile that has published neither is read
   * again from that tile. */
  while (next >= 0) {
    const int j0 = next;
    if (lid < ONE_WINDOW) {
      const int j = j0 - lid;
      seen[lid] = j >= 0 ? atom_add(word + 2 + 2 * j, (ulong)0) : 0;
      seen_agg[lid] = j >= 0 ? atom_add(word + 1 + 2 * j, (ulong)0) : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
      next = window_find(seen, seen_agg, j0, t, &before, &from);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  /* Phase 2, where phase 1 did not see every aggregate in the round that found the prefix: they
   * are read again, oldest first, and added in that order. */
  const int f = from;
  for (int b0 = f + 1; f >= 0 && b0 < t; b0 += ONE_WINDOW) {
    if (lid < ONE_WINDOW)
      seen_agg[lid] = b0 + lid < t ? atom_add(word + 1 + 2 * (b0 + lid), (ulong)0) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
      for (int k = 0; k < ONE_WINDOW && b0 + k < t; k++)
        before += SCAN_AS(T)((uint)seen_agg[k]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0 && t > 0 && SCAN_PUBLISH)
    atom_xchg(word + 2 + 2 * t, ((ulong)2 << 32) | SCAN_BITS(before + total));
#else
  if (lid == 0) {
    atom_xchg(word + 1 + t, ((ulong)(t == 0 ? 2 : 1) << 32) | SCAN_BITS(total));
    before = 0;
    next = t - 1; /* the newest predecessor not yet added; -1: done */
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* The look-back, a window of ONE_WINDOW predecessors per round: the first ONE_WINDOW threads
   * each read one (newest first), then thread 0 adds them up to the first inclusive prefix. A
   * window with a tile that has published nothing before that is read again from that tile. */
  while (next >= 0) {
    const int j0 = next;
    if (lid < ONE_WINDOW)
      seen[lid] = j0 - lid >= 0 ? atom_add(word + 1 + j0 - lid, (ulong)0) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      T add;
      int found = 0;
      const int took = window_sum(seen, j0, &add, &found);
      before += add;
      next = found ? -1 : j0 - took;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0 && t > 0 && SCAN_PUBLISH)
    atom_xchg(word + 1 + t, ((ulong)2 << 32) | SCAN_BITS(before + total));
#endif
  e += before;
  for (int c = 0; c < ONE_VECS; c++) { /* this thread's elements become their prefix sums */
    const int s = ONE_SWZ(ONE_VECS * lid + c);
    const T4 x = buf[s];
    const T4 o = scan4(x, e);
    e = o.w + x.w;
    buf[s] = inclusive ? o + x : o;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < ONE_VECS; k++) {
    const int v = k * ONE_TILE + lid;
    scan_store(q, base + 4 * v, n, buf[ONE_SWZ(v)]);
  }
}
#endif /* SCAN_ONEPASS */
