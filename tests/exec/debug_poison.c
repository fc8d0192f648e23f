/* debug_poison: in debug mode (AMP_DEBUG=1, set by ctest) discarded data are poisoned on the
 * device, and a kernel that reads a discarded element before writing it, or leaves one unwritten,
 * fails the launch naming the view's argument, its parameter and the element (data/poison.c,
 * exec/debug_poison.c); a kernel that writes every discarded element first passes with the right
 * result, and so does an accumulation into a view that was not discarded. Through AMP_VIEW and
 * through a plain pointer; float, double and int views. Without debug mode the test has nothing
 * to check and says so (exit 77). */
#include <math.h>
#include <stdatomic.h>

#include "check.h"
#include "core/accelerator_impl.h"

enum { N = 256 };

static const char *src =
    "__kernel void acc_view(AMP_CONST_VIEW(float, x), AMP_VIEW(float, tmp)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(tmp, i[0]) += amp_at(x, i[0]);\n"
    "}\n"
    "__kernel void acc_ptr(__global const float *x, __global float *tmp) {\n"
    "  int i = get_global_id(0);\n"
    "  tmp[i] += x[i];\n"
    "}\n"
    "__kernel void interior(__global const float *x, __global float *out, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i > 0 && i < n - 1) out[i] = x[i - 1] + x[i + 1];\n"
    "}\n"
    "__kernel void fill(__global const float *x, __global float *out) {\n"
    "  int i = get_global_id(0);\n"
    "  out[i] = 3.0f * x[i];\n"
    "}\n"
    "__kernel void nan_out(__global const float *x, __global float *out) {\n"
    "  int i = get_global_id(0);\n"
    "  out[i] = x[i] * NAN;\n"
    "}\n"
    "__kernel void half_acc(AMP_CONST_VIEW(float, x), AMP_VIEW(float, tmp)) {\n"
    "  AMP_INDEX1(i);\n"
    "  if (i[0] % 2 == 0)\n"
    "    amp_at(tmp, i[0]) = amp_at(x, i[0]);\n"
    "  else\n"
    "    amp_at(tmp, i[0]) += amp_at(x, i[0]);\n"
    "}\n";

/* Built only where the device has fp64 (rusticl on llvmpipe has none). */
static const char *src_double =
    "__kernel void acc_double(__global const double *x, __global double *sum) {\n"
    "  int i = get_global_id(0);\n"
    "  sum[i] = 2.0 * sum[i] + x[i];\n"
    "}\n";

static float x[N], out[N];

/* Launches kernel k on x and out (out discarded first when `discard`); returns the status. */
static amp_status launch(amp_accelerator_view *av, amp_kernel *k, int discard, int with_n) {
  amp_array_view *vx = NULL, *vo = NULL;
  amp_status st = amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx);
  if (st == AMP_SUCCESS)
    st = amp_array_view_create(amp_extent1(N), AMP_FLOAT, out, &vo);
  if (st == AMP_SUCCESS && discard)
    st = amp_array_view_discard_data(vo);
  amp_arg args[] = {amp_arg_view(vx), amp_arg_view(vo), amp_arg_int(N)};
  if (st == AMP_SUCCESS)
    st = amp_parallel_for_each(av, amp_extent1(N), k, args, with_n ? 3 : 2);
  if (st == AMP_SUCCESS)
    st = amp_array_view_synchronize(vo);
  else
    amp_array_view_discard_data(vo); /* the failed launch's result is not wanted back */
  amp_array_view_release(vx);
  amp_array_view_release(vo);
  return st;
}

static void reset(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 7);
    out[i] = 10.0f;
  }
}

