/* kernels_add_exp: kernels_cl/examples/add_exp.cl's add_exp, add_exp_vec4 and add_exp_cpu (also
 * built to use streaming stores at every size) against a host reference, at n = 1, 3, 4, 5, 1000003
 * (tails of 1, 3, 0, 1 and 3 elements for the float4 kernel), through whole views and through
 * sections whose offset is (4) and is not (1) a multiple of 4 elements, which add_exp_vec4 sends
 * down its float4 and its scalar path. The whole result buffer is first filled with NaN *on the
 * device* (a one-line kernel over the whole view), so the device holds its newest contents and the
 * final synchronize brings all of it back: an element the kernel forgets stays NaN, and a write
 * past the section's end (a broken tail guard) shows up as a number.
 */
#include "check.h"

static const char *fill_src = "__kernel void fill(AMP_VIEW(float, v), float value) {\n"
                              "  AMP_INDEX1(i);\n"
                              "  amp_at(v, i[0]) = value;\n"
                              "}\n";
static amp_kernel *fill;

static const int counts[] = {1, 3, 4, 5, 1000003};
static const int origins[] = {0, 1, 4}; /* whole-buffer start, unaligned, aligned */

/* Runs kernel `name` on n elements placed at `origin` in buffers of n + 8; returns the number of
 * wrong elements of the result buffer (inside and outside the section). */
static int run_one(amp_accelerator_view *av, amp_kernel *k, int per_item, int n, int origin) {
  const int len = n + 8;
  float *f = malloc((size_t)len * sizeof(float)), *s = malloc((size_t)len * sizeof(float));
  float *r = malloc((size_t)len * sizeof(float));
  amp_array_view *vf = NULL, *vs = NULL, *vr = NULL, *sf = NULL, *ss = NULL, *sr = NULL;
  int bad = -1;
  if (!f || !s || !r)
    goto done;
  for (int i = 0; i < len; i++) {
    f[i] = (float)((i * 37) % 201 - 100) * 0.1f; /* -10 .. 10 */
    s[i] = (float)((i * 53) % 161 - 80) * 0.05f; /* -4 .. 4 */
    r[i] = 0;                                    /* overwritten with NaN on the device */
  }
  if (amp_array_view_create_const(amp_extent1(len), AMP_FLOAT, f, &vf) ||
      amp_array_view_create_const(amp_extent1(len), AMP_FLOAT, s, &vs) ||
      amp_array_view_create(amp_extent1(len), AMP_FLOAT, r, &vr) ||
      amp_array_view_section(vf, amp_index1(origin), amp_extent1(n), &sf) ||
      amp_array_view_section(vs, amp_index1(origin), amp_extent1(n), &ss) ||
      amp_array_view_section(vr, amp_index1(origin), amp_extent1(n), &sr)) {
    fprintf(stderr, "creating views: %s\n", amp_last_error());
    goto done;
  }
  amp_arg fargs[] = {amp_arg_view(vr), amp_arg_float(NAN)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(len), fill, fargs, AMP_NARGS(fargs)));
  amp_arg args[] = {amp_arg_view(sf), amp_arg_view(ss), amp_arg_view(sr)};
  amp_status st = amp_parallel_for_each(av, amp_extent1((n + per_item - 1) / per_item), k, args,
                                        AMP_NARGS(args));
  CHECK_OK(st);
  CHECK_OK(amp_array_view_synchronize(vr));
  if (st != AMP_SUCCESS)
    goto done;
  bad = 0;
  for (int i = 0; i < len; i++) {
    const int inside = i >= origin && i < origin + n;
    int ok;
    double want = NAN;
    if (inside) {
      want = (double)f[i] + exp((double)s[i]);
      /* native_exp: a few ulp on GPUs; scale by the terms, since they may cancel */
      ok = fabs(r[i] - want) <= 2e-5 * (fabs(f[i]) + exp((double)s[i]));
    } else {
      ok = isnan(r[i]);
    }
    if (!ok && bad++ < 3)
      fprintf(stderr, "  %s, n=%d, origin %d: result[%d]%s = %.9g, expected %.9g\n",
              per_item == 1   ? "add_exp"
              : per_item == 4 ? "add_exp_vec4"
                              : "add_exp_cpu",
              n, origin, i - origin, inside ? "" : " (outside the section)", r[i], want);
  }
done:
  amp_array_view_release(sf);
  amp_array_view_release(ss);
  amp_array_view_release(sr);
  amp_array_view_release(vf);
  amp_array_view_release(vs);
  amp_array_view_release(vr);
  free(f);
  free(s);
  free(r);
  return bad;
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_program *prog, *sprog, *fprog;
  /* The fourth variant is add_exp_cpu built to stream its stores at every size (on clang and x86:
   * POCL there), so the streaming path is checked at sizes a test can afford. */
  enum { NV = 4 };
  static const char *const names[NV] = {"add_exp", "add_exp_vec4", "add_exp_cpu", "add_exp_cpu"};
  static const char *const labels[NV] = {"add_exp", "add_exp_vec4", "add_exp_cpu",
                                         "add_exp_cpu (streaming)"};
  static const int per_item[NV] = {1, 4, 256, 256}; /* elements per work-item (CHUNK) */
  amp_kernel *k[NV];
  REQUIRE_OK(amp_program_create(fill_src, NULL, &fprog));
  REQUIRE_OK(amp_kernel_create(fprog, "fill", &fill));
  REQUIRE_OK(amp_program_create_builtin("add_exp", NULL, &prog));
  REQUIRE_OK(amp_program_create_builtin("add_exp", "-DAE_STREAM_MIN=1", &sprog));
  for (int v = 0; v < NV; v++)
    REQUIRE_OK(amp_kernel_create(v < 3 ? prog : sprog, names[v], &k[v]));
  for (int v = 0; v < NV; v++)
    for (size_t ni = 0; ni < sizeof counts / sizeof counts[0]; ni++)
      for (size_t oi = 0; oi < sizeof origins / sizeof origins[0]; oi++) {
        const int origin = origins[oi];
        /* small (oclgrind): 1031 instead of a million still gives add_exp_cpu several items */
        const int n = test_small() && counts[ni] > 1031 ? 1031 : counts[ni];
        const int bad = run_one(av, k[v], per_item[v], n, origin);
        CHECK_EQ_INT(bad, 0);
        printf("%-24s n=%-7d origin %d  %s\n", labels[v], n, origin, bad ? "MISMATCH" : "verified");
      }
  for (int v = 0; v < NV; v++)
    amp_kernel_release(k[v]);
  amp_program_release(prog);
  amp_program_release(sprog);
  amp_kernel_release(fill);
  amp_program_release(fprog);
  return check_done();
}
