/* bench/bench_algorithms.c: amp-bench --algorithms: the algorithms of ampcl/algorithms.h on
 * device-resident data, against the device-to-device copy bandwidth measured in the same run.
 *
 * For each size n (elements; default 2^28 on a GPU, 2^20 on a CPU device) every input lives in an
 * amp_array on the accelerator, filled once; each algorithm is then timed end to end (wall clock
 * from the call to its results being complete on the device, including its temporaries and, for
 * reduce, reading the scalar back), after --warmup untimed runs, median of --repeats:
 *
 *   copy       amp_copy_array of n floats                        bytes counted: 8n (read + write)
 *   reduce     amp_reduce(AMP_REDUCE_SUM) of n floats            4n (read)
 *   scan       amp_scan(AMP_SCAN_INCLUSIVE) of n ints            8n (read + write)
 *   transpose  amp_transpose_view of a sqrt(n) x sqrt(n) float   8n (n rounded to a square)
 *   histogram  amp_histogram of n uints into 256 bins            4n (read)
 *   sort       amp_sort of n/4 random uint keys (2^26 for 2^28)  8 (n/4): one read and write;
 *              the goal here is keys/s (>= 1 G keys/s), not a share of the copy; the keys are
 *              restored from a copy (untimed) before every run
 *   stencil    amp_gaussian_blur (sigma 1: 7 x 7 weights) of the   8n (read + write)
 *              sqrt(n) x sqrt(n) float image
 *   sort_pairs amp_sort_by_key of the sort's n/4 keys with uint   16 (n/4): keys and values read
 *              values (their positions); keys and values restored  and written once
 *              before every run
 *   copy_if    amp_copy_if of the n floats (in [-1, 1)), keeping   4n + 4k (k kept, about n/2)
 *              x > 0
 *   unique     amp_unique of n sorted ints, i / 3 (runs of 3)       4n + 4k (k = n/3)
 *   stencil_2d amp_stencil_2d with the same 7 x 7 weights given as   8n
 *              a general 2-D view (49 multiply-adds per pixel; the
 *              stencil row's amp_gaussian_blur takes its separable
 *              kernel)
 *   reduce_fixed  the reduce row with AMP_ALGO_FIXED_ORDER          4n
 *              (amp_reduce_ex: the same bits on every device)
 *   scan_float amp_scan(AMP_SCAN_INCLUSIVE) of the n floats           8n
 *   scan_fixed the same with AMP_ALGO_FIXED_ORDER (amp_scan_ex)       8n
 *
 * GB/s is bytes counted / median time: the least traffic each algorithm must make, so it is
 * comparable with the copy's GB/s, and "vs copy" is the ratio (the goal is >= 0.80). Every result
 * is checked against a host computation first (--inject-error corrupts one value to prove the
 * check works); a wrong result marks the row FAILED and the exit status 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define NALGO 14
enum {
  A_COPY,
  A_REDUCE,
  A_SCAN,
  A_TRANSPOSE,
  A_HIST,
  A_SORT,
  A_STENCIL,
  A_PAIRS,
  A_COPY_IF,
  A_UNIQUE,
  A_STENCIL2D,
  A_REDUCE_FIXED,
  A_SCAN_FLOAT,
  A_SCAN_FIXED
};
static const char *algo_names[NALGO] = {
    "copy",       "reduce",  "scan",   "transpose",  "histogram",    "sort",       "stencil",
    "sort_pairs", "copy_if", "unique", "stencil_2d", "reduce_fixed", "scan_float", "scan_fixed"};
/* per element; copy_if and unique add 4 per element kept (algo_bytes_of) */
static const double algo_bytes[NALGO] = {8, 4, 8, 8, 4, 8, 8, 16, 4, 4, 8, 4, 8, 8};
/* AMP_BENCH_ALGORITHMS=name,name,... times only those rows (and copy, every ratio's reference);
 * unset or empty: all. For sweeping one algorithm's knobs without timing the others each time. */
