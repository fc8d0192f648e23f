/* default_accelerator: how the default accelerator is chosen, once per process.
 *
 * The choice is made at first use and then fixed, so each scenario needs a fresh process: ctest
 * runs this program once per scenario (argv[1]) with its own environment.
 *
 *   auto         no AMP_DEFAULT_ACCELERATOR: the rule of ampcl/accelerator.h (non-emulated with
 *                the most memory, else a CPU device), and set_default is refused after it
 *   env          AMP_DEFAULT_ACCELERATOR names a device path (the first device's, which
 *                AMP_TEST_DEVICE=0 sets): exactly that one is chosen
 *   env-unknown  AMP_DEFAULT_ACCELERATOR names no accelerator: AMP_ERROR_NOT_FOUND, every time,
 *                never a fallback
 *   env-cpu      AMP_DEFAULT_ACCELERATOR=cpu: the CPU accelerator is the default, and the
 *                default view is refused, naming it (AMP's cpu runs no kernels)
 *   set          amp_accelerator_set_default before first use: refuses unknown paths and NULL
 *                (neither counts as the one call), accepts a device path once, then refuses a
 *                second setting and a change after first use, changing nothing
 *   set-cpu      amp_accelerator_set_default("cpu"): accepted; the default view is refused
 *   two-env      two devices (POCL_DEVICES="pthread pthread" on POCL), and the environment
 *                variable picks the second (AMP_TEST_DEVICE=1 sets it)
 *   two-set      the same two, and set_default picks the second
 * The two-* scenarios skip (77) when the implementation does not expose two devices here. Device
 * paths come from what is present (check.h), so the test holds on every implementation. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "check.h"

static const char *path_of(const amp_accelerator *acc) {
  amp_accelerator_properties p;
  if (!acc || amp_accelerator_get_properties(acc, &p) != AMP_SUCCESS)
    return "(none)";
  return p.device_path;
}

/* The accelerator at `path`, or NULL with the reason printed. */
static amp_accelerator *find(const char *path) {
  amp_accelerator *acc = NULL;
  if (amp_accelerator_find(path, &acc) != AMP_SUCCESS)
    fprintf(stderr, "find(\"%s\"): %s\n", path, amp_last_error());
  return acc;
}

/* The default is `want`, through every way of asking for it, and is fixed from now on. */
static void check_default_is(const char *want) {
  amp_accelerator *def = NULL, *viaf = NULL, *viav = NULL;
  amp_accelerator_view *view = NULL;
  CHECK_OK(amp_accelerator_get_default(&def));
  const char *why = NULL;
  CHECK_OK(amp_accelerator_default_reason(&why));
  CHECK(why && *why);
  printf("default: %s (expected %s): %s\n", path_of(def), want, why ? why : "(no reason)");
  if (why && getenv("AMP_DEFAULT_ACCELERATOR"))
    CHECK(strstr(why, "AMP_DEFAULT_ACCELERATOR") != NULL);
  CHECK(strcmp(path_of(def), want) == 0);
  CHECK_OK(amp_accelerator_find("default", &viaf));
  CHECK(viaf == def);
  CHECK_OK(amp_default_view(&view));
  CHECK_OK(amp_accelerator_view_get_accelerator(view, &viav));
  CHECK(viav == def);

  /* Too late to change it now, even to the same accelerator; the message names the choice. */
  CHECK_STATUS(amp_accelerator_set_default(want), AMP_ERROR_DEFAULT_ALREADY_USED);
  char quoted[200];
  snprintf(quoted, sizeof quoted, "\"%s\"", want);
  CHECK_MSG(quoted);
  CHECK_STATUS(amp_accelerator_set_default("cpu"), AMP_ERROR_DEFAULT_ALREADY_USED);
  amp_accelerator *again = NULL;
  CHECK_OK(amp_accelerator_get_default(&again));
  CHECK(again == def);
}

/* What the rule picks, computed from OpenCL alone: the non-CPU device with the most global
 * memory, else the CPU device with the most, the first of equals: no implementation is preferred
 * by its name. Devices are counted across platforms in OpenCL's order, which is the accelerator
 * list's order (the accelerators test proves that). */
