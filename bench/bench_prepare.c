/* bench/bench_prepare.c: amp-bench --prepare: what amp_algorithms_prepare takes off an algorithm's
 * first call. For each of reduce (sum), scan (inclusive), histogram (64 bins) and sort, on n ints
 * in device arrays (default 2^20; --sizes gives another):
 *
 *   cold       its first call in the process for uint elements, nothing prepared: the builds of
 *              its kernels are in it
 *   prepare    amp_algorithms_prepare of that algorithm for int
 *   first      its first call for int after that
 *   warm       its next call for int
 *
 * uint and int are built apart (each type is its own program), so the cold and first calls meet
 * the compiler equally, and the ratio first / cold is what preparing saves; first / warm shows
 * what is left. The driver's own cache of compiled kernels on disk (POCL's) makes builds after the
 * first run of a machine cheaper: POCL_KERNEL_CACHE=0 measures them without it. One process, one
 * run per row (a first call happens once); the results are checked against the host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef struct prepare_data {
  long n;
  int32_t *host;
  amp_array_view *v[2], *out[2]; /* [0] uint, [1] int */
} prepare_data;

static const char *const algo_names[] = {"reduce", "scan", "histogram", "sort"};
static const unsigned algo_bits[] = {AMP_PREPARE_REDUCE, AMP_PREPARE_SCAN, AMP_PREPARE_HISTOGRAM,
                                     AMP_PREPARE_SORT};
enum { NALGO = 4 };

/* A view of a device array of n elements of t filled from host. */
static amp_status device_view(bench_ctx *ctx, long n, amp_elem_type t, const void *host,
                              amp_array_view **out) {
  amp_array *a = NULL;
  amp_status s = host ? amp_array_create_from(ctx->av, amp_extent1((int)n), t, host, &a)
                      : amp_array_create(ctx->av, amp_extent1((int)n), t, &a);
  if (s == AMP_SUCCESS)
    s = amp_array_view_of(a, out);
  amp_array_release(a);
  return s;
}

/* One call of algorithm a on the data of type index ti; its result checked (0: right). */
static amp_status call(bench_ctx *ctx, prepare_data *d, int a, int ti, int *wrong) {
  amp_status s = AMP_SUCCESS;
  int64_t want = 0;
  for (long i = 0; i < d->n; i++)
    want += d->host[i];
  *wrong = 0;
  if (a == 0) {
    int32_t r = 0;
    s = amp_reduce(ctx->av, d->v[ti], AMP_REDUCE_SUM, &r);
    *wrong = s == AMP_SUCCESS && r != want;
  } else if (a == 1) {
    s = amp_scan(ctx->av, d->v[ti], d->out[ti], AMP_SCAN_INCLUSIVE);
    int32_t last = 0;
    if (s == AMP_SUCCESS)
      s = amp_array_view_get(d->out[ti], amp_index1((int)d->n - 1), &last);
    *wrong = s == AMP_SUCCESS && last != want;
  } else if (a == 2) {
    amp_array_view *bins = NULL;
    uint32_t counts[256];
    s = device_view(ctx, 256, AMP_UINT32, NULL, &bins);
    if (s == AMP_SUCCESS)
      s = amp_histogram(ctx->av, d->v[ti], bins);
    if (s == AMP_SUCCESS)
      s = amp_copy_from_view(bins, counts, sizeof counts);
    int64_t counted = 0;
    for (int b = 0; b < 256; b++)
      counted += counts[b];
    *wrong = s == AMP_SUCCESS && counted != d->n;
    amp_array_view_release(bins);
  } else {
    /* the scan's output, ascending already: sorted, its ends stay */
    int32_t first = -1, last = -1;
    s = amp_sort(ctx->av, d->out[ti]);
    if (s == AMP_SUCCESS)
      s = amp_array_view_get(d->out[ti], amp_index1(0), &first);
    if (s == AMP_SUCCESS)
      s = amp_array_view_get(d->out[ti], amp_index1((int)d->n - 1), &last);
    *wrong = s == AMP_SUCCESS && (first != d->host[0] || last != want);
  }
  return s;
}

