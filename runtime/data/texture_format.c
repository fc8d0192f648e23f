/* runtime/data/texture_format.c: texel formats (ampcl/texture.h) in OpenCL's terms: which
 * combinations of kind, channels and bits exist, their OpenCL image format, their names in AMP's
 * terms, and which of them a device supports for each rank (clGetSupportedImageFormats). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/texture_impl.h"

static const char *const kind_names[] = {"?", "int", "uint", "float", "norm", "unorm"};

static int valid_kind(int k) {
  return k >= AMP_TEXEL_INT && k <= AMP_TEXEL_UNORM;
}

/* Bits allowed per kind: int and uint 8, 16, 32; float 16 (half) and 32; norm and unorm 8, 16 (as
 * in AMP, whose norm textures have no 32-bit form, and OpenCL, which has none either). */
static int valid_bits(amp_texel_kind k, int bits) {
  switch (k) {
  case AMP_TEXEL_INT:
  case AMP_TEXEL_UINT:
    return bits == 8 || bits == 16 || bits == 32;
  case AMP_TEXEL_FLOAT:
    return bits == 16 || bits == 32;
  case AMP_TEXEL_NORM:
  case AMP_TEXEL_UNORM:
    return bits == 8 || bits == 16;
  }
  return 0;
}

static int valid_format(amp_texel_format f) {
  return valid_kind((int)f.kind) && (f.channels == 1 || f.channels == 2 || f.channels == 4) &&
         valid_bits(f.kind, f.bits);
}

size_t amp_texel_size(amp_texel_format f) {
  return valid_format(f) ? (size_t)f.channels * (size_t)f.bits / 8 : 0;
}

const char *amp_texel_type_name(amp_texel_format f) {
  static const char *const names[6][3] = {{"?", "?", "?"},
                                          {"int", "int_2", "int_4"},
                                          {"uint", "uint_2", "uint_4"},
                                          {"float", "float_2", "float_4"},
                                          {"norm", "norm_2", "norm_4"},
                                          {"unorm", "unorm_2", "unorm_4"}};
  if (!valid_kind((int)f.kind) || (f.channels != 1 && f.channels != 2 && f.channels != 4))
    return "?";
  return names[f.kind][f.channels == 4 ? 2 : f.channels - 1];
}

amp_status amp__texel_format_check(amp_texel_format f, const char *fn) {
  if (!valid_kind((int)f.kind))
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: the format's kind %d is not an amp_texel_kind (AMP_TEXEL_INT %d .. "
                          "AMP_TEXEL_UNORM %d)",
                          fn, (int)f.kind, AMP_TEXEL_INT, AMP_TEXEL_UNORM);
  if (f.channels != 1 && f.channels != 2 && f.channels != 4)
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: %d channels; a texel has 1, 2 or 4 (AMP has no 3-channel textures)",
                          fn, f.channels);
  if (!valid_bits(f.kind, f.bits))
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT, "%s: %d bits per channel for %s; %s", fn,
                          f.bits, kind_names[f.kind],
                          f.kind == AMP_TEXEL_FLOAT ? "float takes 16 or 32"
                          : f.kind == AMP_TEXEL_NORM || f.kind == AMP_TEXEL_UNORM
                              ? "norm and unorm take 8 or 16"
                              : "int and uint take 8, 16 or 32");
  return AMP_SUCCESS;
}

cl_image_format amp__texel_cl_format(amp_texel_format f) {
  static const cl_channel_type types[6][3] = {
      {0, 0, 0},
      {CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32},
      {CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32},
      {0, CL_HALF_FLOAT, CL_FLOAT},
      {CL_SNORM_INT8, CL_SNORM_INT16, 0},
      {CL_UNORM_INT8, CL_UNORM_INT16, 0}};
  cl_image_format cf;
  cf.image_channel_order = f.channels == 1 ? CL_R : f.channels == 2 ? CL_RG : CL_RGBA;
  cf.image_channel_data_type = types[f.kind][f.bits == 8 ? 0 : f.bits == 16 ? 1 : 2];
  return cf;
}

