/* lab/sort_probe.c: amp_sort and amp_sort_by_key of random uint keys already on the device, timed
 * for each shape of the onesweep sort given on the command line, in one process (onesweep.c reads
 * its AMP_ONESWEEP_* knobs at every call and builds each shape once). Each shape: one untimed run
 * (it builds), then R timed runs, each after an untimed device copy of the unsorted keys (and
 * values); prints the median and fastest time and G keys/s, and checks the last result against a
 * host sort. Issue 35's sweep of the warp pass's tile and keys per thread.
 *
 *   sort-probe [log2 n] [repeats] SHAPE...   SHAPE: keys|pairs:TILE:PER[:warp 0/1]
 *   e.g. sort-probe 26 7 keys:256:16 keys:512:16 pairs:256:12 keys:256:16:0
 * (The first runs on four H200s, 2026-11-27, also took a fifth field, flags m and a: match.any
 * instead of ballots, and atomic_or reads in the look-back; those knobs went once measured:
 * lab/NOTEBOOK.md.) */
#include <ampcl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int lg = argc > 1 ? atoi(argv[1]) : 26, reps = argc > 2 ? atoi(argv[2]) : 7;
  if (lg < 4 || lg > 29 || reps < 1 || reps > 100 || argc < 4) {
    fprintf(stderr, "usage: sort-probe [log2 n 4..29] [repeats 1..100] SHAPE...\n");
    return 2;
  }
  const size_t n = (size_t)1 << lg;
  uint32_t *x = malloc(n * 4), *ref = malloc(n * 4), *got = malloc(n * 4), *val = malloc(n * 4);
  double *ms = malloc((size_t)reps * sizeof *ms);
  if (!x || !ref || !got || !val || !ms)
    return 1;
  uint64_t s = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < n; i++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    x[i] = ref[i] = (uint32_t)(s >> 17);
    val[i] = (uint32_t)i;
  }
  qsort(ref, n, 4, cmp_u32);
  amp_accelerator_view *av;
  amp_array *k0, *k, *v0, *v;
  amp_array_view *vk, *vv;
  amp_extent e = amp_extent1((int)n);
  if (amp_default_view(&av) || amp_array_create_from(av, e, AMP_UINT32, x, &k0) ||
      amp_array_create(av, e, AMP_UINT32, &k) ||
      amp_array_create_from(av, e, AMP_UINT32, val, &v0) ||
      amp_array_create(av, e, AMP_UINT32, &v) || amp_array_view_of(k, &vk) ||
      amp_array_view_of(v, &vv)) {
    fprintf(stderr, "setup: %s\n", amp_last_error());
    return 1;
  }
  int bad = 0;
  for (int a = 3; a < argc; a++) {
    char kind[8] = "";
    int tile = 256, per = 16, warp = 1;
    if (sscanf(argv[a], "%7[a-z]:%d:%d:%d", kind, &tile, &per, &warp) < 3) {
      fprintf(stderr, "bad shape %s\n", argv[a]);
      return 2;
    }
    const int pairs = strcmp(kind, "pairs") == 0;
    char b[16];
    snprintf(b, sizeof b, "%d", tile);
    setenv("AMP_ONESWEEP_TILE", b, 1);
    snprintf(b, sizeof b, "%d", per);
    setenv("AMP_ONESWEEP_PER", b, 1);
    setenv("AMP_ONESWEEP_WARP", warp ? "1" : "0", 1);
    amp_status st = AMP_SUCCESS;
    for (int r = -1; r < reps && st == AMP_SUCCESS; r++) {
      st = amp_copy_array(k0, k);
      if (st == AMP_SUCCESS && pairs)
        st = amp_copy_array(v0, v);
      if (st == AMP_SUCCESS)
        st = amp_accelerator_view_wait(av);
      double t0 = now_ms();
      if (st == AMP_SUCCESS)
        st = pairs ? amp_sort_by_key(av, vk, vv) : amp_sort(av, vk);
      if (st == AMP_SUCCESS)
        st = amp_accelerator_view_wait(av);
      if (r >= 0)
        ms[r] = now_ms() - t0;
    }
    if (st != AMP_SUCCESS) {
      printf("%-20s error: %s\n", argv[a], amp_last_error());
      bad = 1;
      continue;
    }
    int wrong = amp_copy_from_array(k, got, n * 4) != AMP_SUCCESS || memcmp(got, ref, n * 4) != 0;
    if (!wrong && pairs) { /* values: each key's original position, stable */
      wrong = amp_copy_from_array(v, val, n * 4) != AMP_SUCCESS;
      for (size_t i = 0; i < n && !wrong; i++)
        wrong = val[i] >= n || x[val[i]] != got[i] ||
                (i > 0 && got[i] == got[i - 1] && val[i] <= val[i - 1]);
    }
    qsort(ms, (size_t)reps, sizeof *ms, cmp_d);
    printf("%-20s n 2^%d  median %8.3f ms  min %8.3f ms  %6.2f G keys/s  %s\n", argv[a], lg,
           ms[reps / 2], ms[0], (double)n / ms[reps / 2] * 1e-6, wrong ? "WRONG" : "ok");
    bad |= wrong;
  }
  amp_array_view_release(vk);
  amp_array_view_release(vv);
  amp_array_release(k0);
  amp_array_release(k);
  amp_array_release(v0);
  amp_array_release(v);
  free(x);
  free(ref);
  free(got);
  free(val);
  free(ms);
  return bad;
}
