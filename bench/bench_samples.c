/* bench/bench_samples.c: amp-bench --samples: the classic C++ AMP reduction and scan samples
 * (kernels_cl/samples/, their host passes in tests/samples/sample_drivers.c) beside the library's
 * amp_reduce and amp_scan, measured in the same run on the same device-resident data.
 *
 * For each size n (ints; default 2^26 on a GPU, 2^22 on a CPU device) the input lives in an
 * amp_array, filled once with small random ints (so every sum is exact and every result is checked
 * against the host's). Each row is timed end to end after --warmup untimed runs, median of
 * --repeats: from the call to its result complete (a reduction's sum on the host, a scan's output
 * on the device), its temporaries included. "vs library" is the library call's median over the
 * row's: 1 is as fast as amp_reduce (for the reductions) or amp_scan of the same kind (for the
 * scans, Hillis-Steele inclusive, Blelloch exclusive); below 1 slower. The samples run at tiles
 * of 256 threads, or the largest power of two the device allows (the cascaded reduction with 4
 * tiles per compute unit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/samples/sample_drivers.h"
#include "bench.h"

typedef struct samples_data {
  long n;
  int32_t *host, *out;
  int64_t sum;
  amp_array *in, *dst;
  amp_array_view *vin, *vdst;
  sample_kernels k;
  int cascade_tiles;
} samples_data;

typedef enum row_kind { ROW_LIB_REDUCE, ROW_REDUCE, ROW_LIB_SCAN, ROW_SCAN } row_kind;

typedef struct samples_row {
  const char *name;
  row_kind kind;
  int which;     /* the sample kind, or the amp_scan_kind */
  int reference; /* index of the library row it is compared with */
} samples_row;

static const samples_row rows[] = {
    {"amp_reduce", ROW_LIB_REDUCE, 0, 0},
    {"reduce_atomic", ROW_REDUCE, SAMPLE_REDUCE_ATOMIC, 0},
    {"reduce_interleaved", ROW_REDUCE, SAMPLE_REDUCE_INTERLEAVED, 0},
    {"reduce_sequential", ROW_REDUCE, SAMPLE_REDUCE_SEQUENTIAL, 0},
    {"reduce_unrolled", ROW_REDUCE, SAMPLE_REDUCE_UNROLLED, 0},
    {"reduce_cascaded", ROW_REDUCE, SAMPLE_REDUCE_CASCADED, 0},
    {"amp_scan incl", ROW_LIB_SCAN, AMP_SCAN_INCLUSIVE, 6},
    {"hillis_steele", ROW_SCAN, SAMPLE_SCAN_HILLIS_STEELE, 6},
    {"amp_scan excl", ROW_LIB_SCAN, AMP_SCAN_EXCLUSIVE, 8},
    {"blelloch", ROW_SCAN, SAMPLE_SCAN_BLELLOCH, 8},
};
enum { NROWS = sizeof rows / sizeof rows[0] };

static void data_free(samples_data *d) {
  amp_array_view_release(d->vdst);
  amp_array_view_release(d->vin);
  amp_array_release(d->dst);
  amp_array_release(d->in);
  sample_kernels_release(&d->k);
  free(d->host);
  free(d->out);
}

static amp_status data_make(bench_ctx *ctx, long n, samples_data *d) {
  memset(d, 0, sizeof *d);
  d->n = n;
  d->host = bench_alloc((size_t)n * sizeof *d->host);
  d->out = bench_alloc((size_t)n * sizeof *d->out);
  sample_fill(d->host, (int)n, 2026u, 16);
  for (long i = 0; i < n; i++)
    d->sum += d->host[i];
  d->cascade_tiles = 4 * (int)(ctx->props.compute_units ? ctx->props.compute_units : 16);
  int tile = 256; /* the samples' tile, halved down to 32 where the device allows less */
  while (tile > 32 && (size_t)tile > ctx->props.max_tile_size)
    tile /= 2;
  amp_status s = sample_kernels_create(tile, &d->k);
  if (s == AMP_SUCCESS)
    s = amp_array_create_from(ctx->av, amp_extent1((int)n), AMP_INT32, d->host, &d->in);
  if (s == AMP_SUCCESS)
    s = amp_array_create(ctx->av, amp_extent1((int)n), AMP_INT32, &d->dst);
  if (s == AMP_SUCCESS)
    s = amp_array_view_of(d->in, &d->vin);
  if (s == AMP_SUCCESS)
    s = amp_array_view_of(d->dst, &d->vdst);
  return s;
}

