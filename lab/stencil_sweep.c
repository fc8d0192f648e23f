/* lab/stencil_sweep.c -> stencil-sweep: amp_gaussian_blur (sigma 1: 7 x 7) and amp_stencil_2d
 * (the same weights, general path) on a side x side float image on the default accelerator, for
 * each variant given on the command line, beside the device copy of the same bytes in the same
 * run (issue 35, target 3). Unlike the other probes it links ampcl: the variants are the
 * stencil's environment knobs (runtime/algorithms/stencil.c), set before each variant's calls,
 * so one process sweeps them all.
 *
 *   stencil-sweep [--side N] [--repeats R] [--csv FILE] VARIANT...
 *
 * A VARIANT is "default" (no knob set) or knobs separated by commas, e.g.
 * "AMP_STENCIL_ROWS=64,AMP_STENCIL_TX=128". Every knob of the list below is unset before each
 * variant. Times are wall clock from the call to the result complete on the device (as amp-bench
 * --algorithms measures), median and fastest of R after one untimed run; the copy is timed the
 * same way before the first and after the last variant, and the ratio is the copy's median over
 * the variant's (both move 8 bytes per pixel). Each variant's results are checked against a host
 * computation in double at every 997th pixel and along the four edges; a wrong result marks the
 * row FAILED and the exit status 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ampcl.h>

#define MAX_REPEATS 50
static const char *const knobs[] = {"AMP_STENCIL_COLUMNS", "AMP_STENCIL_ROWS",    "AMP_STENCIL_TX",
                                    "AMP_STENCIL_TY",      "AMP_STENCIL_ALIGNED", "AMP_STENCIL_OY",
                                    "AMP_STENCIL_RING",    "AMP_STENCIL_PREFETCH"};

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct {
  amp_accelerator_view *av;
  amp_array *in, *out;
  amp_array_view *vin, *vout, *vw;
  long side;
  int repeats;
} sweep;

/* what: 0 copy, 1 blur, 2 stencil_2d; one run, complete on the device. */
static amp_status run_once(sweep *s, int what) {
  amp_status st;
  if (what == 0)
    st = amp_copy_array(s->in, s->out);
  else if (what == 1)
    st = amp_gaussian_blur(s->av, s->vin, s->vout, 1.0f);
  else
    st = amp_stencil_2d(s->av, s->vin, s->vout, s->vw);
  return st == AMP_SUCCESS ? amp_accelerator_view_wait(s->av) : st;
}

/* Median and fastest of s->repeats runs after one untimed run; nonzero on an error. */
static int time_it(sweep *s, int what, double *median, double *fastest) {
  double ms[MAX_REPEATS];
  if (run_once(s, what) != AMP_SUCCESS)
    return 1;
  for (int r = 0; r < s->repeats; r++) {
    double t0 = now_ms();
    if (run_once(s, what) != AMP_SUCCESS)
      return 1;
    ms[r] = now_ms() - t0;
  }
  qsort(ms, (size_t)s->repeats, sizeof ms[0], cmp_double);
  *median =
      s->repeats % 2 ? ms[s->repeats / 2] : (ms[s->repeats / 2 - 1] + ms[s->repeats / 2]) / 2.0;
  *fastest = ms[0];
  return 0;
}

