/* ampcl kernel prelude: C++ AMP's vocabulary for OpenCL C kernels.
 *
 * ampcl prepends this file to every program it builds, so kernels can be written the way C++ AMP
 * code reads. It is OpenCL C 1.2, the version every vendor ships. The numbers in compiler
 * messages count lines of your own source: the runtime resets them after this prelude.
 *
 *   C++ AMP                                   ampcl kernel (OpenCL C)
 *   ---------------------------------------   -------------------------------------------------
 *   array_view<const float,2> a  (captured)   AMP_CONST_VIEW(float, a)   (a kernel parameter)
 *   array_view<float,2> c        (captured)   AMP_VIEW(float, c)
 *   a(i, k)  or  a[idx]                       amp_at(a, i, k)   or  AMP_AT_INDEX2(a, idx)
 *   c.extent[1]                               amp_extent(c, 1)
 *   index<2> idx                              AMP_INDEX2(idx);   then idx[0], idx[1]
 *   tiled_index<16,16> idx                    AMP_TILED_INDEX2(idx); then
 *     idx.global[0], idx.local[1]               idx.global_id[0], idx.local_id[1]
 *     idx.tile[0], idx.tile_origin[1]           idx.tile[0], idx.tile_origin[1], idx.tile_extent[0]
 *   (global and local are OpenCL C keywords, hence global_id and local_id, OpenCL's own words)
 *   tile_static int t[16][16];                tile_static int t[16][16];  (at kernel scope)
 *   idx.barrier.wait()                        amp_barrier_wait()
 *   tiled_extent<16,16> (compile-time tile)   AMP_TILE_SHAPE(16, 16) before __kernel
 *   ..._with_tile_static_memory_fence()       amp_barrier_wait_with_tile_static_memory_fence()
 *   fast_math::exp(x), precise_math::exp(x)   fast_math_exp(x), precise_math_exp(x)
 *   atomic_fetch_add(&x, 1), ..., fences      amp_atomic_fetch_add(&x, 1), ...  (ampcl_atomics.h)
 *   idx + offset, e.contains(idx), ...        amp_index2_add(out, idx, off), ... (ampcl_index.h)
 *   the REF accelerator's checks              AMP_DEBUG=1: checked amp_at       (ampcl_debug.h)
 *   textures, samplers, short vectors         AMP_TEXTURE_READ(T, N, t), ...  (ampcl_texture.h)
 *   assert(i < n) in a restrict(amp) lambda   amp_assert(i < n), AMP_ASSERTS   (ampcl_assert.h)
 *   (random numbers: not AMP's)               amp_random_make, amp_random_float (ampcl_random.h)
 *   (tile-wide reduce, scan, broadcast)       amp_tile_reduce(T, sum, x, sh)  (ampcl_collectives.h)
 *
 * The prelude is eight files, put in front of every program in this order: this one, then
 * ampcl_atomics.h, ampcl_index.h, ampcl_debug.h, ampcl_texture.h, ampcl_assert.h, ampcl_random.h
 * and ampcl_collectives.h (this file includes them when it is used on its own, from an installed
 * copy).
 *
 * Index order: AMP's idx[0] is the slowest dimension. The runtime launches AMP dimension rank-1 as
 * OpenCL dimension 0, so idx[rank-1] == get_global_id(0) and neighbouring work-items touch
 * neighbouring elements of a row.
 *
 * How a view reaches the kernel: AMP_VIEW(T, v) declares two parameters, the buffer `v_data` and
 * its shape `v_shape` (an int8: s0..s2 the extent in AMP order, s3 the offset of the view's first
 * element in the buffer, s4 and s5 the strides of dimensions 0 and 1 in elements, s6 the view's
 * position among the launch's arguments, s7 the rank; the last dimension is always contiguous).
 * amp_at() does the arithmetic, so sections and projections of larger data index correctly and no
 * width needs passing by hand. */