static int algo_wanted(int a) {
  const char *list = getenv("AMP_BENCH_ALGORITHMS");
  if (a == 0 || !list || !*list)
    return 1;
  size_t len = strlen(algo_names[a]);
  for (const char *p = list; (p = strstr(p, algo_names[a])) != NULL; p += len)
    if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
      return 1;
  return 0;
}

#define COPY_IF_PRED "bool amp_predicate(T x) { return x > 0.0f; }"
#define UNIQUE_RUN   3 /* unique's input: i / 3, sorted, runs of 3 */
#define HIST_BINS    256

typedef struct algo_row {
  long n;
  int state; /* bench_state */
  char note[200];
  double ms[BENCH_MAX_REPEATS];
  int nrun;
} algo_row;

/* The data of one size: inputs on the device, host copies for the checks. */
typedef struct algo_data {
  long n, side;        /* side: the transpose's square */
  float *xf;           /* n floats */
  int32_t *xi;         /* n ints (scan) */
  uint32_t *xu;        /* n uints (histogram) */
  uint32_t *xk;        /* n/4 keys (sort) */
  uint32_t *xk_sorted; /* the same sorted on the host, once (NULL until a check needs it) */
  long nsort;
  size_t count; /* copy_if's and unique's last count */
  long kept;    /* copy_if's elements > 0 on the host */
  float w7[49]; /* the 7 x 7 Gaussian (sigma 1) as 2-D weights, for stencil_2d */
  amp_array_view *vw7;
  amp_array *af, *af2, *ai, *ai2, *au, *bins, *t_in, *t_out, *k0, *k, *v0, *v, *us;
  amp_array_view *vf, *vf2, *vi, *vi2, *vu, *vbins, *vt_in, *vt_out, *vk0, *vk, *vv0, *vv, *vus;
} algo_data;

static void data_free(algo_data *d) {
  amp_array_view *views[] = {d->vf,     d->vf2, d->vi, d->vi2, d->vu, d->vbins, d->vt_in,
                             d->vt_out, d->vk0, d->vk, d->vv0, d->vv, d->vus};
  amp_array *arrays[] = {d->af,    d->af2, d->ai, d->ai2, d->au, d->bins, d->t_in,
                         d->t_out, d->k0,  d->k,  d->v0,  d->v,  d->us};
  for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
    amp_array_view_release(views[i]);
  amp_array_view_release(d->vw7);
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
    amp_array_release(arrays[i]);
  free(d->xf);
  free(d->xi);
  free(d->xu);
  free(d->xk);
  free(d->xk_sorted);
  memset(d, 0, sizeof *d);
}

static amp_status make(bench_ctx *ctx, amp_extent e, amp_elem_type t, const void *src,
                       amp_array **a, amp_array_view **v) {
  amp_status s =
      src ? amp_array_create_from(ctx->av, e, t, src, a) : amp_array_create(ctx->av, e, t, a);
  return s == AMP_SUCCESS ? amp_array_view_of(*a, v) : s;
}

/* The pair sort's values (0, 1, ...: positions) and unique's input (i / UNIQUE_RUN), built on
 * the host in pieces and copied to the device. */
static amp_status fill_iota(bench_ctx *ctx, algo_data *d) {
  (void)ctx;
  size_t n = (size_t)d->n;
  int32_t *tmp = bench_alloc(n * sizeof *tmp);
  for (size_t i = 0; i < n; i++)
    tmp[i] = (int32_t)(i / UNIQUE_RUN);
  amp_status s = amp_copy_to_array(tmp, n * sizeof *tmp, d->us);
  for (size_t i = 0; i < (size_t)d->nsort && s == AMP_SUCCESS; i++)
    tmp[i] = (int32_t)i;
  if (s == AMP_SUCCESS)
    s = amp_copy_to_array(tmp, (size_t)d->nsort * sizeof *tmp, d->v0);
  if (s == AMP_SUCCESS)
    s = amp_accelerator_view_wait(ctx->av);
  free(tmp);
  return s;
}

