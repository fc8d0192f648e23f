/* runtime/core/accelerator_list.c: the list of accelerators (AMP §3.2), enumerated once.
 *
 * The list is built on the first call that needs it: every device of every OpenCL platform
 * (device_properties.c reads each), then the host "cpu". Handles live until the process ends. See
 * ampcl/accelerator.h for the device path format. */
#include "core/accelerator_impl.h"
#include "core/cache_dir.h"
#include "core/device_limits.h"
#include "core/device_properties.h"

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
  char no_device[256]; /* why only "cpu" is listed (no OpenCL platform or device), or "" */
} g = {PTHREAD_ONCE_INIT, AMP_SUCCESS, "", NULL, 0, ""};

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
    char *pname = amp__platform_string(plats[pi], CL_PLATFORM_NAME);
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
        amp_accelerator *a = amp__describe_device(plats[pi], devs[di], path, pname, n);
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
  amp_accelerator *host = amp__describe_host(n);
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

amp_status amp__accelerator_lookup(const char *path, const char *fn, amp_accelerator **out) {
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
