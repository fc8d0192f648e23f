/* ampcl/blas.h: library calls that join the data model: GEMM on array views, through CLBlast or
 * ampcl's own GEMM kernel, whichever is faster.
 *
 * A BLAS call is a command like a kernel launch: its operands are synchronised the same way
 * (lazy copy-in of what is missing, A and B read, C written), so users mix their own kernels and
 * CLBlast on the same views with no manual copies. Views are row-major matrices (rank 2); sections
 * are allowed when their rows are contiguous in memory with a constant stride (any section of a
 * rank-2 view is). */
#ifndef AMPCL_BLAS_H
#define AMPCL_BLAS_H

#include "accelerator.h"
#include "array_view.h"
#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum amp_transpose { AMP_NO_TRANS = 0, AMP_TRANS = 1 } amp_transpose;

/* C = alpha * op(A) * op(B) + beta * C on the view's accelerator, where op(X) is X or its
 * transpose. All three views have the same element type, AMP_FLOAT or AMP_DOUBLE; op(A) is m x k,
 * op(B) is k x n and C is m x n (AMP_ERROR_EXTENT_MISMATCH names the sizes otherwise). C must be
 * read-write. C's old contents are copied in like any operand (discard_data C first to skip that
 * when beta is 0). Returns
 * AMP_ERROR_UNSUPPORTED_FEATURE when ampcl was built without CLBlast and the GEMM needs it (see
 * below). With done != NULL, returns
 * a future for the GEMM's completion whose amp_future_elapsed_ns gives its device time.
 *
 * On a CPU accelerator (POCL), when all three views are over host memory and OpenBLAS is
 * installed (libopenblas.so.0, loaded at run time), the GEMM runs through OpenBLAS on the host
 * memory itself: as fast as OpenBLAS, with no copies for data already on the host. The call then
 * blocks until C is computed, C's accelerator copies are dropped (the host holds the latest), and
 * the future's elapsed time is the host time of the GEMM. AMP_BLAS_CPU=opencl in the environment
 * keeps CLBlast on CPU devices.
 *
 * Otherwise (OpenCL), a GEMM that ampcl's own kernel can do (no transposes, alpha 1, beta 0)
 * runs through CLBlast or that kernel (kernels_cl/gemm/matmul_fast.cl on GPUs, matmul_cpu.cl on CPU
 * devices; on NVIDIA GPUs of compute capability 9.x, in float matmul_fast.cl with its K tiles
 * copied by cp.async (its step 13), and in double matmul_dmma_bulk.cl on the FP64 tensor cores,
 * in 64 x 128 blocks where those take fewer rounds of blocks than 128 x 128 ones, the blocks of a
 * last round that would leave half the SMs idle split along k and summed in a fixed order (the
 * same bits every run); where the device refuses one (at the build or the launch) the next runs: in
 * double matmul_dmma.cl, then matmul_fast.cl with step 13, then without; in float matmul_fast.cl
 * without step 13), whichever is faster for its accelerator, element type and size class (the power
 * of two at or above the largest of m, n and k). The first such GEMM of a class measures: it runs
 * each engine once untimed (to let it compile and load), then both engines timed with OpenCL
 * profiling events on the call's own views (on the host when the view does not profile,
 * AMP_PROFILE=0) (each overwrites C with the same product; CLBlast's, run last, stays), waits for
 * them, and caches the faster for the life of the process; its future is the chosen engine's run.
 * Later GEMMs of the class run only the cached engine. AMP_DEBUG=1 prints one line per measurement
 * with both times. AMP_BLAS_GEMM in the environment, read at every call: "auto" (or unset) chooses
 * as above, "clblast" or "fast" forces that engine for these GEMMs, "portable" the fast engine with
 * the portable kernels only (matmul_fast.cl without step 13, matmul_cpu.cl: no inline PTX and no
 * TF32 on any device, to check or compare a vendor path); any other value fails every call with
 * AMP_ERROR_INVALID_ARGUMENT naming the value.
 *
 * A GEMM with B not transposed but alpha != 1, beta != 0 or A transposed runs on the same fast
 * kernel where that engine is forced or was chosen for its product's size class (or none is
 * chosen yet: its first block measures): C is done in blocks of rows, each block's product
 * op(A)_rows * B written to a scratch view (A's rows transposed into another first, when A is
 * transposed) and then C_rows = alpha * product + beta * C_rows in one more launch. The scratch
 * views hold at most 128 MiB each and are freed by OpenCL when the GEMM's commands end (the call
 * does not wait for them); where beta is 0, C is not read. If a device fails during such a GEMM
 * after a block was written, C's earlier blocks hold their result. Where CLBlast was forced or
 * chosen, and for every GEMM with B transposed, the whole GEMM runs through CLBlast. Without
 * CLBlast, "auto" means the fast kernel. */
