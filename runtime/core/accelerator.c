/* runtime/core/accelerator.c: enumerating accelerators and choosing the default (AMP §3.2).
 *
 * The list is built once, on the first call that needs it: every device of every OpenCL platform,
 * then the host "cpu". Handles live until the process ends. See ampcl/accelerator.h for the
 * device path format and the rules of the default. */
#include "core/accelerator_impl.h"
#include "core/cache_dir.h"
#include "core/clobjects.h"
#include "core/device_limits.h"

#include <CL/cl_ext.h>                        /* CL_DEVICE_COMPUTE_CAPABILITY_*_NV */
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV /* older headers: the values of                      \
                                                 cl_nv_device_attribute_query */
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
  pthread_once_t once;
  amp_status init_status;
  char init_error[512];
  amp_accelerator **list;
  size_t count;

  pthread_mutex_t lock;    /* guards the default */
  amp_accelerator *chosen; /* the default, once used */
  amp_accelerator *preset; /* set by amp_accelerator_set_default before first use */
  char no_device[256];     /* why only "cpu" is listed (no OpenCL platform or device), or "" */
  char reason[256];        /* why the default is the one it is, once chosen */
} g = {PTHREAD_ONCE_INIT, AMP_SUCCESS, "", NULL, 0, PTHREAD_MUTEX_INITIALIZER, NULL, NULL, "", ""};

/* ---- reading device information --------------------------------------------------------- */

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

static char *platform_string(cl_platform_id p, cl_platform_info what) {
  return info_string(NULL, p, what);
}

/* "Portable Computing Language" -> "portable-computing-language" */
static void slugify(const char *in, char *out, size_t cap) {
  size_t o = 0;
  int dash = 0;
  for (const char *c = in; *c && o + 2 < cap; c++) {
    if (isalnum((unsigned char)*c)) {
      if (dash && o > 0)
        out[o++] = '-';
      out[o++] = (char)tolower((unsigned char)*c);
      dash = 0;
    } else {
      dash = 1;
    }
  }
  if (o == 0)
    out[o++] = 'x';
  out[o] = '\0';
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

static amp_accelerator *describe_device(cl_platform_id p, cl_device_id d, const char *path,
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
  a->has_int64_atomics = has_extension(d, "cl_khr_int64_base_atomics");
  pr->compute_units = cus;
  pr->max_clock_mhz = clock;
  pr->compute_capability = nv_compute_capability(d);
  a->declared_local_limit = nv_declared_local(pr->compute_capability, local);
  amp__device_limits_apply(a); /* AMP_DEVICE_LIMITS: a weaker device, for tests */
  return a;
}

static amp_accelerator *describe_host(size_t index) {
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

/* ---- enumeration ------------------------------------------------------------------------- */

static void init_fail(amp_status st, const char *msg) {
  g.init_status = st;
  snprintf(g.init_error, sizeof g.init_error, "%s", msg);
}

static void enumerate(void) {
  /* before any driver is loaded, and once: the drivers' kernel caches in a private directory */
  amp__cache_dir_setup();
  if (!amp__device_limits_check(g.init_error, sizeof g.init_error)) {
    g.init_status = AMP_ERROR_INVALID_ARGUMENT; /* the reason names AMP_DEVICE_LIMITS's item */
    return;
  }
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(0, NULL, &np);
  if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && np == 0)) {
    /* As AMP falls back to its CPU accelerator: only "cpu" is listed, and it is the default. */
    snprintf(g.no_device, sizeof g.no_device,
             "no OpenCL platform is installed: install pocl-opencl-icd for the CPU "
             "(apt-get install pocl-opencl-icd) or your GPU vendor's OpenCL driver");
    np = 0;
  } else if (err != CL_SUCCESS) {
    char m[128];
    snprintf(m, sizeof m, "clGetPlatformIDs failed: %s (%d)", amp_status_name(amp__cl_status(err)),
             (int)err);
    init_fail(amp__cl_status(err), m);
    return;
  }
  cl_platform_id *plats = calloc(np ? np : 1, sizeof *plats);
  char(*slugs)[96] = calloc(np ? np : 1, sizeof *slugs);
  size_t cap = 8, n = 0;
  amp_accelerator **list = calloc(cap, sizeof *list);
  if (!plats || !slugs || !list || (np && clGetPlatformIDs(np, plats, NULL) != CL_SUCCESS)) {
    init_fail(AMP_ERROR_OUT_OF_MEMORY, "enumerating OpenCL platforms failed");
    goto done;
  }
  for (cl_uint pi = 0; pi < np; pi++) {
    char *pname = platform_string(plats[pi], CL_PLATFORM_NAME);
    if (!pname)
      continue;
    char base[80];
    slugify(pname, base, sizeof base);
    /* a second platform of the same name: base~2, base~3 ... */
    int dup = 1;
    for (cl_uint q = 0; q < pi; q++) {
      char other[80];
      snprintf(other, sizeof other, "%s", slugs[q]);
      char *tilde = strchr(other, '~');
      if (tilde)
        *tilde = '\0';
      if (strcmp(other, base) == 0)
        dup++;
    }
    if (dup > 1)
      snprintf(slugs[pi], sizeof slugs[pi], "%s~%d", base, dup);
    else
      snprintf(slugs[pi], sizeof slugs[pi], "%s", base);

    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[pi], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0) {
      free(pname);
      continue;
    }
    cl_device_id *devs = calloc(nd, sizeof *devs);
    if (devs && clGetDeviceIDs(plats[pi], CL_DEVICE_TYPE_ALL, nd, devs, NULL) == CL_SUCCESS) {
      for (cl_uint di = 0; di < nd; di++) {
        char path[128];
        snprintf(path, sizeof path, "ocl/%s/%u", slugs[pi], di);
        if (n + 2 > cap) {
          amp_accelerator **grown = realloc(list, 2 * cap * sizeof *list);
          if (!grown)
            break;
          list = grown;
          cap *= 2;
        }
        amp_accelerator *a = describe_device(plats[pi], devs[di], path, pname, n);
        if (a)
          list[n++] = a;
      }
    }
    free(devs);
    free(pname);
  }
  if (n == 0 && !g.no_device[0])
    snprintf(g.no_device, sizeof g.no_device,
             "OpenCL platforms were found but they expose no device: install pocl-opencl-icd "
             "for the CPU or check your GPU driver");
  amp_accelerator *host = describe_host(n);
  if (!host) {
    init_fail(AMP_ERROR_OUT_OF_MEMORY, "out of memory describing the host accelerator");
    goto done;
  }
  list[n++] = host;
  g.list = list;
  g.count = n;
  list = NULL;
