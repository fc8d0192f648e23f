/* algorithms: the algorithms library (ampcl/algorithms.h) on views, one section per algorithm,
 * each checked against a host computation.
 *
 * A signal of n floats in [-1, 1] is put in a view once. Then, with no copy the caller writes:
 *   reduce     its sum, minimum and maximum (amp_reduce), and its largest magnitude with an
 *              operator of our own (amp_reduce_custom);
 *   histogram  our kernel quantize (algorithms.cl) turns it into 256 levels, amp_histogram counts
 *              them;
 *   scan       amp_scan of the counts gives the cumulative distribution (how many samples lie
 *              below each level: exclusive);
 *   transpose  the signal's first rows * cols samples seen as a matrix (a section, then
 *              view_as), transposed (amp_transpose_view);
 *   sort       the samples sorted by value, their positions carried along (amp_sort_by_key);
 *              and 64-bit keys that combine two orders, level first, then the latest sample
 *              first (amp_sort on AMP_UINT64);
 *   compaction the positive samples (amp_copy_if, a predicate in OpenCL C) and the distinct
 *              values of the sorted samples (amp_unique);
 *   stencil    the transpose's matrix blurred (amp_gaussian_blur, sigma 1).
 * The views stay on the accelerator between the steps; only results are read back.
 *
 *   algorithms [--size N] [--accelerator PATH] [--kernels DIR] */
#include <math.h>

#include "algorithms_cl.h"     /* algorithms_cl: algorithms.cl as a string */
#include "algorithms_launch.h" /* quantize_launch: its typed launcher */
#include "example.h"

static void usage(FILE *to) {
  fprintf(to, "usage: amp-algorithms [--size N] [--accelerator PATH] [--kernels DIR]\n"
              "  --size N            number of samples (default 1048576 = 1<<20)\n"
              "  --accelerator PATH  device path as amp-info prints it (default: the default)\n"
              "  --kernels DIR       load DIR/algorithms.cl instead of the built-in copy\n");
}

static int level(float x) {
  int t = (int)((x + 1.0f) * 128.0f);
  return t < 0 ? 0 : t > 255 ? 255 : t;
}