#ifndef AMPCL_PRELUDE_H
#define AMPCL_PRELUDE_H

#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define AMP_HAS_DOUBLE 1
#endif

/* AMP_COMPUTE_CAPABILITY: the device's NVIDIA compute capability as 10 * major + minor (90 for an
 * H100), 0 on other devices; ampcl passes it to every build (amp_accelerator_properties'
 * compute_capability), so a kernel can choose a vendor path at compile time (docs/KERNELS.md,
 * "Vendor paths"). */
#ifndef AMP_COMPUTE_CAPABILITY
#define AMP_COMPUTE_CAPABILITY 0
#endif

/* ---- views ------------------------------------------------------------------------------ */
#define AMP_VIEW(T, v)       __global T *v##_data, const int8 v##_shape
#define AMP_CONST_VIEW(T, v) __global const T *v##_data, const int8 v##_shape
/* Passes a view on to a helper function that declares it AMP_VIEW(T, v) or AMP_CONST_VIEW(T, v):
 * f(AMP_VIEW_ARG(v), x). Debug mode gives views a third parameter; this passes what there is. */
#define AMP_VIEW_ARG(v) v##_data, v##_shape

#define amp_extent(v, d) ((d) == 0 ? (v##_shape).s0 : (d) == 1 ? (v##_shape).s1 : (v##_shape).s2)
#define amp_rank(v)      ((v##_shape).s7)

#define AMP__AT1(v, i)    v##_data[(v##_shape).s3 + (i)]
#define AMP__AT2(v, i, j) v##_data[(v##_shape).s3 + (i) * (v##_shape).s4 + (j)]
#define AMP__AT3(v, i, j, k)                                                                       \
  v##_data[(v##_shape).s3 + (i) * (v##_shape).s4 + (j) * (v##_shape).s5 + (k)]
#define AMP__AT_PICK(_1, _2, _3, _4, name, ...) name
/* amp_at(v, i), amp_at(v, i, j), amp_at(v, i, j, k): the element, as an lvalue. */
#define amp_at(...)           AMP__AT_PICK(__VA_ARGS__, AMP__AT3, AMP__AT2, AMP__AT1, none)(__VA_ARGS__)
#define AMP_AT_INDEX1(v, idx) AMP__AT1(v, (idx)[0])
#define AMP_AT_INDEX2(v, idx) AMP__AT2(v, (idx)[0], (idx)[1])
#define AMP_AT_INDEX3(v, idx) AMP__AT3(v, (idx)[0], (idx)[1], (idx)[2])

/* ---- indexes ---------------------------------------------------------------------------- */
#define AMP_INDEX1(idx) const int idx[1] = {(int)get_global_id(0)}
#define AMP_INDEX2(idx) const int idx[2] = {(int)get_global_id(1), (int)get_global_id(0)}
#define AMP_INDEX3(idx)                                                                            \
  const int idx[3] = {(int)get_global_id(2), (int)get_global_id(1), (int)get_global_id(0)}

#define AMP__TILED_INDEX_TYPE(N)                                                                   \
  typedef struct {                                                                                 \
    int global_id[N];                                                                              \
    int local_id[N];                                                                               \
    int tile[N];                                                                                   \
    int tile_origin[N];                                                                            \
    int tile_extent[N];                                                                            \
  } amp_tiled_index##N
AMP__TILED_INDEX_TYPE(1);
AMP__TILED_INDEX_TYPE(2);
AMP__TILED_INDEX_TYPE(3);

/* AMP dimension d of a rank-r launch is OpenCL dimension r-1-d. */
#define AMP__TI_FILL(idx, r, d)                                                                    \
  idx.global_id[d] = (int)get_global_id((r)-1 - (d));                                              \
  idx.local_id[d] = (int)get_local_id((r)-1 - (d));                                                \
  idx.tile[d] = (int)get_group_id((r)-1 - (d));                                                    \
  idx.tile_extent[d] = (int)get_local_size((r)-1 - (d));                                           \
  idx.tile_origin[d] = idx.tile[d] * idx.tile_extent[d]