done:
  if (list) {
    for (size_t i = 0; i < n; i++) {
      free(list[i]->strings);
      amp__handle_retire(list[i]);
    }
    free(list);
  }
  free(plats);
  free(slugs);
}

const char *amp__no_device_reason(void) {
  return g.no_device;
}

amp_status amp__accelerators(amp_accelerator ***list, size_t *count) {
  pthread_once(&g.once, enumerate);
  if (g.init_status != AMP_SUCCESS)
    return amp__set_error(g.init_status, "%s", g.init_error);
  *list = g.list;
  *count = g.count;
  return AMP_SUCCESS;
}

static amp_status lookup(const char *path, const char *fn, amp_accelerator **out) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator **list = NULL;
  size_t n = 0;
  AMP__TRY(amp__accelerators(&list, &n));
  for (size_t i = 0; i < n; i++) {
    if (strcmp(list[i]->props.device_path, path) == 0) {
      *out = list[i];
      return AMP_SUCCESS;
    }
  }
  char known[1024] = "";
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(known);
    snprintf(known + len, sizeof known - len, "%s\"%s\"", i ? ", " : "",
             list[i]->props.device_path);
  }
  AMP__FAIL(AMP_ERROR_NOT_FOUND, "%s: no accelerator has the device path \"%s\" (known: %s)", fn,
            path, known);
fail:
  return status;
}

/* ---- the default ------------------------------------------------------------------------- */

/* CPU implementations in the order ampcl prefers them when several are installed: the one that ran
 * ampcl's CPU workloads (add-exp, n-body, matmul, reduce, scan, transpose, stencil) faster on most
 * of them comes first (docs/IMPLEMENTATIONS.md has the measurement). An implementation not listed
 * comes after these. */
static const struct {
  const char *platform; /* CL_PLATFORM_NAME */
  const char *why;      /* what the measurement showed */
} cpu_preference[] = {
    {"Intel(R) OpenCL", "Intel's CPU runtime ran 7 of ampcl's 10 CPU workloads faster than POCL"},
    {"Portable Computing Language", "POCL"},
};
enum { CPU_UNRANKED = sizeof cpu_preference / sizeof cpu_preference[0] };

static size_t cpu_rank(const amp_accelerator *a) {
  for (size_t i = 0; i < CPU_UNRANKED; i++)
    /* name picks a preference: the order of speed measured, not a capability */
    if (strcmp(a->props.platform_name, cpu_preference[i].platform) == 0)
      return i;
  return CPU_UNRANKED;
}

