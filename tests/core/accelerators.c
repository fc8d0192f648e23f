/* accelerators: the accelerator list is OpenCL's device list plus "cpu", with OpenCL's answers.
 *
 * Proves, with OpenCL itself (clGetPlatformIDs, clGetDeviceIDs, clGetDeviceInfo) as the
 * independent reference:
 *   - amp_accelerator_count() is the number of OpenCL devices + 1, and "cpu" comes last;
 *   - every device path is "ocl/<platform slug>/<n>" as ampcl/accelerator.h defines it, unique;
 *   - every property equals what OpenCL reports, tile extents in AMP order (reversed);
 *   - amp_accelerator_find() round-trips every path, knows "cpu" and "default", and an unknown
 *     path is AMP_ERROR_NOT_FOUND with the known paths listed in the message. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ctype.h>

#include "check.h"

#include <CL/cl_ext.h>                        /* CL_DEVICE_COMPUTE_CAPABILITY_*_NV */
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV /* older headers */
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif

enum { MAX_DEVICES = 64 };

/* What OpenCL says about one device, and the path ampcl must give it. */
typedef struct reference {
  char path[160];
  cl_platform_id platform;
  cl_device_id device;
} reference;

/* The slug rule of ampcl/accelerator.h, written again here from its text: lower case, every run of
 * characters other than letters and digits becomes one '-' (none at either end). */
static void slug(const char *name, char *out, size_t cap) {
  size_t o = 0;
  int pending_dash = 0;
  for (const char *c = name; *c && o + 2 < cap; c++) {
    if (isalnum((unsigned char)*c)) {
      if (pending_dash && o > 0)
        out[o++] = '-';
      out[o++] = (char)tolower((unsigned char)*c);
      pending_dash = 0;
    } else {
      pending_dash = 1;
    }
  }
  out[o] = '\0';
}

/* Fills refs[] from OpenCL in platform order; returns the number of devices. */
static size_t opencl_devices(reference *refs) {
  cl_uint np = 0;
  if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0)
    return 0;
  cl_platform_id plats[16];
  if (np > 16)
    np = 16;
  clGetPlatformIDs(np, plats, NULL);
  char slugs[16][96];
  size_t n = 0;
  for (cl_uint p = 0; p < np; p++) {
    char name[256] = "";
    clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
    slug(name, slugs[p], sizeof slugs[p]);
    int same = 1; /* platforms of this slug so far, this one included */
    for (cl_uint q = 0; q < p; q++)
      same += strcmp(slugs[p], slugs[q]) == 0;
    char part[112];
    if (same > 1)
      snprintf(part, sizeof part, "%.95s~%d", slugs[p], same);
    else
      snprintf(part, sizeof part, "%.95s", slugs[p]);
    cl_uint nd = 0;
    cl_device_id devs[MAX_DEVICES];
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) != CL_SUCCESS)
      continue;
    for (cl_uint d = 0; d < nd && d < MAX_DEVICES && n < MAX_DEVICES; d++, n++) {
      snprintf(refs[n].path, sizeof refs[n].path, "ocl/%s/%u", part, d);
      refs[n].platform = plats[p];
      refs[n].device = devs[d];
    }
  }
  return n;
}

/* "ocl/" + [a-z0-9-]+ (optionally "~N") + "/" + digits, no dash at either end of the slug. */
static int well_formed(const char *path) {
  if (strncmp(path, "ocl/", 4) != 0)
    return 0;
  const char *s = path + 4, *slash = strchr(s, '/');
  if (!slash || slash == s || s[0] == '-' || slash[-1] == '-')
    return 0;
  for (const char *c = s; c < slash; c++)
    if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '-' || *c == '~'))
      return 0;
  if (!slash[1])
    return 0;
  for (const char *c = slash + 1; *c; c++)
    if (!isdigit((unsigned char)*c))
      return 0;
  return 1;
}

static void check_string(const char *what, const char *got, cl_device_id d, cl_device_info info) {
  char want[1024] = "";
  clGetDeviceInfo(d, info, sizeof want, want, NULL);
  if (strcmp(got, want) != 0)
    fprintf(stderr, "  %s: ampcl \"%s\", OpenCL \"%s\"\n", what, got, want);
  CHECK(strcmp(got, want) == 0);
}

