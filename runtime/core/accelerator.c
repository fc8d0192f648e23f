/* runtime/core/accelerator.c: what a program asks of accelerators (AMP §3.2): the list's count,
 * an accelerator by index or device path, its properties, its OpenCL context, device and platform
 * (ampcl/opencl.h), and the transfer counters (ampcl/stats.h). The list is enumerated in
 * accelerator_list.c, each device read in device_properties.c, and the default chosen in
 * accelerator_default.c. */
#include "core/accelerator_impl.h"
#include "core/clobjects.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  AMP__TRY(amp__accelerator_lookup(path, "amp_accelerator_find", out));
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
                          amp__no_device_reason()[0] ? "; " : "", amp__no_device_reason());
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
