/* scan_var.c: amp_scan (inclusive, int) with several kernel build-option variants (SCANX_OPTS,
 * an uncommitted experiment hook in scan.c) beside OpenMP's scan, R rounds; in each round every
 * variant and OpenMP run B calls back to back (data warm, as amp-bench times them), 250 ms apart;
 * prints the best of each round and over the rounds.  scan_var DEV N R B "OPTS" ... */
#include <ampcl/accelerator.h>
#include <ampcl/algorithms.h>
#include <ampcl/array.h>
#include <ampcl/array_view.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
void omp_bench_scan_inclusive(long n, const int32_t *x, int32_t *out);
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
int main(int argc, char **argv) {
  long n = atol(argv[2]);
  int R = atoi(argv[3]), B = atoi(argv[4]), nv = argc - 5;
  amp_accelerator *acc;
  amp_accelerator_view *av;
  if (amp_accelerator_find(argv[1], &acc) || amp_accelerator_default_view(acc, &av))
    return puts("noacc"), 1;
  int32_t *in = malloc(n * 4), *out = malloc(n * 4), *ref = malloc(n * 4);
  for (long i = 0; i < n; i++)
    in[i] = (int32_t)(((uint32_t)i * 2654435761u) >> 29) - 3;
  omp_bench_scan_inclusive(n, in, ref);
  amp_array *ai, *ao;
  amp_array_view *vi, *vo;
  if (amp_array_create_from(av, amp_extent1((int)n), AMP_INT32, in, &ai) ||
      amp_array_view_of(ai, &vi) || amp_array_create(av, amp_extent1((int)n), AMP_INT32, &ao) ||
      amp_array_view_of(ao, &vo))
    return puts("arr"), 1;
  double best[16], med[16][64];
  for (int v = 0; v <= nv; v++)
    best[v] = 1e9;
  for (int r = 0; r < R; r++)
    for (int v = 0; v <= nv; v++) {
      struct timespec s = {0, 250000000};
      nanosleep(&s, 0);
      double b = 1e9;
      if (v < nv) {
        const char *o = argv[5 + v];
        if (strncmp(o, "PC=", 3) == 0) {
          char pc[16];
          snprintf(pc, sizeof pc, "%d", atoi(o + 3));
          setenv("SCANX_PC", pc, 1);
          o = strchr(o, ' ') ? strchr(o, ' ') + 1 : "";
        } else
          unsetenv("SCANX_PC");
        setenv("SCANX_OPTS", o, 1);
      }
      for (int i = -1; i < B; i++) {
        double t0 = now();
        if (v < nv) {
          if (amp_scan(av, vi, vo, AMP_SCAN_INCLUSIVE) || amp_accelerator_view_wait(av))
            return puts("scanfail"), 1;
        } else
          omp_bench_scan_inclusive(n, in, out);
        double t = now() - t0;
        if (i >= 0 && t < b)
          b = t;
      }
      med[v][r] = b;
      if (b < best[v])
        best[v] = b;
      if (r == 0 && v < nv) {
        amp_copy_from_array(ao, out, n * 4);
        long bad = 0;
        for (long i = 0; i < n; i++)
          bad += out[i] != ref[i];
        if (bad)
          printf("variant %d: %ld wrong\n", v, bad);
      }
    }
  for (int v = 0; v <= nv; v++) {
    printf("%-5.5s n %ld best %.3f ratio %.2f rounds:", argv[1] + 4, n, best[v],
           best[nv] / best[v]);
    for (int r = 0; r < R; r++)
      printf(" %.3f", med[v][r]);
    printf("  [%s]\n", v < nv ? argv[5 + v] : "openmp");
  }
  return 0;
}
