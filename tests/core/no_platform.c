/* no_platform: with no OpenCL platform installed, ampcl falls back to the CPU accelerator, as
 * C++ AMP does, and says what to install.
 *
 * ctest runs this with OCL_ICD_VENDORS pointing at an empty directory, so the ICD loader finds no
 * driver. The accelerator list is "cpu" alone and it is the default; setting a device path as
 * the default fails (NOT_FOUND); the default view and a launch on the default are refused with
 * AMP_ERROR_UNSUPPORTED_FEATURE naming "cpu" and pocl-opencl-icd; views over host memory still
 * work. When argv[1] is the path of amp-info, the tool lists "cpu" as the default, exits 0 and
 * says that kernels cannot run and what to install. */
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

  /* As AMP falls back to its CPU accelerator: "cpu" alone is listed, and is the default. */
  size_t count = 0;
  CHECK_OK(amp_accelerator_count(&count));
  CHECK_EQ_INT(count, 1);
  amp_accelerator *acc = NULL, *cpu = NULL, *def = NULL;
  amp_accelerator_properties props;
  CHECK_OK(amp_accelerator_get(0, &acc));
  CHECK_OK(amp_accelerator_find("cpu", &cpu));
  CHECK(acc == cpu && cpu != NULL);
  if (cpu) {
    CHECK_OK(amp_accelerator_get_properties(cpu, &props));
    CHECK(props.is_host);
  }
  /* No device to set. */
  CHECK_STATUS(amp_accelerator_set_default("ocl/portable-computing-language/0"),
               AMP_ERROR_NOT_FOUND);
  CHECK_OK(amp_accelerator_get_default(&def));
  CHECK(def == cpu);
  /* Kernels are refused with a message that names the CPU accelerator and what to install. */
  amp_accelerator_view *view = NULL;
  CHECK_STATUS(amp_default_view(&view), AMP_ERROR_UNSUPPORTED_FEATURE);
  CHECK_MSG("\"cpu\"");
  CHECK_MSG("pocl-opencl-icd");
  printf("reason: %s\n", amp_last_error());
  CHECK(view == NULL);
  CHECK_STATUS(amp_accelerator_default_view(cpu, &view), AMP_ERROR_UNSUPPORTED_FEATURE);
  CHECK_MSG("pocl-opencl-icd");
  amp_program *prog = NULL;
  CHECK_OK(amp_program_create("__kernel void k(int x) { (void)x; }", NULL, &prog));
  amp_kernel *k = NULL;
  if (prog)
    CHECK_OK(amp_kernel_create(prog, "k", &k));
  amp_arg args[] = {amp_arg_int(1)};
  if (k) {
    CHECK_STATUS(amp_parallel_for_each_default(amp_extent1(4), k, args, 1),
                 AMP_ERROR_UNSUPPORTED_FEATURE);
    CHECK_MSG("\"cpu\"");
  }
  amp_kernel_release(k);
  amp_program_release(prog);
  /* Host-side views still work: they need no accelerator. */
  int data[4] = {1, 2, 3, 4};
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(4), AMP_INT32, data, &v));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_OK(amp_array_view_release(v));
  CHECK_EQ_INT(data[3], 4);

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
      CHECK_EQ_INT(WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, 0);
      CHECK(strstr(out, "cpu   <-- default") != NULL);
      CHECK(strstr(out, "kernels cannot run") != NULL);
      CHECK(strstr(out, "pocl-opencl-icd") != NULL);
    }
  }
  return check_done();
}