/* stencil_2d's weights: exp(-(a^2 + b^2) / 2) normalised, as amp_gaussian_blur(sigma 1). */
static amp_status make_w7(algo_data *d) {
  double total = 0;
  for (int a = -3; a <= 3; a++)
    for (int b = -3; b <= 3; b++)
      total += exp(-(a * a + b * b) / 2.0);
  for (int a = -3; a <= 3; a++)
    for (int b = -3; b <= 3; b++)
      d->w7[(a + 3) * 7 + b + 3] = (float)(exp(-(a * a + b * b) / 2.0) / total);
  return amp_array_view_create_const(amp_extent2(7, 7), AMP_FLOAT, d->w7, &d->vw7);
}

static amp_status data_make(bench_ctx *ctx, long n, algo_data *d, char *why, size_t cap) {
  amp_status s = AMP_SUCCESS;
  memset(d, 0, sizeof *d);
  d->n = n;
  d->side = (long)sqrt((double)n);
  d->xf = bench_alloc((size_t)n * sizeof *d->xf);
  d->xi = bench_alloc((size_t)n * sizeof *d->xi);
  d->xu = bench_alloc((size_t)n * sizeof *d->xu);
  d->nsort = n / 4;
  d->xk = bench_alloc((size_t)d->nsort * sizeof *d->xk);
  for (long i = 0; i < d->nsort; i++) {
    uint32_t h = (uint32_t)i * 0x9e3779b9u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    d->xk[i] = h ^ (h >> 12);
  }
  bench_fill_float(d->xf, (size_t)n, 42);
  for (long i = 0; i < n; i++)
    d->kept += d->xf[i] > 0.0f;
  for (long i = 0; i < n; i++) {
    uint32_t h = (uint32_t)i * 2654435761u;
    d->xi[i] = (int32_t)(h >> 29) - 3;      /* small, so int sums stay exact and signs mix */
    d->xu[i] = (h >> 16) % (HIST_BINS + 8); /* a few outside the bins */
  }
  amp_extent e = amp_extent1((int)n), sq = amp_extent2((int)d->side, (int)d->side);
  if ((s = make(ctx, e, AMP_FLOAT, d->xf, &d->af, &d->vf)) ||
      (s = make(ctx, e, AMP_FLOAT, NULL, &d->af2, &d->vf2)) ||
      (s = make(ctx, e, AMP_INT32, d->xi, &d->ai, &d->vi)) ||
      (s = make(ctx, e, AMP_INT32, NULL, &d->ai2, &d->vi2)) ||
      (s = make(ctx, e, AMP_UINT32, d->xu, &d->au, &d->vu)) ||
      (s = make(ctx, amp_extent1(HIST_BINS), AMP_UINT32, NULL, &d->bins, &d->vbins)) ||
      (s = make(ctx, sq, AMP_FLOAT, d->xf, &d->t_in, &d->vt_in)) ||
      (s = make(ctx, sq, AMP_FLOAT, NULL, &d->t_out, &d->vt_out)) ||
      (s = make(ctx, amp_extent1((int)d->nsort), AMP_UINT32, d->xk, &d->k0, &d->vk0)) ||
      (s = make(ctx, amp_extent1((int)d->nsort), AMP_UINT32, NULL, &d->k, &d->vk)) ||
      (s = make(ctx, amp_extent1((int)d->nsort), AMP_UINT32, NULL, &d->v0, &d->vv0)) ||
      (s = make(ctx, amp_extent1((int)d->nsort), AMP_UINT32, NULL, &d->v, &d->vv)) ||
      (s = make(ctx, e, AMP_INT32, NULL, &d->us, &d->vus)) || (s = fill_iota(ctx, d)) ||
      (s = make_w7(d)))
    snprintf(why, cap, "%s: %s", amp_status_name(s), amp_last_error());
  return s;
}

/* Bytes counted for algorithm a over `elems` elements (copy_if and unique: plus what they keep). */
static double algo_bytes_of(const algo_data *d, int a, long elems) {
  double b = algo_bytes[a] * (double)elems;
  if (a == A_COPY_IF)
    b += 4.0 * (double)d->kept;
  if (a == A_UNIQUE)
    b += 4.0 * (double)((d->n + UNIQUE_RUN - 1) / UNIQUE_RUN);
  return b;
}

