/* runtime/exec/program_build.c: building a program for a device, and what a build is made of.
 *
 * Every program is built with ampcl's kernel prelude in front of it and "-cl-kernel-arg-info",
 * so the launcher can check arguments against the parameters. A `#line 1 "FILE"` after the prelude
 * makes the compiler count lines in the user's source and name the user's file. In debug mode
 * (AMP_DEBUG set) a program is built with -DAMP_DEBUG=1 as well, which gives it checked view
 * access (kernels_cl/prelude/ampcl_debug.h). A failed build's error carries the compiler's log, in
 * the user's line numbers; a user's program that builds with warnings has them printed on stderr
 * (AMP_BUILD_WARNINGS=0: not). Both logs are tidied: counts dropped, repeated lines folded. */
#include "exec/program_build.h"
#include "core/clobjects.h"
#include "core/knobs.h"
#include "exec/build_log.h"
#include "exec/math_accuracy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct amp__cache_entry cache_entry;

/* The files of the kernel prelude, in the order they go in front of every program. */
static const char *const prelude_parts[] = {"ampcl_prelude", "ampcl_atomics",    "ampcl_index",
                                            "ampcl_debug",   "ampcl_texture",    "ampcl_assert",
                                            "ampcl_random",  "ampcl_collectives"};
#define NPRELUDE_PARTS (sizeof prelude_parts / sizeof prelude_parts[0])

int amp__prelude_has_part(const char *name) {
  for (size_t i = 0; i < NPRELUDE_PARTS; i++)
    if (strcmp(name, prelude_parts[i]) == 0)
      return 1;
  return 0;
}

/* The prelude's parts, joined once; NULL only when out of memory. */
static char *prelude;
static pthread_once_t prelude_once = PTHREAD_ONCE_INIT;

static void join_prelude(void) {
  static const char head[] = "#define AMPCL_PRELUDE_EMBEDDED 1\n";
  const char *text[NPRELUDE_PARTS] = {0};
  size_t n = sizeof head;
  for (size_t p = 0; p < NPRELUDE_PARTS; p++) {
    for (size_t i = 0; i < amp__embedded_count; i++)
      if (strcmp(amp__embedded_kernels[i].name, prelude_parts[p]) == 0)
        text[p] = amp__embedded_kernels[i].text;
    n += (text[p] ? strlen(text[p]) : 0) + 1;
  }
  char *all = malloc(n);
  if (!all)
    return;
  size_t o = (size_t)snprintf(all, n, "%s", head);
  for (size_t p = 0; p < NPRELUDE_PARTS; p++)
    o += (size_t)snprintf(all + o, n - o, "%s\n", text[p] ? text[p] : "");
  prelude = all;
}

const char *amp__prelude_text(void) {
  pthread_once(&prelude_once, join_prelude);
  return prelude;
}

void amp__device_defines(const amp_program *p, amp_accelerator *acc, int checked,
                         char out[AMP__DEVICE_DEFINES_MAX]) {
  int n = snprintf(out, AMP__DEVICE_DEFINES_MAX,
                   " -DAMP_COMPUTE_CAPABILITY=%u -DAMP_INT64_ATOMICS=%d%s",
                   acc->props.compute_capability, acc->has_int64_atomics,
                   checked == AMP__CHECKED_DEBUG    ? " -DAMP_DEBUG=1"
                   : checked == AMP__CHECKED_ROBUST ? " -DAMP_ROBUST=1"
                                                    : "");
  /* every function's mapping together is far below the room left */
  if (n > 0 && n < AMP__DEVICE_DEFINES_MAX && strstr(p->source, "fast_math_"))
    amp__fast_math_options(acc, out + n, AMP__DEVICE_DEFINES_MAX - (size_t)n);
}

/* ---- build logs in the user's line numbers -------------------------------------------------- */

/* The runtime puts `#line 1` between the prelude and the user's source, so compilers report
 * lines of the user's source. Not every compiler honours it (NVIDIA's, driver 580, does not), so on
 * a failed build ampcl asks once per accelerator, with a tiny probe, and rewrites the log's
 * "<name>:LINE:COL:" positions itself where the compiler did not. Costs nothing unless a build
 * fails. */
