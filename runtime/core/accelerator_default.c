/* runtime/core/accelerator_default.c: the default accelerator (AMP §3.2): chosen by the rules of
 * ampcl/accelerator.h at its first use, or set before it, and the reason it is the one it is. */
#include "core/accelerator_impl.h"
#include "core/knobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
  pthread_mutex_t lock;    /* guards the default */
  amp_accelerator *chosen; /* the default, once used */
  amp_accelerator *preset; /* set by amp_accelerator_set_default before first use */
  char reason[256];        /* why the default is the one it is, once chosen */
} g = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, ""};

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
  const char *env = amp__knob_get(AMP_KNOB_DEFAULT_ACCELERATOR);
  if (env && *env) {
    amp_accelerator *a = NULL;
    status = amp__accelerator_lookup(env, "AMP_DEFAULT_ACCELERATOR", &a);
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
    for (size_t i = 0; i < n; i++) { /* rule 3: a CPU device, the most memory, the first */
      amp_accelerator *a = list[i];
      if (a->props.is_host)
        continue;
      cpus++;
      if (!best || a->props.dedicated_memory > best->props.dedicated_memory)
        best = a;
    }
    if (best && cpus > 1)
      snprintf(g.reason, sizeof g.reason,
               "of %zu CPU devices, the one reporting the most memory (the first of equals); "
               "docs/IMPLEMENTATIONS.md says which one ran ampcl's CPU workloads faster",
               cpus);
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
    status = amp__accelerator_lookup(path, "amp_accelerator_set_default", &a);
    if (status == AMP_SUCCESS)
      g.preset = a;
  }
  pthread_mutex_unlock(&g.lock);
fail:
  return status;
}
