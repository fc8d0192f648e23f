/* algo_fixed_order: the same bits every run, and with AMP_ALGO_FIXED_ORDER on every device.
 *
 *   1. amp_reduce (sum) and amp_scan (inclusive) of float and double, 100 times each (1000 on a
 *      GPU) on one input of 2^22 + 3 elements (2^20 + 3 for reduce and double): every result has
 *      the bits of the first. The .threads run does it with POCL running 16 threads on the
 * machine's cores, where the single-pass scan's look-back meets other tiles' prefixes from run to
 * run (before it added in tile order, 38 to 73 of 100 float scans there differed in their last
 * bits).
 *   2. amp_reduce_ex (sum, min, max) and amp_scan_ex (inclusive, exclusive) with
 *      AMP_ALGO_FIXED_ORDER on float and double, at sizes from 1 to 3 levels of chunks, against a
 *      host computation of the order docs/ALGORITHMS.md writes out (reduce_host, scan_host
 *      below): bit for bit, on every OpenCL device the process sees (Intel's CPU runtime beside
 *      POCL with .intel-ocl/env-both.sh), so they agree with each other too. The ctest runs take
 *      the CPU kernels and the GPU kernels (AMP_ALGO_CPU_KERNELS=0) at every tile shape
 *      (AMP_ALGO_TILE=32, 64, 128, and the default 256). The inputs span 2^-20 to 2^20 in
 *      magnitude, both signs, so that another order gives other bits (the test checks that the
 *      default order does differ somewhere, so that the comparison can fail), and hold no
 *      subnormal numbers or zeros (docs/ALGORITHMS.md: a device that flushes subnormals, and
 *      fmin / fmax of -0 and +0, may differ).
 *   3. AMP_ALGO_FIXED_ORDER=1 in the environment (the .env run): plain amp_reduce and amp_scan
 *      give the fixed order's bits. Bad flags and a bad variable are refused, naming them.
 * Under oclgrind (AMP_TEST_SMALL) 3 repeats of 5003 elements and sizes up to two levels. */
#include "algorithms/algo_check.h"

#include <stdint.h>

#define CHUNK 1024

enum { OP_SUM, OP_MIN, OP_MAX };

/* The host twin of kernels_cl/algorithms/fixed_order.cl, for T = float and double. */
#define FIXED_HOST(T, SUF, FMIN, FMAX)                                                             \
  static T op_##SUF(int op, T a, T b) {                                                            \
    return op == OP_SUM ? a + b : op == OP_MIN ? FMIN(a, b) : FMAX(a, b);                          \
  }                                                                                                \
  static T at_##SUF(const T *x, long k, long left, T id) {                                         \
    return k < left ? x[k] : id;                                                                   \
  }                                                                                                \
  /* one chunk's value: the fixed tree over 1024 elements, padded with the identity */             \
  static T chunk_##SUF(const T *x, long left, int op, T id) {                                      \
    T y[256];                                                                                      \
    for (int k = 0; k < 256; k++)                                                                  \
      y[k] =                                                                                       \
          op_##SUF(op, op_##SUF(op, at_##SUF(x, k, left, id), at_##SUF(x, k + 512, left, id)),     \
                   op_##SUF(op, at_##SUF(x, k + 256, left, id), at_##SUF(x, k + 768, left, id)));  \
    for (int s = 128; s > 0; s >>= 1)                                                              \
      for (int k = 0; k < s; k++)                                                                  \
        y[k] = op_##SUF(op, y[k], y[k + s]);                                                       \
    return y[0];                                                                                   \
  }                                                                                                \
  static T reduce_host_##SUF(const T *x, long n, int op, T id) {                                   \
    T *cur = malloc((size_t)n * sizeof *cur);                                                      \
    memcpy(cur, x, (size_t)n * sizeof *cur);                                                       \
    long len = n;                                                                                  \
    do {                                                                                           \
      long chunks = len / CHUNK + (len % CHUNK != 0);                                              \
      for (long c = 0; c < chunks; c++)                                                            \
        cur[c] = chunk_##SUF(cur + c * CHUNK, len - c * CHUNK, op, id);                            \
      len = chunks;                                                                                \
    } while (len > 1);                                                                             \
    T r = cur[0];                                                                                  \
    free(cur);                                                                                     \
    return r;                                                                                      \
  }                                                                                                \
  static void scan_host_##SUF(const T *x, T *out, long n, int inclusive) {                         \
    long chunks = n / CHUNK + (n % CHUNK != 0);                                                    \
    T *carries = NULL;                                                                             \
    if (chunks > 1) {                                                                              \
      T *sums = malloc((size_t)chunks * sizeof *sums);                                             \
      carries = malloc((size_t)chunks * sizeof *carries);                                          \
      for (long c = 0; c < chunks; c++)                                                            \
        sums[c] = chunk_##SUF(x + c * CHUNK, n - c * CHUNK, OP_SUM, 0);                            \
      scan_host_##SUF(sums, carries, chunks, 0);                                                   \
      free(sums);                                                                                  \
    }                                                                                              \
    for (long c = 0; c < chunks; c++) {                                                            \
      const T *xc = x + c * CHUNK;                                                                 \
      long left = n - c * CHUNK;                                                                   \
      T s[256], t[256], r[256][4];                                                                 \
      for (int q = 0; q < 256; q++) {                                                              \
        T acc = 0;                                                                                 \
        for (int j = 0; j < 4; j++) {                                                              \
          T v = at_##SUF(xc, 4 * q + j, left, 0);                                                  \
          acc = j == 0 ? v : acc + v;                                                              \
          r[q][j] = acc;                                                                           \
        }                                                                                          \
        s[q] = acc;                                                                                \
      }                                                                                            \
      for (int off = 1; off < 256; off <<= 1) {                                                    \
        for (int q = 0; q < 256; q++)                                                              \
          t[q] = q >= off ? s[q - off] + s[q] : s[q];                                              \
        memcpy(s, t, sizeof s);                                                                    \
      }                                                                                            \
      T carry = carries ? carries[c] : 0;                                                          \
      for (int q = 0; q < 256 && 4 * q < left; q++) {                                              \
        T base = q == 0 ? carry : carry + s[q - 1];                                                \
        for (int j = 0; j < 4 && 4 * q + j < left; j++)                                            \
          out[c * CHUNK + 4 * q + j] = inclusive ? base + r[q][j]                                  \
                                       : j == 0  ? base                                            \
                                                 : base + r[q][j - 1];                              \
      }                                                                                            \
    }                                                                                              \
    free(carries);                                                                                 \
  }
