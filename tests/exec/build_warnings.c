/* build_warnings: a program that builds with warnings has their text printed on stderr, once, in
 * the user's file and lines (not only the compiler's "1 warning generated."), unless
 * AMP_BUILD_WARNINGS=0; a failed build's log keeps each error once and drops the compiler's
 * counts; and the tidying itself (runtime/exec/build_log.c) on logs written as compilers write
 * them. */
#include <ampcl/opencl.h>

#include "check.h"
#include "exec/build_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int count(const char *s, const char *what) {
  int n = 0;
  for (const char *c = strstr(s, what); c; c = strstr(c + 1, what))
    n++;
  return n;
}

/* The tidying on its own: counts dropped, a repeated diagnostic (with its source and caret lines)
 * kept once, other lines kept unless only diagnostics are asked for. */
static void tidy_cases(void) {
  const char *log = "Compilation started\n"
                    "<source>:2:2: warning: mind this\n"
                    "    2 | #warning mind this\n"
                    "      |  ^\n"
                    "<source>:2:2: warning: mind this\n"
                    "    2 | #warning mind this\n"
                    "      |  ^\n"
                    "<source>:4:9: error: use of undeclared identifier 'q'\n"
                    "1 warning and 1 error generated.\n"
                    "1 error generated.\n"
                    "Compilation failed\n";
  char *all = amp__log_tidy(log, 0), *diag = amp__log_tidy(log, 1);
  CHECK(all && diag);
  if (all && diag) {
    CHECK_EQ_INT(count(all, "warning: mind this"), 1);
    CHECK_EQ_INT(count(all, "#warning mind this"), 1); /* the repeat's source line went with it */
    CHECK_EQ_INT(count(all, "generated."), 0);
    CHECK_EQ_INT(count(all, "Compilation"), 2);
    CHECK_EQ_INT(count(all, "undeclared identifier 'q'"), 1);
    CHECK_EQ_INT(count(diag, "Compilation"), 0);
    CHECK(strcmp(diag, "<source>:2:2: warning: mind this\n"
                       "    2 | #warning mind this\n"
                       "      |  ^\n"
                       "<source>:4:9: error: use of undeclared identifier 'q'\n") == 0);
  }
  free(all);
  free(diag);
  char *empty = amp__log_tidy("", 0), *bare = amp__log_tidy("no newline", 0);
  CHECK(empty && strcmp(empty, "") == 0);
  CHECK(bare && strcmp(bare, "no newline\n") == 0);
  free(empty);
  free(bare);
}

/* Builds `src` with stderr going to a file; what was printed there into out (cap bytes). */
static amp_status build_capturing(const char *src, amp_accelerator *acc, char *out, size_t cap) {
  amp_program *p = NULL;
  amp_status st = amp_program_create(src, NULL, &p);
  if (st != AMP_SUCCESS)
    return st;
  char path[] = "/tmp/ampcl-build-warnings-XXXXXX";
  int fd = mkstemp(path);
  fflush(stderr);
  int saved = dup(2);
  if (fd < 0 || saved < 0) {
    amp_program_release(p);
    return AMP_ERROR_INVALID_ARGUMENT;
  }
  dup2(fd, 2);
  st = amp_program_build(p, acc);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  ssize_t n = pread(fd, out, cap - 1, 0);
  out[n > 0 ? n : 0] = '\0';
  close(fd);
  remove(path);
  amp_program_release(p);
  return st;
}

/* What ampcl printed: from its "[ampcl] kernel source" on (the compiler's own lines come before,
 * while it builds), or "" when it printed nothing. */
static const char *ours(const char *captured) {
  const char *at = strstr(captured, "[ampcl] kernel source");
  return at ? at : "";
}

/* Whether the implementation itself keeps a successful build's warnings in its log, asked of it
 * with a raw build: ampcl can show only what the compiler leaves there (Mesa's rusticl 22.3 leaves
 * the log of a successful build empty). */