static void expected_auto(char *out, size_t cap) {
  snprintf(out, cap, "(no OpenCL device)");
  cl_platform_id plats[16];
  cl_uint np = 0;
  if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
    return;
  long best = -1;
  int best_cpu = 1;
  cl_ulong best_mem = 0;
  size_t index = 0;
  for (cl_uint pi = 0; pi < np && pi < 16; pi++) {
    cl_device_id devs[64];
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[pi], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
      continue;
    for (cl_uint di = 0; di < nd && di < 64; di++, index++) {
      cl_device_type type = 0;
      cl_ulong mem = 0;
      clGetDeviceInfo(devs[di], CL_DEVICE_TYPE, sizeof type, &type, NULL);
      clGetDeviceInfo(devs[di], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
      int cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
      if (best < 0 || cpu < best_cpu || (cpu == best_cpu && mem > best_mem)) {
        best = (long)index;
        best_cpu = cpu;
        best_mem = mem;
      }
    }
  }
  amp_accelerator *acc;
  if (best >= 0 && amp_accelerator_get((size_t)best, &acc) == AMP_SUCCESS)
    snprintf(out, cap, "%s", path_of(acc));
}

int main(int argc, char **argv) {
  const char *scenario = argc > 1 ? argv[1] : "auto";
  int skip = test_use_device_from_env();
  if (skip)
    return skip;
  const char *env = getenv("AMP_DEFAULT_ACCELERATOR");
  /* the first two devices' paths, copied: the default is chosen after this */
  char dev0[256] = "(no device)", dev1[256] = "(no second device)";
  if (test_device_path(0))
    snprintf(dev0, sizeof dev0, "%s", test_device_path(0));
  if (test_device_path(1))
    snprintf(dev1, sizeof dev1, "%s", test_device_path(1));
  const char *DEV0 = dev0, *DEV1 = dev1;
  printf("scenario %s, AMP_DEFAULT_ACCELERATOR=%s\n", scenario, env ? env : "(unset)");

  if (strcmp(scenario, "auto") == 0 || strcmp(scenario, "set") == 0 ||
      strcmp(scenario, "set-cpu") == 0 || strcmp(scenario, "two-set") == 0) {
    /* These scenarios are about the absence of the variable: the caller's shell may have it. */
    unsetenv("AMP_DEFAULT_ACCELERATOR");
  } else if (!env) {
    fprintf(stderr, "scenario %s needs AMP_DEFAULT_ACCELERATOR in the environment\n", scenario);
    return 1;
  }

  if (strcmp(scenario, "auto") == 0) {
    char want[200];
    expected_auto(want, sizeof want);
    check_default_is(want);
    amp_accelerator_properties p;
    amp_accelerator *def = find("default");
    if (def && amp_accelerator_get_properties(def, &p) == AMP_SUCCESS)
      CHECK(!p.is_host);
  } else if (strcmp(scenario, "env") == 0) {
    CHECK(find(env) != NULL); /* the test is configured with a path that exists */
    check_default_is(env);
  } else if (strcmp(scenario, "env-unknown") == 0) {
    amp_accelerator *def = NULL;
    amp_accelerator_view *view = NULL;
    CHECK_STATUS(amp_accelerator_get_default(&def), AMP_ERROR_NOT_FOUND);
    CHECK_MSG("AMP_DEFAULT_ACCELERATOR");
    CHECK_MSG(env);
    CHECK_MSG(DEV0); /* the message lists what does exist */
    CHECK(def == NULL);
    /* No silent fallback later either, whichever way the default is asked for. */
    CHECK_STATUS(amp_accelerator_get_default(&def), AMP_ERROR_NOT_FOUND);
    CHECK_STATUS(amp_accelerator_find("default", &def), AMP_ERROR_NOT_FOUND);
    CHECK_STATUS(amp_default_view(&view), AMP_ERROR_NOT_FOUND);
    CHECK(def == NULL && view == NULL);
    /* Other accelerators stay usable by path. */
    CHECK(find(DEV0) != NULL);
  } else if (strcmp(scenario, "env-cpu") == 0 || strcmp(scenario, "set-cpu") == 0) {
    if (strcmp(scenario, "set-cpu") == 0)
      CHECK_OK(amp_accelerator_set_default("cpu"));
    amp_accelerator *def = NULL, *cpu = find("cpu");
    CHECK_OK(amp_accelerator_get_default(&def));
    CHECK(def != NULL && def == cpu);
    amp_accelerator_view *view = NULL;
    CHECK_STATUS(amp_default_view(&view), AMP_ERROR_UNSUPPORTED_FEATURE);
    CHECK_MSG("\"cpu\"");
    CHECK_MSG("AMP_DEFAULT_ACCELERATOR");
    CHECK(view == NULL);
    CHECK_STATUS(amp_accelerator_set_default(DEV0), AMP_ERROR_DEFAULT_ALREADY_USED);
  } else if (strcmp(scenario, "set") == 0) {
    CHECK_STATUS(amp_accelerator_set_default("ocl/no-such-platform/3"), AMP_ERROR_NOT_FOUND);
    CHECK_MSG("ocl/no-such-platform/3");
    CHECK_STATUS(amp_accelerator_set_default(NULL), AMP_ERROR_INVALID_ARGUMENT);
    /* None of those refusals counted: setting it still works, once. */
    CHECK_OK(amp_accelerator_set_default(DEV0));
    CHECK_STATUS(amp_accelerator_set_default("cpu"), AMP_ERROR_DEFAULT_ALREADY_USED);
    CHECK_MSG("once per process");
    CHECK_MSG(DEV0);
    check_default_is(DEV0);
  } else if (strcmp(scenario, "two-env") == 0 || strcmp(scenario, "two-set") == 0) {
    if (!test_device_path(1)) {
      fprintf(stderr, "skip: one device only (POCL makes two with POCL_DEVICES=\"pthread "
                      "pthread\")\n");
      return SKIP;
    }
    amp_accelerator *a0 = find(DEV0), *a1 = find(DEV1);
    CHECK(a0 != NULL && a1 != NULL && a0 != a1);
    if (strcmp(scenario, "two-set") == 0) {
      CHECK_OK(amp_accelerator_set_default(DEV1));
      /* once per process: a second setting is refused and changes nothing */
      CHECK_STATUS(amp_accelerator_set_default(DEV0), AMP_ERROR_DEFAULT_ALREADY_USED);
      CHECK_MSG(DEV1);
    } else {
      CHECK(strcmp(env, DEV1) == 0);
    }
    check_default_is(DEV1);
    amp_accelerator *def = find("default");
    CHECK(def == a1);
  } else {
    fprintf(stderr, "unknown scenario \"%s\"\n", scenario);
    return 1;
  }
  return check_done();
}
