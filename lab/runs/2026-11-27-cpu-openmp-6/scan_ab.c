/* scan_ab.c: amp_scan (inclusive, int) beside bench/omp's omp_bench_scan_inclusive as amp-bench
 * times them (each side's calls back to back, data warm), in R rounds of B calls per side;
 * prints each round's best of each side and the best over the rounds. */
#include <ampcl/accelerator.h>
#include <ampcl/algorithms.h>
#include <ampcl/array.h>
#include <ampcl/array_view.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
void omp_bench_scan_inclusive(long n, const int32_t *x, int32_t *out);
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
int main(int argc, char **argv) {
  long n = argc > 2 ? atol(argv[2]) : 4194304;
  int R = argc > 3 ? atoi(argv[3]) : 3, B = argc > 4 ? atoi(argv[4]) : 8;
  amp_accelerator *acc;
  amp_accelerator_view *av;
  if (amp_accelerator_find(argv[1], &acc) || amp_accelerator_default_view(acc, &av)) {
    puts("noacc");
    return 1;
  }
  int32_t *in = malloc(n * 4), *out = malloc(n * 4), *ref = malloc(n * 4);
  for (long i = 0; i < n; i++)
    in[i] = (int32_t)(((uint32_t)i * 2654435761u) >> 29) - 3;
  amp_array *ai, *ao;
  amp_array_view *vi, *vo;
  if (amp_array_create_from(av, amp_extent1((int)n), AMP_INT32, in, &ai) ||
      amp_array_view_of(ai, &vi) || amp_array_create(av, amp_extent1((int)n), AMP_INT32, &ao) ||
      amp_array_view_of(ao, &vo)) {
    puts("arr");
    return 1;
  }
  double BA = 1e9, BO = 1e9;
  printf("%-12.12s n %ld rounds:", argv[1] + 4, n);
  for (int r = 0; r < R; r++) {
    double ba = 1e9, bo = 1e9;
    struct timespec s = {0, 250000000};
    nanosleep(&s, 0);
    for (int b = -1; b < B; b++) {
      double t0 = now();
      if (amp_scan(av, vi, vo, AMP_SCAN_INCLUSIVE) || amp_accelerator_view_wait(av)) {
        puts("scanfail");
        return 1;
      }
      double t = now() - t0;
      if (b >= 0 && t < ba)
        ba = t;
    }
    nanosleep(&s, 0);
    for (int b = -1; b < B; b++) {
      double t0 = now();
      omp_bench_scan_inclusive(n, in, ref);
      double t = now() - t0;
      if (b >= 0 && t < bo)
        bo = t;
    }
    printf(" %.3f/%.3f", ba, bo);
    BA = ba < BA ? ba : BA;
    BO = bo < BO ? bo : BO;
  }
  amp_copy_from_array(ao, out, n * 4);
  long bad = 0;
  for (long i = 0; i < n; i++)
    bad += out[i] != ref[i];
  printf(" | best ampcl %.3f omp %.3f ratio %.2f bad %ld\n", BA, BO, BO / BA, bad);
  return 0;
}