FIXED_HOST(float, f, fminf, fmaxf)
FIXED_HOST(double, d, fmin, fmax)

/* Values m * 2^e, m in [1, 2), e in [-20, 20], either sign: no zeros, no subnormals. */
static double value(uint32_t i) {
  uint32_t h = i * 2654435761u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  double m = 1.0 + (h & 0xffff) / 65536.0;
  int e = (int)((h >> 16) % 41) - 20;
  return ((h >> 31) ? -m : m) * ldexp(1.0, e);
}

static amp_elem_type type_of(int dbl) {
  return dbl ? AMP_DOUBLE : AMP_FLOAT;
}

/* 1: the default order gives the same bits on every one of `reps` runs. */
static void check_repeats(amp_accelerator_view *av, int dbl, long n, int reps, int scan) {
  size_t es = dbl ? 8 : 4;
  unsigned char *x = malloc((size_t)n * es), *y = malloc((size_t)n * es),
                *first = malloc((size_t)n * es);
  for (long i = 0; i < n; i++) {
    if (dbl)
      ((double *)x)[i] = value((uint32_t)i);
    else
      ((float *)x)[i] = (float)value((uint32_t)i);
  }
  amp_array_view *vx = NULL, *vy = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1((int)n), type_of(dbl), x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1((int)n), type_of(dbl), y, &vy));
  int differ = 0;
  for (int r = 0; r < reps && vx && vy; r++) {
    double out[1] = {0};
    if (scan) {
      CHECK_OK(amp_scan(av, vx, vy, AMP_SCAN_INCLUSIVE));
      CHECK_OK(amp_array_view_synchronize(vy));
    } else {
      CHECK_OK(amp_reduce(av, vx, AMP_REDUCE_SUM, out));
      memcpy(y, out, es);
    }
    size_t bytes = scan ? (size_t)n * es : es;
    if (r == 0)
      memcpy(first, y, bytes);
    else
      differ += memcmp(first, y, bytes) != 0;
  }
  if (differ)
    fprintf(stderr, "%s of %ld %s: %d of %d runs differ from the first\n",
            scan ? "amp_scan" : "amp_reduce", n, dbl ? "doubles" : "floats", differ, reps);
  CHECK_EQ_INT(differ, 0);
  RELEASE_VIEWS(vx, vy);
  FREE_ALL(x, y, first);
}

