/* runtime/exec/program_build.c: building a program for a device, and what a build is made of.
 *
 * Every program is built with ampcl's kernel prelude in front of it and "-cl-kernel-arg-info",
 * so the launcher can check arguments against the parameters. A `#line 1 "FILE"` after the prelude
 * makes the compiler count lines in the user's source and name the user's file. In debug mode
 * (AMP_DEBUG set) a program is built with -DAMP_DEBUG=1 as well, which gives it checked view
 * access (kernels_cl/prelude/ampcl_debug.h). A failed build's error carries the compiler's log, in
 * the user's line numbers. */
#include "exec/program_build.h"
#include "core/clobjects.h"
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
  int n = snprintf(out, AMP__DEVICE_DEFINES_MAX, " -DAMP_COMPUTE_CAPABILITY=%u%s",
                   acc->props.compute_capability, checked ? " -DAMP_DEBUG=1" : "");
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
  if (err == CL_BUILD_PROGRAM_FAILURE) {
    /* NVIDIA's compiler (driver 580) emits PTX that ptxas rejects for a kernel without parameters
     * when -cl-kernel-arg-info is on. A second build without it tells a driver problem from an
     * error in the source: if that one succeeds, the program is used without argument checks. */
    cl_program plain = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    amp__clobj(AMP_CL_PROGRAM, plain ? 1 : 0);
    if (err == CL_SUCCESS &&
        clBuildProgram(plain, 1, &acc->device, plain_opts, NULL, NULL) == CL_SUCCESS) {
      if (amp__debug_enabled())
        fprintf(stderr,
                "[ampcl] %s built for %s only without -cl-kernel-arg-info: its launches "
                "are not checked against the kernel's parameters\n",
                p->label, acc->props.device_path);
      clReleaseProgram(prog);
      amp__clobj(AMP_CL_PROGRAM, -1);
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
    size_t n = 0;
    clGetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    log = calloc(n + 1, 1);
    if (log)
      clGetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    status = amp__set_error(err == CL_BUILD_PROGRAM_FAILURE ? AMP_ERROR_BUILD_FAILED
                                                            : amp__cl_status(err),
                            "kernel source %s failed to build for %s (%s, options \"%s\"%s); "
                            "build log:\n",
                            p->label, acc->props.device_path, amp_status_name(amp__cl_status(err)),
                            p->options, e->checked ? ", debug mode: -DAMP_DEBUG=1" : "");
    if (!log || !*log) {
      amp__append_error("(the compiler gave no log)");
    } else if (compiler_honours_line(acc, ctx)) {
      amp__append_error(log);
    } else { /* the log in the user's lines (build_log.c) */
      char *shifted = amp__log_shift(log, amp__log_user_offset(e->text), p->label);
      amp__append_error(shifted ? shifted : log);
      free(shifted);
    }
    goto fail;
  }
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
