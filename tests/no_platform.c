/* no_platform: with no OpenCL platform installed, ampcl says so and says what to install.
 *
 * ctest runs this with OCL_ICD_VENDORS pointing at an empty directory, so the ICD loader finds no
 * driver. Every call that needs the accelerator list fails with AMP_ERROR_NO_PLATFORM and a
 * message naming pocl-opencl-icd, rather than crashing or inventing a device. When argv[1] is
 * the path of amp-info, the tool must exit 1 and print the same advice. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <sys/wait.h>

#include "check.h"

int main(int argc, char **argv) {
  /* The reference: OpenCL itself must see no platform, or this test has nothing to prove. */
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(0, NULL, &np);
  if (err == CL_SUCCESS && np > 0) {
    fprintf(stderr,
            "skip: the ICD loader still finds %u platform(s); OCL_ICD_VENDORS=%s is not "
            "honoured here\n",
            np, getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "(unset)");
    return SKIP;
  }
  printf("clGetPlatformIDs: %d, %u platforms\n", (int)err, np);

  size_t count = 12345;
  CHECK_STATUS(amp_accelerator_count(&count), AMP_ERROR_NO_PLATFORM);
  CHECK_MSG("pocl-opencl-icd");
  CHECK_EQ_INT(count, 12345); /* untouched on failure */
  printf("reason: %s\n", amp_last_error());

  /* Every way in reports the same, also on the second try (the failure is remembered). */
  amp_accelerator *acc = NULL;
  amp_accelerator_view *view = NULL;
  CHECK_STATUS(amp_accelerator_get(0, &acc), AMP_ERROR_NO_PLATFORM);
  CHECK_STATUS(amp_accelerator_find("cpu", &acc), AMP_ERROR_NO_PLATFORM);
  CHECK_STATUS(amp_accelerator_get_default(&acc), AMP_ERROR_NO_PLATFORM);
  CHECK_STATUS(amp_accelerator_set_default("ocl/portable-computing-language/0"),
               AMP_ERROR_NO_PLATFORM);
  CHECK_STATUS(amp_default_view(&view), AMP_ERROR_NO_PLATFORM);
  CHECK_MSG("pocl-opencl-icd");
  CHECK(acc == NULL && view == NULL);
  CHECK_STATUS(amp_accelerator_count(&count), AMP_ERROR_NO_PLATFORM);

  if (argc > 1) {
    /* amp-info, the first thing a user runs, must fail the same way: exit 1, with the advice. */
    char cmd[4096], out[4096] = "";
    snprintf(cmd, sizeof cmd, "'%s' 2>&1", argv[1]);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    if (p) {
      size_t n = fread(out, 1, sizeof out - 1, p);
      out[n] = '\0';
      int ws = pclose(p);
      printf("amp-info said:\n%s", out);
      CHECK(WIFEXITED(ws));
      CHECK_EQ_INT(WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, 1);
      CHECK(strstr(out, "AMP_ERROR_NO_PLATFORM") != NULL);
      CHECK(strstr(out, "pocl-opencl-icd") != NULL);
    }
  }
  return check_done();
}
