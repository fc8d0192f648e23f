/* lab/dmma_shapes.c: matmul_dmma_bulk (the FP64 tensor-core DGEMM) in several block shapes, at the
 * sizes where it trails cuBLAS, in one process: which shape fills an H100's 132 SMs best at each
 * size (issue 51: 1000, 3000, 5000, 6000).
 *
 * Each SHAPE is a comma-separated list of the kernel's build options without -D (BM=64,BN=64,
 * WM=32,WN=32), plus two fields of the probe's own: S=n runs the GEMM split n ways along k as a
 * split-K kernel would (an (n m) x N product over k / n: the same flops, n times the blocks; the
 * sum of the n slices, a memory-bound pass of its own, is not included), and R=n passes NVIDIA's
 * -cl-nv-maxrregcount n (more tiles per SM where registers limit them). For each size and shape:
 * one untimed run (it builds), then 5 timed ones (kernel events); prints the median TFLOP/s of
 * the size's 2 m n k flops, and checks 64 sampled elements of C against a host dot product.
 *
 *   dmma-shapes 1000,3000,5000,6000 "" BN=64 BM=64,BN=64,WM=32,WN=32 S=2 ...
 */
#include <ampcl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REPS = 5, SAMPLES = 64 };

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* -D options and the probe's own fields of one shape; the tile's warps. */
typedef struct shape {
  char opts[256];
  int bm, bn, wm, wn, producers, split, rreg;
} shape;

static int parse(const char *s, shape *sh) {
  *sh = (shape){"", 128, 128, 64, 32, 4, 1, 0};
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  size_t o = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    char name[32];
    int v;
    if (sscanf(tok, "%31[A-Z_]=%d", name, &v) != 2)
      return -1;
    if (!strcmp(name, "S")) {
      sh->split = v;
      continue;
    }
    if (!strcmp(name, "R")) {
      sh->rreg = v;
      continue;
    }
    if (!strcmp(name, "BM"))
      sh->bm = v;
    else if (!strcmp(name, "BN"))
      sh->bn = v;
    else if (!strcmp(name, "WM"))
      sh->wm = v;
    else if (!strcmp(name, "WN"))
      sh->wn = v;
    else if (!strcmp(name, "PRODUCERS"))
      sh->producers = v;
    o += (size_t)snprintf(sh->opts + o, sizeof sh->opts - o, "%s-D%s=%d", o ? " " : "", name, v);
  }
  if (sh->rreg)
    o += (size_t)snprintf(sh->opts + o, sizeof sh->opts - o, "%s-cl-nv-maxrregcount=%d",
                          o ? " " : "", sh->rreg);
  return sh->split >= 1 ? 0 : -1;
}

