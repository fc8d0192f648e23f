/* runtime/data/texture_probe.c: whether a device's kernels read 16-bit float images right.
 *
 * A device may list a format and still read it wrong: POCL 3.1 lists half-float images, yet its
 * kernels read every texel of one back as the same wrong value, where Intel's CPU runtime reads
 * the same data right. So before ampcl offers half-float textures on a device (texture_format.c),
 * it writes known values into a small half-float image of each channel order the device lists for
 * 2-D images and reads them back in a kernel, with plain OpenCL. Offered only where every value
 * comes back exactly (each is exact in half precision). Runs once per device per process, and only
 * where the device lists such a format. */
#include "data/texture_impl.h"

#include "core/cl_probe.h"

#include <string.h>

enum { W = 4, H = 2, TEXELS = W * H };

static const char *probe_src =
    "__constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | "
    "CLK_FILTER_NEAREST;\n"
    "__kernel void ampcl_half_probe(__read_only image2d_t img, __global float4 *out) {\n"
    "  const int x = (int)get_global_id(0), y = (int)get_global_id(1);\n"
    "  out[y * 4 + x] = read_imagef(img, s, (int2)(x, y));\n"
    "}\n";

/* Values exact in half precision, with their IEEE 754 binary16 bits. */
static const float values[8] = {0.5f, 1.25f, -2.0f, 3.0f, 0.75f, 10.0f, -0.25f, 100.0f};
static const unsigned short bits16[8] = {0x3800, 0x3D00, 0xC000, 0x4200,
                                         0x3A00, 0x4900, 0xB400, 0x5640};

/* 1 when an image of `order` reads back right, 0 when not or when the probe cannot run. */
static int order_reads_right(amp__cl_probe *p, cl_channel_order order, int channels) {
  unsigned short texels[TEXELS * 4];
  for (int i = 0; i < TEXELS * channels; i++)
    texels[i] = bits16[i % 8];
  cl_image_format fmt = {order, CL_HALF_FLOAT};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = W;
  desc.image_height = H;
  cl_int err = CL_SUCCESS;
  cl_mem img =
      clCreateImage(p->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &desc, texels, &err);
  img = amp__cl_probe_keep(p, err == CL_SUCCESS ? img : NULL);
  cl_mem out = amp__cl_probe_buffer(p, CL_MEM_WRITE_ONLY, TEXELS * 4 * sizeof(float), NULL);
  float got[TEXELS * 4];
  const size_t global[2] = {W, H};
  int right =
      img && out && clSetKernelArg(p->kernel, 0, sizeof img, &img) == CL_SUCCESS &&
      clSetKernelArg(p->kernel, 1, sizeof out, &out) == CL_SUCCESS &&
      clEnqueueNDRangeKernel(p->queue, p->kernel, 2, NULL, global, NULL, 0, NULL, NULL) ==
          CL_SUCCESS &&
      clEnqueueReadBuffer(p->queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL) == CL_SUCCESS;
  for (int t = 0; right && t < TEXELS; t++)
    for (int c = 0; c < channels; c++) /* CL_R fills x, CL_RG x and y, CL_RGBA all four */
      if (got[t * 4 + c] != values[(t * channels + c) % 8])
        right = 0;
  return right;
}

int amp__half_images_read_right(amp_accelerator *acc, const cl_channel_order *orders,
                                const int *channels, int norders) {
  amp__cl_probe p;
  int right = amp__cl_probe_begin(acc, probe_src, "", "ampcl_half_probe", 0, &p) == 0;
  for (int i = 0; i < norders && right; i++) {
    right = order_reads_right(&p, orders[i], channels[i]);
    amp__cl_probe_release_mems(&p); /* this order's image and buffer */
  }
  amp__cl_probe_end(&p);
  return right;
}
