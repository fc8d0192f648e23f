/* matmul_naive.cl: C = A * B, one work-item per element of C. Lesson 1 of the matmul course.
 *
 * What it computes: A is m x w, B is w x n, C is m x n, all row-major rank-2 views (sections
 * allowed: amp_at() applies each view's offset and row stride). Work-item (i, j) walks row i of
 * A and column j of B and writes C(i, j) = sum_k A(i, k) * B(k, j). This is the C++ AMP article's first
 * parallel MatrixMultiply, with its indexing corrected (the original reads avA(idx[0]*w, k) and
 * avB(k*w, idx[1]); a view already knows its row stride, so the indexes are plain (i, k), (k, j)).
 *
 * Tile shape: none. It is launched over a plain (untiled) rank-2 extent, and the driver chooses
 * the work-group size. Any m, n, w >= 1 work.
 *
 * What it teaches: the AMP model in one line. Every element of C is independent, so the two outer
 * loops of the host version become the compute domain. Its weakness: every work-item reads 2w
 * elements from global memory for 2w flops, and neighbouring work-items read the same row of A
 * again and again; lesson 2 (matmul_tiled.cl) shares those reads through tile_static memory.
 *
 * Element type: build option -DT=float (the default), -DT=double (needs an fp64 device) or
 * -DT=int. The views passed must hold that type: ampcl checks it at launch.
 *
 * Launch (host C, all error checks elided to CHECK):
 *
 *     amp_program *prog; amp_kernel *k;
 *     CHECK(amp_program_create_builtin("matmul_naive", "-DT=float", &prog));
 *     CHECK(amp_kernel_create(prog, "matmul_naive", &k));
 *     amp_array_view *va, *vb, *vc;                      // m x w, w x n, m x n
 *     CHECK(amp_array_view_create_const(amp_extent2(m, w), AMP_FLOAT, A, &va));
 *     CHECK(amp_array_view_create_const(amp_extent2(w, n), AMP_FLOAT, B, &vb));
 *     CHECK(amp_array_view_create(amp_extent2(m, n), AMP_FLOAT, C, &vc));
 *     CHECK(amp_array_view_discard_data(vc));           // C's old contents are not needed
 *     amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
 *     CHECK(amp_parallel_for_each(av, amp_extent2(m, n), k, args, AMP_NARGS(args)));
 *     CHECK(amp_array_view_synchronize(vc));            // C now holds the product
 *
 * The kernel takes w from A's extent (amp_extent(a, 1)); B must be w x n and C m x n. It also
 * accepts a domain larger than C (it skips indexes outside C), so a padded domain is harmless. */
#ifndef T /* element type: float, double or int */
#define T float
#endif

__kernel void matmul_naive(AMP_CONST_VIEW(T, a), AMP_CONST_VIEW(T, b), AMP_VIEW(T, c)) {
  AMP_INDEX2(idx);
  const int i = idx[0], j = idx[1];
  if (i >= amp_extent(c, 0) || j >= amp_extent(c, 1))
    return;
  const int w = amp_extent(a, 1);
  T sum = 0;
  for (int k = 0; k < w; k++)
    sum += amp_at(a, i, k) * amp_at(b, k, j);
  amp_at(c, i, j) = sum;
}
