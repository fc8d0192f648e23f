/* Step 3 of docs/TUTORIAL.md: two-dimensional work. C = A * B with one work-item per element of
 * C, timed, and checked against the host. */
#include "matrices.h"
#include "step3_matmul_naive_cl.h"
#include "step3_matmul_naive_launch.h"
#include "tutorial.h"

enum { M = 384, W = 256, N = 320 };

int main(void) {
  float *a, *b, *c, *expect;
  if (!new_matrices(M, W, N, &a, &b, &c, &expect))
    return 1;

  amp_program *program;
  amp_kernel *kernel;
  TRY(amp_program_create(step3_matmul_naive_cl, NULL, &program));
  TRY(matmul_naive_kernel(program, &kernel));
  amp_accelerator *acc;
  TRY(amp_accelerator_get_default(&acc));
  TRY(amp_program_build(program, acc)); /* compile now, so the timing below is the kernel's */

  /* Two-dimensional views: extent2(rows, columns), row-major, like C arrays. */
  amp_array_view *va, *vb, *vc;
  TRY(amp_array_view_create_const(amp_extent2(M, W), AMP_FLOAT, a, &va));
  TRY(amp_array_view_create_const(amp_extent2(W, N), AMP_FLOAT, b, &vb));
  TRY(amp_array_view_create(amp_extent2(M, N), AMP_FLOAT, c, &vc));
  TRY(amp_array_view_discard_data(vc)); /* C's old contents do not matter: do not copy them in */

  double t0 = now_ms();
  TRY(matmul_naive_launch(NULL, amp_extent2(M, N), kernel, va, vb, vc));
  TRY(amp_array_view_synchronize(vc));
  double ms = now_ms() - t0;

  int wrong = count_wrong(c, expect, M * N);
  printf("naive matmul %d x %d x %d: %.2f ms (copies included), %d wrong\n", M, W, N, ms, wrong);
  TRY(release_matrix_views(va, vb, vc));
  TRY(amp_kernel_release(kernel));
  TRY(amp_program_release(program));
  free_matrices(a, b, c, expect);
  return wrong == 0 ? 0 : 1;
}