static int time_algo(bench_ctx *ctx, prepare_data *d, int a, FILE *csv) {
  double ms[4] = {0};
  int wrong = 0, bad = 0;
  amp_status s = AMP_SUCCESS;
  double t0 = bench_now_ms();
  s = call(ctx, d, a, 0, &wrong);
  ms[0] = bench_now_ms() - t0;
  bad |= wrong;
  if (s == AMP_SUCCESS) {
    t0 = bench_now_ms();
    s = amp_algorithms_prepare(ctx->av, algo_bits[a], AMP_INT32);
    ms[1] = bench_now_ms() - t0;
  }
  for (int r = 2; r < 4 && s == AMP_SUCCESS; r++) {
    t0 = bench_now_ms();
    s = call(ctx, d, a, 1, &wrong);
    ms[r] = bench_now_ms() - t0;
    bad |= wrong;
  }
  const char *verdict = s != AMP_SUCCESS ? "ERROR" : bad ? "FAILED" : "ok";
  printf("%-10s %10.2f %10.2f %10.2f %10.3f %12.3f %12.1f  %s%s%s\n", algo_names[a], ms[0], ms[1],
         ms[2], ms[3], ms[0] > 0 ? ms[2] / ms[0] : 0, ms[3] > 0 ? ms[2] / ms[3] : 0, verdict,
         s != AMP_SUCCESS ? ": " : "", s != AMP_SUCCESS ? amp_last_error() : "");
  if (csv)
    fprintf(csv, "prepare,%s,%ld,%.3f,%.3f,%.3f,%.4f,%s,\"%s\"\n", algo_names[a], d->n, ms[0],
            ms[1], ms[2], ms[3], verdict, ctx->props.device_path);
  return s != AMP_SUCCESS || bad;
}

int bench_prepare(bench_ctx *ctx, const long *sizes, int nsizes, const char *csv_path) {
  long n = nsizes ? sizes[0] : 1L << 20;
  if (n < 2 || n > (1L << 26)) {
    fprintf(stderr, "amp-bench: --prepare size must be 2 .. 2^26 elements (%ld)\n", n);
    return 2;
  }
  FILE *csv = NULL;
  if (csv_path && !(csv = fopen(csv_path, "w"))) {
    fprintf(stderr, "amp-bench: cannot write %s\n", csv_path);
    return 1;
  }
  if (csv)
    fprintf(csv, "workload,algorithm,size,cold_ms,prepare_ms,first_ms,warm_ms,state,device\n");
  prepare_data d = {n, bench_alloc((size_t)n * sizeof(int32_t)), {NULL}, {NULL}};
  for (long i = 0; i < n; i++)
    d.host[i] = (int32_t)((uint32_t)i * 2654435761u % 64u);
  int rc = 0;
  const amp_elem_type types[2] = {AMP_UINT32, AMP_INT32};
  for (int t = 0; t < 2 && rc == 0; t++)
    if (device_view(ctx, n, types[t], d.host, &d.v[t]) != AMP_SUCCESS ||
        device_view(ctx, n, types[t], NULL, &d.out[t]) != AMP_SUCCESS) {
      fprintf(stderr, "amp-bench: setting up n=%ld: %s\n", n, amp_last_error());
      rc = 1;
    }
  if (rc == 0) {
    printf("\nFirst calls with and without amp_algorithms_prepare on %s, n = %ld ints, one run "
           "each (ms)\n\n%-10s %10s %10s %10s %10s %12s %12s  %s\n",
           ctx->props.device_path, n, "algorithm", "cold", "prepare", "first", "warm", "first/cold",
           "first/warm", "check");
    for (int a = 0; a < NALGO; a++)
      rc |= time_algo(ctx, &d, a, csv);
  }
  for (int t = 0; t < 2; t++) {
    amp_array_view_release(d.v[t]);
    amp_array_view_release(d.out[t]);
  }
  free(d.host);
  if (csv)
    fclose(csv);
  return rc;
}
