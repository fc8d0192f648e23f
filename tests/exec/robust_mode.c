/* robust_mode: AMP_ROBUST=1 (docs/CHECKING.md): a kernel's accesses outside its views read 0 and
 * their writes are dropped, as in C++ AMP on Direct3D, with no error and no memory outside the
 * views touched. The views here are sections of larger host arrays, so an unchecked access would
 * reach real neighbouring elements. Checked against the host: reads past either end give 0 (not
 * the neighbours), writes past either end leave the neighbours as they were while the good writes
 * land, a read of an index just written out of range still gives 0 in that work item, an atomic
 * on an out-of-range element changes nothing, and 2^17 work items doing so at once agree. With
 * AMP_DEBUG set as well, debug mode wins and the same launch is refused, naming the access. */
#include "check.h"

enum { N = 1 << 17, PAD = 16 };

static const char *src =
    "__kernel void shifted(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out), int s) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(out, i[0]) = amp_at(in, i[0] + s);\n"
    "}\n"
    "__kernel void scatter(AMP_VIEW(int, out), int s) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(out, i[0] + s) = 1000 + i[0];\n"
    "}\n"
    "__kernel void write_then_read(AMP_VIEW(int, v), AMP_VIEW(int, out)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(v, -1 - i[0]) = 77;\n"
    "  amp_atomic_fetch_add(&amp_at(v, N + i[0]), 5);\n"
    "  amp_at(out, i[0]) = amp_at(v, -1 - i[0]) + amp_at(v, N + i[0]);\n"
    "}\n";

/* host arrays: N elements with PAD neighbours on each side */
static int in_all[N + 2 * PAD], out_all[N + 2 * PAD];

/* Fresh host arrays (in: 1, 2, ... with -5 around it; out: all -9) and views *vin and *vout of
 * their middle N elements. */
static void fresh_views(amp_array_view **vin, amp_array_view **vout) {
  for (int i = 0; i < N + 2 * PAD; i++) {
    in_all[i] = i < PAD || i >= N + PAD ? -5 : i - PAD + 1;
    out_all[i] = -9;
  }
  amp_array_view *a = NULL, *b = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N + 2 * PAD), AMP_INT32, in_all, &a));
  CHECK_OK(amp_array_view_create(amp_extent1(N + 2 * PAD), AMP_INT32, out_all, &b));
  CHECK_OK(amp_array_view_section(a, amp_index1(PAD), amp_extent1(N), vin));
  CHECK_OK(amp_array_view_section(b, amp_index1(PAD), amp_extent1(N), vout));
  amp_array_view_release(a);
  amp_array_view_release(b);
}

/* out[i] = in[i + s]: 0 where i + s is outside [0, N). */
static void reads(amp_accelerator_view *av, amp_kernel *k, int s) {
  amp_array_view *vin = NULL, *vout = NULL;
  fresh_views(&vin, &vout);
  amp_arg args[] = {amp_arg_view(vin), amp_arg_view(vout), amp_arg_int(s)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 3));
  CHECK_OK(amp_array_view_synchronize(vout));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out_all[PAD + i] != (i + s >= 0 && i + s < N ? i + s + 1 : 0);
  for (int i = 0; i < PAD; i++)
    bad += out_all[i] != -9 || out_all[N + PAD + i] != -9;
  if (bad)
    fprintf(stderr, "reads shifted by %d: %d elements wrong\n", s, bad);
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(vin);
  amp_array_view_release(vout);
}

/* out[i + s] = 1000 + i: the writes outside [0, N) dropped, the neighbours intact. */
static void writes(amp_accelerator_view *av, amp_kernel *k, int s) {
  amp_array_view *vin = NULL, *vout = NULL;
  fresh_views(&vin, &vout);
  amp_arg args[] = {amp_arg_view(vout), amp_arg_int(s)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 2));
  CHECK_OK(amp_array_view_synchronize(vout));
  int bad = 0;
  for (int j = 0; j < N + 2 * PAD; j++) {
    int at = j - PAD, i = at - s; /* the element of the view, and the item that writes it */
    int want = at >= 0 && at < N ? (i >= 0 && i < N ? 1000 + i : -9) : -9;
    bad += out_all[j] != want;
  }
  if (bad)
    fprintf(stderr, "writes shifted by %d: %d elements wrong\n", s, bad);
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(vin);
  amp_array_view_release(vout);
}

int main(void) {
  unsetenv("AMP_DEBUG");
  setenv("AMP_ROBUST", "1", 1);
  REQUIRE_VIEW(av);
  char opts[32];
  snprintf(opts, sizeof opts, "-DN=%d", N);
  amp_kernel *sh = test_kernel(src, opts, "shifted"), *sc = test_kernel(src, opts, "scatter");
  amp_kernel *wr = test_kernel(src, opts, "write_then_read");
  if (!sh || !sc || !wr)
    return check_done();
  const int shifts[] = {0, 1, -1, PAD + 3, -(PAD + 3), N / 2, -N};
  for (size_t k = 0; k < sizeof shifts / sizeof shifts[0]; k++) {
    reads(av, sh, shifts[k]);
    writes(av, sc, shifts[k]);
  }

  /* a write out of range, then a read of it, and an atomic out of range: 0 and nothing */
  amp_array_view *vin = NULL, *vout = NULL;
  fresh_views(&vin, &vout);
  amp_arg args[] = {amp_arg_view(vin), amp_arg_view(vout)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), wr, args, 2));
  CHECK_OK(amp_array_view_synchronize(vin));
  CHECK_OK(amp_array_view_synchronize(vout));
  int bad = 0;
  for (int j = 0; j < N + 2 * PAD; j++) {
    bad += in_all[j] != (j < PAD || j >= N + PAD ? -5 : j - PAD + 1);
    bad += out_all[j] != (j < PAD || j >= N + PAD ? -9 : 0);
  }
  CHECK_EQ_INT(bad, 0);

  /* debug mode wins: the same launch is refused and named */
  setenv("AMP_DEBUG", "1", 1);
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), wr, args, 2), AMP_ERROR_OUT_OF_RANGE);
  CHECK_MSG("out-of-bounds access to view 'v'");
  unsetenv("AMP_DEBUG");
  amp_array_view_release(vin);
  amp_array_view_release(vout);
  amp_kernel_release(sh);
  amp_kernel_release(sc);
  amp_kernel_release(wr);
  return check_done();
}
