/* ampcl kernel prelude: tile collectives, the tile-wide reduce, scan and broadcast that tiled
 * kernels otherwise write by hand with tile_static memory and barriers.
 *
 * Every thread of the tile calls them at the same point with its own value, as with a barrier
 * (they contain barriers), and each gets its result:
 *
 *   amp_tile_reduce(T, OP, x, scratch)           OP over the tile's x, to every thread
 *   amp_tile_scan_inclusive(T, OP, x, scratch)   OP over the x of threads 0 .. this one
 *   amp_tile_scan_exclusive(T, OP, x, scratch)   ... of threads 0 .. this one - 1 (thread 0: the
 *                                                identity)
 *   amp_tile_scan_exclusive_total(T, OP, x, scratch, &total)   the same, and the tile's total
 *   amp_tile_broadcast(T, x, from, scratch)      thread `from`'s x, to every thread
 *   amp_tile_linear_id(), amp_tile_size()        this thread's position in its tile (the last
 *                                                AMP dimension fastest) and the threads per tile
 *
 * T is one word: int, uint, long, ulong, float or double (double on devices with double
 * precision). OP is sum, min or max (float and double: fmin and fmax), or an operator of your own
 * from AMP_TILE_COLLECTIVES below. `scratch` is a tile_static array of T with at least
 * amp_tile_size() elements (1 for a broadcast), declared at kernel scope as tile_static memory
 * must be; a call may reuse another's scratch, since every call ends with a barrier. Tiles of any
 * rank work, of any size up to 1024 threads (AMP_TILE_COLLECTIVES_MAX below), powers of two or
 * not.
 *
 *   AMP_TILE_SHAPE(256)
 *   __kernel void block_sums(AMP_CONST_VIEW(float, in), AMP_VIEW(float, sums)) {
 *     AMP_TILED_INDEX1(idx);
 *     tile_static float scratch[256];
 *     const float s = amp_tile_reduce(float, sum, amp_at(in, idx.global_id[0]), scratch);
 *     if (idx.local_id[0] == 0)
 *       amp_at(sums, idx.tile[0]) = s;
 *   }
 *
 * The order of combining is fixed by the tile's size alone: a reduce is a tree (thread t takes
 * t + s for s = the largest power of two below the tile, then half that, ...), a scan Hillis and
 * Steele's steps. A float result is therefore the same on every device for one tile size; a reduce
 * needs an operator that is associative and commutative, a scan only an associative one.
 *
 * It is tile_static memory and barriers on every device: sub-groups, where an implementation has
 * them (Intel's runtimes: cl_intel_subgroups), would give floats another order per device, and
 * NVIDIA's OpenCL, POCL and rusticl have none (docs/KERNELS.md, "Tile collectives", has the
 * measured cost beside a hand-written tile reduction). */
#ifndef AMPCL_COLLECTIVES_H
#define AMPCL_COLLECTIVES_H

/* The most threads a tile may have for the collectives: C++ AMP's limit on a tile, 1024. Their
 * loops run a fixed log2(AMP_TILE_COLLECTIVES_MAX) steps, each ending at a barrier, with nothing to
 * do in the steps beyond the tile's size: loops whose count the compiler knows unroll into one
 * barrier after another, where loops bounded by the tile's size (known at run time) made POCL 3.1
 * compile a kernel of 8 collectives in 24 s and one of 10 in more than 5 minutes (its barrier
 * regions multiply). A kernel with smaller tiles saves the steps beyond them with the build option
 * -DAMP_TILE_COLLECTIVES_MAX=256, say (a power of two; tiles beyond it give wrong results). */
#ifndef AMP_TILE_COLLECTIVES_MAX
#define AMP_TILE_COLLECTIVES_MAX 1024
#endif