static pthread_mutex_t honours_lock = PTHREAD_MUTEX_INITIALIZER;
static signed char *honours_line; /* per accelerator: 0 unknown, 1 honours #line, -1 does not */

static int compiler_honours_line(amp_accelerator *acc, cl_context ctx) {
  amp_accelerator **list = NULL;
  size_t n = 0;
  if (amp__accelerators(&list, &n) != AMP_SUCCESS)
    return 1;
  pthread_mutex_lock(&honours_lock);
  if (!honours_line)
    honours_line = calloc(n, 1);
  int known = honours_line ? honours_line[acc->index] : 1;
  pthread_mutex_unlock(&honours_lock);
  if (known)
    return known > 0;
  /* An error on physical line 5, which is line 1 after the directive. */
  const char *probe = "\n\n\n#line 1\nampcl_line_probe x;\n";
  cl_int err = CL_SUCCESS;
  long line = -1;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &probe, NULL, &err);
  amp__clobj(AMP_CL_PROGRAM, prog ? 1 : 0);
  if (err == CL_SUCCESS && clBuildProgram(prog, 1, &acc->device, "", NULL, NULL) != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = calloc(len + 1, 1);
    if (log && clGetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, len, log, NULL) ==
                   CL_SUCCESS)
      line = amp__log_first_line(log);
    free(log);
  }
  if (prog)
    clReleaseProgram(prog);
  amp__clobj(AMP_CL_PROGRAM, prog ? -1 : 0);
  int honours = line != 5; /* when in doubt, leave logs alone */
  pthread_mutex_lock(&honours_lock);
  if (honours_line)
    honours_line[acc->index] = (signed char)(honours ? 1 : -1);
  pthread_mutex_unlock(&honours_lock);
  return honours;
}

/* What a checked build adds, for messages. */
static const char *checked_note(int checked) {
  return checked == AMP__CHECKED_DEBUG    ? ", debug mode: -DAMP_DEBUG=1"
         : checked == AMP__CHECKED_ROBUST ? ", robust mode: -DAMP_ROBUST=1"
                                          : "";
}

/* The build log of prog as the compiler wrote it: malloc'd, NULL when there is none or memory ran
 * out. */
static char *read_log(cl_program prog, amp_accelerator *acc) {
  size_t n = 0;
  if (clGetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS)
    return NULL;
  char *log = calloc(n + 1, 1);
  if (log &&
      clGetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, n, log, NULL) != CL_SUCCESS) {
    free(log);
    return NULL;
  }
  return log;
}

/* log (which it takes) in the user's file and lines, tidied (build_log.c); NULL for NULL. */
static char *user_lines(char *log, amp_accelerator *acc, cl_context ctx, const cache_entry *e,
                        const amp_program *p, int diagnostics_only) {
  char *shifted = NULL;
  /* a log that names the user's file followed the directive: no probe (whose failed build some
   * compilers count on stderr) */
  if (log && *log && !strstr(log, p->label) && !compiler_honours_line(acc, ctx))
    shifted = amp__log_shift(log, amp__log_user_offset(e->text), p->label);
  char *tidy = log ? amp__log_tidy(shifted ? shifted : log, diagnostics_only) : NULL;
  if (tidy) {
    free(log);
    log = tidy;
  }
  free(shifted);
  return log;
}

/* A user's program built with warnings: their text on stderr, once per build (the compiler itself
 * may print only their count there). ampcl's own kernels are left out: their warnings are not the
 * program's to fix. */
static amp_status show_warnings(cl_program prog, amp_accelerator *acc, cl_context ctx,
                                const cache_entry *e, const amp_program *p) {
  int on = 1;
  amp_status status = amp__knob_int(AMP_KNOB_BUILD_WARNINGS, 1, &on, "building a program");
  if (status != AMP_SUCCESS || !on || strncmp(p->label, "builtin:", 8) == 0)
    return status;
  char *log = read_log(prog, acc);
  if (!log || !strstr(log, "warning:")) {
    free(log);
    return AMP_SUCCESS;
  }
  log = user_lines(log, acc, ctx, e, p, 1);
  if (log && *log)
    fprintf(stderr, "[ampcl] kernel source %s built for %s with warnings%s:\n%s", p->label,
            acc->props.device_path, checked_note(e->checked), log);
  free(log);
  return AMP_SUCCESS;
}