int main(void) {
  const char *dbg = getenv("AMP_DEBUG");
  if (!dbg || !*dbg || !strcmp(dbg, "0")) {
    printf("debug_poison: AMP_DEBUG is not set; nothing to check\n");
    return 77;
  }
  REQUIRE_VIEW(av);
  amp_kernel *av_k = test_kernel(src, NULL, "acc_view"), *ap = test_kernel(src, NULL, "acc_ptr");
  amp_kernel *in = test_kernel(src, NULL, "interior"), *fi = test_kernel(src, NULL, "fill");
  amp_kernel *nan_out = test_kernel(src, NULL, "nan_out");
  if (!av_k || !ap || !in || !fi || !nan_out)
    return check_done();

  /* reads before writing a discarded view: reported, naming the view */
  reset();
  CHECK_STATUS(launch(av, av_k, 1, 0), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("argument 1 (parameter 'tmp') was discarded");
  CHECK_MSG("element [0] still holds the poison");
  CHECK_MSG("found by line 3 at element [");
  /* Measured at that first check: whether this device's float arithmetic kept the poison's
   * payload (NVIDIA's fp32 does not; AMP_DEVICE_LIMITS=nan_payload=0 says it does not). */
  amp_accelerator *acc = NULL;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  int lost = atomic_load(&acc->nan_payload[0]) < 0;
  const char *limits = getenv("AMP_DEVICE_LIMITS");
  if (limits && strstr(limits, "nan_payload=0"))
    CHECK(lost);
  printf("debug_poison: float arithmetic here %s a NaN's payload\n", lost ? "loses" : "keeps");
  if (lost)
    CHECK_MSG("does not keep a NaN's payload, so any NaN there counts");
  /* a kernel that writes a NaN of its own into discarded data: told from the poison where the
   * payload survives arithmetic, counted with it where it does not (and the message says so) */
  reset();
  if (lost) {
    CHECK_STATUS(launch(av, nan_out, 1, 0), AMP_ERROR_INVALID_ARGUMENT);
    CHECK_MSG("a NaN the kernel computed itself looks the same");
  } else {
    CHECK_OK(launch(av, nan_out, 1, 0));
    int nans = 0;
    for (int i = 0; i < N; i++)
      nans += isnan(out[i]) != 0;
    CHECK_EQ_INT(nans, N);
  }
  reset();
  CHECK_STATUS(launch(av, ap, 1, 0), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("argument 1 (parameter 'tmp') was discarded");
  /* one line writes (its elements end clean), one reads first: only the reading line is named */
  amp_kernel *half = test_kernel(src, NULL, "half_acc");
  reset();
  CHECK_STATUS(launch(av, half, 1, 0), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("element [1] still holds the poison");
  CHECK_MSG("found by line 26 at element [");
  CHECK(!strstr(amp_last_error(), "line 24"));
  amp_kernel_release(half);
  /* writes only the interior of a discarded view: element 0 never written */
  reset();
  CHECK_STATUS(launch(av, in, 1, 1), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("parameter 'out') was discarded, and after the kernel its element [0]");
  /* the same kernels on a view that was not discarded: right, and no report */
  reset();
  CHECK_OK(launch(av, ap, 0, 0));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != 10.0f + (float)(i % 7);
  CHECK_EQ_INT(bad, 0);
  reset();
  CHECK_OK(launch(av, in, 0, 1));
  bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != (i == 0 || i == N - 1 ? 10.0f : x[i - 1] + x[i + 1]);
  CHECK_EQ_INT(bad, 0);
  /* every discarded element written first: passes */
  reset();
  CHECK_OK(launch(av, fi, 1, 0));
  bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != 3.0f * x[i];
  CHECK_EQ_INT(bad, 0);

  /* double: a NaN made from the poison is recognised too */
  amp_accelerator_properties p;
  CHECK_OK(test_props(av, &p));
  amp_kernel *ad = NULL;
  if (p.supports_double_precision && (ad = test_kernel(src_double, NULL, "acc_double"))) {
    static double xd[N], sd[N];
    amp_array_view *vx = NULL, *vs = NULL;
    REQUIRE_OK(amp_array_view_create_const(amp_extent1(N), AMP_DOUBLE, xd, &vx));
    REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_DOUBLE, sd, &vs));
    CHECK_OK(amp_array_view_discard_data(vs));
    amp_arg args[] = {amp_arg_view(vx), amp_arg_view(vs)};
    CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), ad, args, 2),
                 AMP_ERROR_INVALID_ARGUMENT);
    CHECK_MSG("parameter 'sum') was discarded");
    CHECK_OK(amp_array_view_discard_data(vs));
    CHECK_OK(amp_array_view_release(vx));
    CHECK_OK(amp_array_view_release(vs));
  }
  amp_kernel *ks[] = {av_k, ap, ad, in, fi, nan_out};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
    if (ks[i])
      amp_kernel_release(ks[i]);
  return check_done();
}
