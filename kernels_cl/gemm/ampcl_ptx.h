/* ampcl_ptx.h: the inline PTX of ampcl's GEMM kernels, written once. NVIDIA only.
 *
 * OpenCL C has no words for NVIDIA's asynchronous copies, split-phase barriers or tensor cores,
 * but NVIDIA's OpenCL compiler takes `asm` statements with PTX, as CUDA does. matmul_dmma.cl,
 * matmul_dmma_bulk.cl, matmul_tf32.cl and matmul_fast.cl (its step 13, -DASYNC_STAGES) say
 * `#include "ampcl_ptx.h"`, after the prelude's AMP_VIEW and amp_at exist and after their own
 * #error checks. The build puts this file's text in place of that line when it embeds them
 * (cmake/embed_kernels.cmake), so the runtime never looks for it; whoever builds one of those
 * files from disk passes -I with this folder. Other compilers reject the asm statements, which is
 * why those kernels #error first on a device without the compute capability they need.
 *
 * Two forms. A statement whose operands are the caller's own variables (an mma on its
 * accumulators, a copy to an address it already computed, a wait) is a macro, so the instruction
 * stands in the caller as if written there; the rest are functions. Operand constraints: "r" a
 * 32-bit register, "l" a 64-bit one, "d" a double, "f" a float. PTX's shared-memory operands take
 * the 32-bit address of a tile_static variable within the tile's window (ampcl_shared_addr). */
#ifndef AMPCL_PTX_H
#define AMPCL_PTX_H

/* The tile_static window's own 32-bit address of p, as PTX's shared-memory operands want it. */
static inline uint ampcl_shared_addr(__local const void *p) {
  return (uint)(size_t)p;
}

/* ---- cp.async: global to tile_static memory without registers (compute capability 8.0) ---- */

/* Starts a copy of `bytes` from src to the shared-window address dst and zero-fills the rest of
 * the copy's 16, 8 or 4 bytes; bytes 0 reads nothing (src must still be a valid address). Both
 * addresses aligned to the copy's size. .cg caches the read in L2 only, .ca in L1 too. */
#define AMPCL_CP_ASYNC_CG16(dst, src, bytes)                                                       \
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(bytes)    \
               : "memory")
#define AMPCL_CP_ASYNC_CA8(dst, src, bytes)                                                        \
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(dst), "l"(src), "r"(bytes)     \
               : "memory")
#define AMPCL_CP_ASYNC_CA4(dst, src, bytes)                                                        \
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(src), "r"(bytes)     \
               : "memory")

/* AMPCL_CP_ASYNC_CG16 from a tile_static pointer: `bytes` (0 to 16) from src to dst, zeros for the
 * rest of the 16; both 16-byte aligned. */
static inline void ampcl_cp_async16(__local void *dst, __global const void *src, int bytes) {
  AMPCL_CP_ASYNC_CG16(ampcl_shared_addr(dst), src, bytes);
}

/* Closes the group of copies this thread issued since the last one (an empty group is allowed);
 * the waits count groups. */
#define AMPCL_CP_ASYNC_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
/* Waits until every copy of this thread has landed. */
#define AMPCL_CP_ASYNC_WAIT_ALL() asm volatile("cp.async.wait_all;" ::: "memory")
/* For a ring of `stages` buffers with one group of copies each (stages an integer from 2 to 5,
 * or a macro that is one): waits until at most stages - 2 groups are in flight, that is until the
 * oldest buffer's copies have landed. PTX wants the count as a constant, hence the table. */
#define AMPCL_CP_ASYNC_WAIT_RING(stages)  AMPCL_CP_ASYNC_WAIT_RING_(stages)
#define AMPCL_CP_ASYNC_WAIT_RING_(stages) asm volatile(AMPCL_CP_ASYNC_RING_##stages ::: "memory")
#define AMPCL_CP_ASYNC_RING_2             "cp.async.wait_group 0;"
#define AMPCL_CP_ASYNC_RING_3             "cp.async.wait_group 1;"
#define AMPCL_CP_ASYNC_RING_4             "cp.async.wait_group 2;"
#define AMPCL_CP_ASYNC_RING_5             "cp.async.wait_group 3;"

/* ---- mma.sync m16n8k8: a warp's 16 x 8 x 8 matrix product (compute capability 8.0) ---------- *
 * The 32 threads of a warp compute D (16 x 8) = A (16 x 8) * B (8 x 8) + C together, each holding
 * a fixed part of every operand (g = lane / 4, t = lane % 4; lab/ptx_probe.c checks it):
 *   a: a[0] = (g, t), a[1] = (g + 8, t), a[2] = (g, t + 4), a[3] = (g + 8, t + 4)
 *   b: b[0] = (t, g), b[1] = (t + 4, g)
 *   d: d[0] = (g, 2t), d[1] = (g, 2t + 1), d[2] = (g + 8, 2t), d[3] = (g + 8, 2t + 1), C in place
 */