amp_texel_format amp__texel_type_parse(const char *name, size_t len) {
  amp_texel_format f = {0, 0, 0};
  for (int k = AMP_TEXEL_INT; k <= AMP_TEXEL_UNORM; k++) {
    size_t n = strlen(kind_names[k]);
    if (len < n || strncmp(name, kind_names[k], n) != 0)
      continue;
    if (len == n) {
      f.kind = (amp_texel_kind)k;
      f.channels = 1;
    } else if (len == n + 2 && name[n] == '_' && (name[n + 1] == '2' || name[n + 1] == '4')) {
      f.kind = (amp_texel_kind)k;
      f.channels = name[n + 1] - '0';
    }
    if (f.kind)
      break;
  }
  return f;
}

void amp__texel_describe(amp_texel_format f, char *buf, size_t cap) {
  snprintf(buf, cap, "%s (%d bits per channel)", amp_texel_type_name(f), f.bits);
}

/* Which ranks each format has on one accelerator, found once (six clGetSupportedImageFormats
 * calls) and kept for the life of the process: [kind][channels 1, 2, 4][bits 8, 16, 32]. */
typedef struct support_table {
  struct support_table *next;
  size_t acc_index;
  unsigned ranks[6][3][3], write[6][3][3];
} support_table;

static support_table *tables;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

static int channel_slot(int c) {
  return c == 4 ? 2 : c - 1;
}
static int bits_slot(int b) {
  return b == 8 ? 0 : b == 16 ? 1 : 2;
}

/* The formats the device lists for images of `type` made with `flags` (malloc'd, *n of them). */
static amp_status list_formats(cl_context ctx, cl_mem_flags flags, cl_mem_object_type type,
                               cl_image_format **out, cl_uint *n) {
  amp_status status = AMP_SUCCESS;
  *out = NULL;
  *n = 0;
  AMP__CL(clGetSupportedImageFormats(ctx, flags, type, 0, NULL, n), "clGetSupportedImageFormats");
  if (!*n)
    goto fail;
  if (!(*out = malloc(*n * sizeof **out)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory listing image formats");
  AMP__CL(clGetSupportedImageFormats(ctx, flags, type, *n, *out, NULL),
          "clGetSupportedImageFormats");
fail:
  return status;
}

static int listed(const cl_image_format *list, cl_uint n, cl_image_format cf) {
  for (cl_uint i = 0; i < n; i++)
    if (list[i].image_channel_order == cf.image_channel_order &&
        list[i].image_channel_data_type == cf.image_channel_data_type)
      return 1;
  return 0;
}
/* Images at all, and 3-D image writes (an extension in OpenCL 1.2). */
static amp_status device_images(amp_accelerator *acc, int *writes3d, const char *fn) {
  amp_status status = AMP_SUCCESS;
  cl_bool images = CL_FALSE;
  char *ext = NULL;
  size_t n = 0;
  if (!acc->device)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "%s: %s is the host location, which has no textures; use a device accelerator", fn,
              acc->props.device_path);
  AMP__CL(clGetDeviceInfo(acc->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL),
          "clGetDeviceInfo(CL_DEVICE_IMAGE_SUPPORT)");
  if (!images)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "%s: %s does not support images (CL_DEVICE_IMAGE_SUPPORT is false), so it has no "
              "textures",
              fn, acc->props.device_path);
  if (acc->fault_no_images)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "%s: %s is seen without images (AMP_DEVICE_LIMITS has images=0), so it has no "
              "textures",
              fn, acc->props.device_path);
  AMP__CL(clGetDeviceInfo(acc->device, CL_DEVICE_EXTENSIONS, 0, NULL, &n),
          "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)");
  if (!(ext = calloc(n + 1, 1)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  AMP__CL(clGetDeviceInfo(acc->device, CL_DEVICE_EXTENSIONS, n, ext, NULL),
          "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)");
  *writes3d = strstr(ext, "cl_khr_3d_image_writes") != NULL;
fail:
  free(ext);
  return status;
}

/* Fills t for the accelerator: every valid format's ranks. */
static amp_status fill_table(amp_accelerator *acc, support_table *t, const char *fn) {
  static const cl_mem_object_type types[3] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE2D,
                                              CL_MEM_OBJECT_IMAGE3D};
  static const int chans[3] = {1, 2, 4}, bits[3] = {8, 16, 32};
  amp_status status = AMP_SUCCESS;
  cl_context ctx;
  int writes3d = 0;
  cl_image_format *rw[3] = {NULL, NULL, NULL}, *wo[3] = {NULL, NULL, NULL};
  cl_uint nrw[3] = {0, 0, 0}, nwo[3] = {0, 0, 0};
  AMP__TRY(device_images(acc, &writes3d, fn));
  AMP__TRY(amp__context(acc, &ctx));
  for (int r = 0; r < 3; r++) {
    AMP__TRY(list_formats(ctx, CL_MEM_READ_WRITE, types[r], &rw[r], &nrw[r]));
    AMP__TRY(list_formats(ctx, CL_MEM_WRITE_ONLY, types[r], &wo[r], &nwo[r]));
  }
  /* A listed format may still be read wrong: half-float images are offered only where a kernel
   * reads them back right (texture_probe.c; POCL 3.1 reads them wrong), asked only where the
   * device lists one for 2-D images. */
  cl_channel_order half_orders[3];
  int half_channels[3], nhalf = 0;
  for (int c = 0; c < 3; c++) {
    cl_image_format cf = amp__texel_cl_format((amp_texel_format){AMP_TEXEL_FLOAT, chans[c], 16});
    if (listed(rw[1], nrw[1], cf)) {
      half_orders[nhalf] = cf.image_channel_order;
      half_channels[nhalf++] = chans[c];
    }
  }
  int half_wrong = nhalf && !amp__half_images_read_right(acc, half_orders, half_channels, nhalf);
  for (int k = AMP_TEXEL_INT; k <= AMP_TEXEL_UNORM; k++)
    for (int c = 0; c < 3; c++)
      for (int b = 0; b < 3; b++) {
        amp_texel_format f = {(amp_texel_kind)k, chans[c], bits[b]};
        if (!valid_format(f) || (half_wrong && k == AMP_TEXEL_FLOAT && bits[b] == 16))
          continue;
        cl_image_format cf = amp__texel_cl_format(f);
        for (int r = 0; r < 3; r++) {
          int can_rw = listed(rw[r], nrw[r], cf);
          if (can_rw)
            t->ranks[k][c][b] |= 1u << r;
          if (can_rw && listed(wo[r], nwo[r], cf) && (r < 2 || writes3d))
            t->write[k][c][b] |= 1u << r;
        }
      }
fail:
  for (int r = 0; r < 3; r++) {
    free(rw[r]);
    free(wo[r]);
  }
  return status;
}