/* One run of algorithm a; blocks until its results are complete on the device. */
static amp_status run_once(bench_ctx *ctx, algo_data *d, int a, double *sum) {
  amp_status s;
  float f = 0;
  switch (a) {
  case 0: /* amp_copy_array only enqueues the copy: wait for it, as every other row does */
    s = amp_copy_array(d->af, d->af2);
    return s == AMP_SUCCESS ? amp_accelerator_view_wait(ctx->av) : s;
  case 1:
    s = amp_reduce(ctx->av, d->vf, AMP_REDUCE_SUM, &f);
    *sum = f;
    return s;
  case 2:
    return amp_scan(ctx->av, d->vi, d->vi2, AMP_SCAN_INCLUSIVE);
  case 3:
    s = amp_transpose_view(ctx->av, d->vt_in, d->vt_out);
    return s == AMP_SUCCESS ? amp_accelerator_view_wait(ctx->av) : s;
  case 4:
    return amp_histogram(ctx->av, d->vu, d->vbins);
  case 5:
    return amp_sort(ctx->av, d->vk);
  case A_PAIRS:
    return amp_sort_by_key(ctx->av, d->vk, d->vv);
  case A_COPY_IF:
    return amp_copy_if(ctx->av, d->vf, d->vf2, COPY_IF_PRED, &d->count);
  case A_UNIQUE:
    return amp_unique(ctx->av, d->vus, d->vi2, &d->count);
  case A_STENCIL2D:
    s = amp_stencil_2d(ctx->av, d->vt_in, d->vt_out, d->vw7);
    return s == AMP_SUCCESS ? amp_accelerator_view_wait(ctx->av) : s;
  case A_REDUCE_FIXED:
    s = amp_reduce_ex(ctx->av, d->vf, AMP_REDUCE_SUM, AMP_ALGO_FIXED_ORDER, &f);
    *sum = f;
    return s;
  case A_SCAN_FLOAT:
  case A_SCAN_FIXED:
    return amp_scan_ex(ctx->av, d->vf, d->vf2, AMP_SCAN_INCLUSIVE,
                       a == A_SCAN_FIXED ? AMP_ALGO_FIXED_ORDER : 0);
  default:
    return amp_gaussian_blur(ctx->av, d->vt_in, d->vt_out, 1.0f);
  }
}