/* 2: the fixed order against the host, bit for bit. *other: the default order differed. */
static void check_fixed(amp_accelerator_view *av, const char *dev, int dbl, long n, int *other) {
  size_t es = dbl ? 8 : 4;
  unsigned char *x = malloc((size_t)n * es), *y = malloc((size_t)n * es),
                *want = malloc((size_t)n * es);
  for (long i = 0; i < n; i++) {
    if (dbl)
      ((double *)x)[i] = value((uint32_t)(i + 7 * n));
    else
      ((float *)x)[i] = (float)value((uint32_t)(i + 7 * n));
  }
  amp_array_view *vx = NULL, *vy = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1((int)n), type_of(dbl), x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1((int)n), type_of(dbl), y, &vy));
  static const amp_reduce_op ops[] = {AMP_REDUCE_SUM, AMP_REDUCE_MIN, AMP_REDUCE_MAX};
  for (int o = 0; o < 3 && vx && vy; o++) {
    union {
      float f;
      double d;
    } got = {0}, dflt = {0};
    CHECK_OK(amp_reduce_ex(av, vx, ops[o], AMP_ALGO_FIXED_ORDER, &got));
    int same;
    if (dbl) {
      double w = reduce_host_d((const double *)x, n, o, o == 0 ? 0 : o == 1 ? INFINITY : -INFINITY);
      same = memcmp(&got.d, &w, 8) == 0;
      if (!same)
        fprintf(stderr, "%s: reduce op %d of %ld doubles: %.17g, host %.17g\n", dev, o, n, got.d,
                w);
    } else {
      float w = reduce_host_f((const float *)x, n, o, o == 0 ? 0 : o == 1 ? INFINITY : -INFINITY);
      same = memcmp(&got.f, &w, 4) == 0;
      if (!same)
        fprintf(stderr, "%s: reduce op %d of %ld floats: %.9g, host %.9g\n", dev, o, n, got.f, w);
    }
    CHECK(same);
    if (o == 0 && amp_reduce_ex(av, vx, ops[o], 0, &dflt) == AMP_SUCCESS)
      *other += memcmp(&got, &dflt, es) != 0;
  }
  for (int inclusive = 0; inclusive < 2 && vx && vy; inclusive++) {
    CHECK_OK(amp_array_view_discard_data(vy));
    CHECK_OK(amp_scan_ex(av, vx, vy, inclusive ? AMP_SCAN_INCLUSIVE : AMP_SCAN_EXCLUSIVE,
                         AMP_ALGO_FIXED_ORDER));
    CHECK_OK(amp_array_view_synchronize(vy));
    if (dbl)
      scan_host_d((const double *)x, (double *)want, n, inclusive);
    else
      scan_host_f((const float *)x, (float *)want, n, inclusive);
    long bad = -1;
    for (long i = 0; i < n && bad < 0; i++)
      if (memcmp(y + (size_t)i * es, want + (size_t)i * es, es) != 0)
        bad = i;
    if (bad >= 0)
      fprintf(stderr, "%s: %s scan of %ld %s: element %ld is %.17g, host %.17g\n", dev,
              inclusive ? "inclusive" : "exclusive", n, dbl ? "doubles" : "floats", bad,
              dbl ? ((double *)y)[bad] : ((float *)y)[bad],
              dbl ? ((double *)want)[bad] : ((float *)want)[bad]);
    CHECK(bad < 0);
    if (inclusive && n > 100000) { /* the default order gives other bits somewhere */
      CHECK_OK(amp_scan(av, vx, vy, AMP_SCAN_INCLUSIVE));
      CHECK_OK(amp_array_view_synchronize(vy));
      *other += memcmp(y, want, (size_t)n * es) != 0;
    }
  }
  RELEASE_VIEWS(vx, vy);
  FREE_ALL(x, y, want);
}

/* 3: with AMP_ALGO_FIXED_ORDER=1 set, plain amp_reduce and amp_scan take the fixed order. */
static void check_env(amp_accelerator_view *av) {
  long n = 300001;
  float *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4), *want = malloc((size_t)n * 4);
  for (long i = 0; i < n; i++)
    x[i] = (float)value((uint32_t)i);
  amp_array_view *vx = NULL, *vy = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1((int)n), AMP_FLOAT, x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1((int)n), AMP_FLOAT, y, &vy));
  float got = 0, w = reduce_host_f(x, n, OP_SUM, 0);
  CHECK_OK(amp_reduce(av, vx, AMP_REDUCE_SUM, &got));
  CHECK(memcmp(&got, &w, 4) == 0);
  CHECK_OK(amp_reduce_custom(av, vx, "T amp_reduce_op(T a, T b) { return a + b; }", "0", &got));
  CHECK(memcmp(&got, &w, 4) == 0);
  CHECK_OK(amp_scan(av, vx, vy, AMP_SCAN_INCLUSIVE));
  CHECK_OK(amp_array_view_synchronize(vy));
  scan_host_f(x, want, n, 1);
  CHECK(memcmp(y, want, (size_t)n * 4) == 0);
  RELEASE_VIEWS(vx, vy);
  FREE_ALL(x, y, want);
}

