/* runtime/exec/math_accuracy.c: which fast_math_* functions may be the device's native_* built-in,
 * measured on the device itself.
 *
 * OpenCL promises nothing about native_* accuracy, and the same implementation differs by CPU:
 * Intel's CPU runtime computes native_tan within 3 ulp on an AVX2 machine and 831 ulp off on an
 * AVX-512 one. So no implementation is known by name. ampcl states a bound for fast_math_*
 * (docs/KERNELS.md, "How accurate the math is": 2^-16 relative, or absolute where the result is
 * below 1 in magnitude for log*, sin, cos and tan); the first time a program that uses fast_math_*
 * is built for a device, this file runs every native_* function over POINTS points of its domain on
 * that device and compares each result with the host's double-precision libm. A function whose
 * largest error is within half the bound (a margin, since the points are a sample) keeps native_X;
 * any other is mapped, through a -D option, to the precise built-in, which OpenCL holds to a few
 * ulp.
 *
 * The answer is kept in memory per accelerator and on disk per device (in the cache directory that
 * core/cache_dir.c chooses: <base>/ampcl/fast-math/<hash>.txt), keyed on the platform, the device,
 * its driver and OpenCL versions, for a CPU device the host CPU's model and instruction-set flags,
 * and the drivers' settings in the environment: a new driver, another CPU or another code target
 * is measured afresh. A probe that cannot run (no memory, a
 * build failure) maps every function to the precise built-in for that process and keeps nothing on
 * disk: slower, never outside the bound. */
#define _GNU_SOURCE /* secure_getenv, memmem, environ */
#include "exec/math_accuracy.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cache_dir.h"
#include "core/cl_probe.h"

enum { POINTS = 2048 };

typedef struct {
  const char *name;                   /* fast_math_<name> / native_<name> */
  const char *call;                   /* the native call in the probe kernel, of x and y */
  double (*ref)(double x);            /* the host's reference in double precision, of x; */
  double (*ref2)(double x, double y); /* or of x and y (powr, divide: NULL for the others) */
  double lo, hi;                      /* the domain of x (log-spaced when lo > 0) */
  double ylo, yhi;                    /* the domain of y */
  int abs_below_one;                  /* the bound is absolute where |result| < 1 */
} fast_fn;

/* The references libm has no function for. */
static double exp10_ref(double x) {
  return pow(10.0, x);
}
static double rsqrt_ref(double x) {
  return 1.0 / sqrt(x);
}
static double recip_ref(double x) {
  return 1.0 / x;
}
static double divide_ref(double x, double y) {
  return x / y;
}

/* The domains docs/KERNELS.md states the bound over. */
/* clang-format off */
static const fast_fn fns[] = {
  {"exp",    "native_exp(x)",       exp,       NULL,       -87.0,  88.0,  0, 0,         0},
  {"exp2",   "native_exp2(x)",      exp2,      NULL,       -126.0, 127.0, 0, 0,         0},
  {"exp10",  "native_exp10(x)",     exp10_ref, NULL,       -37.0,  38.0,  0, 0,         0},
  {"log",    "native_log(x)",       log,       NULL,       1e-37,  1e38,  0, 0,         1},
  {"log2",   "native_log2(x)",      log2,      NULL,       1e-37,  1e38,  0, 0,         1},
  {"log10",  "native_log10(x)",     log10,     NULL,       1e-37,  1e38,  0, 0,         1},
  {"sqrt",   "native_sqrt(x)",      sqrt,      NULL,       1e-37,  1e38,  0, 0,         0},
  {"rsqrt",  "native_rsqrt(x)",     rsqrt_ref, NULL,       1e-37,  1e38,  0, 0,         0},
  {"recip",  "native_recip(x)",     recip_ref, NULL,       1e-37,  1e37,  0, 0,         0},
  {"sin",    "native_sin(x)",       sin,       NULL,       -3.14159265358979, 3.14159265358979, 0, 0, 1},
  {"cos",    "native_cos(x)",       cos,       NULL,       -3.14159265358979, 3.14159265358979, 0, 0, 1},
  {"tan",    "native_tan(x)",       tan,       NULL,       -1.5,   1.5,   0, 0,         1},
  {"powr",   "native_powr(x, y)",   NULL,      pow,        1e-3,   1e3,   -12, 12,      0},
  {"divide", "native_divide(x, y)", NULL,      divide_ref, 1e-18,  1e18,  1e-18, 1e18,  0},
};
/* clang-format on */
enum { NFNS = sizeof fns / sizeof fns[0] };
_Static_assert(NFNS <= 32, "one bit per function in a mask");