/* One size in one shape: the median TFLOP/s, or a negative number on failure (printed). */
static double run(amp_accelerator_view *av, const shape *sh, int n, const double *ha,
                  const double *hb, int *bad) {
  const int m = n * sh->split, w = n / sh->split, nc = n;
  amp_program *prog = NULL;
  amp_kernel *k = NULL;
  amp_array *a = NULL, *b = NULL, *c = NULL;
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL;
  double tf = -1;
  double *hc = malloc((size_t)m * nc * sizeof *hc), *ha2 = malloc((size_t)m * w * sizeof *ha2),
         *hb2 = malloc((size_t)w * nc * sizeof *hb2);
  if (!hc || !ha2 || !hb2)
    goto out;
  /* A: the first w columns of ha's rows, its n rows repeated split times; B: the first w rows */
  for (int r = 0; r < m; r++)
    memcpy(ha2 + (size_t)r * w, ha + (size_t)(r % n) * n, (size_t)w * sizeof *ha);
  memcpy(hb2, hb, (size_t)w * nc * sizeof *hb);
  if (amp_program_create_builtin("matmul_dmma_bulk", sh->opts, &prog) ||
      amp_kernel_create(prog, "matmul_dmma_bulk", &k) ||
      amp_array_create_from(av, amp_extent2(m, w), AMP_DOUBLE, ha2, &a) ||
      amp_array_create_from(av, amp_extent2(w, nc), AMP_DOUBLE, hb2, &b) ||
      amp_array_create(av, amp_extent2(m, nc), AMP_DOUBLE, &c) || amp_array_view_of(a, &va) ||
      amp_array_view_of(b, &vb) || amp_array_view_of(c, &vc)) {
    printf("    [%s] setup: %s\n", sh->opts, amp_last_error());
    goto out;
  }
  const int tw = (sh->bm / sh->wm) * (sh->bn / sh->wn) + sh->producers;
  amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
  amp_launch l = {.domain =
                      amp_extent2((m + sh->bm - 1) / sh->bm * tw, (nc + sh->bn - 1) / sh->bn * 32),
                  .tiled = 1,
                  .tile = {tw, 32},
                  .kernel = k,
                  .args = args,
                  .nargs = 3};
  uint64_t ns[REPS];
  for (int r = -1; r < REPS; r++) {
    amp_future *f = NULL;
    uint64_t t = 0;
    if (amp_parallel_for_each_ex(av, &l, &f) || amp_future_wait(f) ||
        amp_future_elapsed_ns(f, &t)) {
      printf("    [%s] launch: %s\n", sh->opts, amp_last_error());
      amp_future_release(f);
      goto out;
    }
    amp_future_release(f);
    if (r >= 0)
      ns[r] = t;
  }
  qsort(ns, REPS, sizeof ns[0], cmp_u64);
  tf = 2.0 * n * (double)n * n / (double)ns[REPS / 2] * 1e-3;
  if (amp_copy_from_array(c, hc, (size_t)m * nc * sizeof *hc)) {
    printf("    [%s] copy: %s\n", sh->opts, amp_last_error());
    tf = -1;
    goto out;
  }
  for (int s = 0; s < SAMPLES; s++) { /* rows and columns spread over C, the last ones too */
    int i = s == 0 ? m - 1 : (int)((s * 7919LL) % m),
        j = s == 0 ? nc - 1 : (int)((s * 104729LL) % nc);
    double ref = 0, mag = 0;
    for (int q = 0; q < w; q++) {
      ref += ha2[(size_t)i * w + q] * hb2[(size_t)q * nc + j];
      mag += fabs(ha2[(size_t)i * w + q] * hb2[(size_t)q * nc + j]);
    }
    if (fabs(hc[(size_t)i * nc + j] - ref) > 1e-12 * mag * w + 1e-300) {
      if (*bad < 5)
        printf("    [%s] WRONG at (%d, %d): %.17g, host %.17g\n", sh->opts, i, j,
               hc[(size_t)i * nc + j], ref);
      (*bad)++;
    }
  }
out:
  amp_array_view_release(va);
  amp_array_view_release(vb);
  amp_array_view_release(vc);
  amp_array_release(a);
  amp_array_release(b);
  amp_array_release(c);
  amp_kernel_release(k);
  amp_program_release(prog);
  free(hc);
  free(ha2);
  free(hb2);
  return tf;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: dmma-shapes SIZES SHAPE...\n");
    return 2;
  }
  int sizes[16], ns = 0, nmax = 0;
  for (char *t = strtok(argv[1], ","); t && ns < 16; t = strtok(NULL, ",")) {
    sizes[ns] = atoi(t);
    if (sizes[ns] < 64 || sizes[ns] > 16384)
      return 2;
    nmax = sizes[ns] > nmax ? sizes[ns] : nmax;
    ns++;
  }
  amp_accelerator_view *av;
  if (amp_default_view(&av)) {
    fprintf(stderr, "%s\n", amp_last_error());
    return 1;
  }
  double *ha = malloc((size_t)nmax * nmax * sizeof *ha),
         *hb = malloc((size_t)nmax * nmax * sizeof *hb);
  if (!ha || !hb)
    return 1;
  unsigned long long s = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < (size_t)nmax * nmax; i++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    ha[i] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    hb[i] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
  }
  int bad = 0;
  printf("size  shape                                                TFLOP/s\n");
  for (int z = 0; z < ns; z++) {
    int n = sizes[z];
    /* copy the leading n x n blocks so that each size reads its own n-wide rows */
    double *a = malloc((size_t)n * n * sizeof *a), *b = malloc((size_t)n * n * sizeof *b);
    if (!a || !b)
      return 1;
    for (int r = 0; r < n; r++) {
      memcpy(a + (size_t)r * n, ha + (size_t)r * nmax, (size_t)n * sizeof *a);
      memcpy(b + (size_t)r * n, hb + (size_t)r * nmax, (size_t)n * sizeof *b);
    }
    for (int q = 2; q < argc; q++) {
      shape sh;
      if (parse(argv[q], &sh)) {
        fprintf(stderr, "bad shape %s\n", argv[q]);
        return 2;
      }
      if (n % sh.split) {
        printf("%-5d %-52s (k %d not a multiple of %d)\n", n, argv[q], n, sh.split);
        continue;
      }
      double tf = run(av, &sh, n, a, b, &bad);
      printf("%-5d %-52s %7.2f\n", n, argv[q][0] ? argv[q] : "(defaults)", tf);
      fflush(stdout);
    }
    free(a);
    free(b);
  }
  printf("%s: %d wrong samples\n", bad ? "FAIL" : "ok", bad);
  return bad != 0;
}