/* The rules of ampcl/accelerator.h; called with g.lock held, on first use. Records the reason. */
static amp_status choose_default(amp_accelerator **out) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator **list = NULL;
  size_t n = 0;
  AMP__TRY(amp__accelerators(&list, &n));
  if (g.preset) {
    *out = g.preset;
    snprintf(g.reason, sizeof g.reason, "set by amp_accelerator_set_default");
    return AMP_SUCCESS;
  }
  const char *env = getenv("AMP_DEFAULT_ACCELERATOR");
  if (env && *env) {
    amp_accelerator *a = NULL;
    status = lookup(env, "AMP_DEFAULT_ACCELERATOR", &a);
    if (status != AMP_SUCCESS)
      return status;
    *out = a; /* "cpu" too: then kernels are refused, naming it (amp_default_view) */
    snprintf(g.reason, sizeof g.reason, "named by AMP_DEFAULT_ACCELERATOR");
    return AMP_SUCCESS;
  }
  amp_accelerator *best = NULL;
  size_t cpus = 0;
  for (size_t i = 0; i < n; i++) /* rule 2: a GPU (or other non-CPU device), the most memory */
    if (!list[i]->props.is_host && !list[i]->props.is_emulated &&
        (!best || list[i]->props.dedicated_memory > best->props.dedicated_memory))
      best = list[i];
  if (best) {
    snprintf(g.reason, sizeof g.reason, "the non-CPU device with the most memory");
  } else {
    for (size_t i = 0; i < n; i++) { /* rule 3: a CPU device, the preferred implementation */
      amp_accelerator *a = list[i];
      if (a->props.is_host)
        continue;
      cpus++;
      if (!best || cpu_rank(a) < cpu_rank(best) ||
          (cpu_rank(a) == cpu_rank(best) &&
           a->props.dedicated_memory > best->props.dedicated_memory))
        best = a;
    }
    if (best && cpus > 1 && cpu_rank(best) < CPU_UNRANKED)
      snprintf(g.reason, sizeof g.reason,
               "of %zu CPU devices, the preferred implementation (%s; docs/IMPLEMENTATIONS.md)",
               cpus, cpu_preference[cpu_rank(best)].why);
    else if (best)
      snprintf(g.reason, sizeof g.reason, "the only kind of device: a CPU device");
  }
  if (!best) { /* no OpenCL device: the CPU accelerator, as AMP falls back (the list ends with it)
                */
    best = list[n - 1];
    snprintf(g.reason, sizeof g.reason, "no OpenCL device: the host, as AMP falls back");
  }
  *out = best;
fail:
  return status;
}

amp_status amp_accelerator_default_reason(const char **out) {
  amp_accelerator *def = NULL;
  amp_status status = amp__check_out(out, __func__);
  if (status == AMP_SUCCESS)
    status = amp_accelerator_get_default(&def);
  if (status == AMP_SUCCESS)
    *out = g.reason; /* written once, under g.lock, before the default is published */
  return status;
}

amp_status amp_accelerator_get_default(amp_accelerator **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK_OUT(out);
  pthread_mutex_lock(&g.lock);
  if (!g.chosen)
    status = choose_default(&g.chosen);
  if (status == AMP_SUCCESS)
    *out = g.chosen;
  pthread_mutex_unlock(&g.lock);
fail:
  return status;
}

amp_status amp_accelerator_set_default(const char *path) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator *a = NULL;
  if (!path)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_set_default: path is NULL");
  pthread_mutex_lock(&g.lock);
  if (g.chosen) {
    status = amp__set_error(AMP_ERROR_DEFAULT_ALREADY_USED,
                            "amp_accelerator_set_default(\"%s\"): the default accelerator was "
                            "already used and is \"%s\"; set it before its first use",
                            path, g.chosen->props.device_path);
  } else if (g.preset) {
    status = amp__set_error(AMP_ERROR_DEFAULT_ALREADY_USED,
                            "amp_accelerator_set_default(\"%s\"): the default accelerator was "
                            "already set to \"%s\"; it can be set once per process",
                            path, g.preset->props.device_path);
  } else if (strcmp(path, "default") != 0) {
    status = lookup(path, "amp_accelerator_set_default", &a);
    if (status == AMP_SUCCESS)
      g.preset = a;
  }
  pthread_mutex_unlock(&g.lock);
fail:
  return status;
}

/* ---- public queries ----------------------------------------------------------------------- */

amp_status amp_accelerator_count(size_t *out) {
  amp_accelerator **list = NULL;
  amp_status status = amp__check_out(out, __func__);
  return status == AMP_SUCCESS ? amp__accelerators(&list, out) : status;
}

amp_status amp_accelerator_get(size_t index, amp_accelerator **out) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator **list = NULL;
  size_t n = 0;
  AMP__CHECK_OUT(out);
  AMP__TRY(amp__accelerators(&list, &n));
  if (index >= n)
    AMP__FAIL(AMP_ERROR_OUT_OF_RANGE, "amp_accelerator_get: index %zu is past the last (%zu)",
              index, n - 1);
  *out = list[index];
