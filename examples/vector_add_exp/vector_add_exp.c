/* vector_add_exp: the C++ AMP article's first C++ AMP program, result = first + exp(second), in C.
 *
 * It shows the whole life of an AMP computation: wrap host arrays in array views (two read-only,
 * one whose old contents are discarded), launch a kernel over the result's extent on an
 * accelerator view, and synchronize the result back. The kernel is vector_add_exp.cl.
 *
 *   vector_add_exp [--size N] [--accelerator PATH] [--kernels DIR]
 *
 * Prints the sequential time, the kernel's device time, the end-to-end time (views, copies,
 * kernel, copy back) and the speedups; exits 1 naming the first wrong element. */
#include <inttypes.h>
#include <math.h>

#include "example.h"
#include "vector_add_exp_cl.h"     /* vector_add_exp_cl: vector_add_exp.cl as a string */
#include "vector_add_exp_launch.h" /* vector_add_exp_launch_ex: its typed launcher */

static void usage(FILE *to) {
  fprintf(to, "usage: amp-vector-add-exp [--size N] [--accelerator PATH] [--kernels DIR]\n"
              "  --size N            number of elements (default 1048576 = 1<<20)\n"
              "  --accelerator PATH  device path as amp-info prints it (default: the default)\n"
              "  --kernels DIR       load DIR/vector_add_exp.cl instead of the built-in copy\n");
}

/* The sequential version: the C++ AMP article's first listing. */
static void vector_add_exp_seq(const float *first, const float *second, float *result, int length) {
  for (int i = 0; i < length; ++i) {
    result[i] = first[i] + expf(second[i]);
  }
}

/* The AMP version, line for line with the C++ AMP article's second listing (see README.md). The
 * kernel's completion future comes back through *done, for its device time. */
static amp_status vector_add_exp_amp(amp_accelerator_view *av, amp_kernel *kernel,
                                     const float *first, const float *second, float *result,
                                     int length, amp_future **done) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *avFirst = NULL, *avSecond = NULL, *avResult = NULL;
  amp_extent extent = amp_extent1(length);
  EX_TRY(amp_array_view_create_const(extent, AMP_FLOAT, first, &avFirst));
  EX_TRY(amp_array_view_create_const(extent, AMP_FLOAT, second, &avSecond));
  EX_TRY(amp_array_view_create(extent, AMP_FLOAT, result, &avResult));

  EX_TRY(amp_array_view_discard_data(avResult));

  EX_TRY(vector_add_exp_launch_ex(av, extent, kernel, avFirst, avSecond, avResult, done));

  EX_TRY(amp_array_view_synchronize(avResult));
fail:
  EX_CLEANUP(EX_RELEASE_VIEWS(avFirst, avSecond, avResult));
  return status;
}

/* Index of the first element of got[] that differs from want[] by more than the tolerance, or -1.
 * fast_math_exp may be a few ulps off: the tolerance is relative, 1e-4. */
static int first_mismatch(const float *got, const float *want, int n) {
  for (int i = 0; i < n; i++)
    if (!(fabsf(got[i] - want[i]) <= 1e-4f * fabsf(want[i]) + 1e-6f))
      return i;
  return -1;
}

int main(int argc, char **argv) {
  amp_status status = AMP_SUCCESS;
  int n = 1 << 20;
  const char *path = NULL, *kernels_dir = NULL;
  const ex_option options[] = {{"--size", 1, 1 << 28, &n, NULL, NULL}};
  int parsed = ex_parse_args(argc, argv, "vector_add_exp", usage, options,
                             sizeof options / sizeof *options, &path, &kernels_dir);
  if (parsed >= 0)
    return parsed;

  float *first = malloc((size_t)n * sizeof *first);
  float *second = malloc((size_t)n * sizeof *second);
  float *result = malloc((size_t)n * sizeof *result);
  float *expected = malloc((size_t)n * sizeof *expected);
  amp_program *program = NULL;
  amp_kernel *kernel = NULL;
  amp_future *done = NULL;
  int exit_code = 1;
  if (!first || !second || !result || !expected) {
    fprintf(stderr, "vector_add_exp: out of host memory for %d elements\n", n);
    goto fail;
  }
  for (int i = 0; i < n; i++) {
    first[i] = (float)(i % 1000) * 0.001f;
    second[i] = (float)(i % 97) / 16.0f - 3.0f; /* exp of -3 .. +3 */
  }
  printf("vector_add_exp: result = first + exp(second), %d elements\n", n);

  /* The sequential reference, timed. */
  double t0 = ex_now_ms();
  vector_add_exp_seq(first, second, expected, n);
  double seq_ms = ex_now_ms() - t0;

  amp_accelerator *acc;
  amp_accelerator_view *av;
  EX_TRY(ex_open_view(path, &acc, &av));
  EX_TRY(ex_load_program(kernels_dir, "vector_add_exp", vector_add_exp_cl, NULL, &program));
  EX_TRY(vector_add_exp_kernel(program, &kernel));

  /* Run 1 warms up: the kernel is compiled for the device at its first launch. */
  EX_TRY(vector_add_exp_amp(av, kernel, first, second, result, n, &done));
  EX_TRY(amp_future_release(done));
  done = NULL;

  /* Run 2 is timed: wall clock around create views -> launch -> synchronize, and the kernel's
   * own device time from its OpenCL profiling events. */
  memset(result, 0, (size_t)n * sizeof *result);
  t0 = ex_now_ms();
  EX_TRY(vector_add_exp_amp(av, kernel, first, second, result, n, &done));
  double e2e_ms = ex_now_ms() - t0;
  double kernel_ms; /* NAN where the device gives no device time: printed n/a */
  EX_TRY(ex_device_ms(done, &kernel_ms));

  int bad = first_mismatch(result, expected, n);
  if (bad >= 0) {
    fprintf(stderr, "MISMATCH at index %d: got %.9g, expected %.9g (first %g, second %g)\n", bad,
            (double)result[bad], (double)expected[bad], (double)first[bad], (double)second[bad]);
    goto fail;
  }

  double bytes = 3.0 * (double)n * sizeof(float); /* two reads and one write per element */
  printf("timings (run 1 compiled the kernel; these are run 2):\n");
  printf("  sequential CPU        %10.3f ms\n", seq_ms);
  char text[3][32];
  printf("  kernel (device)       %13s  %13s   speedup %7s\n",
         ex_fmt(text[0], sizeof text[0], "%.3f ms", kernel_ms),
         ex_fmt(text[1], sizeof text[1], "%.2f GB/s", bytes / (kernel_ms * 1e6)),
         ex_fmt(text[2], sizeof text[2], "%.2fx", seq_ms / kernel_ms));
  printf("  end-to-end            %10.3f ms  %8.2f GB/s   speedup %6.2fx"
         "  (views, copies, kernel, synchronize)\n",
         e2e_ms, bytes / (e2e_ms * 1e6), seq_ms / e2e_ms);
  printf("verified: %d elements match the sequential version (relative tolerance 1e-4)\n", n);
  exit_code = 0;

fail:
  EX_CLEANUP(amp_future_release(done));
  EX_CLEANUP(amp_kernel_release(kernel));
  EX_CLEANUP(amp_program_release(program));
  EX_FREE(first, second, result, expected);
  return status == AMP_SUCCESS ? exit_code : 1;
}
