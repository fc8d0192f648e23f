/* build_errors: a kernel build error names the user's file and line, not the driver's
 * temporary file: amp_program_create_from_file gives the path, a string made by ampcl_embed_cl
 * (which starts with `#line 1 "FILE"`) gives its file, and a bare string is "<source>". On a
 * compiler that ignores #line (NVIDIA's) only the line numbers are mended, which POCL does not
 * need; this test runs on POCL. */
#include "check.h"

#include <ampcl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Line 3 uses an undeclared name. */
static const char *bad = "__kernel void broken(AMP_VIEW(int, v)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(v, i[0]) = not_declared_anywhere;\n"
                         "}\n";

static void expect_build_error(amp_program *p, amp_accelerator *acc, const char *where) {
  CHECK_STATUS(amp_program_build(p, acc), AMP_ERROR_BUILD_FAILED);
  CHECK_MSG(where);
  if (!strstr(amp_last_error(), where))
    fprintf(stderr, "expected \"%s\" in:\n%s\n", where, amp_last_error());
  amp_program_release(p);
}

int main(void) {
  amp_accelerator *acc;
  REQUIRE_OK(amp_accelerator_get_default(&acc));
  amp_program *p;

  char dir[] = "/tmp/ampcl-build-error-XXXXXX";
  char path[sizeof dir + 16] = "";
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/broken.cl", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(bad, f);
    fclose(f);
    char where[sizeof path + 8];
    snprintf(where, sizeof where, "%s:3:", path);
    CHECK_OK(amp_program_create_from_file(path, NULL, &p));
    expect_build_error(p, acc, where);
    remove(path);
  }
  remove(dir);

  char embedded[512];
  snprintf(embedded, sizeof embedded, "#line 1 \"/home/me/kernels/mine.cl\"\n%s", bad);
  CHECK_OK(amp_program_create(embedded, NULL, &p));
  expect_build_error(p, acc, "/home/me/kernels/mine.cl:3:");
  CHECK_OK(amp_program_create(embedded, NULL, &p));
  expect_build_error(p, acc, "kernel source /home/me/kernels/mine.cl failed");

  CHECK_OK(amp_program_create(bad, NULL, &p));
  expect_build_error(p, acc, "<source>:3:");
  return check_done();
}