static long clampl(long v, long lo, long hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* The 7 x 7 result at pixel (i, j) in double. */
static double want_at(const float *x, long n, long i, long j, const float *w) {
  double sum = 0;
  for (int a = -3; a <= 3; a++)
    for (int b = -3; b <= 3; b++)
      sum +=
          (double)w[(a + 3) * 7 + b + 3] * x[clampl(i + a, 0, n - 1) * n + clampl(j + b, 0, n - 1)];
  return sum;
}

static int check_pixel(const sweep *s, const float *x, const float *y, const float *w, long i,
                       long j, char *why, size_t cap) {
  double want = want_at(x, s->side, i, j, w), got = y[i * s->side + j];
  if (fabs(got - want) <= 1e-5)
    return 0;
  snprintf(why, cap, "pixel (%ld, %ld) is %.9g, the host's %.9g", i, j, got, want);
  return 1;
}

/* Copies the result back and compares the sample; nonzero when a pixel is off by more than 1e-5.
 */
static int check(sweep *s, const float *x, float *y, const float *w, char *why, size_t cap) {
  long n = s->side;
  if (amp_copy_from_array(s->out, y, (size_t)(n * n) * sizeof *y) != AMP_SUCCESS) {
    snprintf(why, cap, "copy back: %s", amp_last_error());
    return 1;
  }
  for (long p = 0; p < n * n; p += 997)
    if (check_pixel(s, x, y, w, p / n, p % n, why, cap))
      return 1;
  for (long k = 0; k < n; k++)
    if (check_pixel(s, x, y, w, k, 0, why, cap) || check_pixel(s, x, y, w, k, n - 1, why, cap) ||
        check_pixel(s, x, y, w, 0, k, why, cap) || check_pixel(s, x, y, w, n - 1, k, why, cap))
      return 1;
  return 0;
}

/* Sets the variant's knobs ("default": none), after unsetting every knob. */
static int set_variant(const char *v) {
  for (size_t k = 0; k < sizeof knobs / sizeof knobs[0]; k++)
    unsetenv(knobs[k]);
  if (!strcmp(v, "default"))
    return 0;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", v);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    char *eq = strchr(tok, '=');
    if (!eq)
      return 1;
    *eq = '\0';
    if (setenv(tok, eq + 1, 1))
      return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  sweep s = {.side = 16384, .repeats = 9};
  const char *csv_path = NULL;
  int first = 1;
  for (; first < argc && !strncmp(argv[first], "--", 2); first++) {
    if (first + 1 >= argc)
      break;
    if (!strcmp(argv[first], "--side"))
      s.side = atol(argv[++first]);
    else if (!strcmp(argv[first], "--repeats"))
      s.repeats = atoi(argv[++first]);
    else if (!strcmp(argv[first], "--csv"))
      csv_path = argv[++first];
    else
      break;
  }
  if (first >= argc || s.side < 1 || s.side > 46340 || s.repeats < 1 || s.repeats > MAX_REPEATS) {
    fprintf(stderr,
            "usage: stencil-sweep [--side 1..46340] [--repeats 1..%d] [--csv FILE] "
            "VARIANT... (\"default\" or KNOB=V,KNOB=V)\n",
            MAX_REPEATS);
    return 2;
  }
  long n = s.side;
  size_t bytes = (size_t)(n * n) * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), w[49];
  if (!x || !y) {
    fprintf(stderr, "stencil-sweep: out of host memory\n");
    return 1;
  }
  uint32_t h = 42;
  for (long p = 0; p < n * n; p++) {
    h = h * 1664525u + 1013904223u;
    x[p] = (float)(h >> 8) / 16777216.0f;
  }
  double total2 = 0;
  for (int a = -3; a <= 3; a++)
    for (int b = -3; b <= 3; b++)
      total2 += exp(-(a * a + b * b) / 2.0);
  for (int a = -3; a <= 3; a++)
    for (int b = -3; b <= 3; b++)
      w[(a + 3) * 7 + b + 3] = (float)(exp(-(a * a + b * b) / 2.0) / total2);
  amp_accelerator *acc = NULL;
  amp_accelerator_properties props;
  amp_extent e = amp_extent2((int)n, (int)n);
  if (amp_accelerator_get_default(&acc) || amp_accelerator_get_properties(acc, &props) ||
      amp_accelerator_default_view(acc, &s.av) ||
      amp_array_create_from(s.av, e, AMP_FLOAT, x, &s.in) ||
      amp_array_create(s.av, e, AMP_FLOAT, &s.out) || amp_array_view_of(s.in, &s.vin) ||
      amp_array_view_of(s.out, &s.vout) ||
      amp_array_view_create_const(amp_extent2(7, 7), AMP_FLOAT, w, &s.vw)) {
    fprintf(stderr, "stencil-sweep: setting up: %s\n", amp_last_error());
    return 1;
  }
  FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
  if (csv_path && !csv) {
    fprintf(stderr, "stencil-sweep: cannot write %s\n", csv_path);
    return 1;
  }
  if (csv)
    fprintf(csv, "variant,workload,side,ms_median,ms_min,vs_copy,state,device,note\n");
  int rc = 0;
  double copy_ms = 0, copy_min = 0, copy2 = 0, copy2_min = 0;
  if (time_it(&s, 0, &copy_ms, &copy_min)) {
    fprintf(stderr, "stencil-sweep: copy: %s\n", amp_last_error());
    return 1;
  }
  printf("stencil-sweep on %s: %ld x %ld floats, median of %d, end to end\n", props.device_path, n,
         n, s.repeats);
  printf("copy (before): median %.3f ms, min %.3f ms, %.1f GB/s\n\n", copy_ms, copy_min,
         2.0 * (double)bytes / (copy_ms * 1e6));
  printf("%-64s %-10s %9s %9s %8s  %s\n", "variant", "workload", "median", "min", "vs copy",
         "check");
  for (int v = first; v < argc; v++) {
    for (int what = 1; what <= 2; what++) {
      const char *wname = what == 1 ? "blur" : "stencil_2d";
      double med = 0, mn = 0;
      char why[256] = "";
      const char *state = "ok";
      if (set_variant(argv[v])) {
        snprintf(why, sizeof why, "bad variant");
        state = "ERROR";
      } else if (time_it(&s, what, &med, &mn)) {
        snprintf(why, sizeof why, "%s", amp_last_error());
        state = "ERROR";
      } else if (check(&s, x, y, w, why, sizeof why)) {
        state = "FAILED";
      }
      if (strcmp(state, "ok"))
        rc = 1;
      for (char *q = why; *q; q++)
        if (*q == '"' || *q == '\n')
          *q = '\'';
      double ratio = med > 0 ? copy_ms / med : 0;
      printf("%-64s %-10s %9.3f %9.3f %8.2f  %s %s\n", argv[v], wname, med, mn, ratio, state, why);
      fflush(stdout);
      if (csv)
        fprintf(csv, "\"%s\",%s,%ld,%.4f,%.4f,%.3f,%s,\"%s\",\"%s\"\n", argv[v], wname, n, med, mn,
                ratio, state, props.device_path, why);
    }
  }
  set_variant("default");
  if (time_it(&s, 0, &copy2, &copy2_min) == 0)
    printf("\ncopy (after): median %.3f ms, min %.3f ms\n", copy2, copy2_min);
  if (csv) {
    fprintf(csv, "copy,copy,%ld,%.4f,%.4f,1.000,ok,\"%s\",\"before\"\n", n, copy_ms, copy_min,
            props.device_path);
    fprintf(csv, "copy,copy,%ld,%.4f,%.4f,%.3f,ok,\"%s\",\"after\"\n", n, copy2, copy2_min,
            copy2 > 0 ? copy_ms / copy2 : 0, props.device_path);
    fclose(csv);
  }
  amp_array_view_release(s.vw);
  amp_array_view_release(s.vin);
  amp_array_view_release(s.vout);
  amp_array_release(s.in);
  amp_array_release(s.out);
  free(x);
  free(y);
  return rc;
}
