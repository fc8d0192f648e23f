/* kernel_math_accuracy: every fast_math_* and precise_math_* function of the prelude, on the
 * default accelerator, against the host's double-precision libm, held to the bounds ampcl states
 * in docs/KERNELS.md ("How accurate the math is"):
 *
 *   precise_math_*  OpenCL's full-profile bounds for float (exp, exp2, exp10, log, log2, log10:
 *                   3 ulp; sqrt 3; rsqrt 2; sin, cos 4; tan 5; pow, powr 16) over each function's
 *                   whole finite range;
 *   fast_math_*     ampcl's fast bound (pow: x > 0 as powr, and x < 0 with whole exponents): at
 * most 2^-16 relative error where the result is a normal float (2^-16 absolute where the result is
 * below 1 in magnitude, for log* near 1 and for sin, cos and tan), over the domains the table
 * states (sin, cos, tan on [-pi, pi]).
 *
 * Each function runs over 4096 points spread over its domain (exponents evenly, mantissas from a
 * fixed pseudo-random sequence) plus its edge points. `test_kernel_math_accuracy report` prints
 * each function's largest error in ulp and relative or absolute terms, which is how the table in
 * docs/KERNELS.md was measured. The runtime measures each device's native_* functions on points
 * of its own the first time a program uses fast_math_* there (runtime/exec/math_accuracy.c) and
 * maps each that misses half the bound to the precise built-in, so this test, on other points,
 * checks that choice on every implementation and CPU: no implementation is known by name. */
#include "check.h"

#include <float.h>

enum { POINTS = 4096 };

typedef struct {
  const char *name; /* as written in a kernel */
  int code;         /* the kernel's switch */
  int two_args;     /* pow, powr, divide */
  double (*ref)(double, double);
  double lo, hi;     /* the domain of x (log-spaced when lo > 0) */
  double ylo, yhi;   /* the domain of y (two-argument functions) */
  double ulp_bound;  /* > 0: an ulp bound (precise) */
  int fast;          /* 1: the fast bound */
  int abs_below_one; /* fast: absolute error where |result| < 1 */
} fn_spec;

/* The host's reference of a function of one argument (y unused), as double. */
#define UNARY_REF(name, expr)                                                                      \
  static double name(double x, double y) {                                                         \
    (void)y;                                                                                       \
    return expr;                                                                                   \
  }
UNARY_REF(r_exp, exp(x))
UNARY_REF(r_exp2, exp2(x))
UNARY_REF(r_exp10, pow(10.0, x))
UNARY_REF(r_log, log(x))
UNARY_REF(r_log2, log2(x))
UNARY_REF(r_log10, log10(x))
UNARY_REF(r_sqrt, sqrt(x))
UNARY_REF(r_rsqrt, 1.0 / sqrt(x))
UNARY_REF(r_recip, 1.0 / x)
UNARY_REF(r_sin, sin(x))
UNARY_REF(r_cos, cos(x))
UNARY_REF(r_tan, tan(x))
static double r_pow(double x, double y) {
  return pow(x, y);
}
/* pow with a whole exponent (what negative x needs); the kernel rounds y the same way */
static double r_pow_whole(double x, double y) {
  return pow(x, nearbyint(y));
}
static double r_divide(double x, double y) {
  return x / y;
}