/* In place, and a section that starts off a vector boundary. */
static void check_views(amp_accelerator_view *av) {
  enum { N = 5003 };
  static float x[N + 3], want[N];
  for (int i = 0; i < N + 3; i++)
    x[i] = (float)value((uint32_t)i);
  scan_host_f(x + 3, want, N, 0);
  amp_array_view *whole = NULL, *sec = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N + 3), AMP_FLOAT, x, &whole));
  CHECK_OK(amp_array_view_section(whole, amp_index1(3), amp_extent1(N), &sec));
  if (sec) {
    float r = 0, w = reduce_host_f(x + 3, N, OP_SUM, 0);
    CHECK_OK(amp_reduce_ex(av, sec, AMP_REDUCE_SUM, AMP_ALGO_FIXED_ORDER, &r));
    CHECK(memcmp(&r, &w, 4) == 0);
    CHECK_OK(amp_scan_ex(av, sec, sec, AMP_SCAN_EXCLUSIVE, AMP_ALGO_FIXED_ORDER));
    CHECK_OK(amp_array_view_synchronize(whole));
    CHECK(memcmp(x + 3, want, sizeof want) == 0);
  }
  RELEASE_VIEWS(sec, whole);
}

int main(void) {
  REQUIRE_TEST_DEVICE_VIEW(av);
  if (test_env_set("AMP_ALGO_FIXED_ORDER")) {
    check_env(av);
    return check_done();
  }
  amp_accelerator_properties props;
  REQUIRE_OK(test_props(av, &props));
  int dbl = props.supports_double_precision, small = test_small();
  int reps = small ? 3 : test_full() ? 1000 : 100; /* 1000 on a GPU; oclgrind: a few, small */
  long big = small ? 5003 : (1L << 22) + 3, mid = small ? 5003 : (1L << 20) + 3;
  check_repeats(av, 0, big, reps, 1);
  check_repeats(av, 0, mid, reps, 0);
  if (dbl) {
    check_repeats(av, 1, mid, reps, 1);
    check_repeats(av, 1, mid, reps, 0);
  }
  /* every OpenCL device the process sees, each against the host; 1 to 3 levels of chunks */
  static const long sizes[] = {1, 5, 1024, 1025, 4099, 200003, (1L << 20) + 1025};
  const size_t nsizes = small ? 5 : sizeof sizes / sizeof sizes[0];
  size_t count = 0;
  REQUIRE_OK(amp_accelerator_count(&count));
  int devices = 0, other = 0;
  for (size_t i = 0; i < count; i++) {
    amp_accelerator *acc = NULL;
    amp_accelerator_view *v = NULL;
    amp_accelerator_properties p;
    if (amp_accelerator_get(i, &acc) != AMP_SUCCESS ||
        amp_accelerator_get_properties(acc, &p) != AMP_SUCCESS || p.is_host)
      continue;
    REQUIRE_OK(amp_accelerator_default_view(acc, &v));
    printf("%s\n", p.device_path);
    devices++;
    for (size_t s = 0; s < nsizes; s++) {
      check_fixed(v, p.device_path, 0, sizes[s], &other);
      if (p.supports_double_precision)
        check_fixed(v, p.device_path, 1, sizes[s], &other);
    }
  }
  CHECK(devices > 0);
  CHECK(small || other > 0); /* the comparison can fail: the default order is another */
  check_views(av);
  /* bad flags, bad variable */
  amp_array_view *v1 = NULL;
  float one = 1.0f, r = 0.0f;
  REQUIRE_OK(amp_array_view_create(amp_extent1(1), AMP_FLOAT, &one, &v1));
  CHECK_STATUS(amp_reduce_ex(av, v1, AMP_REDUCE_SUM, 6u, &r), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("0x6");
  CHECK_STATUS(amp_scan_ex(av, v1, v1, AMP_SCAN_INCLUSIVE, 2u), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_ALGO_FIXED_ORDER");
  setenv("AMP_ALGO_FIXED_ORDER", "yes", 1);
  CHECK_STATUS(amp_reduce(av, v1, AMP_REDUCE_SUM, &r), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_ALGO_FIXED_ORDER=yes");
  unsetenv("AMP_ALGO_FIXED_ORDER");
  amp_array_view_release(v1);
  return check_done();
}
