/* ampcl_warp.h: warp-wide votes, matches and shuffles for the algorithm kernels, in inline PTX.
 * NVIDIA devices of compute capability 7.0 and later only (match.any needs it); elsewhere this
 * file defines nothing but AMPCL_WARP 0, and the kernels keep their portable tile_static path.
 *
 * OpenCL C 1.2 has no sub-group functions, and NVIDIA's OpenCL does not offer cl_khr_subgroups,
 * but NVIDIA's compiler takes `asm` statements with PTX (lab/ptx_probe.c checks it, as the GEMM
 * kernels' ampcl_ptx.h relies on). A kernel says `#include "ampcl_warp.h"` after the prelude; the
 * build puts this text there (cmake/embed_kernels.cmake). AMP_COMPUTE_CAPABILITY is the macro the
 * runtime passes to every build (0 on devices that are not NVIDIA's).
 *
 * The kernels that use it run 1-D tiles whose size is a multiple of 32; on NVIDIA's GPUs thread
 * get_local_id(0) is lane get_local_id(0) % 32 of warp get_local_id(0) / 32. Every function here
 * is called by all 32 lanes of a warp together (the .sync forms with a full mask). */
#ifndef AMPCL_WARP_H
#define AMPCL_WARP_H

#if defined(AMP_COMPUTE_CAPABILITY) && AMP_COMPUTE_CAPABILITY >= 70
#define AMPCL_WARP 1
#define AMPCL_WARP_SIZE 32

/* The lanes below this one, as a mask (bit i set for lanes i < this lane). */
static inline uint ampcl_lanemask_lt(void) {
  uint r;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  return r;
}

/* Bit i set where lane i's p is not zero. */
static inline uint ampcl_ballot(int p) {
  uint r;
  asm volatile("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }"
               : "=r"(r)
               : "r"(p));
  return r;
}

/* The lanes whose x equals this lane's (this lane included). */
static inline uint ampcl_match_any(uint x) {
  uint r;
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(x));
  return r;
}

/* Lane `from`'s x (0 .. 31). */
static inline uint ampcl_shfl(uint x, int from) {
  uint r;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x), "r"(from));
  return r;
}

/* Lane (this - d)'s x; lanes below d get their own x. */
static inline uint ampcl_shfl_up(uint x, int d) {
  uint r;
  asm volatile("shfl.sync.up.b32 %0, %1, %2, 0x0, 0xffffffff;" : "=r"(r) : "r"(x), "r"(d));
  return r;
}

/* Lane (this ^ m)'s x. */
static inline uint ampcl_shfl_xor(uint x, int m) {
  uint r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x), "r"(m));
  return r;
}

/* Inclusive prefix sums of x over the warp's lanes. */
static inline uint ampcl_warp_scan(uint x, int lane) {
  for (int d = 1; d < 32; d <<= 1) {
    const uint y = ampcl_shfl_up(x, d);
    if (lane >= d)
      x += y;
  }
  return x;
}

/* Orders this warp's tile_static reads and writes before and after it (the lanes of a warp run
 * independently from compute capability 7.0 on). */
static inline void ampcl_warp_sync(void) {
  asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
}

#else
#define AMPCL_WARP 0
#endif

#endif