amp_status amp__texel_support(amp_accelerator *acc, amp_texel_format f, unsigned *ranks,
                              unsigned *write, const char *fn) {
  amp_status status = AMP_SUCCESS;
  support_table *t;
  *ranks = *write = 0;
  pthread_mutex_lock(&tables_lock);
  for (t = tables; t && t->acc_index != acc->index; t = t->next)
    ;
  if (!t) {
    if (!(t = calloc(1, sizeof *t))) {
      status = amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    } else if ((status = fill_table(acc, t, fn)) != AMP_SUCCESS) {
      free(t);
      t = NULL;
    } else {
      t->acc_index = acc->index;
      t->next = tables;
      tables = t;
    }
  }
  if (t && valid_format(f)) {
    *ranks = t->ranks[f.kind][channel_slot(f.channels)][bits_slot(f.bits)];
    *write = t->write[f.kind][channel_slot(f.channels)][bits_slot(f.bits)];
  }
  pthread_mutex_unlock(&tables_lock);
  return status;
}

amp_status amp_texture_formats(amp_accelerator *acc, amp_texture_format_support *out, size_t cap,
                               size_t *count) {
  static const int channels[3] = {1, 2, 4}, bits[3] = {8, 16, 32};
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(acc, AMP__MAGIC_ACCELERATOR, "accelerator");
  AMP__CHECK_OUT(count);
  if (cap && !out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_texture_formats: out is NULL but cap is %zu", cap);
  size_t n = 0;
  for (int k = AMP_TEXEL_INT; k <= AMP_TEXEL_UNORM; k++)
    for (int c = 0; c < 3; c++)
      for (int b = 0; b < 3; b++) {
        amp_texel_format f = {(amp_texel_kind)k, channels[c], bits[b]};
        unsigned ranks, write;
        if (!valid_format(f))
          continue;
        AMP__TRY(amp__texel_support(acc, f, &ranks, &write, "amp_texture_formats"));
        if (!ranks)
          continue;
        if (n < cap) {
          out[n].format = f;
          out[n].ranks = ranks;
          out[n].write_ranks = write;
        }
        n++;
      }
  *count = n;
fail:
  return status;
}