/* double (compute capability 9.0: the PTX assembler rejects the f64 shape below sm_90) */
#define AMPCL_MMA_M16N8K8_F64(d, a, b)                                                             \
  asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "                                          \
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                                      \
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])                                             \
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]))

/* float accumulators, a and b TF32 operand bits in uints (AMPCL_CVT_RNA_TF32) */
#define AMPCL_MMA_M16N8K8_TF32(d, a, b)                                                            \
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "                                        \
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                                      \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                             \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))

/* r (a uint) = float x rounded to the nearest TF32 value, ties away from zero */
#define AMPCL_CVT_RNA_TF32(r, x) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x))

/* Defines ampcl_store2_T for the scalar type T (float, double): stores d0, d1 at (row, col) and
 * (row, col + 1) of view c, none past row m or column n, as one two-element store where c_vec
 * says every row of c starts on an even element. Two of an mma's accumulators, d[0], d[1] or
 * d[2], d[3], are such a pair. A kernel instantiates it for its element type. */
#define AMPCL_DEFINE_STORE2(T)                                                                     \
  static inline void ampcl_store2_##T(AMP_VIEW(T, c), int m, int n, int row, int col, int c_vec,   \
                                      T d0, T d1) {                                                \
    if (row >= m)                                                                                  \
      return;                                                                                      \
    if (c_vec && col + 1 < n) {                                                                    \
      *(__global T##2 *)&amp_at(c, row, col) = (T##2)(d0, d1);                                     \
    } else {                                                                                       \
      if (col < n)                                                                                 \
        amp_at(c, row, col) = d0;                                                                  \
      if (col + 1 < n)                                                                             \
        amp_at(c, row, col + 1) = d1;                                                              \
    }                                                                                              \
  }

#if AMP_COMPUTE_CAPABILITY >= 90
/* ---- mbarrier and the copy engine (compute capability 9.0) ---------------------------------- *
 * An mbarrier (PTX ISA, "Parallel Synchronization and Communication Instructions: mbarrier") is
 * a 64-bit word in tile_static memory counting arrivals (and bytes, for copies) in phases. A
 * phase completes when `count` threads have arrived and every announced byte has landed; the
 * barrier then starts the next phase by itself. Waiting names the phase by its parity (0, 1, 0,
 * ...). */
static inline void ampcl_mbarrier_init(__local ulong *bar, uint count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(ampcl_shared_addr(bar)), "r"(count)
               : "memory");
}

static inline void ampcl_mbarrier_arrive(__local ulong *bar) {
  asm volatile(
      "{ .reg .b64 mbst; mbarrier.arrive.shared.b64 mbst, [%0]; }" ::"r"(ampcl_shared_addr(bar))
      : "memory");
}

/* Arrives and announces `bytes` more bytes that copies will deliver in this phase. */
static inline void ampcl_mbarrier_arrive_expect_tx(__local ulong *bar, uint bytes) {
  asm volatile(
      "{ .reg .b64 mbst; mbarrier.arrive.expect_tx.shared::cta.b64 mbst, [%0], %1; }" ::"r"(
          ampcl_shared_addr(bar)),
      "r"(bytes)
      : "memory");
}

/* Returns once the phase of parity `parity` has completed. */
static inline void ampcl_mbarrier_wait_parity(__local ulong *bar, uint parity) {
  uint done;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; "
                 "selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(ampcl_shared_addr(bar)), "r"(parity)
                 : "memory");
  } while (!done);
}

/* Arrives on bar (without counting as one of its `count` arrivals: .noinc) once this thread's
 * cp.async copies issued so far have landed. */
#define AMPCL_CP_ASYNC_MBARRIER_ARRIVE_NOINC(bar)                                                  \
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(ampcl_shared_addr(bar))     \
               : "memory")
/* Makes mbarrier.init visible to the other threads (and the copy engine) before they use it. */
#define AMPCL_FENCE_MBARRIER_INIT()                                                                \
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory")
/* Orders this thread's plain stores to tile_static memory before later copy-engine writes. */
#define AMPCL_FENCE_PROXY_ASYNC() asm volatile("fence.proxy.async.shared::cta;" ::: "memory")

/* Asks the copy engine (cp.async.bulk) for `bytes` (a multiple of 16, both addresses 16-byte
 * aligned) from src to dst, counted against bar's announced bytes when they land. */
static inline void ampcl_cp_async_bulk(__local void *dst, __global const void *src, uint bytes,
                                       __local ulong *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
               "[%3];" ::"r"(ampcl_shared_addr(dst)),
               "l"(src), "r"(bytes), "r"(ampcl_shared_addr(bar))
               : "memory");
}
#endif

#endif /* AMPCL_PTX_H */