/* Whether a failed build's log names an error in the user's file: an error of the source, which a
 * second build would only repeat (and some compilers count on stderr again). */
static int error_in_source(cl_program prog, amp_accelerator *acc, const amp_program *p) {
  char *log = read_log(prog, acc);
  int in_source = 0;
  for (const char *c = log ? strstr(log, p->label) : NULL; c && !in_source;
       c = strstr(c + 1, p->label))
    in_source = strncmp(c + strlen(p->label), ":", 1) == 0 && strstr(c, "error") != NULL;
  free(log);
  return in_source;
}

amp_status amp__program_build_entry(cache_entry *e, const amp_program *p, amp_accelerator *acc) {
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  cl_program prog = NULL;
  char *log = NULL, *plain_opts = NULL;
  AMP__TRY(amp__context(acc, &ctx));
  cl_int err = CL_SUCCESS;
  const char *src = e->text;
  char defines[AMP__DEVICE_DEFINES_MAX];
  amp__device_defines(p, acc, e->checked, defines);
  size_t nplain = strlen(p->options) + strlen(defines) + 1;
  if (!(plain_opts = malloc(nplain)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory building a program");
  snprintf(plain_opts, nplain, "%s%s", p->options, defines);
  prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  amp__clobj(AMP_CL_PROGRAM, prog ? 1 : 0);
  AMP__CL(err, "clCreateProgramWithSource");
  err = clBuildProgram(prog, 1, &acc->device, e->options, NULL, NULL);
  if (err == CL_BUILD_PROGRAM_FAILURE && !error_in_source(prog, acc, p)) {
    /* NVIDIA's compiler (driver 580) emits PTX that ptxas rejects for a kernel without parameters
     * when -cl-kernel-arg-info is on. A second build without it tells a driver problem from an
     * error in the source: if that one succeeds, the program is used without argument checks.
     * A log that already names an error in the user's file needs no second build. */
    cl_program plain = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    amp__clobj(AMP_CL_PROGRAM, plain ? 1 : 0);
    if (err == CL_SUCCESS &&
        clBuildProgram(plain, 1, &acc->device, plain_opts, NULL, NULL) == CL_SUCCESS) {
      if (amp__debug_enabled())
        fprintf(stderr,
                "[ampcl] %s built for %s only without -cl-kernel-arg-info: its launches "
                "are not checked against the kernel's parameters\n",
                p->label, acc->props.device_path);
      amp__release_program(prog);
      prog = plain;
      err = CL_SUCCESS;
    } else {
      if (plain)
        clReleaseProgram(plain);
      amp__clobj(AMP_CL_PROGRAM, plain ? -1 : 0);
      err = CL_BUILD_PROGRAM_FAILURE; /* report the first build's log */
    }
  }
  if (err != CL_SUCCESS) {
    log = user_lines(read_log(prog, acc), acc, ctx, e, p, 0);
    status = amp__set_error(err == CL_BUILD_PROGRAM_FAILURE ? AMP_ERROR_BUILD_FAILED
                                                            : amp__cl_status(err),
                            "kernel source %s failed to build for %s (%s, options \"%s\"%s); "
                            "build log:\n",
                            p->label, acc->props.device_path, amp_status_name(amp__cl_status(err)),
                            p->options, checked_note(e->checked));
    amp__append_error(log && *log ? log : "(the compiler gave no log)");
    goto fail;
  }
  AMP__TRY(show_warnings(prog, acc, ctx, e, p));
  e->program = prog;
  prog = NULL;
  amp__probe_struct_sizes(e, acc); /* struct parameters' sizes: now, not at a launch */
fail:
  if (prog)
    clReleaseProgram(prog);
  amp__clobj(AMP_CL_PROGRAM, prog ? -1 : 0);
  free(log);
  free(plain_opts);
  return status;
}