/* ---- what is known, per accelerator -----------------------------------------------------------
 */

typedef struct {
  int known;        /* 0: not measured yet in this process */
  unsigned precise; /* bit f: fast_math_<fns[f].name> maps to the precise built-in */
  double worst[NFNS];
} verdict;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static verdict *verdicts; /* one per accelerator, by index */
static size_t nverdicts;

/* ---- the probe ---------------------------------------------------------------------------------
 */

/* A fixed pseudo-random sequence in [0, 1), not the test's (tests/kernels/math_accuracy.c checks
 * the choice on points of its own). */
static double next_unit(unsigned *state) {
  *state = *state * 22695477u + 1u;
  return (double)(*state >> 8) / 16777216.0;
}

/* Point k of n over [lo, hi]: evenly in the exponent where lo > 0, evenly otherwise; jittered
 * within its slot; both ends included. */
static double point(double lo, double hi, int k, int n, unsigned *state) {
  double t = k == 0 ? 0.0 : k == n - 1 ? 1.0 : ((double)k + next_unit(state)) / (double)n;
  return lo > 0 ? exp(log(lo) + t * (log(hi) - log(lo))) : lo + t * (hi - lo);
}

/* The kernel: work item i evaluates function i / POINTS at (x[i], y[i]). */
static char *probe_source(void) {
  size_t cap = 4096, used = 0;
  char *s = malloc(cap);
  if (!s)
    return NULL;
  used += (size_t)snprintf(s, cap,
                           "__kernel void ampcl_native_probe(__global const float *xs, __global "
                           "const float *ys, __global float *out) {\n"
                           "  const int i = (int)get_global_id(0);\n"
                           "  const float x = xs[i], y = ys[i];\n"
                           "  float r = 0.0f;\n"
                           "  switch (i / %d) {\n",
                           POINTS);
  for (int f = 0; f < NFNS && used < cap; f++)
    used += (size_t)snprintf(s + used, cap - used, "  case %d: r = %s; break;\n", f, fns[f].call);
  if (used < cap)
    used += (size_t)snprintf(s + used, cap - used, "  }\n  (void)y;\n  out[i] = r;\n}\n");
  if (used >= cap) {
    free(s);
    return NULL;
  }
  return s;
}

/* The largest error of each function under its measure (relative, or absolute below 1), from the
 * points where the reference is a normal float. */
static void judge(const float *x, const float *y, const float *got, verdict *v) {
  const double bound = ldexp(1.0, -16), accept = bound / 2;
  v->precise = 0;
  for (int f = 0; f < NFNS; f++) {
    double worst = 0;
    for (int i = f * POINTS; i < (f + 1) * POINTS; i++) {
      double ref = fns[f].ref2 ? fns[f].ref2(x[i], y[i]) : fns[f].ref(x[i]);
      if (!isfinite(ref) || fabs(ref) > FLT_MAX || (ref != 0 && fabs(ref) < FLT_MIN))
        continue; /* outside float's normal range: no bound is stated there */
      double err = isfinite(got[i]) ? fabs((double)got[i] - ref) : INFINITY;
      double e = fns[f].abs_below_one && fabs(ref) < 1.0 ? err : ref != 0 ? err / fabs(ref) : err;
      if (e > worst)
        worst = e;
    }
    v->worst[f] = worst;
    if (!(worst <= accept))
      v->precise |= 1u << f;
  }
}

/* Runs the probe on acc's device with plain OpenCL (no ampcl launch: this runs inside a build).
 * Returns 0 with *v filled, or -1 where it could not run. */
