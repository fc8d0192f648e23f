/* examples/common/example.h: the few helpers every example shares, so that no example carries a
 * copy of them. Everything here is plain ampcl usage; read it once, then read the examples.
 *
 *   EX_TRY(call)          run an ampcl call into `status`; on failure print the call, the
 *                         status and amp_last_error() (the reason), then `goto fail`
 *   EX_CLEANUP(call)      a release after `fail:`: runs always, reports a failure, and keeps
 *                         the first failure in `status`
 *   ex_now_ms()           a monotonic wall clock in milliseconds, for end-to-end timings
 *   ex_device_ms()        a kernel's device time in milliseconds, or NAN where the device gives
 *                         none (its timestamps measure nothing, or AMP_PROFILE=0); says why once
 *   ex_fmt()              a number as text, or "n/a" where it is NAN (not measured)
 *   ex_open_view()        the accelerator named by --accelerator (or the default one) and its
 *                         default accelerator view
 *   ex_load_program()     an example's kernels: the copy embedded in the binary at build time, or
 *                         DIR/<name>.cl when --kernels DIR is given (edit and re-run, no rebuild)
 *   ex_parse_int()        a checked integer option value
 *   EX_RELEASE_VIEWS(a, ...) release each of a list of array views (NULL ones included), the
 *                         first failure returned, for EX_CLEANUP
 *   EX_FREE(a, b, ...)    free() each of a list of host buffers (the end of most examples)
 *   ex_parse_args()       a command line of integer and text options, --help, --accelerator and
 *                         --kernels
 *
 * Helpers are `static inline` so each example compiles them without unused-function warnings. */
#ifndef AMPCL_EXAMPLES_EXAMPLE_H
#define AMPCL_EXAMPLES_EXAMPLE_H

#include <ampcl.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Every ampcl call returns a status; examples check each one. A function that uses these macros
 * declares `amp_status status = AMP_SUCCESS;` and has one `fail:` label, after which it releases
 * what it holds with EX_CLEANUP (releasing NULL is a no-op, so one label serves every path). */
