/* array_args: an amp_array passed straight to a kernel (amp_arg_array), where a view is expected.
 *
 * The array stands for its whole view: read through an AMP_CONST_VIEW, written through an
 * AMP_VIEW, beside a view of host memory and a value in the same launch; the results are compared
 * with the host's arithmetic. Wrong uses are refused before anything moves: a released array, a
 * NULL one, an array of int for a view of float; the host memory under the launch's other view is
 * unchanged after each. In debug mode (the test sets AMP_DEBUG itself for its second half) a write
 * past the array's end is reported under the parameter's name and the argument's position. */
#include "check.h"

enum { N = 256 };

static const char *src =
    "__kernel void axpb(AMP_CONST_VIEW(float, x), AMP_VIEW(float, y), float a,\n"
    "                   AMP_VIEW(float, z), int past) {\n"
    "  AMP_INDEX1(idx);\n"
    "  const int i = idx[0];\n"
    "  amp_at(z, i + past) = a * amp_at(x, i) + amp_at(y, i);\n"
    "  amp_at(y, i) = amp_at(y, i) + 1.0f;\n"
    "}\n";

static amp_accelerator_view *av;

/* x (array) and z (array), y a view of host memory: z = a*x + y, then y += 1. */
static void test_arrays_both_ways(amp_kernel *k, const char *mode) {
  static float hx[N], hy[N], hz[N], want_z[N], want_y[N];
  for (int i = 0; i < N; i++) {
    hx[i] = (float)(i % 17) - 8.0f;
    hy[i] = 0.25f * (float)i;
    want_z[i] = 3.0f * hx[i] + hy[i];
    want_y[i] = hy[i] + 1.0f;
    hz[i] = -1.0f;
  }
  amp_array *x = NULL, *z = NULL;
  amp_array_view *vy = NULL;
  CHECK_OK(amp_array_create_from(av, amp_extent1(N), AMP_FLOAT, hx, &x));
  CHECK_OK(amp_array_create(av, amp_extent1(N), AMP_FLOAT, &z));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, hy, &vy));
  if (x && z && vy) {
    amp_arg args[] = {amp_arg_array(x), amp_arg_view(vy), amp_arg_float(3.0f), amp_arg_array(z),
                      amp_arg_int(0)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, AMP_NARGS(args)));
    CHECK_OK(amp_copy_from_array(z, hz, sizeof hz));
    CHECK_OK(amp_array_view_synchronize(vy));
    int bad = 0;
    for (int i = 0; i < N; i++)
      if ((hz[i] != want_z[i] || hy[i] != want_y[i]) && bad++ < 3)
        fprintf(stderr, "%s: z[%d] = %g (want %g), y[%d] = %g (want %g)\n", mode, i, hz[i],
                want_z[i], i, hy[i], want_y[i]);
    CHECK_EQ_INT(bad, 0);
    /* the array read by the kernel is unchanged */
    CHECK_OK(amp_copy_from_array(x, hz, sizeof hz));
    CHECK(memcmp(hz, hx, sizeof hx) == 0);
  }
  /* debug mode: a write one past the end of the array z, named as its parameter */
  if (x && z && vy && getenv("AMP_DEBUG")) {
    amp_arg args[] = {amp_arg_array(x), amp_arg_view(vy), amp_arg_float(3.0f), amp_arg_array(z),
                      amp_arg_int(1)};
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), k, args, AMP_NARGS(args)),
                 AMP_ERROR_OUT_OF_RANGE);
    CHECK_MSG("out-of-bounds access to view 'z' (argument 3, extent [256]): index [256]");
  }
  amp_array_view_release(vy);
  amp_array_release(z);
  amp_array_release(x);
}

/* The launch of axpb with these five arguments is refused with `want` and `msg`, and nothing
 * moved: the host memory under y (hy) still equals orig. */
static void check_refused(amp_kernel *k, const amp_arg args[5], amp_status want, const char *msg,
                          const float *hy, const float *orig) {
  amp_transfer_stats_reset();
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), k, args, 5), want);
  CHECK_MSG(msg);
  CHECK_EQ_INT(test_transfers(), 0);
  CHECK(memcmp(hy, orig, N * sizeof *hy) == 0);
}

/* Refused before anything moves: the host memory under y is as it was, nothing was copied. */
static void test_refused(amp_kernel *k) {
  static float hy[N], orig[N];
  static int hi[N];
  for (int i = 0; i < N; i++)
    hy[i] = orig[i] = (float)i;
  amp_array *x = NULL, *dead = NULL, *ints = NULL;
  amp_array_view *vy = NULL;
  CHECK_OK(amp_array_create(av, amp_extent1(N), AMP_FLOAT, &x));
  CHECK_OK(amp_array_create(av, amp_extent1(N), AMP_FLOAT, &dead));
  CHECK_OK(amp_array_create_from(av, amp_extent1(N), AMP_INT32, hi, &ints));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, hy, &vy));
  CHECK_OK(amp_array_release(dead));
  if (!x || !ints || !vy)
    goto done;

  amp_arg released[] = {amp_arg_array(dead), amp_arg_view(vy), amp_arg_float(1.0f),
                        amp_arg_array(x), amp_arg_int(0)};
  check_refused(k, released, AMP_ERROR_INVALID_HANDLE,
                "argument 0 (counting from 0) is not a live array", hy, orig);
  amp_arg null[] = {amp_arg_array(x), amp_arg_view(vy), amp_arg_float(1.0f), amp_arg_array(NULL),
                    amp_arg_int(0)};
  check_refused(k, null, AMP_ERROR_INVALID_HANDLE,
                "argument 3 (counting from 0) is not a live array", hy, orig);
  amp_arg wrong_type[] = {amp_arg_array(ints), amp_arg_view(vy), amp_arg_float(1.0f),
                          amp_arg_array(x), amp_arg_int(0)};
  check_refused(k, wrong_type, AMP_ERROR_KERNEL_ARGS,
                "argument 0 is an array of int, but parameter 'x' is a const view of float", hy,
                orig);
  /* an array where a value is expected */
  amp_arg for_value[] = {amp_arg_array(x), amp_arg_view(vy), amp_arg_array(x), amp_arg_array(x),
                         amp_arg_int(0)};
  check_refused(k, for_value, AMP_ERROR_KERNEL_ARGS,
                "argument 2 is an array of float, but parameter 'a' is float", hy, orig);
done:
  amp_array_view_release(vy);
  amp_array_release(ints);
  amp_array_release(x);
}

int main(void) {
  if (!(av = test_view()))
    return 1;
  amp_kernel *k = test_kernel(src, NULL, "axpb");
  if (!k)
    return check_done();
  unsetenv("AMP_DEBUG");
  test_arrays_both_ways(k, "as built");
  test_refused(k);
  setenv("AMP_DEBUG", "1", 1); /* the same kernel, built again with checked views */
  test_arrays_both_ways(k, "debug mode");
  test_refused(k);
  amp_kernel_release(k);
  return check_done();
}