static int check(int ok, const char *what) {
  printf("  %-44s %s\n", what, ok ? "verified" : "WRONG");
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  int n = 1 << 20, bad = 0;
  const char *path = NULL, *kdir = NULL;
  const ex_option options[] = {{"--size", 1, 1 << 28, &n, NULL, NULL}};
  int parsed = ex_parse_args(argc, argv, "algorithms", usage, options,
                             sizeof options / sizeof *options, &path, &kdir);
  if (parsed >= 0)
    return parsed;
  amp_status status = AMP_SUCCESS;
  amp_accelerator *acc = NULL;
  amp_accelerator_view *av = NULL;
  amp_program *prog = NULL;
  amp_kernel *quantize = NULL;
  amp_array_view *vx = NULL, *vlev = NULL, *vbins = NULL, *vcdf = NULL, *vm = NULL, *vt = NULL,
                 *vpart = NULL;
  float *x = malloc((size_t)n * sizeof *x), *t = NULL, *sorted = NULL;
  uint32_t *from = NULL;
  uint64_t *keys = NULL;
  amp_array_view *vsorted = NULL, *vfrom = NULL, *vblur = NULL, *vpos = NULL, *vdist = NULL,
                 *vkeys = NULL;
  float *blurred = NULL, *pos = NULL, *dist = NULL;
  int32_t *lev = malloc((size_t)n * sizeof *lev);
  uint32_t bins[256], cdf[256], want_bins[256] = {0};
  if (!x || !lev) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  for (int i = 0; i < n; i++)
    x[i] = sinf(0.001f * (float)i) * (float)((i * 7919) % 1000) / 1000.0f;
  EX_TRY(ex_open_view(path, &acc, &av));
  EX_TRY(ex_load_program(kdir, "algorithms", algorithms_cl, NULL, &prog));
  EX_TRY(quantize_kernel(prog, &quantize));
  EX_TRY(amp_array_view_create_const(amp_extent1(n), AMP_FLOAT, x, &vx));

  /* ---- reduce ---- */
  printf("reduce (%d samples)\n", n);
  float sum = 0, lo = 0, hi = 0, peak = 0;
  EX_TRY(amp_reduce(av, vx, AMP_REDUCE_SUM, &sum));
  EX_TRY(amp_reduce(av, vx, AMP_REDUCE_MIN, &lo));
  EX_TRY(amp_reduce(av, vx, AMP_REDUCE_MAX, &hi));
  EX_TRY(amp_reduce_custom(av, vx, "T amp_reduce_op(T a, T b) { return fmax(fabs(a), fabs(b)); }",
                           "0.0f", &peak));
  double hsum = 0, mag = 0;
  float hlo = x[0], hhi = x[0], hpeak = 0;
  for (int i = 0; i < n; i++) {
    hsum += x[i];
    mag += fabs(x[i]);
    hlo = fminf(hlo, x[i]);
    hhi = fmaxf(hhi, x[i]);
    hpeak = fmaxf(hpeak, fabsf(x[i]));
  }
  printf("  sum %.4f  min %.4f  max %.4f  peak |x| %.4f\n", sum, lo, hi, peak);
  bad += check(fabs(sum - hsum) <= 1e-5 * mag + 1e-3, "sum (float, tree order; host in double)");
  bad += check(lo == hlo && hi == hhi && peak == hpeak, "min, max, custom operator");

  /* ---- histogram: our kernel, then the library, on the same views ---- */
  printf("histogram (256 levels)\n");
  EX_TRY(amp_array_view_create(amp_extent1(n), AMP_INT32, lev, &vlev));
  EX_TRY(amp_array_view_discard_data(vlev));
  EX_TRY(quantize_launch(av, amp_extent1(n), quantize, vx, vlev));
  EX_TRY(amp_array_view_create(amp_extent1(256), AMP_UINT32, bins, &vbins));
  EX_TRY(amp_array_view_discard_data(vbins));
  EX_TRY(amp_histogram(av, vlev, vbins));
  EX_TRY(amp_array_view_synchronize(vbins));
  for (int i = 0; i < n; i++)
    want_bins[level(x[i])]++;
  bad += check(memcmp(bins, want_bins, sizeof bins) == 0, "counts per level");

  /* ---- scan: the cumulative distribution of the counts ---- */
  printf("scan (exclusive, of the 256 counts)\n");
  EX_TRY(amp_array_view_create(amp_extent1(256), AMP_UINT32, cdf, &vcdf));
  EX_TRY(amp_array_view_discard_data(vcdf));
  EX_TRY(amp_scan(av, vbins, vcdf, AMP_SCAN_EXCLUSIVE));
  EX_TRY(amp_array_view_synchronize(vcdf));
  uint32_t below = 0;
  int scan_ok = 1;
  for (int b = 0; b < 256; b++) {
    scan_ok &= cdf[b] == below;
    below += want_bins[b];
  }
  printf("  samples below level 128 (x < 0): %u of %d\n", cdf[128], n);
  bad += check(scan_ok, "cumulative counts");

  /* ---- transpose: the signal as a matrix ---- */
  int cols = 1;
  while (cols * 2 <= n && (long)cols * cols * 4 <= n)
    cols *= 2;
  int rows = n / cols;
  printf("transpose (%d x %d)\n", rows, cols);
  t = malloc((size_t)rows * (size_t)cols * sizeof *t);
  if (!t) {
    fprintf(stderr, "out of memory\n");
    status = AMP_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  EX_TRY(amp_array_view_section(vx, amp_index1(0), amp_extent1(rows * cols), &vpart));
  EX_TRY(amp_array_view_view_as(vpart, amp_extent2(rows, cols), &vm));
  EX_TRY(amp_array_view_create(amp_extent2(cols, rows), AMP_FLOAT, t, &vt));
  EX_TRY(amp_array_view_discard_data(vt));
  EX_TRY(amp_transpose_view(av, vm, vt));
  EX_TRY(amp_array_view_synchronize(vt));
  int tr_ok = 1;
  for (int r = 0; r < rows && tr_ok; r++)
    for (int c = 0; c < cols && tr_ok; c++)
      tr_ok = t[(size_t)c * rows + r] == x[(size_t)r * cols + c];
  bad += check(tr_ok, "every element");

  /* ---- sort: the samples in ascending order, with where each came from ---- */
  printf("sort (%d samples, by value, with their positions)\n", n);
  sorted = malloc((size_t)n * sizeof *sorted);
  from = malloc((size_t)n * sizeof *from);
  if (!sorted || !from) {
    fprintf(stderr, "out of memory\n");
    status = AMP_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  memcpy(sorted, x, (size_t)n * sizeof *x);
  for (int i = 0; i < n; i++)
    from[i] = (uint32_t)i;
  EX_TRY(amp_array_view_create(amp_extent1(n), AMP_FLOAT, sorted, &vsorted));
  EX_TRY(amp_array_view_create(amp_extent1(n), AMP_UINT32, from, &vfrom));
  EX_TRY(amp_sort_by_key(av, vsorted, vfrom));
  EX_TRY(amp_array_view_synchronize(vsorted));
  EX_TRY(amp_array_view_synchronize(vfrom));
  /* -0.0 sorts before +0.0 (the radix order of their bits); among equal bits, positions rise */
  int sort_ok = 1;
  for (int i = 0; i < n && sort_ok; i++) {
    sort_ok = from[i] < (uint32_t)n && memcmp(&sorted[i], &x[from[i]], sizeof *x) == 0;
    if (sort_ok && i > 0) {
      int same = memcmp(&sorted[i - 1], &sorted[i], sizeof *x) == 0;
      sort_ok = sorted[i - 1] <= sorted[i] && (!same || from[i - 1] < from[i]);
    }
  }
  printf("  median sample %.4f\n", sorted[n / 2]);
  bad += check(sort_ok, "ascending, stable, values follow their keys");

  /* 64-bit keys: a composite key orders by two things at once. The high 32 bits are the sample's
   * level, the low 32 its position counted from the end, so within a level the latest sample
   * comes first; the position also makes every key distinct. */
  printf("sort (%d 64-bit keys: level, then the latest sample first)\n", n);
  keys = malloc((size_t)n * sizeof *keys);
  if (!keys) {
    fprintf(stderr, "out of memory\n");
    status = AMP_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  for (int i = 0; i < n; i++)
    keys[i] = (uint64_t)level(x[i]) << 32 | (uint32_t)(n - 1 - i);
  EX_TRY(amp_array_view_create(amp_extent1(n), AMP_UINT64, keys, &vkeys));
  EX_TRY(amp_sort(av, vkeys));
  EX_TRY(amp_array_view_synchronize(vkeys));
  /* strictly ascending, and each key is a sample's: together, a permutation of the keys */
  int keys_ok = 1;
  for (int i = 0; i < n && keys_ok; i++) {
    uint32_t back = (uint32_t)keys[i];
    keys_ok = back < (uint32_t)n && (keys[i] >> 32) == (uint64_t)level(x[n - 1 - (int)back]) &&
              (i == 0 || keys[i - 1] < keys[i]);
  }
  printf("  first key: level %u, sample %u\n", (unsigned)(keys[0] >> 32),
         (unsigned)(n - 1 - (int)(uint32_t)keys[0]));
  bad += check(keys_ok, "ascending, every sample once");

  /* ---- compaction: the positive samples (amp_copy_if with our predicate), and the distinct
   * values of the sorted samples (amp_unique) ---- */
  printf("compaction (copy_if x > 0; unique of the sorted samples)\n");
  pos = malloc((size_t)n * sizeof *pos);
  dist = malloc((size_t)n * sizeof *dist);
  if (!pos || !dist) {
    fprintf(stderr, "out of memory\n");
    status = AMP_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  size_t npos = 0, ndist = 0;
  EX_TRY(amp_array_view_create(amp_extent1(n), AMP_FLOAT, pos, &vpos));
  EX_TRY(amp_array_view_discard_data(vpos));
  EX_TRY(amp_copy_if(av, vx, vpos, "bool amp_predicate(T x) { return x > 0.0f; }", &npos));
  EX_TRY(amp_array_view_create(amp_extent1(n), AMP_FLOAT, dist, &vdist));
  EX_TRY(amp_array_view_discard_data(vdist));
  EX_TRY(amp_unique(av, vsorted, vdist, &ndist)); /* vsorted is still valid on the device */
  EX_TRY(amp_array_view_synchronize(vpos));
  EX_TRY(amp_array_view_synchronize(vdist));
  size_t j = 0;
  int pos_ok = 1, dist_ok = 1;
  for (int i = 0; i < n && pos_ok; i++)
    if (x[i] > 0.0f)
      pos_ok = j < npos && pos[j++] == x[i];
  pos_ok = pos_ok && j == npos;
  j = 0;
  for (int i = 0; i < n && dist_ok; i++)
    if (i == 0 || sorted[i] != sorted[i - 1])
      dist_ok = j < ndist && dist[j++] == sorted[i];
  dist_ok = dist_ok && j == ndist;
  printf("  %zu positive samples, %zu distinct values\n", npos, ndist);
  bad += check(pos_ok, "copy_if: the positive samples, in order");
  bad += check(dist_ok, "unique: each value once, ascending");

  /* ---- stencil: the matrix of the transpose section, blurred (sigma 1: 7 x 7 weights) ---- */
  printf("stencil (Gaussian blur, sigma 1, of the %d x %d matrix)\n", rows, cols);
  blurred = malloc((size_t)rows * (size_t)cols * sizeof *blurred);
  if (!blurred) {
    fprintf(stderr, "out of memory\n");
    status = AMP_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  EX_TRY(amp_array_view_create(amp_extent2(rows, cols), AMP_FLOAT, blurred, &vblur));
  EX_TRY(amp_array_view_discard_data(vblur));
  EX_TRY(amp_gaussian_blur(av, vm, vblur, 1.0f));
  EX_TRY(amp_array_view_synchronize(vblur));
  double gw[7][7], gsum = 0, worst = 0;
  for (int a = 0; a < 7; a++)
    for (int b = 0; b < 7; b++)
      gsum += gw[a][b] = exp(-((a - 3) * (a - 3) + (b - 3) * (b - 3)) / 2.0);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      double want = 0;
      for (int a = -3; a <= 3; a++)
        for (int b = -3; b <= 3; b++) {
          int y = r + a < 0 ? 0 : r + a >= rows ? rows - 1 : r + a;
          int z = c + b < 0 ? 0 : c + b >= cols ? cols - 1 : c + b;
          want += gw[a + 3][b + 3] / gsum * x[(size_t)y * cols + z];
        }
      worst = fmax(worst, fabs(blurred[(size_t)r * cols + c] - want));
    }
  printf("  largest difference from the host: %.2g\n", worst);
  bad += check(worst <= 1e-5, "every pixel (borders clamped)");

fail:
  EX_CLEANUP(EX_RELEASE_VIEWS(vblur, vpos, vdist, vsorted, vfrom, vkeys, vt, vm, vpart, vcdf, vbins,
                              vlev, vx));
  EX_CLEANUP(amp_kernel_release(quantize));
  EX_CLEANUP(amp_program_release(prog));
  EX_FREE(t, sorted, blurred, pos, dist, from, keys, lev, x);
  if (status != AMP_SUCCESS)
    return 1;
  printf(bad ? "%d check(s) WRONG\n" : "verified: all\n", bad);
  return bad ? 1 : 0;
}