static inline amp_tiled_index1 amp__tiled_index1(void) {
  amp_tiled_index1 t;
  AMP__TI_FILL(t, 1, 0);
  return t;
}
static inline amp_tiled_index2 amp__tiled_index2(void) {
  amp_tiled_index2 t;
  AMP__TI_FILL(t, 2, 0);
  AMP__TI_FILL(t, 2, 1);
  return t;
}
static inline amp_tiled_index3 amp__tiled_index3(void) {
  amp_tiled_index3 t;
  AMP__TI_FILL(t, 3, 0);
  AMP__TI_FILL(t, 3, 1);
  AMP__TI_FILL(t, 3, 2);
  return t;
}
/* Each also tells the tile collectives that follow in its scope the tiles' rank
 * (ampcl_collectives.h: amp__tile_rank). */
#define AMP_TILED_INDEX1(idx)                                                                      \
  const amp_tiled_index1 idx = amp__tiled_index1();                                                \
  enum { amp__tile_rank = 1 }
#define AMP_TILED_INDEX2(idx)                                                                      \
  const amp_tiled_index2 idx = amp__tiled_index2();                                                \
  enum { amp__tile_rank = 2 }
#define AMP_TILED_INDEX3(idx)                                                                      \
  const amp_tiled_index3 idx = amp__tiled_index3();                                                \
  enum { amp__tile_rank = 3 }

/* ---- tiles: tile_static memory and barriers ----------------------------------------------- */
/* tile_static variables must be declared at kernel function scope (OpenCL C 1.2 §6.5.2). */
#define tile_static __local

/* Every thread of a tile must reach each barrier (uniform control flow), as in AMP. */
#define amp_barrier_wait()                               barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define amp_barrier_wait_with_all_memory_fence()         barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define amp_barrier_wait_with_global_memory_fence()      barrier(CLK_GLOBAL_MEM_FENCE)
#define amp_barrier_wait_with_tile_static_memory_fence() barrier(CLK_LOCAL_MEM_FENCE)

/* AMP_TILE_HELPER in front of a helper function that every thread of a tile calls and that waits
 * at a barrier inside (a tile-wide scan, say): the compiler then inlines it. OpenCL allows barriers
 * in called functions, but POCL 3.1's CPU device, running several tiles at once on its threads,
 * did not hold a tile together at the barriers of a helper it had left a call: ranks came out
 * wrong and a sort scattered outside its output. Clang's always_inline where the compiler is
 * clang's (POCL, Intel's CPU runtime, oclgrind, and NVIDIA's, which also inlines by itself);
 * plain inline elsewhere. Use it as `static AMP_TILE_HELPER uint tile_scan(...)`. */
#if defined(__clang__)
#define AMP_TILE_HELPER inline __attribute__((always_inline))
#else
#define AMP_TILE_HELPER inline
#endif

/* ---- tile shape a kernel is written for ------------------------------------------------------
 * AMP_TILE_SHAPE(t0), AMP_TILE_SHAPE(t0, t1), AMP_TILE_SHAPE(t0, t1, t2): the tile sizes in AMP
 * order (t0 slowest), written in front of a kernel that only works with that tile (tile_static
 * arrays of that size, loops over TILE). It is OpenCL's reqd_work_group_size in OpenCL order, so
 * the compiler may use it too. The runtime reads it back (CL_KERNEL_COMPILE_WORK_GROUP_SIZE) and
 * refuses an untiled launch or one with another tile with AMP_ERROR_INVALID_ARGUMENT, naming both
 * shapes, instead of running the kernel wrong:
 *   AMP_TILE_SHAPE(16, 16) __kernel void mm(AMP_CONST_VIEW(float, a), ...) { ... }   */
