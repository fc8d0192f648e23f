/* ampcl_warp.h: warp-wide votes, matches and shuffles for the algorithm kernels. On NVIDIA
 * devices of compute capability 7.0 and later (match.any needs it) they are single PTX
 * instructions; with -DAMPCL_WARP_EMULATE=1 (the runtime passes it when AMP_WARP_EMULATE=1, so that
 * tests check the warp paths' logic on any device) the same functions are emulated through
 * tile_static memory and barriers; elsewhere, and with -DAMPCL_WARP_OFF, this file defines
 * nothing but AMPCL_WARP 0, and the kernels keep their portable path. The runtime decides which
 * in one place (amp__algo_warp_path, runtime/algorithms/algo.c) and passes the option that makes
 * the kernel agree with it.
 *
 * OpenCL C 1.2 has no sub-group functions, and NVIDIA's OpenCL does not offer cl_khr_subgroups,
 * but NVIDIA's compiler takes `asm` statements with PTX (lab/ptx_probe.c checks it, as the GEMM
 * kernels' ampcl_ptx.h relies on). A kernel says `#include "ampcl_warp.h"` after the prelude; the
 * build puts this text there (cmake/embed_kernels.cmake). AMP_COMPUTE_CAPABILITY is the macro the
 * runtime passes to every build (0 on devices that are not NVIDIA's).
 *
 * Rules for a kernel that uses it:
 *   - 1-D tiles whose size is a multiple of 32: thread get_local_id(0) is lane
 *     get_local_id(0) % 32 of warp get_local_id(0) / 32 (as on NVIDIA's GPUs);
 *   - AMPCL_WARP_SCRATCH(tile size); among its tile_static declarations (the emulation's memory;
 *     nothing on the GPU);
 *   - every ampcl_ function but ampcl_lane and ampcl_lanemask_lt is called by every thread of the
 *     TILE at the same point (not only by one warp: the emulation waits at barriers), outside
 *     branches that differ between threads. */
#ifndef AMPCL_WARP_H
#define AMPCL_WARP_H

#if defined(AMPCL_WARP_OFF)
#define AMPCL_WARP 0
#elif defined(AMP_COMPUTE_CAPABILITY) && AMP_COMPUTE_CAPABILITY >= 70 &&                           \
    !(defined(AMPCL_WARP_EMULATE) && AMPCL_WARP_EMULATE)
#define AMPCL_WARP 1
#define AMPCL_WARP_SCRATCH(n)

/* This thread's lane, 0 .. 31. */
static inline int ampcl_lane(void) {
  return (int)(get_local_id(0) & 31);
}

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

/* Orders this warp's tile_static reads and writes before and after it (the lanes of a warp run
 * independently from compute capability 7.0 on). */
static inline void ampcl_warp_sync(void) {
  asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
}

#elif defined(AMPCL_WARP_EMULATE) && AMPCL_WARP_EMULATE
/* The emulation: each call writes every thread's operand to the scratch, waits, reads what its
 * lane needs from its warp's 32 entries, and waits again before the scratch is reused. */
#define AMPCL_WARP            1
#define AMPCL_WARP_SCRATCH(n) tile_static uint ampcl_ws_[n]

