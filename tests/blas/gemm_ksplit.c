/* gemm_ksplit: the split of a DGEMM's last round of blocks along k (matmul_dmma_bulk.cl's step 7),
 * in the parts a CPU can run:
 *   - amp__gemm_ksplit_ways, the number of parts amp_blas_gemm makes of each block of the last
 *     round: at the sizes measured on an H100 (132 units) and at the edges of its rule (under one
 *     round, a full last round, too few K tiles, at most 8 parts);
 *   - gemm_ksplit_sum (kernels_cl/gemm/gemm_epilogue.cl) on the device: the parts of the blocks
 *     after `whole` added in order into C, a section of a larger parent, against the host's sum in
 *     the same order (bit for bit) and the block order computed here on its own; every element of
 *     C outside those blocks, and of the parent outside C, untouched (small blocks under
 *     oclgrind).
 * amp_blas_gemm's split itself (the tensor-core kernel, NVIDIA 9.x only) is checked against a host
 * product by gemm_choice.double. Skips (77) on a device without double. */
#include "blas/gemm_kernels.h"
#include "check.h"

enum { GROUP = 8, PAD = 2, SPLITS = 3 };
/* 128 x 128 blocks of a 300 x 1300 C (3 x 11 blocks), the last 4 in parts; under oclgrind
 * (test_small) 16 x 16 blocks of a 30 x 130 C (2 x 9), the same way */
static int BM = 128, BN = 128, M = 300, N = 1300, WHOLE = 29;

/* Block `lin` of a tiles_m x tiles_n grid in bands of `group` block rows, each band column by
 * column (amp_tile_order_grouped), as (row, column) of blocks. */
static void block_of(int tiles_m, int tiles_n, int lin, int group, int *row, int *col) {
  const int band = lin / (group * tiles_n), in_band = lin % (group * tiles_n);
  const int rows = tiles_m - band * group < group ? tiles_m - band * group : group;
  *row = band * group + in_band % rows;
  *col = in_band / rows;
}

static void ways(void) {
  CHECK_EQ_INT(amp__gemm_ksplit_ways(576, 3000, 132), 2);  /* 3000: 4 rounds and 48 blocks */
  CHECK_EQ_INT(amp__gemm_ksplit_ways(1600, 5000, 132), 8); /* 5000: 12 rounds and 16: 8 at most */
  CHECK_EQ_INT(amp__gemm_ksplit_ways(2209, 6000, 132), 1); /* 6000: 97 left, more than half */
  CHECK_EQ_INT(amp__gemm_ksplit_ways(1024, 4096, 132), 1); /* 4096: 100 left */
  CHECK_EQ_INT(amp__gemm_ksplit_ways(64, 1000, 132), 1);   /* under one round */
  CHECK_EQ_INT(amp__gemm_ksplit_ways(264, 3000, 132), 1);  /* whole rounds only */
  CHECK_EQ_INT(amp__gemm_ksplit_ways(36, 515, 8), 2);
  CHECK_EQ_INT(amp__gemm_ksplit_ways(33, 1100, 32), 8);
  CHECK_EQ_INT(amp__gemm_ksplit_ways(33, 1000, 32), 7); /* 63 K tiles: 7 parts of 8 or more */
  CHECK_EQ_INT(amp__gemm_ksplit_ways(10, 100, 4), 1);   /* 7 K tiles: too few to split */
  CHECK_EQ_INT(amp__gemm_ksplit_ways(10, 3000, 0), 1);
}

int main(void) {
  ways();
  if (test_small()) {
    BM = BN = 16;
    M = 30, N = 130, WHOLE = 14;
  }
  amp_accelerator_view *av;
  REQUIRE_OK(amp_default_view(&av));
  amp_accelerator *acc;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  amp_accelerator_properties props;
  REQUIRE_OK(amp_accelerator_get_properties(acc, &props));
  if (!props.supports_double_precision)
    return check_failed_ ? check_done() : SKIP;

  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN,
            rest = tiles_m * tiles_n - WHOLE;
  const size_t nparts = (size_t)rest * SPLITS * BM * BN, pw = N + 2 * PAD;
  const size_t nc = (size_t)(M + 2 * PAD) * pw;
  double *part = malloc(nparts * sizeof *part), *c = malloc(nc * sizeof *c);
  double *want = malloc(nc * sizeof *want);
  if (!part || !c || !want) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  unsigned s = 12345u;
  for (size_t i = 0; i < nparts; i++) {
    s = s * 1103515245u + 12345u;
    part[i] = (double)(s >> 8) / 16777216.0 - 0.37; /* fractions whose sums round */
  }
  for (size_t i = 0; i < nc; i++)
    c[i] = want[i] = 7.0;
  for (int i = 0; i < rest; i++) {
    int br, bc;
    block_of(tiles_m, tiles_n, WHOLE + i, GROUP, &br, &bc);
    for (int e = 0; e < BM * BN; e++) {
      const int row = br * BM + e / BN, col = bc * BN + e % BN;
      if (row >= M || col >= N)
        continue;
      double sum = 0;
      for (int p = 0; p < SPLITS; p++)
        sum += part[((size_t)i * SPLITS + p) * BM * BN + (size_t)e];
      want[(size_t)(row + PAD) * pw + (size_t)(col + PAD)] = sum;
    }
  }

  amp_program *prog;
  amp_kernel *k;
  REQUIRE_OK(amp_program_create_builtin("gemm_epilogue", "-DT=double", &prog));
  REQUIRE_OK(amp_kernel_create(prog, "gemm_ksplit_sum", &k));
  amp_array_view *vp, *parent, *vc;
  REQUIRE_OK(amp_array_view_create_const(amp_extent1((int)nparts), AMP_DOUBLE, part, &vp));
  REQUIRE_OK(amp_array_view_create(amp_extent2(M + 2 * PAD, N + 2 * PAD), AMP_DOUBLE, c, &parent));
  REQUIRE_OK(amp_array_view_section(parent, amp_index2(PAD, PAD), amp_extent2(M, N), &vc));
  amp_arg args[] = {amp_arg_view(vp),   amp_arg_view(vc),   amp_arg_int(BM),    amp_arg_int(BN),
                    amp_arg_int(GROUP), amp_arg_int(WHOLE), amp_arg_int(SPLITS)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(rest * BM * BN), k, args, AMP_NARGS(args)));
  CHECK_OK(amp_array_view_synchronize(parent));
  size_t wrong = 0;
  for (size_t i = 0; i < nc; i++)
    if (c[i] != want[i] && wrong++ < 5)
      fprintf(stderr, "  element %zu (row %zu, column %zu of the parent): %.17g, want %.17g\n", i,
              i / pw, i % pw, c[i], want[i]);
  CHECK_EQ_INT((long long)wrong, 0);
  amp_array_view_release(vc);
  amp_array_view_release(parent);
  amp_array_view_release(vp);
  amp_kernel_release(k);
  amp_program_release(prog);
  free(part);
  free(c);
  free(want);
  return check_done();
}
