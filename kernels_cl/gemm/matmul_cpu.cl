/* matmul_cpu.cl: C = A * B shaped for CPU devices (POCL, and other OpenCL CPU runtimes): what
 * amp_blas_gemm runs on a CPU device. A side road from the matmul course: lesson 2
 * (kernels_cl/lessons/matmul_tiled.cl) and matmul_fast.cl shape the work for a GPU, and on a CPU
 * that shape costs more than it brings.
 *
 * What it computes: as matmul_naive, C (m x n) = A (m x w) * B (w x n), row-major rank-2 views
 * (sections allowed), any m, n, w >= 1.
 *
 * Why a CPU wants something else: a CPU OpenCL runtime runs the work-items of a work-group one
 * after another in a loop on one core, and gets its SIMD from vectorising that loop or from the
 * vector types in the code. tile_static memory is just cache there, and every barrier splits the
 * kernel into pieces the runtime must loop over separately: the GPU kernels' barriers, index
 * arithmetic and scattered loads keep POCL at about an eighth of what two cores can do
 * (lab/NOTEBOOK.md). So this kernel:
 *   1. Uses explicit vectors: each work-item computes RB rows x (CB * VW) columns of C, held in
 *      RB * CB registers of type TV. One step of k loads CB vectors of a row of B and broadcasts
 *      RB scalars of A: RB * CB vector multiply-adds for CB + RB loads. No tile_static memory and
 *      no barrier. The loop walks pointers: index arithmetic on every load cost about as much as
 *      the loads.
 *   2. Orders the work for the caches: the launch domain is (column blocks, row blocks) in AMP
 *      order, so the fastest-varying index (OpenCL dimension 0) walks down the rows, and the
 *      work-items a core runs one after another share one panel of B (w x CB*VW elements, 128 KB
 *      for w = 1024 in float), which stays in L2 while rows of A stream through. Launch it in tiles of one
 *      work-item: left to choose the work-group shape (POCL made groups of 171 x 16 work-items),
 *      both POCL and Intel's runtime ran it slower (lab/NOTEBOOK.md, 2026-11-27).
 *   3. Keeps the edges simple: a work-item whose block crosses the right or bottom edge of C takes
 *      a scalar path with the same arithmetic; only the last block row and column do.
 *
 * Build options: -DT=float|double|int (default float), -DVW=16 (vector width), -DRB=8 (rows per
 * work-item), -DCB=2 (vectors of columns per work-item). The tiles measured best on a 2-core AVX2
 * EPYC (16 vector registers; lab/NOTEBOOK.md, 2026-11-27): for float the defaults, 8 x 32 in
 * float16 (32 AVX2 registers' worth: the accumulators partly live in L1, yet it beat 6 x 16 in
 * float8, which fits, on POCL and on Intel's runtime); for double -DVW=4 -DRB=6 -DCB=2, 6 x 8 in
 * double4 (12 of the 16 registers, leaving room for B's two vectors and A's broadcast), which beat
 * 8 x 16 in double16 by up to 2x.
 *
 * Launch (host C, errors elided to CHECK; views as in matmul_naive.cl):
 *
 *     enum { RB = 8, COLS = 2 * 16 };  // RB rows, CB * VW columns per work-item (float)
 *     CHECK(amp_program_create_builtin("matmul_cpu", "-DT=float", &prog));
 *     CHECK(amp_kernel_create(prog, "matmul_cpu", &k));
 *     amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
 *     amp_launch l = {0};  // columns first, tiles of one work-item
 *     l.domain = amp_extent2((n + COLS - 1) / COLS, (m + RB - 1) / RB);
 *     l.tiled = 1;
 *     l.tile[0] = l.tile[1] = 1;
 *     l.kernel = k;
 *     l.args = args;
 *     l.nargs = AMP_NARGS(args);
 *     CHECK(amp_parallel_for_each_ex(av, &l, NULL));
 *
 * On a GPU this kernel is slow (each thread's loads are not coalesced); use matmul_fast there. */
#ifndef T /* element type: float, double or int */
#define T float
#endif
#ifndef RB /* rows of C per work-item */
#define RB 8
#endif
#ifndef CB /* vectors of columns of C per work-item */
#define CB 2
#endif

#ifndef VW /* vector width: 16 floats fill one AVX-512 register, two AVX2 ones */
#define VW 16
#endif
#define MM_CAT2(a, b) a##b
#define MM_CAT(a, b) MM_CAT2(a, b)
#define TV MM_CAT(T, VW)           /* e.g. float16 */
#define VLOAD MM_CAT(vload, VW)    /* vload16 */
#define VSTORE MM_CAT(vstore, VW)  /* vstore16 */

__kernel void matmul_cpu(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_INDEX2(idx); /* idx[0]: block of columns, idx[1]: block of rows (the fast index) */
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int i0 = idx[1] * RB, j0 = idx[0] * (CB * VW);
  if (i0 >= m || j0 >= n)
    return;
  if (i0 + RB <= m && j0 + CB * VW <= n) { /* a whole block: vectors */
    __global const T *ar[RB]; /* the block's rows of A */
#pragma unroll
    for (int r = 0; r < RB; r++)
      ar[r] = &amp_at(a, i0 + r, 0);
    __global const T *bp = &amp_at(b, 0, j0);                      /* row k of B's panel */
    const long ldb = w > 1 ? (long)(&amp_at(b, 1, j0) - bp) : 0; /* B's row stride */
    TV acc[RB][CB];
#pragma unroll
    for (int r = 0; r < RB; r++)
#pragma unroll
      for (int q = 0; q < CB; q++)
        acc[r][q] = (TV)(0);
    for (int k = 0; k < w; k++, bp += ldb) {
      TV bv[CB];
#pragma unroll
      for (int q = 0; q < CB; q++)
        bv[q] = VLOAD(0, bp + q * VW);
#pragma unroll
      for (int r = 0; r < RB; r++) {
        const TV av = (TV)(ar[r][k]); /* broadcast */
#pragma unroll
        for (int q = 0; q < CB; q++)
          acc[r][q] += av * bv[q]; /* contracted to a fused multiply-add (FP_CONTRACT is on) */
      }
    }
#pragma unroll
    for (int r = 0; r < RB; r++)
#pragma unroll
      for (int q = 0; q < CB; q++)
        VSTORE(acc[r][q], 0, &amp_at(c, i0 + r, j0 + q * VW));
  } else { /* the ragged edge: the same sums, one element at a time */
    for (int r = 0; r < RB && i0 + r < m; r++)
      for (int j = j0; j < j0 + CB * VW && j < n; j++) {
        T sum = 0;
        for (int k = 0; k < w; k++)
          sum += amp_at(a, i0 + r, k) * amp_at(b, k, j);
        amp_at(c, i0 + r, j) = sum;
      }
  }
}