/* Every property of one device accelerator against clGetDeviceInfo. */
static void check_properties(const amp_accelerator_properties *p, const reference *r) {
  cl_device_id d = r->device;
  cl_device_type type = 0;
  cl_ulong mem = 0, local = 0;
  cl_uint cus = 0, clock = 0, dims = 0;
  size_t wg = 0, items[16] = {0};
  cl_device_fp_config fp64 = 0;
  cl_bool unified = CL_FALSE;
  clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
  clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock, &clock, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL);
  if (clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL) != CL_SUCCESS)
    fp64 = 0;
  clGetDeviceInfo(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);

  char platform[256] = "";
  clGetPlatformInfo(r->platform, CL_PLATFORM_NAME, sizeof platform, platform, NULL);
  CHECK(strcmp(p->platform_name, platform) == 0);
  check_string("vendor", p->vendor, d, CL_DEVICE_VENDOR);
  check_string("name", p->name, d, CL_DEVICE_NAME);
  check_string("driver_version", p->driver_version, d, CL_DRIVER_VERSION);
  check_string("version", p->version, d, CL_DEVICE_VERSION);
  CHECK(strstr(p->description, p->name) != NULL);

  CHECK_EQ_INT(p->dedicated_memory, mem);
  /* AMP_DEVICE_LIMITS (docs/CHECKING.md, "Weaker devices") lowers what the device answers: a
   * capability it names is then at most the device's; unset, each is the device's exactly */
  const char *limits = getenv("AMP_DEVICE_LIMITS");
  const int lowered = limits && *limits;
#define CHECK_AT_MOST(prop, answer)                                                                \
  do {                                                                                             \
    if (lowered)                                                                                   \
      CHECK((prop) <= (answer));                                                                   \
    else                                                                                           \
      CHECK_EQ_INT(prop, answer);                                                                  \
  } while (0)
  CHECK_AT_MOST(p->local_memory, local);
  CHECK_EQ_INT(p->compute_units, cus);
  CHECK_EQ_INT(p->max_clock_mhz, clock);
  /* NVIDIA's compute capability where the driver answers the query, 0 elsewhere. */
  cl_uint cc_major = 0, cc_minor = 0;
  if (clGetDeviceInfo(d, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof cc_major, &cc_major, NULL) !=
          CL_SUCCESS ||
      clGetDeviceInfo(d, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof cc_minor, &cc_minor, NULL) !=
          CL_SUCCESS)
    cc_major = cc_minor = 0;
  CHECK_EQ_INT(p->compute_capability, 10 * cc_major + cc_minor);
  /* C++ AMP's 1024 threads per tile on every device, or the device's limit where smaller */
  const size_t tile = wg < 1024 ? wg : 1024;
  CHECK_AT_MOST(p->max_tile_size, tile);
  /* AMP dimension 0 is the slowest, OpenCL dimension 0 the fastest: the triple is reversed.
   * (POCL reports the same size in every dimension; a GPU such as NVIDIA's tells them apart.) */
  CHECK(dims >= 3);
  /* AMP dimension 0 of a rank-3 tile: also at most C++ AMP's 64, on every device */
  const size_t depth = items[2] < tile ? items[2] : tile;
  CHECK_AT_MOST(p->max_tile_extent[0], depth < 64 ? depth : 64);
  CHECK_AT_MOST(p->max_tile_extent[1], items[1] < tile ? items[1] : tile);
  CHECK_AT_MOST(p->max_tile_extent[2], items[0] < tile ? items[0] : tile);

  CHECK_EQ_INT(p->is_host, 0);
  CHECK_EQ_INT(p->is_emulated, (type & CL_DEVICE_TYPE_CPU) != 0);
  CHECK_EQ_INT(p->is_debug, 0);
  CHECK_EQ_INT(p->has_display, 0);
  const cl_device_fp_config full = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                   CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
  CHECK_AT_MOST(p->supports_double_precision, (fp64 & full) == full);
  CHECK_AT_MOST(p->supports_limited_double_precision, fp64 != 0);
  CHECK_EQ_INT(p->supports_cpu_shared_memory, unified == CL_TRUE);