static int measure(amp_accelerator *acc, verdict *v) {
  size_t n = (size_t)NFNS * POINTS;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *got = malloc(n * sizeof *got);
  char *src = probe_source();
  amp__cl_probe p;
  int ok = -1;
  if (!x || !y || !got || !src ||
      amp__cl_probe_begin(acc, src, "", "ampcl_native_probe", 0, &p) != 0)
    goto done;
  for (int f = 0; f < NFNS; f++) {
    unsigned state = 977u * (unsigned)(f + 1);
    for (int k = 0; k < POINTS; k++) {
      size_t i = (size_t)f * POINTS + (size_t)k;
      x[i] = (float)point(fns[f].lo, fns[f].hi, k, POINTS, &state);
      /* y over its own order of slots, so (x, y) pairs cover the plane */
      y[i] = fns[f].ref2 ? (float)point(fns[f].ylo, fns[f].yhi, (k * 37) % POINTS, POINTS, &state)
                         : 0.0f;
    }
  }
  const cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
  cl_mem bx = amp__cl_probe_buffer(&p, in, n * sizeof *x, x);
  cl_mem by = amp__cl_probe_buffer(&p, in, n * sizeof *y, y);
  cl_mem bo = amp__cl_probe_buffer(&p, CL_MEM_WRITE_ONLY, n * sizeof *got, NULL);
  if (bx && by && bo && clSetKernelArg(p.kernel, 0, sizeof bx, &bx) == CL_SUCCESS &&
      clSetKernelArg(p.kernel, 1, sizeof by, &by) == CL_SUCCESS &&
      clSetKernelArg(p.kernel, 2, sizeof bo, &bo) == CL_SUCCESS &&
      clEnqueueNDRangeKernel(p.queue, p.kernel, 1, NULL, &n, NULL, 0, NULL, NULL) == CL_SUCCESS &&
      clEnqueueReadBuffer(p.queue, bo, CL_TRUE, 0, n * sizeof *got, got, 0, NULL, NULL) ==
          CL_SUCCESS) {
    judge(x, y, got, v);
    ok = 0;
  }
done:
  amp__cl_probe_end(&p);
  free(src);
  free(x);
  free(y);
  free(got);
  return ok;
}

/* ---- the answer on disk ------------------------------------------------------------------------
 */

static uint64_t fnv1a(uint64_t h, const char *s) {
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* The host CPU's model and flags (a CPU device's native_* is the CPU's code), from /proc/cpuinfo
 * where there is one; "" elsewhere. */
static void host_cpu(char *out, size_t cap) {
  out[0] = '\0';
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f)
    return;
  char line[8192], model[256] = "";
  uint64_t flags = 14695981039346656037ull;
  int have_model = 0, have_flags = 0;
  while ((!have_model || !have_flags) && fgets(line, sizeof line, f)) {
    char *colon = strchr(line, ':');
    if (!colon)
      continue;
    line[strcspn(line, "\n")] = '\0';
    if (!have_model && strncmp(line, "model name", 10) == 0) {
      snprintf(model, sizeof model, "%s", colon + 2 <= line + strlen(line) ? colon + 2 : "");
      have_model = 1;
    } else if (!have_flags && strncmp(line, "flags", 5) == 0) {
      flags = fnv1a(flags, colon + 1);
      have_flags = 1;
    }
  }
  fclose(f);
  snprintf(out, cap, "%s, flags %016llx", model, (unsigned long long)flags);
}

/* The drivers' own settings in the environment, which can change the code a device runs: Intel's
 * CPU runtime compiles for AVX2 on an AVX-512 machine under CL_CONFIG_CPU_TARGET_ARCH=core-avx2,
 * and its native_* then differ. Every variable under a prefix OpenCL drivers read (cache paths
 * aside: they move between runs and change no code), hashed in name order. Only a cache key: a
 * variable listed here that changes nothing costs one measurement more. */
