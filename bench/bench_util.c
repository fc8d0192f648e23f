/* bench/bench_util.c: clocks, statistics, error notes and test data for amp-bench. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

int bench_inject_error;

double bench_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The p-quantile of sorted s[0..n-1], interpolated linearly. */
static double quantile(const double *s, int n, double p) {
  double pos = p * (n - 1);
  int lo = (int)pos;
  if (lo >= n - 1)
    return s[n - 1];
  return s[lo] + (pos - lo) * (s[lo + 1] - s[lo]);
}

bench_stats bench_stats_of(const double *v, int n) {
  bench_stats st = {0, 0, 0, 0, 0};
  if (n <= 0)
    return st;
  for (int i = 0; i < n; i++)
    if (isnan(v[i])) /* a repeat was not measured: no statistics of it */
      return (bench_stats){NAN, NAN, NAN, NAN, NAN};
  double s[BENCH_MAX_REPEATS];
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, cmp_double);
  st.min = s[0];
  st.max = s[n - 1];
  st.median = quantile(s, n, 0.5);
  st.q1 = quantile(s, n, 0.25);
  st.q3 = quantile(s, n, 0.75);
  return st;
}

int bench_fail(bench_cell *cell, amp_status status, const char *what) {
  return bench_fail_why(cell, status, what, amp_last_error());
}

int bench_fail_why(bench_cell *cell, amp_status status, const char *what, const char *why) {
  if (status == AMP_SUCCESS)
    return 0;
  if (status == AMP_ERROR_UNSUPPORTED_FEATURE) {
    cell->state = BENCH_SKIPPED; /* e.g. no CLBlast, no fp64: a "-" in the table, not a failure */
  } else {
    cell->state = BENCH_ERROR;
  }
  snprintf(cell->note, sizeof cell->note, "%s: %s: %s", what, amp_status_name(status), why);
  for (char *c = cell->note; *c; c++) /* one line, for the table and the CSV */
    if (*c == '\n' || *c == '\r' || *c == ',')
      *c = ' ';
  return 1;
}

int bench_tile_fits(const bench_ctx *ctx, bench_cell *cell, int rank, const int *tile) {
  size_t threads = 1;
  int fits = 1;
  for (int d = 0; d < rank; d++) {
    threads *= (size_t)tile[d];
    fits &= (size_t)tile[d] <= ctx->props.max_tile_extent[3 - rank + d];
  }
  if (fits && threads <= ctx->props.max_tile_size)
    return 1;
  cell->state = BENCH_SKIPPED;
  snprintf(cell->note, sizeof cell->note, "needs tiles of %zu threads; %s allows %zu", threads,
           ctx->props.device_path, ctx->props.max_tile_size);
  return 0;
}

static uint64_t next_random(uint64_t *s) {
  /* splitmix64: fast, deterministic, good enough for test matrices */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void bench_fill_float(float *p, size_t n, uint64_t seed) {
  for (size_t i = 0; i < n; i++)
    p[i] = (float)((double)(next_random(&seed) >> 11) * 0x1p-53 * 2.0 - 1.0);
}

void bench_fill_double(double *p, size_t n, uint64_t seed) {
  for (size_t i = 0; i < n; i++)
    p[i] = (double)(next_random(&seed) >> 11) * 0x1p-53 * 2.0 - 1.0;
}

const char *bench_type_name(bench_type t) {
  return t == BENCH_DOUBLE ? "double" : "float";
}

static pthread_mutex_t unmeasured_lock = PTHREAD_MUTEX_INITIALIZER;
static char unmeasured_why[512];

const char *bench_unmeasured_why(void) {
  pthread_mutex_lock(&unmeasured_lock);
  const char *why = unmeasured_why[0] ? unmeasured_why : NULL;
  pthread_mutex_unlock(&unmeasured_lock);
  return why;
}

amp_status bench_future_done(amp_future *f, double *kernel_ms, int max) {
  amp_status st = amp_future_wait(f);
  uint64_t ns = 0;
  if (st == AMP_SUCCESS)
    st = amp_future_elapsed_ns(f, &ns);
  if (st == AMP_SUCCESS) {
    double ms = (double)ns * 1e-6;
    if (max) /* a NAN (not measured) already there stays: ms > NAN is false */
      *kernel_ms = ms > *kernel_ms ? ms : *kernel_ms;
    else
      *kernel_ms += ms;
  } else if (st == AMP_ERROR_UNSUPPORTED_FEATURE) {
    /* no device time (the device's timestamps measure nothing, or AMP_PROFILE=0): not measured,
     * which is NAN, not 0 and not a wall time in its place */
    pthread_mutex_lock(&unmeasured_lock);
    if (!unmeasured_why[0])
      snprintf(unmeasured_why, sizeof unmeasured_why, "%s", amp_last_error());
    pthread_mutex_unlock(&unmeasured_lock);
    *kernel_ms = NAN;
    st = AMP_SUCCESS;
  }
  amp_future_release(f);
  return st;
}

void *bench_alloc(size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0) {
    fprintf(stderr, "amp-bench: out of host memory allocating %zu bytes\n", bytes);
    exit(2);
  }
  return p;
}

amp_accelerator *bench_pinned_on;

void *bench_data_alloc(size_t bytes) {
  void *p = NULL;
  if (!bench_pinned_on)
    return bench_alloc(bytes);
  if (amp_host_alloc(bench_pinned_on, bytes ? bytes : 64, &p) != AMP_SUCCESS) {
    fprintf(stderr, "amp-bench: --pinned: %s\n", amp_last_error());
    exit(2);
  }
  return p;
}

void bench_data_free(void *p) {
  if (p && bench_pinned_on)
    amp_host_free(p);
  else
    free(p);
}

int bench_option_int(const char *opts, const char *key, int dflt) {
  const char *at = opts ? strstr(opts, key) : NULL;
  return at ? atoi(at + strlen(key)) : dflt;
}

/* "1024", "2^20", "1M", "64K" */
long bench_parse_size(const char *s) {
  char *end;
  if (strncmp(s, "2^", 2) == 0) {
    long e = strtol(s + 2, &end, 10);
    return *end || e < 0 || e > 40 ? -1 : 1L << e;
  }
  long v = strtol(s, &end, 10);
  if (*end == 'K' || *end == 'k')
    v *= 1024, end++;
  else if (*end == 'M' || *end == 'm')
    v *= 1024 * 1024, end++;
  return *end || v <= 0 ? -1 : v;
}
