/* runtime/core/device_properties.c: what ampcl reads of an OpenCL device into its
 * amp_accelerator (AMP §3.2's accelerator properties, and the limits the runtime keeps beside
 * them), and the host "cpu" accelerator's. */
#include "core/device_properties.h"
#include "core/accelerator_impl.h"
#include "core/device_limits.h"

#include <CL/cl_ext.h>                        /* CL_DEVICE_COMPUTE_CAPABILITY_*_NV */
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV /* older headers: the values of                      \
                                                 cl_nv_device_attribute_query */
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string property of a device (d) or, with d NULL, of a platform (p): "" when the driver
 * gives none; NULL only when out of memory. */
static char *info_string(cl_device_id d, cl_platform_id p, cl_uint what) {
  size_t n = 0;
  cl_int err = d ? clGetDeviceInfo(d, what, 0, NULL, &n) : clGetPlatformInfo(p, what, 0, NULL, &n);
  if (err != CL_SUCCESS || n == 0)
    return strdup("");
  char *s = calloc(n + 1, 1);
  if (s && (d ? clGetDeviceInfo(d, what, n, s, NULL) : clGetPlatformInfo(p, what, n, s, NULL)) !=
               CL_SUCCESS)
    s[0] = '\0';
  return s;
}

static char *dev_string(cl_device_id d, cl_device_info what) {
  return info_string(d, NULL, what);
}

char *amp__platform_string(cl_platform_id p, cl_platform_info what) {
  return info_string(NULL, p, what);
}

/* Concatenates the strings into one allocation and points props at them. */
static int pack_strings(amp_accelerator *a, const char *path, const char *desc, const char *vendor,
                        const char *name, const char *driver, const char *version,
                        const char *platform) {
  const char *src[7] = {path, desc, vendor, name, driver, version, platform};
  size_t total = 0;
  for (int i = 0; i < 7; i++)
    total += strlen(src[i]) + 1;
  a->strings = malloc(total);
  if (!a->strings)
    return 0;
  char *p = a->strings;
  const char **dst[7] = {&a->props.device_path,  &a->props.description,    &a->props.vendor,
                         &a->props.name,         &a->props.driver_version, &a->props.version,
                         &a->props.platform_name};
  for (int i = 0; i < 7; i++) {
    size_t n = strlen(src[i]) + 1;
    memcpy(p, src[i], n);
    *dst[i] = p;
    p += n;
  }
  return 1;
}

static amp_accelerator *new_accelerator(size_t index) {
  amp_accelerator *a = amp__handle_alloc(sizeof *a);
  if (!a)
    return NULL;
  a->magic = AMP__MAGIC_ACCELERATOR;
  a->index = index;
  a->base_align = 128; /* until a device answers (amp__describe_device) */
  pthread_mutex_init(&a->lock, NULL);
  return a;
}

/* Whether device d lists OpenCL extension `name` (a whole word of CL_DEVICE_EXTENSIONS). */
static int has_extension(cl_device_id d, const char *name) {
  size_t len = 0, n = strlen(name);
  int found = 0;
  if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &len) != CL_SUCCESS || len == 0)
    return 0;
  char *ext = malloc(len + 1);
  if (ext && clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, len, ext, NULL) == CL_SUCCESS) {
    ext[len] = '\0';
    for (const char *p = ext; !found && (p = strstr(p, name)) != NULL; p += n)
      found = (p == ext || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0');
  }
  free(ext);
  return found;
}

/* 10 * major + minor of an NVIDIA device's compute capability; 0 where the driver does not say. */
static unsigned nv_compute_capability(cl_device_id d) {
  cl_uint major = 0, minor = 0;
  if (!has_extension(d, "cl_nv_device_attribute_query") ||
      clGetDeviceInfo(d, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) !=
          CL_SUCCESS ||
      clGetDeviceInfo(d, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL) !=
          CL_SUCCESS ||
      major > 100 || minor > 9)
    return 0;
  return 10 * major + minor;
}

/* The most tile_static memory a kernel may declare on a device that answers a compute capability
 * (cl_nv_device_attribute_query): the driver reports CUDA's default per block (48 KB) but builds
 * and runs kernels that declare up to the GPU's opt-in limit, which CUDA documents per compute
 * capability (docs/KERNELS.md); `reported` where the device answers none (cc 0). */
static uint64_t nv_declared_local(unsigned cc, uint64_t reported) {
  static const struct {
    unsigned cc, kb;
  } optin[] = {{90, 227}, {89, 99}, {87, 163}, {86, 99}, {80, 163}, {75, 64}, {70, 96}};
  for (size_t i = 0; cc && i < sizeof optin / sizeof optin[0]; i++)
    if (cc >= optin[i].cc)
      return (uint64_t)optin[i].kb * 1024 > reported ? (uint64_t)optin[i].kb * 1024 : reported;
  return reported;
}

