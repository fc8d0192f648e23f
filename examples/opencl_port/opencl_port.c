/* opencl_port: a raw OpenCL program's 2-D convolution, ported to ampcl with its kernel file
 * untouched (opencl_port.cl: a typedef'd element type, plain __global pointers, get_global_id).
 * The host side is what changes: the image and its result become array views, and the launch
 * keeps OpenCL's global size, {width, height}, through amp_parallel_for_each_ndrange. The result
 * is checked against the host, the border included (the kernel leaves it as it was, so the output
 * view is not discarded). docs/PORTING_OPENCL.md walks through it.
 *
 *   opencl_port [--width W] [--height H] [--accelerator PATH] [--kernels DIR] */
#include "example.h"
#include "opencl_port_cl.h" /* opencl_port_cl: the kernel file, embedded at build time */

static void usage(FILE *to) {
  fprintf(to, "usage: amp-opencl-port [--width W] [--height H] [--accelerator PATH] "
              "[--kernels DIR]\n");
}

/* The filter of opencl_port.cl, on the host. */
static float convolve(const float *in, int nj, int i, int j) {
  static const float w[3][3] = {
      {-0.10f, -0.15f, -0.10f}, {-0.15f, 2.00f, -0.15f}, {-0.10f, -0.15f, -0.10f}};
  double s = 0;
  for (int di = -1; di <= 1; di++)
    for (int dj = -1; dj <= 1; dj++)
      s += (double)w[di + 1][dj + 1] * in[(i + di) * nj + (j + dj)];
  return (float)s;
}

/* Elements of out that differ from the host's result (the border: from `before`). */
static long count_wrong(const float *in, const float *before, const float *out, int ni, int nj) {
  long wrong = 0;
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      int border = i == 0 || j == 0 || i == ni - 1 || j == nj - 1;
      float want = border ? before[i * nj + j] : convolve(in, nj, i, j);
      wrong += fabsf(out[i * nj + j] - want) > 1e-4f * (1.0f + fabsf(want));
    }
  return wrong;
}

/* The port: what was clCreateBuffer + clEnqueueWriteBuffer is a view over the host array; the
 * kernel's arguments are the views and values in the kernel's order; the launch is the same
 * global size; clEnqueueReadBuffer is a synchronize. */
static amp_status run(amp_accelerator_view *av, amp_kernel *conv2d, const float *in, float *out,
                      int ni, int nj) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *vin = NULL, *vout = NULL;
  EX_TRY(amp_array_view_create_const(amp_extent2(ni, nj), AMP_FLOAT, in, &vin));
  EX_TRY(amp_array_view_create(amp_extent2(ni, nj), AMP_FLOAT, out, &vout)); /* not discarded */
  amp_arg args[] = {amp_arg_view(vin), amp_arg_view(vout), amp_arg_int(ni), amp_arg_int(nj)};
  size_t global[2] = {(size_t)nj, (size_t)ni}; /* OpenCL's order: dimension 0 is the column */
  EX_TRY(amp_parallel_for_each_ndrange(av, conv2d, 2, global, NULL, args, AMP_NARGS(args), NULL));
  EX_TRY(amp_array_view_synchronize(vout));
fail:
  EX_CLEANUP(amp_array_view_release(vin));
  EX_CLEANUP(amp_array_view_release(vout));
  return status;
}

int main(int argc, char **argv) {
  int ni = 480, nj = 640;
  const char *path = NULL, *kernels_dir = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--width") && i + 1 < argc) {
      if (!ex_parse_int("--width", argv[++i], 3, 16384, &nj))
        return 2;
    } else if (!strcmp(argv[i], "--height") && i + 1 < argc) {
      if (!ex_parse_int("--height", argv[++i], 3, 16384, &ni))
        return 2;
    } else if (!strcmp(argv[i], "--accelerator") && i + 1 < argc) {
      path = argv[++i];
    } else if (!strcmp(argv[i], "--kernels") && i + 1 < argc) {
      kernels_dir = argv[++i];
    } else {
      usage(stderr);
      return 2;
    }
  }
  amp_status status = AMP_SUCCESS;
  amp_accelerator *acc = NULL;
  amp_accelerator_view *av = NULL;
  amp_program *program = NULL;
  amp_kernel *conv2d = NULL;
  size_t n = (size_t)ni * (size_t)nj;
  float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
        *before = malloc(n * sizeof *before);
  if (!in || !out || !before) {
    fprintf(stderr, "out of memory\n");
    free(in);
    free(out);
    free(before);
    return 1;
  }
  for (size_t k = 0; k < n; k++) {
    in[k] = (float)((k * 7919) % 1000) / 1000.0f;
    before[k] = out[k] = -1.0f; /* the border must keep this */
  }
  EX_TRY(ex_open_view(path, &acc, &av));
  EX_TRY(ex_load_program(kernels_dir, "opencl_port", opencl_port_cl, NULL, &program));
  EX_TRY(amp_kernel_create(program, "conv2d", &conv2d));
  EX_TRY(run(av, conv2d, in, out, ni, nj));
  long wrong = count_wrong(in, before, out, ni, nj);
  printf("conv2d %d x %d (the kernel file unchanged): %s (%ld wrong)\n", nj, ni,
         wrong ? "WRONG" : "matches the host", wrong);
  if (wrong)
    status = AMP_ERROR_INVALID_ARGUMENT;
fail:
  EX_CLEANUP(amp_kernel_release(conv2d));
  EX_CLEANUP(amp_program_release(program));
  free(in);
  free(out);
  free(before);
  return status == AMP_SUCCESS ? 0 : 1;
}