#undef CHECK_AT_MOST
}

int main(void) {
  static reference refs[MAX_DEVICES];
  size_t ndev = opencl_devices(refs);
  if (ndev == 0) {
    fprintf(stderr, "skip: OpenCL reports no device (install pocl-opencl-icd)\n");
    return SKIP;
  }

  /* Enumeration: OpenCL's devices in order, then "cpu". */
  size_t count = 0;
  REQUIRE_OK(amp_accelerator_count(&count));
  CHECK_EQ_INT(count, ndev + 1);
  if (count != ndev + 1)
    return check_done();
  amp_accelerator *accs[MAX_DEVICES + 1];
  amp_accelerator_properties props[MAX_DEVICES + 1];
  for (size_t i = 0; i < count; i++) {
    REQUIRE_OK(amp_accelerator_get(i, &accs[i]));
    REQUIRE_OK(amp_accelerator_get_properties(accs[i], &props[i]));
  }
  for (size_t i = 0; i < ndev; i++) {
    printf("%s: %s\n", props[i].device_path, props[i].description);
    if (strcmp(props[i].device_path, refs[i].path) != 0)
      fprintf(stderr, "  accelerator %zu: path \"%s\", expected \"%s\"\n", i, props[i].device_path,
              refs[i].path);
    CHECK(strcmp(props[i].device_path, refs[i].path) == 0);
    CHECK(well_formed(props[i].device_path));
    check_properties(&props[i], &refs[i]);
  }
  CHECK(ndev >= 1); /* the tests run on an OpenCL device everywhere (POCL's CPU at least) */

  /* The host comes last and is no kernel target. */
  const amp_accelerator_properties *host = &props[count - 1];
  CHECK(strcmp(host->device_path, "cpu") == 0);
  CHECK(host->is_host);
  CHECK(!host->is_emulated);
  CHECK(strcmp(host->platform_name, "") == 0);

  /* Paths are unique. */
  for (size_t i = 0; i < count; i++)
    for (size_t j = i + 1; j < count; j++)
      CHECK(strcmp(props[i].device_path, props[j].device_path) != 0);

  /* One past the end, and a NULL out. */
  amp_accelerator *acc = NULL;
  CHECK_STATUS(amp_accelerator_get(count, &acc), AMP_ERROR_OUT_OF_RANGE);
  CHECK_STATUS(amp_accelerator_get(0, NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_accelerator_count(NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_accelerator_get_properties(accs[0], NULL), AMP_ERROR_INVALID_ARGUMENT);

  /* find: every path gives back the same handle. */
  for (size_t i = 0; i < count; i++) {
    acc = NULL;
    CHECK_OK(amp_accelerator_find(props[i].device_path, &acc));
    CHECK(acc == accs[i]);
  }
  CHECK_OK(amp_accelerator_find("cpu", &acc));
  CHECK(acc == accs[count - 1]);
  amp_accelerator *def = NULL;
  CHECK_OK(amp_accelerator_find("default", &acc));
  CHECK_OK(amp_accelerator_get_default(&def));
  CHECK(acc == def);
  CHECK(def != accs[count - 1]); /* never "cpu" */

  /* An unknown path is an error that lists what exists, never a fallback. */
  acc = NULL;
  CHECK_STATUS(amp_accelerator_find("ocl/no-such-platform/0", &acc), AMP_ERROR_NOT_FOUND);
  CHECK(acc == NULL);
  CHECK_MSG("ocl/no-such-platform/0");
  for (size_t i = 0; i < count; i++) {
    char quoted[200];
    snprintf(quoted, sizeof quoted, "\"%s\"", props[i].device_path);
    CHECK_MSG(quoted);
  }
  /* A path is matched whole: a prefix or a different case is unknown. */
  CHECK_STATUS(amp_accelerator_find("ocl/portable-computing-language", &acc), AMP_ERROR_NOT_FOUND);
  CHECK_STATUS(amp_accelerator_find("CPU", &acc), AMP_ERROR_NOT_FOUND);
  CHECK_STATUS(amp_accelerator_find(NULL, &acc), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("path is NULL");
  CHECK_STATUS(amp_accelerator_find("cpu", NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("out is NULL");
  return check_done();
}
