/* scan harness: amp_scan 4M ints vs omp, alternating, best of R */
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
  int R = argc > 3 ? atoi(argv[3]) : 20;
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
  double ba = 1e9, bo = 1e9;
  for (int r = 0; r < R; r++) {
    double t0 = now();
    if (amp_scan(av, vi, vo, AMP_SCAN_INCLUSIVE)) {
      puts("scanfail");
      return 1;
    }
    amp_accelerator_view_wait(av);
    double t = now() - t0;
    if (r && t < ba)
      ba = t;
    struct timespec s = {0, 20000000};
    nanosleep(&s, 0);
    t0 = now();
    omp_bench_scan_inclusive(n, in, ref);
    t = now() - t0;
    if (r && t < bo)
      bo = t;
    nanosleep(&s, 0);
  }
  amp_copy_from_array(ao, out, n * 4);
  long bad = 0;
  for (long i = 0; i < n; i++)
    bad += out[i] != ref[i];
  printf("%-30s ampcl %.3f omp %.3f ratio %.2f bad %ld\n", argv[1], ba, bo, bo / ba, bad);
  return 0;
}
