/* smoke: the C++ AMP article's VectorAddExpPointwise end to end, with the transfer counters. */
#include "check.h"

static const char *src =
    "__kernel void add_exp(AMP_CONST_VIEW(float, first), AMP_CONST_VIEW(float, second),\n"
    "                      AMP_VIEW(float, result)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(result, i[0]) = amp_at(first, i[0]) + fast_math_exp(amp_at(second, i[0]));\n"
    "}\n";

int main(void) {
  enum { N = 1000 };
  static float a[N], b[N], r[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)i;
    b[i] = (float)(i % 7) * 0.25f;
    r[i] = -1;
  }
  REQUIRE_VIEW(av);
  amp_program *prog;
  amp_kernel *k;
  amp_array_view *va, *vb, *vr;
  REQUIRE_OK(amp_program_create(src, NULL, &prog));
  REQUIRE_OK(amp_kernel_create(prog, "add_exp", &k));
  REQUIRE_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, a, &va));
  REQUIRE_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, b, &vb));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, r, &vr));
  CHECK_OK(amp_array_view_discard_data(vr));
  CHECK_OK(amp_transfer_stats_reset());
  amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vr)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, AMP_NARGS(args)));
  CHECK_OK(amp_array_view_synchronize(vr));
  amp_transfer_stats st;
  CHECK_OK(amp_transfer_stats_get(NULL, &st));
  CHECK_EQ_INT(st.to_device_count, 2);
  CHECK_EQ_INT(st.to_device_bytes, 2 * N * sizeof(float));
  CHECK_EQ_INT(st.to_host_count, 1);
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (fabsf(r[i] - (a[i] + expf(b[i]))) > 1e-4f * fabsf(a[i] + expf(b[i])))
      bad++;
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(va));
  CHECK_OK(amp_array_view_release(vb));
  CHECK_OK(amp_array_view_release(vr));
  CHECK_STATUS(amp_array_view_release(vr), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("already released");
  amp_kernel_release(k);
  amp_program_release(prog);
  return check_done();
}