static int implementation_keeps_warnings(amp_accelerator *acc) {
  cl_context ctx = NULL;
  cl_device_id dev = NULL;
  if (amp_accelerator_get_cl_context(acc, &ctx) != AMP_SUCCESS ||
      amp_accelerator_get_cl_device(acc, &dev) != AMP_SUCCESS)
    return 1;
  const char *src =
      "#warning ampcl-raw-probe-warning\n__kernel void k(__global int *x) { *x = 1; }\n";
  cl_int e = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
  if (e != CL_SUCCESS)
    return 1;
  static char log[1 << 14];
  size_t n = 0;
  int kept = 1;
  if (clBuildProgram(p, 1, &dev, "", NULL, NULL) == CL_SUCCESS &&
      clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, &n) == CL_SUCCESS) {
    log[n < sizeof log ? n : sizeof log - 1] = '\0';
    kept = strstr(log, "ampcl-raw-probe-warning") != NULL;
  }
  clReleaseProgram(p);
  return kept;
}

int main(void) {
  tidy_cases();
  amp_accelerator *acc;
  REQUIRE_OK(amp_accelerator_get_default(&acc));
  static char got[1 << 16];

  /* line 2 warns; the kernel builds */
  const char *warns = "__kernel void fine(AMP_VIEW(int, v)) {\n"
                      "#warning ampcl-test-warning-text\n"
                      "  AMP_INDEX1(i);\n"
                      "  amp_at(v, i[0]) = 1;\n"
                      "}\n";
  CHECK_OK(build_capturing(warns, acc, got, sizeof got));
  const char *mine = ours(got);
  int kept = implementation_keeps_warnings(acc);
  if (!kept)
    printf("build_warnings: this implementation leaves a successful build's log empty; "
           "ampcl has no warnings to show, and shows none\n");
  CHECK_EQ_INT(count(mine, "[ampcl] kernel source <source> built for"), kept);
  /* once as a diagnostic (some compilers show the source line under it too) */
  int said =
      count(mine, "ampcl-test-warning-text") - count(mine, "#warning ampcl-test-warning-text");
  CHECK_EQ_INT(said, kept);
  CHECK_EQ_INT(count(mine, "<source>:2:"), kept);
  CHECK_EQ_INT(count(mine, "generated."), 0);
  if (said != kept)
    fprintf(stderr, "captured:\n%s\n", got);

  /* the same once more with the knob off (another source, so it is built again) */
  const char *warns_too =
      "#warning ampcl-quiet-warning\n__kernel void quiet(AMP_VIEW(int, v)) {}\n";
  setenv("AMP_BUILD_WARNINGS", "0", 1);
  CHECK_OK(build_capturing(warns_too, acc, got, sizeof got));
  CHECK_EQ_INT(count(ours(got), "ampcl-quiet-warning"), 0);
  setenv("AMP_BUILD_WARNINGS", "maybe", 1);
  const char *warns_three = "#warning ampcl-third\n__kernel void third(AMP_VIEW(int, v)) {}\n";
  CHECK_STATUS(build_capturing(warns_three, acc, got, sizeof got), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_BUILD_WARNINGS=maybe");
  unsetenv("AMP_BUILD_WARNINGS");

  /* a clean kernel: nothing printed */
  const char *clean =
      "__kernel void clean(AMP_VIEW(int, v)) { AMP_INDEX1(i); amp_at(v, i[0]) = 2; }\n";
  CHECK_OK(build_capturing(clean, acc, got, sizeof got));
  CHECK_EQ_INT(strlen(ours(got)), 0);

  /* a failed build: each error once in the message, the compiler's counts left out */
  const char *broken =
      "__kernel void a(AMP_VIEW(int, v)) { AMP_INDEX1(i); amp_at(v, i[0]) = xx1; }\n"
      "__kernel void b(AMP_VIEW(int, v)) { AMP_INDEX1(i); amp_at(v, i[0]) = xx2; }\n";
  CHECK_STATUS(build_capturing(broken, acc, got, sizeof got), AMP_ERROR_BUILD_FAILED);
  const char *msg = amp_last_error();
  CHECK_EQ_INT(count(msg, "undeclared identifier 'xx1'"), 1);
  CHECK_EQ_INT(count(msg, "undeclared identifier 'xx2'"), 1);
  CHECK_EQ_INT(count(msg, "<source>:1:"), 1);
  CHECK_EQ_INT(count(msg, "<source>:2:"), 1);
  CHECK_EQ_INT(count(msg, " generated."), 0);
  if (count(msg, "<source>:2:") != 1)
    fprintf(stderr, "message:\n%s\n", msg);
  return check_done();
}