#define EX_TRY(call)                                                                               \
  do {                                                                                             \
    status = (call);                                                                               \
    if (status != AMP_SUCCESS) {                                                                   \
      ex_report(#call, status, __FILE__, __LINE__);                                                \
      goto fail;                                                                                   \
    }                                                                                              \
  } while (0)

#define EX_CLEANUP(call)                                                                           \
  do {                                                                                             \
    amp_status ex_st_ = (call);                                                                    \
    if (ex_st_ != AMP_SUCCESS) {                                                                   \
      ex_report(#call, ex_st_, __FILE__, __LINE__);                                                \
      if (status == AMP_SUCCESS)                                                                   \
        status = ex_st_;                                                                           \
    }                                                                                              \
  } while (0)

static inline void ex_report(const char *call, amp_status st, const char *file, int line) {
  fprintf(stderr, "%s:%d: %s failed: %s\n  reason: %s\n", file, line, call, amp_status_name(st),
          amp_last_error());
}

static inline double ex_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The device time of the work `done` stands for (a kernel launch, a GEMM), in milliseconds, into
 * *ms: NAN where the device gives none, because its event timestamps measure nothing (ampcl
 * measures that once per accelerator: Mesa's rusticl on llvmpipe is such a device) or because the
 * view has no profiling (AMP_PROFILE=0). amp_future_elapsed_ns then answers
 * AMP_ERROR_UNSUPPORTED_FEATURE with the reason, which is printed once per run; any other failure
 * is returned. Print a NAN time with ex_fmt, which writes "n/a": a time that was not measured is
 * never shown as 0, and no speedup is computed from it. */
static inline amp_status ex_device_ms(amp_future *done, double *ms) {
  static int said; /* the reason is printed once per run */
  uint64_t ns = 0;
  amp_status st = amp_future_elapsed_ns(done, &ns);
  *ms = NAN;
  if (st == AMP_ERROR_UNSUPPORTED_FEATURE) {
    if (!said++)
      printf("device time: n/a (kernel times and speedups from them are not shown)\n"
             "  reason: %s\n",
             amp_last_error());
    return AMP_SUCCESS;
  }
  if (st == AMP_SUCCESS)
    *ms = (double)ns * 1e-6;
  return st;
}

/* `value` printed with `format` (one double conversion) into buf, or "n/a" where it is NAN: a
 * time that was not measured, or a ratio with one. Returns buf. */
static inline const char *ex_fmt(char *buf, size_t cap, const char *format, double value) {
  if (isnan(value))
    snprintf(buf, cap, "n/a");
  else
    snprintf(buf, cap, format, value);
  return buf;
}

/* The accelerator at `path` (as amp-info prints it; NULL means the default accelerator) and its
 * default view. Also prints which accelerator the example runs on. */
static inline amp_status ex_open_view(const char *path, amp_accelerator **acc,
                                      amp_accelerator_view **view) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator_properties p;
  if (path)
    EX_TRY(amp_accelerator_find(path, acc));
  else
    EX_TRY(amp_accelerator_get_default(acc));
  EX_TRY(amp_accelerator_get_properties(*acc, &p));
  EX_TRY(amp_accelerator_default_view(*acc, view));
  printf("accelerator: %s%s\n  %s\n", p.device_path, path ? "" : " (the default)", p.description);
fail:
  return status;
}

/* The program of kernels named `name`: DIR/<name>.cl when kernels_dir is not NULL, otherwise the
 * source embedded into the example at build time. */
static inline amp_status ex_load_program(const char *kernels_dir, const char *name,
                                         const char *embedded, const char *options,
                                         amp_program **out) {
  if (!kernels_dir)
    return amp_program_create(embedded, options, out);
  char path[4096];
  int len = snprintf(path, sizeof path, "%s/%s.cl", kernels_dir, name);
  if (len < 0 || (size_t)len >= sizeof path) {
    fprintf(stderr, "--kernels: directory name too long\n");
    return AMP_ERROR_INVALID_ARGUMENT;
  }
  printf("kernels: %s\n", path);
  return amp_program_create_from_file(path, options, out);
}

/* Parses `text` as an integer in [min, max] into *out; prints what is wrong and returns 0 if it
 * is not one. */
static inline int ex_parse_int(const char *option, const char *text, long min, long max, int *out) {
  char *end = NULL;
  errno = 0;
  long v = text ? strtol(text, &end, 0) : 0;
  if (!text || errno || end == text || *end || v < min || v > max) {
    fprintf(stderr, "%s needs an integer from %ld to %ld, not '%s'\n", option, min, max,
            text ? text : "(nothing)");
    return 0;
  }
  *out = (int)v;
  return 1;
}

/* Releases each of `count` array views; returns the first failure, or AMP_SUCCESS. */
static inline amp_status ex_release_views(amp_array_view *const *views, size_t count) {
  amp_status first = AMP_SUCCESS;
  for (size_t i = 0; i < count; i++) {
    amp_status st = amp_array_view_release(views[i]);
    if (first == AMP_SUCCESS)
      first = st;
  }
  return first;
}
#define EX_RELEASE_VIEWS(...)                                                                      \
  ex_release_views((amp_array_view *const[]){__VA_ARGS__},                                         \
                   sizeof((amp_array_view *const[]){__VA_ARGS__}) / sizeof(amp_array_view *))

/* Frees each of `count` host buffers (NULL ones included, as free() does). */
static inline void ex_free_each(void *const *buffers, size_t count) {
  for (size_t i = 0; i < count; i++)
    free(buffers[i]);
}
#define EX_FREE(...)                                                                               \
  ex_free_each((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/* One option of an example's command line: `--name VALUE`, an integer in [min, max] into *number
 * or the text into *text; or `--name` alone, which sets *flag to 1. */
typedef struct ex_option {
  const char *name;
  long min, max;
  int *number;
  const char **text;
  int *flag;
} ex_option;

/* Reads argv: --help or -h (usage to stdout), the example's own `options`, and the two every
 * example takes, --accelerator PATH into *path and --kernels DIR into *kernels_dir. Returns -1
 * when the whole line was read, else the exit code to return: 0 after --help, 2 after an unknown,
 * incomplete or bad option (said on stderr with the usage, `name` first). */
static inline int ex_parse_args(int argc, char **argv, const char *name, void (*usage)(FILE *),
                                const ex_option *options, size_t count, const char **path,
                                const char **kernels_dir) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    const ex_option *o = NULL;
    for (size_t k = 0; k < count && !o; k++)
      if (!strcmp(a, options[k].name))
        o = &options[k];
    if (o && o->flag) {
      *o->flag = 1;
      continue;
    }
    if (v && o && o->number) {
      if (!ex_parse_int(a, v, o->min, o->max, o->number))
        return 2;
    } else if (v && o) {
      *o->text = v;
    } else if (v && !strcmp(a, "--accelerator")) {
      *path = v;
    } else if (v && !strcmp(a, "--kernels")) {
      *kernels_dir = v;
    } else {
      fprintf(stderr, "%s: unknown or incomplete option '%s'\n", name, a);
      usage(stderr);
      return 2;
    }
    i++;
  }
  return -1;
}

#endif /* AMPCL_EXAMPLES_EXAMPLE_H */