static inline int amp_tile_linear_id(void) {
  return (int)(get_local_id(0) +
               get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

static inline int amp_tile_size(void) {
  return (int)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

/* The function of collective KIND for OP and T, T expanded first (a kernel built with -DT=float
 * may write amp_tile_reduce(T, sum, ...)). */
#define AMP__TILE_FN_(KIND, OP, T) amp__tile_##KIND##_##OP##_##T
#define AMP__TILE_FN(KIND, OP, T)  AMP__TILE_FN_(KIND, OP, T)

#define amp_tile_reduce(T, OP, x, scratch) AMP__TILE_FN(reduce, OP, T)((x), (scratch))
#define amp_tile_scan_inclusive(T, OP, x, scratch)                                                 \
  AMP__TILE_FN(scan_inclusive, OP, T)((x), (scratch))
#define amp_tile_scan_exclusive(T, OP, x, scratch)                                                 \
  AMP__TILE_FN(scan_exclusive, OP, T)((x), (scratch))
#define amp_tile_scan_exclusive_total(T, OP, x, scratch, total)                                    \
  AMP__TILE_FN(scan, OP, T)((x), (scratch), 0, (total))
#define amp_tile_broadcast(T, x, from, scratch)                                                    \
  AMP__TILE_FN(broadcast, any, T)((x), (from), (scratch))

/* AMP_TILE_COLLECTIVES(T, OP, IDENTITY, COMBINE): the collectives of an operator of your own,
 * named OP, for type T: COMBINE(a, b) a function or function-like macro, IDENTITY its identity
 * element (COMBINE(IDENTITY, x) == x). Write it at file scope, after the prelude:
 *   #define MUL(a, b) ((a) * (b))
 *   AMP_TILE_COLLECTIVES(float, product, 1.0f, MUL)
 *   ... amp_tile_reduce(float, product, x, scratch) ... */
#define AMP_TILE_COLLECTIVES(T, OP, IDENTITY, COMBINE)                                             \
  static AMP_TILE_HELPER T AMP__TILE_FN(reduce, OP, T)(T x, __local T *sh) {                       \
    const int lid = amp_tile_linear_id(), n = amp_tile_size();                                     \
    sh[lid] = x;                                                                                   \
    for (int s = AMP_TILE_COLLECTIVES_MAX / 2; s > 0; s >>= 1) { /* s >= n: nothing to do */       \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                \
      if (lid < s && lid + s < n)                                                                  \
        sh[lid] = COMBINE(sh[lid], sh[lid + s]);                                                   \
    }                                                                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    const T r = sh[0];                                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    return r;                                                                                      \
  }                                                                                                \
  static AMP_TILE_HELPER T AMP__TILE_FN(scan, OP, T)(T x, __local T *sh, int inclusive,            \
                                                     T *total) {                                   \
    const int lid = amp_tile_linear_id(), n = amp_tile_size();                                     \
    sh[lid] = x;                                                                                   \
    for (int off = 1; off < AMP_TILE_COLLECTIVES_MAX; off <<= 1) { /* off >= n: nothing */         \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                \
      const T y = lid >= off ? sh[lid - off] : (T)(IDENTITY);                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                \
      if (lid >= off)                                                                              \
        sh[lid] = COMBINE(y, sh[lid]);                                                             \
    }                                                                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    const T r = inclusive ? sh[lid] : lid > 0 ? sh[lid - 1] : (T)(IDENTITY);                       \
    *total = sh[n - 1];                                                                            \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    return r;                                                                                      \
  }                                                                                                \
  static AMP_TILE_HELPER T AMP__TILE_FN(scan_inclusive, OP, T)(T x, __local T *sh) {              \
    T total;                                                                                       \
    return AMP__TILE_FN(scan, OP, T)(x, sh, 1, &total);                                            \
  }                                                                                                \
  static AMP_TILE_HELPER T AMP__TILE_FN(scan_exclusive, OP, T)(T x, __local T *sh) {              \
    T total;                                                                                       \
    return AMP__TILE_FN(scan, OP, T)(x, sh, 0, &total);                                            \
  }

/* The broadcast of type T. */
#define AMP__TILE_BROADCAST(T)                                                                     \
  static AMP_TILE_HELPER T AMP__TILE_FN(broadcast, any, T)(T x, int from, __local T *sh) {         \
    if (amp_tile_linear_id() == from)                                                              \
      sh[0] = x;                                                                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    const T r = sh[0];                                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    return r;                                                                                      \
  }

#define AMP__TILE_SUM(a, b) ((a) + (b))
#define AMP__TILE_TYPE(T, LOWEST, HIGHEST, MIN, MAX)                                               \
  AMP_TILE_COLLECTIVES(T, sum, 0, AMP__TILE_SUM)                                                   \
  AMP_TILE_COLLECTIVES(T, min, HIGHEST, MIN)                                                       \
  AMP_TILE_COLLECTIVES(T, max, LOWEST, MAX)                                                        \
  AMP__TILE_BROADCAST(T)

AMP__TILE_TYPE(int, INT_MIN, INT_MAX, min, max)
AMP__TILE_TYPE(uint, 0u, UINT_MAX, min, max)
#if !defined(__EMBEDDED_PROFILE__) || defined(cles_khr_int64)
AMP__TILE_TYPE(long, LONG_MIN, LONG_MAX, min, max)
AMP__TILE_TYPE(ulong, 0ul, ULONG_MAX, min, max)
#endif
AMP__TILE_TYPE(float, -INFINITY, INFINITY, fmin, fmax)
#ifdef AMP_HAS_DOUBLE
AMP__TILE_TYPE(double, -INFINITY, INFINITY, fmin, fmax)
#endif

#endif /* AMPCL_COLLECTIVES_H */