static uint64_t driver_settings(void) {
  static const char *const prefixes[] = {"CL_", "POCL_", "RUSTICL_", "MESA_", "LP_", "GALLIUM_"};
  extern char **environ;
  uint64_t h = 14695981039346656037ull;
  const char *last = "";
  for (;;) { /* the smallest name after `last`: the same order whatever the environment's */
    const char *next = NULL;
    for (char **e = environ; e && *e; e++) {
      int ours = 0;
      for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        ours |= strncmp(*e, prefixes[i], strlen(prefixes[i])) == 0;
      size_t name = strcspn(*e, "=");
      if (!ours || memmem(*e, name, "CACHE", 5) || strcmp(*e, last) <= 0)
        continue;
      if (!next || strcmp(*e, next) < 0)
        next = *e;
    }
    if (!next)
      return h;
    h = fnv1a(fnv1a(h, next), "\n");
    last = next;
  }
}

/* What the answer depends on, as one line. */
static void device_key(const amp_accelerator *acc, char *out, size_t cap) {
  char cpu[320] = "";
  if (acc->props.is_emulated)
    host_cpu(cpu, sizeof cpu);
  snprintf(out, cap, "platform %s | device %s | driver %s | %s | cpu %s | settings %016llx",
           acc->props.platform_name, acc->props.description, acc->props.driver_version,
           acc->props.version, cpu, (unsigned long long)driver_settings());
  for (char *p = out; *p; p++)
    if (*p == '\n' || *p == '\r')
      *p = ' ';
}

/* <base>/ampcl/fast-math, made if missing; 0 where there is no cache directory. */
static int cache_folder(char *out, size_t cap) {
  const char *base = amp__cache_dir_base();
  char home[4096] = "";
  if (!base[0]) { /* the drivers' caches were the user's choice: ampcl's own goes where theirs
                     would by default */
    const char *xdg = secure_getenv("XDG_CACHE_HOME"), *h = secure_getenv("HOME");
    if (xdg && xdg[0] == '/')
      snprintf(home, sizeof home, "%s", xdg);
    else if (h && h[0] == '/')
      snprintf(home, sizeof home, "%s/.cache", h);
    base = home;
  }
  if (!base[0])
    return 0;
  int n = snprintf(out, cap, "%s/ampcl", base);
  if (n < 0 || (size_t)n >= cap || (mkdir(out, 0700) != 0 && errno != EEXIST))
    return 0;
  n = snprintf(out, cap, "%s/ampcl/fast-math", base);
  return n > 0 && (size_t)n < cap && (mkdir(out, 0700) == 0 || errno == EEXIST);
}

static int cache_path(const char *key, char *out, size_t cap) {
  char folder[4200];
  if (!cache_folder(folder, sizeof folder))
    return 0;
  int n = snprintf(out, cap, "%s/%016llx.txt", folder,
                   (unsigned long long)fnv1a(14695981039346656037ull, key));
  return n > 0 && (size_t)n < cap;
}

/* The file: the key on its first line, then "<name> native|precise <worst error>" per function.
 * Returns 0 when it holds a whole answer for exactly this key. */
static int cache_read(const char *path, const char *key, verdict *v) {
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  char line[1200];
  int ok = fgets(line, sizeof line, f) && (line[strcspn(line, "\n")] = '\0', 1) &&
           strcmp(line, key) == 0;
  unsigned seen = 0, precise = 0;
  while (ok && fgets(line, sizeof line, f)) {
    char name[16], how[16];
    double worst;
    if (sscanf(line, "%15s %15s %lf", name, how, &worst) != 3)
      continue;
    for (int fn = 0; fn < NFNS; fn++)
      if (strcmp(name, fns[fn].name) == 0) {
        seen |= 1u << fn;
        v->worst[fn] = worst;
        if (strcmp(how, "native") != 0)
          precise |= 1u << fn;
      }
  }
  fclose(f);
  if (!ok || seen != (1u << NFNS) - 1)
    return -1;
  v->precise = precise;
  return 0;
}

/* Written whole to a file of its own, then renamed over the answer: a reader never sees half. */
static void cache_write(const char *path, const char *key, const verdict *v) {
  char tmp[4500];
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f)
    return;
  int ok = fprintf(f, "%s\n", key) > 0;
  for (int fn = 0; fn < NFNS && ok; fn++)
    ok = fprintf(f, "%s %s %.3e\n", fns[fn].name, v->precise >> fn & 1 ? "precise" : "native",
                 v->worst[fn]) > 0;
  if (fclose(f) != 0 || !ok || rename(tmp, path) != 0)
    remove(tmp);
}