fail:
  return status;
}

amp_status amp_accelerator_find(const char *path, amp_accelerator **out) {
  amp_status status = AMP_SUCCESS;
  if (!path || !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_find: %s is NULL",
              path ? "out" : "path");
  if (strcmp(path, "default") == 0)
    return amp_accelerator_get_default(out);
  AMP__TRY(lookup(path, "amp_accelerator_find", out));
fail:
  return status;
}

AMP__DEFINE_GETTER(amp_accelerator_get_properties, amp_accelerator, AMP__MAGIC_ACCELERATOR,
                   "accelerator", amp_accelerator_properties, h->props)

amp_status amp__context(amp_accelerator *acc, cl_context *out) {
  amp_status status = AMP_SUCCESS;
  if (acc->props.is_host)
    return amp__set_error(AMP_ERROR_UNSUPPORTED_FEATURE,
                          "\"cpu\" is the host location: it has no queue and runs no kernels%s%s",
                          g.no_device[0] ? "; " : "", g.no_device);
  pthread_mutex_lock(&acc->lock);
  if (!acc->context) {
    cl_context_properties cp[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)acc->platform, 0};
    cl_int err = CL_SUCCESS;
    acc->context = clCreateContext(cp, 1, &acc->device, NULL, NULL, &err);
    amp__clobj_process(AMP_CL_CONTEXT, 1);
    if (err != CL_SUCCESS) {
      acc->context = NULL;
      amp__clobj_process(AMP_CL_CONTEXT, -1); /* balances the count below */
      status =
          amp__set_error(amp__cl_status(err), "clCreateContext for %s failed: %s (%d)",
                         acc->props.device_path, amp_status_name(amp__cl_status(err)), (int)err);
    }
  }
  *out = acc->context;
  pthread_mutex_unlock(&acc->lock);
  return status;
}

/* ---- transfer counters -------------------------------------------------------------------- */

amp_status amp_transfer_stats_get(const amp_accelerator *acc, amp_transfer_stats *out) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator **list = NULL;
  size_t n = 0;
  AMP__CHECK_OUT(out);
  if (acc)
    AMP__CHECK(acc, AMP__MAGIC_ACCELERATOR, "accelerator");
  AMP__TRY(amp__accelerators(&list, &n));
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < n; i++) {
    amp_accelerator *a = list[i];
    if (acc && a != acc)
      continue;
    out->to_device_count += atomic_load(&a->to_device_count);
    out->to_device_bytes += atomic_load(&a->to_device_bytes);
    out->to_host_count += atomic_load(&a->to_host_count);
    out->to_host_bytes += atomic_load(&a->to_host_bytes);
    out->device_copy_count += atomic_load(&a->device_copy_count);
    out->device_copy_bytes += atomic_load(&a->device_copy_bytes);
  }
fail:
  return status;
}

amp_status amp_transfer_stats_reset(void) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator **list = NULL;
  size_t n = 0;
  AMP__TRY(amp__accelerators(&list, &n));
  for (size_t i = 0; i < n; i++) {
    amp_accelerator *a = list[i];
    atomic_store(&a->to_device_count, 0);
    atomic_store(&a->to_device_bytes, 0);
    atomic_store(&a->to_host_count, 0);
    atomic_store(&a->to_host_bytes, 0);
    atomic_store(&a->device_copy_count, 0);
    atomic_store(&a->device_copy_bytes, 0);
  }
fail:
  return status;
}

/* ---- interop (ampcl/opencl.h) ------------------------------------------------------------- */

static amp_status check_device(const amp_accelerator *acc, const void *out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(acc, AMP__MAGIC_ACCELERATOR, "accelerator", fn));
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
  if (acc->props.is_host)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE, "%s: \"cpu\" is the host: it has no OpenCL device",
              fn);
fail:
  return status;
}

amp_status amp_accelerator_get_cl_device(const amp_accelerator *acc, cl_device_id *out) {
  amp_status status = check_device(acc, out, __func__);
  if (status == AMP_SUCCESS)
    *out = acc->device;
  return status;
}

amp_status amp_accelerator_get_cl_platform(const amp_accelerator *acc, cl_platform_id *out) {
  amp_status status = check_device(acc, out, __func__);
  if (status == AMP_SUCCESS)
    *out = acc->platform;
  return status;
}

amp_status amp_accelerator_get_cl_context(amp_accelerator *acc, cl_context *out) {
  amp_status status = check_device(acc, out, __func__);
  if (status == AMP_SUCCESS)
    status = amp__context(acc, out);
  return status;
}