amp_accelerator *amp__describe_device(cl_platform_id p, cl_device_id d, const char *path,
                                      const char *platform_name, size_t index) {
  amp_accelerator *a = new_accelerator(index);
  if (!a)
    return NULL;
  a->platform = p;
  a->device = d;
  char *vendor = dev_string(d, CL_DEVICE_VENDOR);
  char *name = dev_string(d, CL_DEVICE_NAME);
  char *driver = dev_string(d, CL_DRIVER_VERSION);
  char *version = dev_string(d, CL_DEVICE_VERSION);
  char desc[768];
  snprintf(desc, sizeof desc, "%s %s (driver %s)", vendor ? vendor : "", name ? name : "",
           driver ? driver : "");
  int ok = vendor && name && driver && version &&
           pack_strings(a, path, desc, vendor, name, driver, version, platform_name);
  free(vendor);
  free(name);
  free(driver);
  free(version);
  if (!ok) {
    amp__handle_retire(a);
    return NULL;
  }

  amp_accelerator_properties *pr = &a->props;
  cl_device_type type = 0;
  cl_ulong mem = 0, local = 0;
  cl_uint cus = 0, clock = 0;
  size_t wg = 0, items[3] = {1, 1, 1};
  cl_device_fp_config fp64 = 0;
  cl_bool unified = CL_FALSE;
  clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
  clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock, &clock, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
  /* The answer has one entry per dimension the device reports (at least 3, possibly more): ask
   * with room for all of them, or OpenCL refuses the query and the sizes stay unknown. */
  cl_uint dims = 0;
  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, NULL);
  size_t *all = dims >= 3 ? calloc(dims, sizeof *all) : NULL;
  if (all && clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof *all, all, NULL) ==
                 CL_SUCCESS)
    memcpy(items, all, sizeof items);
  free(all);
  if (clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL) != CL_SUCCESS)
    fp64 = 0;
  clGetDeviceInfo(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);

  pr->dedicated_memory = mem;
  pr->is_host = false;
  pr->is_emulated = (type & CL_DEVICE_TYPE_CPU) != 0;
  /* OpenCL 1.2 §4.2: a device with double support reports at least FMA, round to nearest, round
   * to zero, round to infinity, INF and NaN, and denormals. */
  const cl_device_fp_config full = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                   CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
  pr->supports_double_precision = (fp64 & full) == full;
  pr->supports_limited_double_precision = fp64 != 0;
  pr->supports_cpu_shared_memory = unified == CL_TRUE;
  /* AMP's 1024 threads per tile on every device, also where the device allows more (POCL and
   * Intel's CPU runtime: 4096 and 8192), so that code written there runs on a GPU */
  a->device_max_tile = wg;
  pr->max_tile_size = wg < AMP__MAX_TILE_THREADS ? wg : AMP__MAX_TILE_THREADS;
  /* AMP order: a rank-3 tile (t0, t1, t2) runs as OpenCL local size (t2, t1, t0). */
  for (int k = 0; k < 3; k++)
    pr->max_tile_extent[k] = items[2 - k] < pr->max_tile_size ? items[2 - k] : pr->max_tile_size;
  if (pr->max_tile_extent[0] > AMP__MAX_TILE_DEPTH) /* AMP's rule for a rank-3 tile's dimension 0 */
    pr->max_tile_extent[0] = AMP__MAX_TILE_DEPTH;
  pr->local_memory = local;
  a->has_int64_atomics = !has_extension(d, "cl_khr_int64_base_atomics")       ? 0
                         : !has_extension(d, "cl_khr_int64_extended_atomics") ? 1
                                                                              : 2;
  pr->compute_units = cus;
  pr->max_clock_mhz = clock;
  pr->compute_capability = nv_compute_capability(d);
  a->declared_local_limit = nv_declared_local(pr->compute_capability, local);
  cl_ulong max_alloc = 0;
  cl_uint align_bits = 0;
  a->max_alloc = clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                                 NULL) == CL_SUCCESS
                     ? max_alloc
                     : 0;
  /* 128 bytes where the answer is missing or below a byte: OpenCL 1.2's least for a full
   * profile's long16 */
  a->base_align = clGetDeviceInfo(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
                                  NULL) == CL_SUCCESS &&
                          align_bits >= 8
                      ? align_bits / 8
                      : 128;
  amp__device_limits_apply(a); /* AMP_DEVICE_LIMITS: a weaker device, for tests */
  return a;
}

amp_accelerator *amp__describe_host(size_t index) {
  amp_accelerator *a = new_accelerator(index);
  if (!a)
    return NULL;
  if (!pack_strings(a, "cpu", "CPU accelerator (host memory; not a kernel target)", "host", "cpu",
                    "", "", "")) {
    amp__handle_retire(a);
    return NULL;
  }
  a->props.is_host = true;
  a->props.supports_cpu_shared_memory = true;
  return a;
}