/* ---- the answer --------------------------------------------------------------------------------
 */

static void say(const amp_accelerator *acc, const verdict *v, const char *whence) {
  if (!amp__debug_enabled())
    return;
  char natives[256] = "", precise[512] = "";
  size_t a = 0, b = 0;
  for (int f = 0; f < NFNS; f++) {
    if (v->precise >> f & 1) {
      int n = snprintf(precise + b, sizeof precise - b, "%s%s (%.2g)", b ? ", " : "", fns[f].name,
                       v->worst[f]);
      b += n > 0 && (size_t)n < sizeof precise - b ? (size_t)n : 0;
    } else {
      int n = snprintf(natives + a, sizeof natives - a, "%s%s", a ? " " : "", fns[f].name);
      a += n > 0 && (size_t)n < sizeof natives - a ? (size_t)n : 0;
    }
  }
  fprintf(stderr,
          "[ampcl] debug: fast_math on %s (%s): native_* for %s; the precise built-in for %s "
          "(largest error measured, against 2^-16)\n",
          acc->props.device_path, whence, a ? natives : "none", b ? precise : "none");
}

/* The verdict for acc, measured (or read) the first time. Called with `lock` held. */
static const verdict *verdict_for(amp_accelerator *acc) {
  amp_accelerator **list = NULL;
  size_t n = 0;
  if (!verdicts) {
    if (amp__accelerators(&list, &n) != AMP_SUCCESS || !(verdicts = calloc(n, sizeof *verdicts)))
      return NULL;
    nverdicts = n;
  }
  if (acc->index >= nverdicts)
    return NULL;
  verdict *v = &verdicts[acc->index];
  if (v->known)
    return v;
  char key[1200], path[4400];
  device_key(acc, key, sizeof key);
  int cached = cache_path(key, path, sizeof path);
  if (cached && cache_read(path, key, v) == 0) {
    say(acc, v, "read from the cache");
  } else if (measure(acc, v) == 0) {
    if (cached)
      cache_write(path, key, v);
    say(acc, v, "measured now");
  } else {
    v->precise = (1u << NFNS) - 1; /* not measured: the bound still holds */
    for (int f = 0; f < NFNS; f++)
      v->worst[f] = NAN;
    say(acc, v, "not measurable: the probe did not run");
  }
  v->known = 1;
  return v;
}

/* The precise form of fast_math_`name`, as the right-hand side of a -D option. */
static void precise_form(const char *name, char *out, size_t cap) {
  if (strcmp(name, "recip") == 0)
    snprintf(out, cap, "(x)=(1.0f/(x))");
  else if (strcmp(name, "divide") == 0)
    snprintf(out, cap, "(x,y)=((x)/(y))");
  else
    snprintf(out, cap, "=%s", name);
}

size_t amp__fast_math_options(amp_accelerator *acc, char *out, size_t cap) {
  size_t used = 0;
  if (cap)
    out[0] = '\0';
  pthread_mutex_lock(&lock);
  const verdict *v = verdict_for(acc);
  unsigned precise = v ? v->precise : (1u << NFNS) - 1;
  pthread_mutex_unlock(&lock);
  for (int f = 0; f < NFNS; f++) {
    if (!(precise >> f & 1))
      continue;
    char rhs[32];
    precise_form(fns[f].name, rhs, sizeof rhs);
    int n = snprintf(used < cap ? out + used : NULL, used < cap ? cap - used : 0,
                     " -Dfast_math_%s%s", fns[f].name, rhs);
    used += n > 0 ? (size_t)n : 0;
    /* fast_math_pow is native_powr where x > 0 (the prelude): it follows powr's verdict */
    if (strcmp(fns[f].name, "powr") == 0) {
      n = snprintf(used < cap ? out + used : NULL, used < cap ? cap - used : 0,
                   " -Dfast_math_pow=pow");
      used += n > 0 ? (size_t)n : 0;
    }
  }
  return used;
}
