/* arg_info_missing: a driver that gives no argument information (NVIDIA's, for a program that
 * holds a kernel without parameters; runtime/exec/program_build.c), simulated with
 * AMP_DEVICE_LIMITS=arg_info=0 (CMakeLists.txt sets it). The launch then checks the count of
 * OpenCL parameters and, from the kernel's text, each view's element type where the text leaves no
 * doubt (runtime/exec/view_elem_text.c): a built-in type, a -D option, a name the source defines
 * once. A name defined twice (under #if and #else) is left alone: never a refusal of a right
 * launch. A refusal moves nothing. */
#include "check.h"

enum { N = 64 };

static const char *src =
    "typedef float real;\n"
    "#ifdef WIDE\n#define ELEM long\n#else\n#define ELEM int\n#endif\n"
    "#ifndef T\n#define T float\n#endif\n"
    "/* a kernel without parameters, as in the programs NVIDIA builds without argument info */\n"
    "__kernel void nothing(void) { }\n"
    "__kernel void scale(AMP_CONST_VIEW(int, in), AMP_VIEW(real, out), float k) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(out, i[0]) = k * (float)amp_at(in, i[0]);\n"
    "}\n"
    "__kernel void by_t(AMP_VIEW(T, v)) { AMP_INDEX1(i); amp_at(v, i[0]) += (T)1; }\n"
    "__kernel void two_ways(AMP_VIEW(ELEM, v)) { AMP_INDEX1(i); amp_at(v, i[0]) = 7; }\n";

static int32_t in[N], in_orig[N], ints[N];
static float out[N], out_orig[N];

int main(void) {
  const char *limits = getenv("AMP_DEVICE_LIMITS");
  CHECK(limits && strstr(limits, "arg_info=0"));
  REQUIRE_VIEW(av);
  for (int i = 0; i < N; i++) {
    in[i] = in_orig[i] = i - 5;
    out[i] = out_orig[i] = -1.0f;
  }
  amp_kernel *scale = test_kernel(src, NULL, "scale"), *by_t = test_kernel(src, NULL, "by_t");
  amp_kernel *by_int = test_kernel(src, "-DT=int -DUNUSED=1", "by_t");
  amp_kernel *two = test_kernel(src, NULL, "two_ways"), *none = test_kernel(src, NULL, "nothing");
  if (!scale || !by_t || !by_int || !two || !none)
    return check_done();
  amp_array_view *vin, *vout;
  REQUIRE_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, in, &vin));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, out, &vout));

  /* the right launch runs */
  amp_arg ok[] = {amp_arg_view(vin), amp_arg_view(vout), amp_arg_float(0.5f)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), scale, ok, 3));
  CHECK_OK(amp_array_view_synchronize(vout));
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += out[i] != 0.5f * (float)(i - 5);
  CHECK_EQ_INT(wrong, 0);
  for (int i = 0; i < N; i++)
    out_orig[i] = out[i];

  /* element types from the text: int written out, then a typedef followed */
  amp_arg swapped[] = {amp_arg_view(vout), amp_arg_view(vin), amp_arg_float(0.5f)};
  CHECK_REFUSED(amp_parallel_for_each(av, amp_extent1(N), scale, swapped, 3), AMP_ERROR_KERNEL_ARGS,
                "parallel_for_each(scale): the view for parameter 'in' is a view of float, but the "
                "kernel declares it a view of int (the kernel's parameter 0, counting from 0)");
  amp_arg both_int[] = {amp_arg_view(vin), amp_arg_view(vin), amp_arg_float(0.5f)};
  CHECK_REFUSED(amp_parallel_for_each(av, amp_extent1(N), scale, both_int, 3),
                AMP_ERROR_KERNEL_ARGS,
                "the view for parameter 'out' is a view of int, but the kernel declares it a view "
                "of real, which is float");
  /* the count, in OpenCL parameters */
  CHECK_REFUSED(amp_parallel_for_each(av, amp_extent1(N), scale, ok, 2), AMP_ERROR_KERNEL_ARGS,
                "the driver gives no parameter names to say which differ");
  CHECK(memcmp(in, in_orig, sizeof in) == 0 && memcmp(out, out_orig, sizeof out) == 0);

  /* T: the source's #ifndef default, unless the build's -DT=... says otherwise */
  amp_arg t_int[] = {amp_arg_view(vin)};
  CHECK_REFUSED(amp_parallel_for_each(av, amp_extent1(N), by_t, t_int, 1), AMP_ERROR_KERNEL_ARGS,
                "a view of T, which is float");
  amp_array_view *vints;
  for (int i = 0; i < N; i++)
    ints[i] = i;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, ints, &vints));
  amp_arg t_ints[] = {amp_arg_view(vints)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), by_int, t_ints, 1));
  CHECK_OK(amp_array_view_synchronize(vints));
  CHECK(ints[0] == 1 && ints[N - 1] == N);
  /* ELEM is defined twice: not followed, so the launch's own checks (none here) decide */
  amp_arg e_float[] = {amp_arg_view(vout)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), two, e_float, 1));
  CHECK_OK(amp_accelerator_view_wait(av));
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(1), none, NULL, 0));
  CHECK_OK(amp_accelerator_view_wait(av));

  amp_array_view_release(vints);
  amp_array_view_release(vin);
  amp_array_view_release(vout);
  amp_kernel_release(scale);
  amp_kernel_release(by_t);
  amp_kernel_release(by_int);
  amp_kernel_release(two);
  amp_kernel_release(none);
  return check_done();
}
