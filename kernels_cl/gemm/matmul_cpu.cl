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
 *   1. Uses explicit vectors: a block of C of RB rows x (CB * VW) columns is held in RB * CB
 *      registers of type TV. One step of k takes CB vectors of a row of B and broadcasts RB
 *      scalars of A: RB * CB vector multiply-adds for CB + RB loads. No tile_static memory and no
 *      barrier.
 *   2. Blocks for the caches as a CPU GEMM does: each work-item owns a strip of NR blocks
 *      (NR * RB rows) x (CB * VW) columns of C and walks k in slices of KC. For each slice it
 *      first copies that slice's KC x (CB * VW) piece of B into private memory, contiguous
 *      (16 KB for the defaults, in L1: B's own rows are a whole row stride apart, which for a
 *      power-of-two width maps them onto a few L1 sets), then runs each of its NR blocks over the
 *      slice from there, adding into C after the first slice. The rows of A a slice reads (NR *
 *      RB x KC) stay in L2. Against one block per work-item over the whole of k, which streamed
 *      B from L2 and A from L3, this was 1.3-1.5x faster on both POCL and Intel's runtime
 *      (lab/NOTEBOOK.md, 2026-11-27).
 *   3. Orders the work: the launch domain is (column blocks, row strips) in AMP order, so the
 *      fastest-varying index (OpenCL dimension 0) walks down the strips, and the work-items a
 *      core runs one after another share one column panel of B. Launch it in tiles of one
 *      work-item: left to choose the work-group shape, both POCL and Intel's runtime ran it
 *      slower (lab/NOTEBOOK.md, 2026-11-27).
 *   4. Keeps the edges vectorised: a block below the last row reads the last row again for its
 *      missing rows and does not store them; a strip crossing the right edge packs its piece of B
 *      with zeros past column n and stores only the columns before it.
 *
 * Build options: -DT=float|double|int (default float), -DVW=8 (vector width), -DRB=6 (rows per
 * block), -DCB=2 (vectors of columns per block), -DNR=16 (blocks per work-item), -DKC=256 (the k
 * slice). The defaults, 96 x 16 floats per work-item in blocks of 6 x 16 (12 float8 accumulators,
 * B's two vectors and A's broadcast: 15 of AVX2's 16 registers), were measured best on a 2-core
 * AVX2 EPYC; for double the plans pass -DVW=4 (blocks of 6 x 8 in double4, strips of 96 x 8).
 *
 * Launch (host C, errors elided to CHECK; views as in matmul_naive.cl):
 *
 *     enum { ROWS = 16 * 6, COLS = 2 * 8 };  // NR * RB rows, CB * VW columns per work-item
 *     CHECK(amp_program_create_builtin("matmul_cpu", "-DT=float", &prog));
 *     CHECK(amp_kernel_create(prog, "matmul_cpu", &k));
 *     amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
 *     amp_launch l = {0};  // columns first, tiles of one work-item
 *     l.domain = amp_extent2((n + COLS - 1) / COLS, (m + ROWS - 1) / ROWS);
 *     l.tiled = 1;
 *     l.tile[0] = l.tile[1] = 1;
 *     l.kernel = k;
 *     l.args = args;
 *     l.nargs = AMP_NARGS(args);
 *     CHECK(amp_parallel_for_each_ex(av, &l, NULL));
 *
 * On a GPU this kernel is slow (each thread's loads are not coalesced, and its private piece of B
 * does not fit registers); use matmul_fast there. */
#ifndef T /* element type: float, double or int */
#define T float
#endif
#ifndef VW /* vector width: 8 floats or 4 doubles fill one AVX2 register */
#define VW 8
#endif
#ifndef RB /* rows of C per block */
#define RB 6
#endif
#ifndef CB /* vectors of columns of C per block */
#define CB 2
#endif
#ifndef NR /* blocks per work-item, one below the other */
#define NR 16
#endif
#ifndef KC /* depth of a slice of k */
#define KC 256
#endif
#define MM_CAT2(a, b) a##b
#define MM_CAT(a, b) MM_CAT2(a, b)
#define TV MM_CAT(T, VW)           /* e.g. float8 */
#define VLOAD MM_CAT(vload, VW)    /* vload8 */
#define VSTORE MM_CAT(vstore, VW)  /* vstore8 */

__kernel void matmul_cpu(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_INDEX2(idx); /* idx[0]: block of columns, idx[1]: strip of rows (the fast index) */
  const int m = amp_extent(c, 0), n = amp_extent(c, 1), w = amp_extent(a, 1);
  const int s0 = idx[1] * (NR * RB), j0 = idx[0] * (CB * VW);
  if (s0 >= m || j0 >= n)
    return;
  const int s1 = min(m, s0 + NR * RB), nc = min(n - j0, CB * VW); /* rows end, columns here */
  __global const T *b0 = &amp_at(b, 0, j0);
  const long ldb = w > 1 ? (long)(&amp_at(b, 1, j0) - b0) : 0; /* B's row stride */
  TV bs[KC][CB]; /* this slice's piece of B, contiguous */
  for (int kb = 0; kb < w; kb += KC) {
    const int kc = min(KC, w - kb);
    __global const T *bq = b0 + kb * ldb;
    if (nc == CB * VW) {
      for (int k = 0; k < kc; k++, bq += ldb)
#pragma unroll
        for (int q = 0; q < CB; q++)
          bs[k][q] = VLOAD(0, bq + q * VW);
    } else { /* the right edge: zeros past column n */
      for (int k = 0; k < kc; k++, bq += ldb) {
        T row[CB * VW];
        for (int j = 0; j < CB * VW; j++)
          row[j] = j < nc ? bq[j] : (T)0;
#pragma unroll
        for (int q = 0; q < CB; q++)
          bs[k][q] = VLOAD(q, row);
      }
    }
    for (int i0 = s0; i0 < s1; i0 += RB) {
      __global const T *ar[RB]; /* the block's rows of A from column kb; rows past m: the last */
#pragma unroll
      for (int r = 0; r < RB; r++)
        ar[r] = &amp_at(a, min(i0 + r, m - 1), kb);
      TV acc[RB][CB];
#pragma unroll
      for (int r = 0; r < RB; r++)
#pragma unroll
        for (int q = 0; q < CB; q++)
          acc[r][q] = (TV)(0);
      for (int k = 0; k < kc; k++) {
        TV bv[CB];
#pragma unroll
        for (int q = 0; q < CB; q++)
          bv[q] = bs[k][q];
#pragma unroll
        for (int r = 0; r < RB; r++) {
          const TV av = (TV)(ar[r][k]); /* broadcast */
#pragma unroll
          for (int q = 0; q < CB; q++)
            acc[r][q] += av * bv[q]; /* contracted to a fused multiply-add (FP_CONTRACT is on) */
        }
      }
#pragma unroll
      for (int r = 0; r < RB; r++) {
        if (i0 + r >= m)
          break;
        __global T *cr = &amp_at(c, i0 + r, j0);
        if (nc == CB * VW) {
#pragma unroll
          for (int q = 0; q < CB; q++)
            VSTORE(kb ? acc[r][q] + VLOAD(q, cr) : acc[r][q], q, cr);
        } else { /* the right edge: the columns before n */
          T out[CB * VW];
#pragma unroll
          for (int q = 0; q < CB; q++)
            VSTORE(acc[r][q], q, out);
          for (int j = 0; j < nc; j++)
            cr[j] = kb ? cr[j] + out[j] : out[j];
        }
      }
    }
  }
}
