/* Step 5 of docs/TUTORIAL.md: the tiled matmul against the naive one of step 3, on the same
 * views, on a size that is not a multiple of the tile. Both results are checked against the host;
 * the times are printed (the median of 3 runs each, the data already on the device).
 *   step5_matmul_tiled [SIZE]   SIZE x SIZE matrices (default 1000) */
#include "matrices.h"
#include "step3_matmul_naive_cl.h"
#include "step3_matmul_naive_launch.h"
#include "step5_matmul_tiled_cl.h"
#include "step5_matmul_tiled_launch.h"
#include "tutorial.h"

/* The tile, in one place: the compiler gets -DTILE=32 -DWPT=8, the launch tiles of
 * (TILE / WPT, TILE) work-items (a device that allows fewer work-items per tile gets more
 * elements per work-item: main). */
enum { TILE = 32, WPT = 8, RUNS = 3 };

/* The median time of RUNS launches, waiting for each: of the tiled kernel over `tiles` when it is
 * not NULL, else of the naive one over `extent`; C = A * B. */
static double median_ms(amp_accelerator_view *view, amp_kernel *naive, amp_kernel *tiled,
                        amp_extent extent, amp_tiled_extent tiles, amp_array_view *a,
                        amp_array_view *b, amp_array_view *c) {
  double t[RUNS];
  for (int i = 0; i < RUNS; i++) {
    double t0 = now_ms();
    if (tiled)
      TRY(matmul_tiled_launch(view, tiles, tiled, a, b, c));
    else
      TRY(matmul_naive_launch(view, extent, naive, a, b, c));
    TRY(amp_accelerator_view_wait(view));
    t[i] = now_ms() - t0;
  }
  for (int i = 1; i < RUNS; i++) /* insertion sort: five numbers */
    for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
      double s = t[j];
      t[j] = t[j - 1];
      t[j - 1] = s;
    }
  return t[RUNS / 2];
}

int main(int argc, char **argv) {
  const int M = argc > 1 ? atoi(argv[1]) : 1000, W = M, N = M;
  if (M < 1 || M > 4096) {
    fprintf(stderr, "usage: step5_matmul_tiled [SIZE], SIZE from 1 to 4096\n");
    return 2;
  }
  float *a, *b, *c, *expect;
  if (!new_matrices(M, W, N, &a, &b, &c, &expect))
    return 1;

  amp_accelerator_view *view;
  TRY(amp_default_view(&view)); /* belongs to the accelerator: no release */
  amp_accelerator *acc;
  amp_accelerator_properties props;
  TRY(amp_accelerator_view_get_accelerator(view, &acc));
  TRY(amp_accelerator_get_properties(acc, &props));
  /* WPT elements per work-item, or 16 or 32 where the device allows fewer work-items per tile */
  int wpt = WPT;
  while (wpt < TILE && (size_t)(TILE / wpt * TILE) > props.max_tile_size)
    wpt *= 2;
  char options[32];
  snprintf(options, sizeof options, "-DTILE=%d -DWPT=%d", TILE, wpt);
  amp_program *naive_program, *tiled_program;
  amp_kernel *naive, *tiled;
  TRY(amp_program_create(step3_matmul_naive_cl, NULL, &naive_program));
  TRY(amp_program_create(step5_matmul_tiled_cl, options, &tiled_program));
  TRY(matmul_naive_kernel(naive_program, &naive));
  TRY(matmul_tiled_kernel(tiled_program, &tiled));

  amp_array_view *va, *vb, *vc;
  TRY(amp_array_view_create_const(amp_extent2(M, W), AMP_FLOAT, a, &va));
  TRY(amp_array_view_create_const(amp_extent2(W, N), AMP_FLOAT, b, &vb));
  TRY(amp_array_view_create(amp_extent2(M, N), AMP_FLOAT, c, &vc));

  /* The naive kernel runs over C's extent, one work-item per element. The tiled one runs tiles
   * of (TILE / wpt) x TILE work-items, each tile computing a TILE x TILE block of C: over
   * (blocks of rows * TILE / wpt) x N, padded up to whole tiles; its bounds checks skip the
   * padding (C is 1000 x 1000, not a multiple of 32). */
  amp_extent extent = amp_extent2(M, N);
  int block_rows = (M + TILE - 1) / TILE;
  amp_tiled_extent tiles =
      amp_tiled_extent_pad(amp_tile2(amp_extent2(block_rows * (TILE / wpt), N), TILE / wpt, TILE));
  int wrong = 0;
  double ms[2];
  for (int k = 0; k < 2; k++) {
    TRY(amp_array_view_discard_data(vc));
    /* the first launch builds the kernel and copies A and B in; time the launches after it */
    ms[k] = median_ms(view, naive, k ? tiled : NULL, extent, tiles, va, vb, vc);
    TRY(amp_array_view_synchronize(vc));
    int w = count_wrong(c, expect, M * N);
    printf("%-6s matmul %d x %d x %d: %8.2f ms, %d wrong\n", k ? "tiled" : "naive", M, W, N, ms[k],
           w);
    wrong += w;
  }
  printf("the tiled kernel is %.1fx as fast as the naive one\n", ms[0] / ms[1]);

  TRY(release_matrix_views(va, vb, vc));
  TRY(amp_kernel_release(naive));
  TRY(amp_kernel_release(tiled));
  TRY(amp_program_release(naive_program));
  TRY(amp_program_release(tiled_program));
  free_matrices(a, b, c, expect);
  return wrong == 0 ? 0 : 1;
}