/* One run of row r; a reduction's sum in *sum. Returns when the result is complete. */
static amp_status run_once(bench_ctx *ctx, samples_data *d, const samples_row *r, int64_t *sum) {
  amp_status s = AMP_SUCCESS;
  int32_t got = 0;
  switch (r->kind) {
  case ROW_LIB_REDUCE:
    s = amp_reduce(ctx->av, d->vin, AMP_REDUCE_SUM, &got);
    break;
  case ROW_REDUCE:
    s = sample_reduce(ctx->av, &d->k, (sample_reduce_kind)r->which, amp_arg_array(d->in), (int)d->n,
                      d->cascade_tiles, &got);
    break;
  case ROW_LIB_SCAN:
    s = amp_scan(ctx->av, d->vin, d->vdst, (amp_scan_kind)r->which);
    break;
  case ROW_SCAN:
    s = sample_scan(ctx->av, &d->k, (sample_scan_kind)r->which, amp_arg_array(d->in),
                    amp_arg_array(d->dst), (int)d->n);
    if (s == AMP_SUCCESS)
      s = amp_accelerator_view_wait(ctx->av);
    break;
  }
  *sum = got;
  return s;
}

/* The row's result against the host's; 0 when it matches. */
static int check(samples_data *d, const samples_row *r, int64_t sum, char *why, size_t cap) {
  if (r->kind == ROW_LIB_REDUCE || r->kind == ROW_REDUCE) {
    if (sum + (bench_inject_error ? 1 : 0) != d->sum) {
      snprintf(why, cap, "sum %lld, the host's %lld", (long long)sum, (long long)d->sum);
      return 1;
    }
    return 0;
  }
  int inclusive = r->kind == ROW_LIB_SCAN ? r->which == AMP_SCAN_INCLUSIVE
                                          : r->which == SAMPLE_SCAN_HILLIS_STEELE;
  amp_status s = amp_copy_from_array(d->dst, d->out, (size_t)d->n * sizeof *d->out);
  if (s != AMP_SUCCESS) {
    snprintf(why, cap, "%s: %s", amp_status_name(s), amp_last_error());
    return 1;
  }
  if (bench_inject_error)
    d->out[d->n / 2]++;
  int32_t run = 0;
  for (long i = 0; i < d->n; i++) {
    int32_t want = inclusive ? run + d->host[i] : run;
    run += d->host[i];
    if (d->out[i] != want) {
      snprintf(why, cap, "out[%ld] = %d, the host's %d", i, d->out[i], want);
      return 1;
    }
  }
  return 0;
}

/* Times row r into ms[0..repeats); returns its state, the reason in why. */
static bench_state time_row(bench_ctx *ctx, samples_data *d, const samples_row *r, double *ms,
                            char *why, size_t cap) {
  int64_t sum = 0;
  amp_status s = AMP_SUCCESS;
  for (int w = 0; w < ctx->warmup + 1 && s == AMP_SUCCESS; w++)
    s = run_once(ctx, d, r, &sum);
  if (s == AMP_SUCCESS && check(d, r, sum, why, cap))
    return BENCH_FAILED;
  for (int i = 0; i < ctx->repeats && s == AMP_SUCCESS; i++) {
    double t0 = bench_now_ms();
    s = run_once(ctx, d, r, &sum);
    ms[i] = bench_now_ms() - t0;
  }
  if (s != AMP_SUCCESS) {
    snprintf(why, cap, "%s: %s", amp_status_name(s), amp_last_error());
    return BENCH_ERROR;
  }
  return BENCH_OK;
}