#define PI 3.14159265358979
/* clang-format off */
static const fn_spec specs[] = {
  /* name                code 2 ref      x from   to        y from  to   ulp fast abs<1 */
  {"precise_math_exp",    0, 0, r_exp,    -87.0,   88.0,     0, 0,     3, 0, 0},
  {"precise_math_exp2",   1, 0, r_exp2,   -126.0,  127.0,    0, 0,     3, 0, 0},
  {"precise_math_exp10",  2, 0, r_exp10,  -37.0,   38.0,     0, 0,     3, 0, 0},
  {"precise_math_log",    3, 0, r_log,    1e-37,   1e38,     0, 0,     3, 0, 0},
  {"precise_math_log2",   4, 0, r_log2,   1e-37,   1e38,     0, 0,     3, 0, 0},
  {"precise_math_log10",  5, 0, r_log10,  1e-37,   1e38,     0, 0,     3, 0, 0},
  {"precise_math_sqrt",   6, 0, r_sqrt,   1e-37,   1e38,     0, 0,     3, 0, 0},
  {"precise_math_rsqrt",  7, 0, r_rsqrt,  1e-37,   1e38,     0, 0,     2, 0, 0},
  {"precise_math_sin",    8, 0, r_sin,    -1e4,    1e4,      0, 0,     4, 0, 0},
  {"precise_math_cos",    9, 0, r_cos,    -1e4,    1e4,      0, 0,     4, 0, 0},
  {"precise_math_tan",   10, 0, r_tan,    -1e4,    1e4,      0, 0,     5, 0, 0},
  {"precise_math_pow",   11, 1, r_pow,    1e-3,    1e3,      -12, 12, 16, 0, 0},
  {"precise_math_powr",  12, 1, r_pow,    1e-3,    1e3,      -12, 12, 16, 0, 0},
  {"fast_math_exp",      20, 0, r_exp,    -87.0,   88.0,     0, 0,     0, 1, 0},
  {"fast_math_exp2",     21, 0, r_exp2,   -126.0,  127.0,    0, 0,     0, 1, 0},
  {"fast_math_exp10",    22, 0, r_exp10,  -37.0,   38.0,     0, 0,     0, 1, 0},
  {"fast_math_log",      23, 0, r_log,    1e-37,   1e38,     0, 0,     0, 1, 1},
  {"fast_math_log2",     24, 0, r_log2,   1e-37,   1e38,     0, 0,     0, 1, 1},
  {"fast_math_log10",    25, 0, r_log10,  1e-37,   1e38,     0, 0,     0, 1, 1},
  {"fast_math_sqrt",     26, 0, r_sqrt,   1e-37,   1e38,     0, 0,     0, 1, 0},
  {"fast_math_rsqrt",    27, 0, r_rsqrt,  1e-37,   1e38,     0, 0,     0, 1, 0},
  {"fast_math_recip",    28, 0, r_recip,  1e-37,   1e37,     0, 0,     0, 1, 0},
  {"fast_math_sin",      29, 0, r_sin,    -PI,     PI,       0, 0,     0, 1, 1},
  {"fast_math_cos",      30, 0, r_cos,    -PI,     PI,       0, 0,     0, 1, 1},
  {"fast_math_tan",      31, 0, r_tan,    -1.5,    1.5,      0, 0,     0, 1, 1},
  {"fast_math_powr",     32, 1, r_pow,    1e-3,    1e3,      -12, 12,  0, 1, 0},
  {"fast_math_divide",   33, 1, r_divide, 1e-18,   1e18,     1e-18, 1e18, 0, 1, 0},
  {"fast_math_pow",      34, 1, r_pow,    1e-3,    1e3,      -12, 12,  0, 1, 0},
  {"fast_math_pow (x<0)",35, 1, r_pow_whole, -1e3, -1e-3,    -12, 12,  0, 1, 0},
};
/* clang-format on */
#define NSPECS (sizeof specs / sizeof specs[0])

static const char *src =
    "__kernel void eval(AMP_CONST_VIEW(float, xs), AMP_CONST_VIEW(float, ys),\n"
    "                   AMP_VIEW(float, out), int fn) {\n"
    "  AMP_INDEX1(i);\n"
    "  float x = amp_at(xs, i[0]), y = amp_at(ys, i[0]), r = 0.0f;\n"
    "  switch (fn) {\n"
    "  case 0: r = precise_math_exp(x); break;\n"
    "  case 1: r = precise_math_exp2(x); break;\n"
    "  case 2: r = precise_math_exp10(x); break;\n"
    "  case 3: r = precise_math_log(x); break;\n"
    "  case 4: r = precise_math_log2(x); break;\n"
    "  case 5: r = precise_math_log10(x); break;\n"
    "  case 6: r = precise_math_sqrt(x); break;\n"
    "  case 7: r = precise_math_rsqrt(x); break;\n"
    "  case 8: r = precise_math_sin(x); break;\n"
    "  case 9: r = precise_math_cos(x); break;\n"
    "  case 10: r = precise_math_tan(x); break;\n"
    "  case 11: r = precise_math_pow(x, y); break;\n"
    "  case 12: r = precise_math_powr(x, y); break;\n"
    "  case 20: r = fast_math_exp(x); break;\n"
    "  case 21: r = fast_math_exp2(x); break;\n"
    "  case 22: r = fast_math_exp10(x); break;\n"
    "  case 23: r = fast_math_log(x); break;\n"
    "  case 24: r = fast_math_log2(x); break;\n"
    "  case 25: r = fast_math_log10(x); break;\n"
    "  case 26: r = fast_math_sqrt(x); break;\n"
    "  case 27: r = fast_math_rsqrt(x); break;\n"
    "  case 28: r = fast_math_recip(x); break;\n"
    "  case 29: r = fast_math_sin(x); break;\n"
    "  case 30: r = fast_math_cos(x); break;\n"
    "  case 31: r = fast_math_tan(x); break;\n"
    "  case 32: r = fast_math_powr(x, y); break;\n"
    "  case 33: r = fast_math_divide(x, y); break;\n"
    "  case 34: r = fast_math_pow(x, y); break;\n"
    "  case 35: r = fast_math_pow(x, rint(y)); break;\n"
    "  }\n"
    "  amp_at(out, i[0]) = r;\n"
    "}\n";

/* A fixed pseudo-random sequence in [0, 1). */
static double next_unit(unsigned *state) {
  *state = *state * 1664525u + 1013904223u;
  return (double)(*state >> 8) / 16777216.0;
}

/* Point k of n over [lo, hi]: evenly in the exponent where lo > 0 (so each binade is visited),
 * evenly otherwise; jittered within its slot. Ends are included. */
static double point(double lo, double hi, int k, int n, unsigned *state) {
  double t = k == 0 ? 0.0 : k == n - 1 ? 1.0 : ((double)k + next_unit(state)) / (double)n;
  if (lo > 0)
    return exp(log(lo) + t * (log(hi) - log(lo)));
  return lo + t * (hi - lo);
}