AMP_API amp_status amp_blas_gemm(amp_accelerator_view *view, amp_transpose trans_a,
                                 amp_transpose trans_b, double alpha, amp_array_view *a,
                                 amp_array_view *b, double beta, amp_array_view *c,
                                 amp_future **done);

/* Flags of amp_blas_gemm_ex, or'ed together. */
enum {
  /* Permission, not a requirement (as PyTorch's allow_tf32): a float GEMM that ampcl's own kernel
   * can do (no transposes, alpha 1, beta 0) may run on NVIDIA's tensor cores with its inputs
   * rounded to TF32 (10 of float's 23 mantissa bits; products summed in float), on GPUs of
   * compute capability 8.0 and up (kernels_cl/gemm/matmul_tf32.cl). The result then carries a
   * relative error of about 1e-4 to 1e-3 instead of float's 1e-6 (lab/NOTEBOOK.md measures both
   * beside cuBLAS's TF32 mode), for several times the speed. Everywhere else (double, other GEMMs,
   * other devices, a CPU accelerator, AMP_BLAS_GEMM=clblast or portable, or a driver that cannot
   * build the kernel) the GEMM runs exactly as amp_blas_gemm would run it, in float. */
  AMP_GEMM_ALLOW_TF32 = 1u
};

/* amp_blas_gemm with flags (AMP_GEMM_ALLOW_TF32, or 0 for amp_blas_gemm itself). An unknown flag
 * bit fails the call with AMP_ERROR_INVALID_ARGUMENT naming the value. */
AMP_API amp_status amp_blas_gemm_ex(amp_accelerator_view *view, unsigned flags,
                                    amp_transpose trans_a, amp_transpose trans_b, double alpha,
                                    amp_array_view *a, amp_array_view *b, double beta,
                                    amp_array_view *c, amp_future **done);

/* C = alpha * op(A) * op(B) + beta * C over several accelerators (as cuBLAS-XT does for CUDA), for
 * matrices in host memory: views[0..nviews-1] name the accelerators, each once (1 to 64 of them;
 * with more views than rows of C the extra ones stay idle). Operands as amp_blas_gemm's: A, B and
 * C of one element type (AMP_FLOAT or AMP_DOUBLE), rank 2, views over host memory (not of device
 * arrays), C read-write and sharing no memory with A or B. Blocks until C's host memory holds the
 * result; the accelerators keep no copy of C. alpha 0 scales C by beta without reading A or B;
 * beta 0 does not read C.
 *
 * Accelerator g computes a block of rows of C: it receives only its rows of op(A) and op(B) in
 * column panels, which the host packs once into a ring of pinned buffers that every accelerator
 * copies from, so B crosses host memory once whatever the number of accelerators; its results
 * come back a panel at a time, and panel j + 1 is copied in and panel j - 1 copied back while
 * panel j's GEMM runs. Each panel's GEMM is amp_blas_gemm's (the fast kernel on a GPU without
 * transposes). It allocates two queues per accelerator for the call, and keeps a pinned region
 * per accelerator between calls: its result panels (r x m/G x w elements, r = 2, or the ring's
 * panels + 1 with A in parts), and on the first
 * accelerator the ring (3 panels of k x w; w: the panel width, about 256 MiB of B per panel by
 * default). Settings, read at every call (a bad value fails the call naming it):
 * AMP_GEMM_MULTI_PANEL (w, in columns), AMP_GEMM_MULTI_RING (2-16 panels), AMP_GEMM_MULTI_THREADS
 * (1-64 host threads packing B), AMP_GEMM_MULTI_A_PARTS (1-16: A's rows sent in that many
 * chunks, the first ring's panels computed chunk by chunk as they arrive; default 4 for 1024
 * rows or more per accelerator), AMP_GEMM_MULTI_WRITERS (1-16 host threads writing each
 * accelerator's results into C), AMP_GEMM_MULTI_SHARED (1, the default: one ring that every
 * accelerator copies from; 0: a ring in each accelerator's region, each packed by the host);
 * AMP_GEMM_MULTI_VERBOSE=1 prints each call's timing per accelerator to stderr. Every check
 * happens before C is touched; an error that a device reports during the run leaves the panels of
 * C already written with their result and the rest
 * as they were. docs/TRANSFERS.md ("One GEMM over several GPUs") has its cost and scaling. */
AMP_API amp_status amp_blas_gemm_multi(amp_accelerator_view *const *views, int nviews,
                                       amp_transpose trans_a, amp_transpose trans_b, double alpha,
                                       amp_array_view *a, amp_array_view *b, double beta,
                                       amp_array_view *c);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_BLAS_H */