/* Untimed preparation before each run: the sorts get their unsorted keys (and values) back. */
static amp_status prepare(algo_data *d, int a) {
  amp_status s = a == A_SORT || a == A_PAIRS ? amp_copy_array(d->k0, d->k) : AMP_SUCCESS;
  return s == AMP_SUCCESS && a == A_PAIRS ? amp_copy_array(d->v0, d->v) : s;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The blur at a sample of pixels (every 997th, edges included), against a host sum in double. */
static int check_blur(const algo_data *d, const float *o) {
  long s = d->side;
  double w[7][7], total = 0;
  for (int a = 0; a < 7; a++)
    for (int b = 0; b < 7; b++)
      total += w[a][b] = exp(-((a - 3) * (a - 3) + (b - 3) * (b - 3)) / 2.0);
  for (long p = 0; p < s * s; p += (p % 997 == 0 && p + 1 < s * s) ? 1 : 997) {
    long i = p / s, j = p % s;
    double want = 0;
    for (int a = -3; a <= 3; a++)
      for (int b = -3; b <= 3; b++) {
        long y = i + a < 0 ? 0 : i + a >= s ? s - 1 : i + a;
        long x = j + b < 0 ? 0 : j + b >= s ? s - 1 : j + b;
        want += w[a + 3][b + 3] / total * d->xf[y * s + x];
      }
    if (fabs(o[p] - want) > 1e-5)
      return 1;
  }
  return 0;
}

/* The sort's keys sorted on the host (computed at the first call). */
static const uint32_t *sorted_keys(algo_data *d) {
  if (!d->xk_sorted) {
    d->xk_sorted = bench_alloc((size_t)d->nsort * 4);
    memcpy(d->xk_sorted, d->xk, (size_t)d->nsort * 4);
    qsort(d->xk_sorted, (size_t)d->nsort, 4, cmp_u32);
  }
  return d->xk_sorted;
}

/* The sort_pairs, copy_if and unique rows against the host. */
static int check_new(algo_data *d, int a, char *why, size_t cap) {
  int bad = 0;
  if (a == A_PAIRS) {
    size_t m = (size_t)d->nsort;
    uint32_t *k = bench_alloc(m * 4), *v = bench_alloc(m * 4);
    const uint32_t *want = sorted_keys(d);
    if (amp_copy_from_array(d->k, k, m * 4) || amp_copy_from_array(d->v, v, m * 4)) {
      snprintf(why, cap, "copy back: %s", amp_last_error());
      bad = 1;
    }
    v[0] += (uint32_t)bench_inject_error;
    for (size_t i = 0; i < m && !bad; i++)
      bad = k[i] != want[i] || v[i] >= m || d->xk[v[i]] != k[i] ||
            (i > 0 && k[i] == k[i - 1] && v[i] <= v[i - 1]); /* stable */
    free(k);
    free(v);
  } else {
    size_t want = a == A_COPY_IF ? (size_t)d->kept : (size_t)((d->n + UNIQUE_RUN - 1) / UNIQUE_RUN);
    size_t bytes = (size_t)d->n * 4;
    void *out = bench_alloc(bytes);
    if (d->count != want) {
      snprintf(why, cap, "count %zu, host %zu", d->count, want);
      free(out);
      return 1;
    }
    if (amp_copy_from_array(a == A_COPY_IF ? d->af2 : d->ai2, out, bytes)) {
      snprintf(why, cap, "copy back: %s", amp_last_error());
      free(out);
      return 1;
    }
    if (bench_inject_error)
      ((int32_t *)out)[0] ^= 1;
    if (a == A_COPY_IF) {
      const float *o = out;
      size_t j = 0;
      for (long i = 0; i < d->n && !bad; i++)
        if (d->xf[i] > 0.0f)
          bad = memcmp(&o[j++], &d->xf[i], 4) != 0;
    } else {
      const int32_t *o = out;
      for (size_t j = 0; j < want && !bad; j++)
        bad = o[j] != (int32_t)j;
    }
    free(out);
  }
  if (bad && !*why)
    snprintf(why, cap, "result differs from the host's");
  return bad;
}

/* Checks the result of algorithm a against the host; 0 when right, else 1 with the reason. */
/* The float scans against prefix sums in double, within 1e-5 of the prefix of magnitudes. */
static int check_scan_float(algo_data *d, char *why, size_t cap) {
  long n = d->n;
  float *o = bench_alloc((size_t)n * sizeof *o);
  if (amp_copy_from_array(d->af2, o, (size_t)n * sizeof *o)) {
    snprintf(why, cap, "copy back: %s", amp_last_error());
    free(o);
    return 1;
  }
  if (bench_inject_error)
    o[n / 2] += 1.0f + (float)n;
  double acc = 0, mag = 0;
  int bad = 0;
  for (long i = 0; i < n && !bad; i++) {
    acc += d->xf[i];
    mag += fabs(d->xf[i]);
    if (fabs(o[i] - acc) > 1e-5 * mag + 1e-3) {
      snprintf(why, cap, "element %ld: %.9g, host %.9g", i, o[i], acc);
      bad = 1;
    }
  }
  free(o);
  return bad;
}

static int check(algo_data *d, int a, double sum, char *why, size_t cap) {
  long n = d->n;
  int bad = 0;
  if (a == A_SCAN_FLOAT || a == A_SCAN_FIXED)
    return check_scan_float(d, why, cap);
  if (a == 1 || a == A_REDUCE_FIXED) {
    double want = 0, mag = 0;
    for (long i = 0; i < n; i++) {
      want += d->xf[i];
      mag += fabs(d->xf[i]);
    }
    if (bench_inject_error)
      sum += 1.0 + mag;
    if (fabs(sum - want) > 1e-5 * mag + 1e-3) {
      snprintf(why, cap, "sum %.9g, host %.9g", sum, want);
      return 1;
    }
    return 0;
  }
  if (a == 4) {
    uint32_t got[HIST_BINS], want[HIST_BINS] = {0};
    if (amp_copy_from_array(d->bins, got, sizeof got)) {
      snprintf(why, cap, "copy back: %s", amp_last_error());
      return 1;
    }
    for (long i = 0; i < n; i++)
      if (d->xu[i] < HIST_BINS)
        want[d->xu[i]]++;
    got[0] += (uint32_t)bench_inject_error;
    bad = memcmp(got, want, sizeof got) != 0;
    if (bad)
      snprintf(why, cap, "histogram differs from the host's");
    return bad;
  }
  if (a >= A_PAIRS && a <= A_UNIQUE)
    return check_new(d, a, why, cap);
  if (a == A_STENCIL2D)
    a = A_STENCIL; /* the same result, the same check */
  size_t bytes = (size_t)(a == 3 || a == 6 ? d->side * d->side : a == 5 ? d->nsort : n) * 4;
  void *out = bench_alloc(bytes);
  amp_array *src = a == 0 ? d->af2 : a == 2 ? d->ai2 : a == 5 ? d->k : d->t_out;
  if (amp_copy_from_array(src, out, bytes)) {
    snprintf(why, cap, "copy back: %s", amp_last_error());
    free(out);
    return 1;
  }
  if (bench_inject_error && a == 6)
    ((float *)out)[0] += 1.0f; /* the blur's check has a tolerance */
  else if (bench_inject_error)
    ((int32_t *)out)[0] ^= 1;
  if (a == 0) {
    bad = memcmp(out, d->xf, bytes) != 0;
  } else if (a == 2) {
    int32_t acc = 0, *o = out;
    for (long i = 0; i < n && !bad; i++) {
      acc += d->xi[i];
      bad = o[i] != acc;
    }
  } else if (a == 5) {
    bad = memcmp(out, sorted_keys(d), bytes) != 0;
  } else if (a == 6) {
    bad = check_blur(d, out);
  } else {
    float *o = out;
    long s = d->side;
    for (long i = 0; i < s && !bad; i++)
      for (long j = 0; j < s && !bad; j++)
        bad = o[j * s + i] != d->xf[i * s + j];
  }
  if (bad)
    snprintf(why, cap, "result differs from the host's");
  free(out);
  return bad;
}

/* Quotes in a note become apostrophes, so it can sit in a quoted CSV field. */
static void unquote(char *s) {
  for (; *s; s++)
    if (*s == '"')
      *s = '\'';
}

static void run_algo(bench_ctx *ctx, algo_data *d, int a, algo_row *row) {
  double sum = 0;
  amp_status s = AMP_SUCCESS;
  fprintf(stderr, "%s n=%ld ...\n", algo_names[a], d->n);
  for (int w = 0; w < ctx->warmup + 1 && s == AMP_SUCCESS; w++)
    if ((s = prepare(d, a)) == AMP_SUCCESS)
      s = run_once(ctx, d, a, &sum);
  if (s) {
    row->state = BENCH_ERROR;
    snprintf(row->note, sizeof row->note, "%s: %s", amp_status_name(s), amp_last_error());
    return;
  }
  if (check(d, a, sum, row->note, sizeof row->note)) {
    row->state = BENCH_FAILED;
    return;
  }
  for (int r = 0; r < ctx->repeats; r++) {
    if ((s = prepare(d, a)) == AMP_SUCCESS)
      s = amp_accelerator_view_wait(ctx->av);
    double t0 = bench_now_ms();
    if (s || (s = run_once(ctx, d, a, &sum))) {
      row->state = BENCH_ERROR;
      snprintf(row->note, sizeof row->note, "%s: %s", amp_status_name(s), amp_last_error());
      return;
    }
    row->ms[row->nrun++] = bench_now_ms() - t0;
  }
  /* the sorts and compactions wait between tiles: their last timed result is checked too */
  if (a >= A_SORT && a != A_STENCIL && a < A_STENCIL2D &&
      check(d, a, sum, row->note, sizeof row->note)) {
    row->state = BENCH_FAILED;
    return;
  }
  row->state = BENCH_OK;
}

int bench_algorithms(bench_ctx *ctx, const long *sizes, int nsizes, const char *csv_path) {
  static const long gpu_default[] = {1L << 28}, cpu_default[] = {1L << 20};
  if (nsizes == 0) {
    sizes = ctx->props.is_emulated ? cpu_default : gpu_default;
    nsizes = 1;
  }
  int rc = 0;
  FILE *csv = NULL;
  if (csv_path && !(csv = fopen(csv_path, "w"))) {
    fprintf(stderr, "amp-bench: cannot write %s\n", csv_path);
    return 1;
  }
  if (csv)
    fprintf(csv, "workload,impl,size,bytes,ms_median,ms_min,ms_max,gbps,gelem_per_s,vs_copy,state,"
                 "device,note\n");
  for (int si = 0; si < nsizes; si++) {
    long n = sizes[si];
    if (n < 4 || n > 0x7fffffffL) {
      fprintf(stderr, "amp-bench: --algorithms sizes must be 4 .. 2^31-1 elements (%ld)\n", n);
      rc = 2;
      break;
    }
    algo_data d;
    algo_row rows[NALGO];
    memset(rows, 0, sizeof rows);
    char why[200] = "";
    if (data_make(ctx, n, &d, why, sizeof why)) {
      fprintf(stderr, "amp-bench: setting up n=%ld: %s\n", n, why);
      data_free(&d);
      rc = 1;
      break;
    }
    for (int a = 0; a < NALGO; a++)
      if (algo_wanted(a))
        run_algo(ctx, &d, a, &rows[a]);
    double copy_gbps = 0;
    printf("\nAlgorithms on %s, device-resident data, n = %ld (transpose and stencil %ld x %ld, "
           "sort %ld keys); median of %d, end to end\n\n",
           ctx->props.device_path, n, d.side, d.side, d.nsort, ctx->repeats);
    printf("%-12s %11s %12s %10s %10s %9s %9s %9s  %s\n", "algorithm", "elements", "bytes",
           "median ms", "min ms", "GB/s", "Gelem/s", "vs copy", "check");
    for (int a = 0; a < NALGO; a++) {
      if (!algo_wanted(a))
        continue;
      algo_row *r = &rows[a];
      long elems = a == 3 || a == 6 ? d.side * d.side : a == A_SORT || a == A_PAIRS ? d.nsort : n;
      double bytes = algo_bytes_of(&d, a, elems);
      bench_stats st = {0};
      double gbps = 0, ratio = 0, geps = 0;
      if (r->state == BENCH_OK) {
        st = bench_stats_of(r->ms, r->nrun);
        gbps = bytes / (st.median * 1e6);
        geps = (double)elems / (st.median * 1e6);
        if (a == 0)
          copy_gbps = gbps;
        ratio = copy_gbps > 0 ? gbps / copy_gbps : 0;
      } else {
        rc = 1;
      }
      const char *verdict = r->state == BENCH_OK       ? "ok"
                            : r->state == BENCH_FAILED ? "FAILED"
                                                       : "ERROR";
      if (r->state == BENCH_OK)
        printf("%-12s %11ld %12.0f %10.3f %10.3f %9.1f %9.3f %9.2f  %s\n", algo_names[a], elems,
               bytes, st.median, st.min, gbps, geps, ratio, verdict);
      else
        printf("%-12s %11ld %12.0f %10s %10s %9s %9s %9s  %s: %s\n", algo_names[a], elems, bytes,
               "-", "-", "-", "-", "-", verdict, r->note);
      unquote(r->note);
      if (csv)
        fprintf(csv, "algorithms,%s,%ld,%.0f,%.4f,%.4f,%.4f,%.2f,%.4f,%.3f,%s,\"%s\",\"%s\"\n",
                algo_names[a], elems, bytes, st.median, st.min, st.max, gbps, geps, ratio, verdict,
                ctx->props.device_path, r->note);
    }
    data_free(&d);
  }
  if (csv)
    fclose(csv);
  return rc;
}
