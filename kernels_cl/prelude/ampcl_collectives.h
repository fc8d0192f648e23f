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

/* The rank of the tiles the collectives run in, where they are called: AMP_TILED_INDEX1(idx)
 * declares amp__tile_rank = 1 in its scope (AMP_TILED_INDEX2 and 3 say 2 and 3), and elsewhere
 * this file's 3 holds, which works for tiles of any rank. In 1-D tiles a thread's position is
 * get_local_id(0) alone, which Intel's CPU runtime vectorises across the threads of a tile; a
 * position that involves get_local_id(1) it does not, and a tile reduction of 2^24 floats took 20
 * times as long there (docs/KERNELS.md, "Tile collectives"). -DAMP_TILE_RANK=1 in a program's build
 * options says the same for all its collectives. */
enum { amp__tile_rank = 3 };
#ifndef AMP_TILE_RANK
#define AMP_TILE_RANK amp__tile_rank
#endif

static inline int amp_tile_linear_id(void) {
  return (int)(get_local_id(0) +
               get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

static inline int amp_tile_size(void) {
  return (int)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

/* The function KIND of operator OP for type T, T expanded first (a kernel built with -DT=float
 * may write amp_tile_reduce(T, sum, ...)). */
#define AMP__TILE_FN_(KIND, OP, T) amp__tile_##KIND##_##OP##_##T
#define AMP__TILE_FN(KIND, OP, T)  AMP__TILE_FN_(KIND, OP, T)

/* A thread's position in its tile and the tile's threads, for tiles of `rank` (a constant). */
#define AMP__TILE_LID(rank) ((rank) == 1 ? (int)get_local_id(0) : amp_tile_linear_id())
#define AMP__TILE_N(rank)   ((rank) == 1 ? (int)get_local_size(0) : amp_tile_size())

/* The collectives are expressions of clang's (and GCC's) statement-expression extension, which
 * every OpenCL compiler ampcl meets has (they are clang's: POCL, Intel's runtimes, Mesa's rusticl,
 * oclgrind, NVIDIA's; the prelude's atomics rely on clang's `overloadable` the same way), so that
 * they index the caller's tile_static array itself: Intel's CPU runtime vectorises a tile's
 * accesses to a tile_static array, and not those through a pointer to it, which a function would
 * need (a tile reduction of 2^24 floats took 66 ms there through a pointer, 7 ms on the array). */
#define amp_tile_reduce(T, OP, x, scratch)                                                         \
  ({                                                                                               \
    const int amp__lid = AMP__TILE_LID(AMP_TILE_RANK), amp__n = AMP__TILE_N(AMP_TILE_RANK);        \
    (scratch)[amp__lid] = (T)(x);                                                                  \
    for (int amp__s = AMP_TILE_COLLECTIVES_MAX / 2; amp__s > 0; amp__s >>= 1) {                    \
      barrier(CLK_LOCAL_MEM_FENCE); /* steps with amp__s >= amp__n have nothing to do */           \
      if (amp__lid < amp__s && amp__lid + amp__s < amp__n)                                         \
        (scratch)[amp__lid] =                                                                      \
            AMP__TILE_FN(combine, OP, T)((scratch)[amp__lid], (scratch)[amp__lid + amp__s]);       \
    }                                                                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    const T amp__r = (scratch)[0];                                                                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    amp__r;                                                                                        \
  })

/* The scans: Hillis and Steele's steps; SET_TOTAL stores amp__total where it is wanted. */
#define AMP__TILE_SCAN(T, OP, x, scratch, inclusive, SET_TOTAL)                                    \
  ({                                                                                               \
    const int amp__lid = AMP__TILE_LID(AMP_TILE_RANK), amp__n = AMP__TILE_N(AMP_TILE_RANK);        \
    (scratch)[amp__lid] = (T)(x);                                                                  \
    for (int amp__off = 1; amp__off < AMP_TILE_COLLECTIVES_MAX; amp__off <<= 1) {                  \
      barrier(CLK_LOCAL_MEM_FENCE); /* steps with amp__off >= amp__n have nothing to do */         \
      const T amp__y =                                                                             \
          amp__lid >= amp__off ? (scratch)[amp__lid - amp__off] : AMP__TILE_FN(identity, OP, T)(); \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                \
      if (amp__lid >= amp__off)                                                                    \
        (scratch)[amp__lid] = AMP__TILE_FN(combine, OP, T)(amp__y, (scratch)[amp__lid]);           \
    }                                                                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    const T amp__r = (inclusive)    ? (scratch)[amp__lid]                                          \
                     : amp__lid > 0 ? (scratch)[amp__lid - 1]                                      \
                                    : AMP__TILE_FN(identity, OP, T)();                             \
    const T amp__total = (scratch)[amp__n - 1];                                                    \
    SET_TOTAL;                                                                                     \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    amp__r;                                                                                        \
  })
#define amp_tile_scan_inclusive(T, OP, x, scratch)                                                 \
  AMP__TILE_SCAN(T, OP, x, scratch, 1, (void)amp__total)
#define amp_tile_scan_exclusive(T, OP, x, scratch)                                                 \
  AMP__TILE_SCAN(T, OP, x, scratch, 0, (void)amp__total)
#define amp_tile_scan_exclusive_total(T, OP, x, scratch, total)                                    \
  AMP__TILE_SCAN(T, OP, x, scratch, 0, *(total) = amp__total)

#define amp_tile_broadcast(T, x, from, scratch)                                                    \
  ({                                                                                               \
    if (AMP__TILE_LID(AMP_TILE_RANK) == (from))                                                    \
      (scratch)[0] = (T)(x);                                                                       \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    const T amp__r = (scratch)[0];                                                                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    amp__r;                                                                                        \
  })

/* AMP_TILE_COLLECTIVES(T, OP, IDENTITY, COMBINE): an operator of your own, named OP, for type T:
 * COMBINE(a, b) a function or function-like macro, IDENTITY its identity element
 * (COMBINE(IDENTITY, x) == x). Write it at file scope, after the prelude:
 *   #define MUL(a, b) ((a) * (b))
 *   AMP_TILE_COLLECTIVES(float, product, 1.0f, MUL)
 *   ... amp_tile_reduce(float, product, x, scratch) ... */
#define AMP_TILE_COLLECTIVES(T, OP, IDENTITY, COMBINE)                                             \
  static inline T AMP__TILE_FN(combine, OP, T)(T a, T b) {                                         \
    return COMBINE(a, b);                                                                          \
  }                                                                                                \
  static inline T AMP__TILE_FN(identity, OP, T)(void) {                                            \
    return (T)(IDENTITY);                                                                          \
  }

#define AMP__TILE_SUM(a, b) ((a) + (b))
#define AMP__TILE_TYPE(T, LOWEST, HIGHEST, MIN, MAX)                                               \
  AMP_TILE_COLLECTIVES(T, sum, 0, AMP__TILE_SUM)                                                   \
  AMP_TILE_COLLECTIVES(T, min, HIGHEST, MIN)                                                       \
  AMP_TILE_COLLECTIVES(T, max, LOWEST, MAX)

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
