/* runtime/data/texture_sampler.c: AMP's samplers as OpenCL samplers. A sampler is two small enums,
 * so the OpenCL objects are made once per accelerator and mode pair (2 filters x 4 address modes)
 * at first use and kept for the life of the process, counted as such (amp_cl_objects_live). All
 * use normalized coordinates, as AMP's sample does (and as OpenCL requires for wrap and mirror). */
#include <stdio.h>
#include <stdlib.h>

#include "core/clobjects.h"
#include "data/texture_impl.h"

static const char *const filter_names[] = {"point", "linear"};
static const char *const address_names[] = {"?", "wrap", "mirror", "clamp", "border"};

amp_status amp__sampler_check(int filter, int address, const char *fn) {
  if (filter != AMP_FILTER_POINT && filter != AMP_FILTER_LINEAR)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: filter mode %d is not an amp_filter_mode (AMP_FILTER_POINT %d, "
                          "AMP_FILTER_LINEAR %d)",
                          fn, filter, AMP_FILTER_POINT, AMP_FILTER_LINEAR);
  if (address < AMP_ADDRESS_WRAP || address > AMP_ADDRESS_BORDER)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: address mode %d is not an amp_address_mode (AMP_ADDRESS_WRAP %d .. "
                          "AMP_ADDRESS_BORDER %d)",
                          fn, address, AMP_ADDRESS_WRAP, AMP_ADDRESS_BORDER);
  return AMP_SUCCESS;
}

void amp__sampler_describe(int filter, int address, char *buf, size_t cap) {
  int ok = amp__sampler_check(filter, address, "") == AMP_SUCCESS;
  if (ok)
    snprintf(buf, cap, "%s, %s", filter_names[filter], address_names[address]);
  else
    snprintf(buf, cap, "filter %d, address %d", filter, address);
}

typedef struct sampler_slot {
  struct sampler_slot *next;
  size_t acc_index;
  cl_sampler s[2][5];
} sampler_slot;

static sampler_slot *slots;
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

amp_status amp__sampler_get(amp_accelerator *acc, int filter, int address, cl_sampler *out) {
  static const cl_addressing_mode modes[5] = {0, CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT,
                                              CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP};
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  AMP__TRY(amp__sampler_check(filter, address, "sampler"));
  AMP__TRY(amp__context(acc, &ctx));
  pthread_mutex_lock(&slots_lock);
  sampler_slot *slot = slots;
  while (slot && slot->acc_index != acc->index)
    slot = slot->next;
  if (!slot && (slot = calloc(1, sizeof *slot))) {
    slot->acc_index = acc->index;
    slot->next = slots;
    slots = slot;
  }
  if (!slot) {
    pthread_mutex_unlock(&slots_lock);
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory making a sampler");
  }
  if (!slot->s[filter][address]) {
    cl_int err = CL_SUCCESS;
    cl_sampler s =
        clCreateSampler(ctx, CL_TRUE, modes[address],
                        filter == AMP_FILTER_LINEAR ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &err);
    if (err != CL_SUCCESS) {
      pthread_mutex_unlock(&slots_lock);
      AMP__FAIL(amp__cl_status(err), "clCreateSampler (%s, %s) on %s failed: %s (%d)",
                filter_names[filter], address_names[address], acc->props.device_path,
                amp_status_name(amp__cl_status(err)), (int)err);
    }
    amp__clobj_process(AMP_CL_SAMPLER, 1);
    slot->s[filter][address] = s;
  }
  *out = slot->s[filter][address];
  pthread_mutex_unlock(&slots_lock);
fail:
  return status;
}