/* The spacing of floats at the magnitude of `ref` (a normal float's ulp). */
static double float_ulp(double ref) {
  double a = fabs((double)(float)ref);
  if (a < FLT_MIN)
    return ldexp(1.0, -149);
  int e;
  frexp(a, &e);
  return ldexp(1.0, e - 24);
}

typedef struct {
  double max_ulp, max_rel, max_abs_small; /* the worst of each measure */
  double worst_x, worst_y;
  int failures;
} fn_result;

static fn_result measure(const fn_spec *s, const float *x, const float *y, const float *got,
                         int n) {
  fn_result r = {0, 0, 0, 0, 0, 0};
  const double fast_bound = ldexp(1.0, -16);
  for (int i = 0; i < n; i++) {
    double ref = s->ref((double)x[i], (double)y[i]);
    if (!isfinite(ref) || fabs(ref) > FLT_MAX || (ref != 0 && fabs(ref) < FLT_MIN))
      continue; /* outside float's normal range: no bound is stated there */
    double err = fabs((double)got[i] - ref);
    if (isnan(got[i]))
      err = INFINITY;
    double ulps = err / float_ulp(ref), rel = ref != 0 ? err / fabs(ref) : err;
    int ok;
    if (!s->fast) {
      ok = ulps <= s->ulp_bound;
    } else if (s->abs_below_one && fabs(ref) < 1.0) {
      ok = err <= fast_bound;
      if (err > r.max_abs_small)
        r.max_abs_small = err;
    } else {
      ok = rel <= fast_bound;
    }
    if (!(s->fast && s->abs_below_one && fabs(ref) < 1.0) && rel > r.max_rel)
      r.max_rel = rel;
    if (ulps > r.max_ulp) {
      r.max_ulp = ulps;
      r.worst_x = x[i];
      r.worst_y = y[i];
    }
    if (!ok && r.failures++ < 3)
      fprintf(stderr, "  %s(%.9g%s%.9g) = %.9g, reference %.9g: %.3g ulp, %.3g relative\n", s->name,
              (double)x[i], s->two_args ? ", " : "", s->two_args ? (double)y[i] : 0.0,
              (double)got[i], ref, ulps, rel);
  }
  return r;
}

int main(int argc, char **argv) {
  const int report = argc > 1 && strcmp(argv[1], "report") == 0;
  REQUIRE_VIEW(av);
  amp_accelerator_properties props;
  REQUIRE_OK(test_props(av, &props));
  printf("%s (%s)\n", props.device_path, props.description);
  amp_kernel *k = test_kernel(src, NULL, "eval");
  if (!k)
    return check_done();
  float *x = malloc(POINTS * sizeof(float)), *y = malloc(POINTS * sizeof(float));
  float *out = malloc(POINTS * sizeof(float));
  REQUIRE_OK(x && y && out ? AMP_SUCCESS : AMP_ERROR_OUT_OF_MEMORY);
  printf("%-20s %12s %12s %12s  %s\n", "function", "max ulp", "max rel", "abs (|r|<1)", "worst at");
  for (size_t f = 0; f < NSPECS; f++) {
    const fn_spec *s = &specs[f];
    unsigned state = 12345u + (unsigned)f;
    for (int i = 0; i < POINTS; i++) {
      x[i] = (float)point(s->lo, s->hi, i, POINTS, &state);
      /* y: its own sequence over its domain, so (x, y) pairs cover the plane */
      y[i] = s->two_args ? (float)point(s->ylo, s->yhi, (i * 61) % POINTS, POINTS, &state) : 0;
      out[i] = NAN;
    }
    amp_array_view *vx = NULL, *vy = NULL, *vo = NULL;
    CHECK_OK(amp_array_view_create_const(amp_extent1(POINTS), AMP_FLOAT, x, &vx));
    CHECK_OK(amp_array_view_create_const(amp_extent1(POINTS), AMP_FLOAT, y, &vy));
    CHECK_OK(amp_array_view_create(amp_extent1(POINTS), AMP_FLOAT, out, &vo));
    amp_arg args[] = {amp_arg_view(vx), amp_arg_view(vy), amp_arg_view(vo), amp_arg_int(s->code)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(POINTS), k, args, AMP_NARGS(args)));
    CHECK_OK(amp_array_view_synchronize(vo));
    amp_array_view_release(vx);
    amp_array_view_release(vy);
    amp_array_view_release(vo);
    fn_result r = measure(s, x, y, out, POINTS);
    printf("%-20s %12.3g %12.3g %12.3g  x=%.9g%s\n", s->name, r.max_ulp, r.max_rel, r.max_abs_small,
           r.worst_x, s->two_args ? " (two arguments)" : "");
    if (!report) {
      if (r.failures)
        fprintf(stderr, "%s: %d of %d points outside ampcl's bound (docs/KERNELS.md)\n", s->name,
                r.failures, POINTS);
      CHECK(r.failures == 0);
    }
  }
  free(x);
  free(y);
  free(out);
  amp_kernel_release(k);
  return check_done();
}