static int samples_size(bench_ctx *ctx, long n, FILE *csv) {
  samples_data d;
  double ms[NROWS][BENCH_MAX_REPEATS], median[NROWS];
  bench_state state[NROWS];
  char why[NROWS][200];
  int rc = 0;
  amp_status s = data_make(ctx, n, &d);
  if (s != AMP_SUCCESS) {
    fprintf(stderr, "amp-bench: setting up n=%ld: %s: %s\n", n, amp_status_name(s),
            amp_last_error());
    data_free(&d);
    return 1;
  }
  for (int r = 0; r < NROWS; r++) {
    fprintf(stderr, "%s n=%ld ...\n", rows[r].name, n);
    why[r][0] = '\0';
    state[r] = time_row(ctx, &d, &rows[r], ms[r], why[r], sizeof why[r]);
    median[r] = state[r] == BENCH_OK ? bench_stats_of(ms[r], ctx->repeats).median : 0;
  }
  printf("\nC++ AMP samples beside the library on %s, device-resident ints, n = %ld; median of %d, "
         "end to end\n\n%-20s %10s %10s %9s %11s  %s\n",
         ctx->props.device_path, n, ctx->repeats, "row", "median ms", "min ms", "Gelem/s",
         "vs library", "check");
  for (int r = 0; r < NROWS; r++) {
    const char *verdict = state[r] == BENCH_OK       ? "ok"
                          : state[r] == BENCH_FAILED ? "FAILED"
                                                     : "ERROR";
    double ref = median[rows[r].reference];
    double ratio = state[r] == BENCH_OK && ref > 0 ? ref / median[r] : 0;
    double mn = state[r] == BENCH_OK ? bench_stats_of(ms[r], ctx->repeats).min : 0;
    rc |= state[r] != BENCH_OK;
    printf("%-20s %10.3f %10.3f %9.3f %11.3f  %s%s%s\n", rows[r].name, median[r], mn,
           median[r] > 0 ? (double)n / (median[r] * 1e6) : 0, ratio, verdict, why[r][0] ? ": " : "",
           why[r]);
    if (csv)
      fprintf(csv, "samples,%s,%ld,%.4f,%.4f,%.3f,%s,\"%s\",\"%s\"\n", rows[r].name, n, median[r],
              mn, ratio, verdict, ctx->props.device_path, why[r]);
  }
  data_free(&d);
  return rc;
}

int bench_samples(bench_ctx *ctx, const long *sizes, int nsizes, const char *csv_path) {
  static const long gpu_default[] = {1L << 26}, cpu_default[] = {1L << 22};
  if (nsizes == 0) {
    sizes = ctx->props.is_emulated ? cpu_default : gpu_default;
    nsizes = 1;
  }
  FILE *csv = NULL;
  if (csv_path && !(csv = fopen(csv_path, "w"))) {
    fprintf(stderr, "amp-bench: cannot write %s\n", csv_path);
    return 1;
  }
  if (csv)
    fprintf(csv, "workload,impl,size,ms_median,ms_min,vs_library,state,device,note\n");
  int rc = 0;
  for (int i = 0; i < nsizes && rc != 2; i++) {
    /* the sums of 16-value ints stay far inside an int at every size allowed */
    if (sizes[i] < 1 || sizes[i] > (1L << 27)) {
      fprintf(stderr, "amp-bench: --samples sizes must be 1 .. 2^27 elements (%ld)\n", sizes[i]);
      rc = 2;
      break;
    }
    rc |= samples_size(ctx, sizes[i], csv);
  }
  if (csv)
    fclose(csv);
  return rc;
}