static inline int ampcl_lane(void) {
  return (int)(get_local_id(0) & 31);
}
static inline uint ampcl_lanemask_lt(void) {
  return (1u << ampcl_lane()) - 1u;
}
static AMP_TILE_HELPER __local uint *ampcl_emu_put_(__local uint *ws, uint x) {
  const int lid = (int)get_local_id(0);
  ws[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  return ws + (lid & ~31);
}
static AMP_TILE_HELPER uint ampcl_emu_ballot_(__local uint *ws, int p) {
  __local uint *w = ampcl_emu_put_(ws, p != 0);
  uint r = 0;
  for (int i = 0; i < 32; i++)
    r |= w[i] << i;
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
static AMP_TILE_HELPER uint ampcl_emu_match_(__local uint *ws, uint x) {
  __local uint *w = ampcl_emu_put_(ws, x);
  uint r = 0;
  for (int i = 0; i < 32; i++)
    r |= (uint)(w[i] == x) << i;
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
static AMP_TILE_HELPER uint ampcl_emu_shfl_(__local uint *ws, uint x, int from) {
  __local uint *w = ampcl_emu_put_(ws, x);
  const uint r = w[from & 31];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
static AMP_TILE_HELPER uint ampcl_emu_shfl_up_(__local uint *ws, uint x, int d) {
  __local uint *w = ampcl_emu_put_(ws, x);
  const int lane = ampcl_lane();
  const uint r = lane >= d ? w[lane - d] : x;
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
static AMP_TILE_HELPER uint ampcl_emu_shfl_xor_(__local uint *ws, uint x, int m) {
  __local uint *w = ampcl_emu_put_(ws, x);
  const uint r = w[(ampcl_lane() ^ m) & 31];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
#define ampcl_ballot(p)       ampcl_emu_ballot_(ampcl_ws_, (p))
#define ampcl_match_any(x)    ampcl_emu_match_(ampcl_ws_, (x))
#define ampcl_shfl(x, from)   ampcl_emu_shfl_(ampcl_ws_, (x), (from))
#define ampcl_shfl_up(x, d)   ampcl_emu_shfl_up_(ampcl_ws_, (x), (d))
#define ampcl_shfl_xor(x, m)  ampcl_emu_shfl_xor_(ampcl_ws_, (x), (m))
#define ampcl_warp_sync()     barrier(CLK_LOCAL_MEM_FENCE)

#else
#define AMPCL_WARP 0
#endif

#if AMPCL_WARP
/* Sets the uint variable `peers` to the lanes whose low `bits` bits (1 .. 31) of x equal this
 * lane's (this lane included): what ampcl_match_any(x & mask) gives. On NVIDIA's GPUs it is one
 * ballot per bit, which for the 8 bits of a radix digit costs less than one match.any
 * (onesweep.cl; lab/NOTEBOOK.md, 2026-11-27, "ballots for the sort"). The emulation takes the one exchange
 * of its match instead: eight emulated ballots, each two barriers, made the emulated sort too slow
 * under oclgrind. `bits` must be the same in the whole tile. A macro, for the same reason as
 * AMPCL_WARP_SCAN below. */
#if defined(AMPCL_WARP_EMULATE) && AMPCL_WARP_EMULATE
#define AMPCL_MATCH_BITS(peers, x, bits) ((peers) = ampcl_match_any((x) & ((1u << (bits)) - 1u)))
#else
#define AMPCL_MATCH_BITS(peers, x, bits)                                                           \
  do {                                                                                             \
    (peers) = 0xffffffffu;                                                                         \
    for (int b_ = 0; b_ < (bits); b_++) {                                                          \
      const uint on_ = ((x) >> b_) & 1u, set_ = ampcl_ballot((int)on_);                            \
      (peers) &= on_ ? set_ : ~set_;                                                               \
    }                                                                                              \
  } while (0)
#endif

/* Replaces the uint variable x with its inclusive prefix sum over the warp's lanes (a statement;
 * a macro so that the emulation's scratch is in scope). */
#define AMPCL_WARP_SCAN(x)                                                                         \
  do {                                                                                             \
    for (int d_ = 1; d_ < 32; d_ <<= 1) {                                                          \
      const uint y_ = ampcl_shfl_up((x), d_);                                                      \
      if (ampcl_lane() >= d_)                                                                      \
        (x) += y_;                                                                                 \
    }                                                                                              \
  } while (0)
#endif

/* A read of a word that other tiles write with atomics (a look-back's status words), atomic under
 * the memory model: on the GPU, PTX's relaxed load at GPU scope, a plain load instruction that
 * reads the L2's copy; elsewhere OpenCL 1.2's only atomic read, atomic_or(p, 0), a
 * read-modify-write (on the GPU about as dear as a write, and serialised per word when many tiles
 * poll one: lab/NOTEBOOK.md). Defined with and without the warp functions. */
#if AMPCL_WARP && !(defined(AMPCL_WARP_EMULATE) && AMPCL_WARP_EMULATE)
static inline uint ampcl_load_relaxed(volatile __global uint *p) {
  uint r;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");
  return r;
}
#else
static inline uint ampcl_load_relaxed(volatile __global uint *p) {
  return atomic_or(p, 0u);
}
#endif

#endif