#define AMP__TILE_SHAPE1(t0)         __attribute__((reqd_work_group_size((t0), 1, 1)))
#define AMP__TILE_SHAPE2(t0, t1)     __attribute__((reqd_work_group_size((t1), (t0), 1)))
#define AMP__TILE_SHAPE3(t0, t1, t2) __attribute__((reqd_work_group_size((t2), (t1), (t0))))
#define AMP_TILE_SHAPE(...)                                                                        \
  AMP__AT_PICK(__VA_ARGS__, none, AMP__TILE_SHAPE3, AMP__TILE_SHAPE2, AMP__TILE_SHAPE1, none)      \
  (__VA_ARGS__)

/* ---- math: fast_math (native_*, float only) and precise_math (the full-precision built-ins) ----
 * fast_math_X is native_X, held to ampcl's bound (docs/KERNELS.md, "How accurate the math is":
 * 2^-16 relative); on a device whose native_X misses it the runtime defines fast_math_X as the
 * precise built-in in the build options (runtime/exec/math_accuracy.c), which these #ifndef keep.
 */
#ifndef fast_math_exp
#define fast_math_exp native_exp
#endif
#ifndef fast_math_exp2
#define fast_math_exp2 native_exp2
#endif
#ifndef fast_math_exp10
#define fast_math_exp10 native_exp10
#endif
#ifndef fast_math_log
#define fast_math_log native_log
#endif
#ifndef fast_math_log2
#define fast_math_log2 native_log2
#endif
#ifndef fast_math_log10
#define fast_math_log10 native_log10
#endif
#ifndef fast_math_sqrt
#define fast_math_sqrt native_sqrt
#endif
#ifndef fast_math_rsqrt
#define fast_math_rsqrt native_rsqrt
#endif
#ifndef fast_math_recip
#define fast_math_recip native_recip
#endif
#ifndef fast_math_sin
#define fast_math_sin native_sin
#endif
#ifndef fast_math_cos
#define fast_math_cos native_cos
#endif
#ifndef fast_math_tan
#define fast_math_tan native_tan
#endif
#ifndef fast_math_powr
#define fast_math_powr native_powr
#endif
#ifndef fast_math_divide
#define fast_math_divide native_divide
#endif
/* AMP's fast_math::pow: native_powr, which OpenCL defines for x >= 0, where x > 0 and powr was
 * measured accurate (else the runtime defines fast_math_pow as pow); pow for other x, whose
 * results (negative x with whole y, zero) powr does not give. */
#ifndef fast_math_pow
static inline float amp__fast_math_pow(float x, float y) {
  return x > 0.0f ? native_powr(x, y) : pow(x, y);
}
#define fast_math_pow(x, y) amp__fast_math_pow((x), (y))
#endif
#define precise_math_exp   exp
#define precise_math_exp2  exp2
#define precise_math_exp10 exp10
#define precise_math_log   log
#define precise_math_log2  log2
#define precise_math_log10 log10
#define precise_math_sqrt  sqrt
#define precise_math_rsqrt rsqrt
#define precise_math_sin   sin
#define precise_math_cos   cos
#define precise_math_tan   tan
#define precise_math_pow   pow
#define precise_math_powr  powr

/* ---- the other parts -------------------------------------------------------------------- */
/* The runtime puts them after this file itself (and defines AMPCL_PRELUDE_EMBEDDED); an installed
 * copy used on its own includes them from beside it. */
#ifndef AMPCL_PRELUDE_EMBEDDED
/* in the runtime's order (program_build.c) */
/* clang-format off */
#include "ampcl_assert.h"
#include "ampcl_atomics.h"
#include "ampcl_debug.h"
#include "ampcl_index.h"
#include "ampcl_texture.h"
#include "ampcl_random.h"
#include "ampcl_collectives.h"
/* clang-format on */
#endif

#endif /* AMPCL_PRELUDE_H */
