/* bench/ports_amp.c: ampcl's host code of each port (ports.h), on the same kernel files: views over
 * the host arrays (const where the kernel only reads, discarded where it writes every element,
 * views with no host memory for the device's temporaries), the launches stated in OpenCL's
 * global sizes (amp_parallel_for_each_ndrange), and a synchronize of the results. */
#include <stdio.h>

#include "ports.h"

#define PT(call)                                                                                   \
  do {                                                                                             \
    if ((st = (call)) != AMP_SUCCESS)                                                              \
      goto fail;                                                                                   \
  } while (0)

static int finish(amp_status st, const char *port, amp_array_view **views, int n) {
  for (int i = 0; i < n; i++)
    amp_array_view_release(views[i]);
  if (st != AMP_SUCCESS)
    fprintf(stderr, "amp-bench: ampcl %s: %s\n", port, amp_last_error());
  return st != AMP_SUCCESS;
}

/* gemm: a, b in; c in and out. */
enum { AMP_GEMM_FIRST = __LINE__ };
static int amp_gemm(amp_env *e, port_io *io) {
  amp_status st = AMP_SUCCESS;
  amp_extent ext = amp_extent2(io->n, io->n);
  amp_array_view *a = NULL, *b = NULL, *c = NULL;
  PT(amp_array_view_create_const(ext, AMP_FLOAT, io->a, &a));
  PT(amp_array_view_create_const(ext, AMP_FLOAT, io->b, &b));
  PT(amp_array_view_create(ext, AMP_FLOAT, io->c, &c));
  amp_arg args[] = {amp_arg_view(a),     amp_arg_view(b),     amp_arg_view(c),
                    amp_arg_float(1.5f), amp_arg_float(1.2f), amp_arg_int(io->n)};
  size_t global[2] = {io->n, io->n};
  PT(amp_parallel_for_each_ndrange(e->av, e->k[PORT_GEMM][0], 2, global, NULL, args, 6, NULL));
  PT(amp_array_view_synchronize(c));
fail:;
  amp_array_view *all[] = {a, b, c};
  return finish(st, "gemm", all, 3);
}
enum { AMP_GEMM_LAST = __LINE__ };

/* conv2d: a in; b in (its border is kept: not discarded) and out. */
enum { AMP_CONV_FIRST = __LINE__ };
static int amp_conv2d(amp_env *e, port_io *io) {
  amp_status st = AMP_SUCCESS;
  amp_extent ext = amp_extent2(io->n, io->n);
  amp_array_view *in = NULL, *out = NULL;
  PT(amp_array_view_create_const(ext, AMP_FLOAT, io->a, &in));
  PT(amp_array_view_create(ext, AMP_FLOAT, io->b, &out));
  amp_arg args[] = {amp_arg_view(in), amp_arg_view(out), amp_arg_int(io->n), amp_arg_int(io->n)};
  size_t global[2] = {io->n, io->n};
  PT(amp_parallel_for_each_ndrange(e->av, e->k[PORT_CONV2D][0], 2, global, NULL, args, 4, NULL));
  PT(amp_array_view_synchronize(out));
fail:;
  amp_array_view *all[] = {in, out};
  return finish(st, "conv2d", all, 2);
}
enum { AMP_CONV_LAST = __LINE__ };

/* jacobi: a in and out, steps time steps; b a temporary with no host memory. */
enum { AMP_JACOBI_FIRST = __LINE__ };
static int amp_jacobi(amp_env *e, port_io *io) {
  amp_status st = AMP_SUCCESS;
  amp_extent ext = amp_extent2(io->n, io->n);
  amp_array_view *a = NULL, *b = NULL;
  PT(amp_array_view_create(ext, AMP_FLOAT, io->a, &a));
  PT(amp_array_view_create_empty(ext, AMP_FLOAT, &b));
  amp_arg args[] = {amp_arg_view(a), amp_arg_view(b), amp_arg_int(io->n)};
  size_t global[2] = {io->n, io->n};
  for (int t = 0; t < io->steps; t++) {
    PT(amp_parallel_for_each_ndrange(e->av, e->k[PORT_JACOBI][0], 2, global, NULL, args, 3, NULL));
    PT(amp_parallel_for_each_ndrange(e->av, e->k[PORT_JACOBI][1], 2, global, NULL, args, 3, NULL));
  }
  PT(amp_array_view_synchronize(a));
fail:;
  amp_array_view *all[] = {a, b};
  return finish(st, "jacobi", all, 2);
}
enum { AMP_JACOBI_LAST = __LINE__ };

/* mv: a (n x n) and b (x, n) in; c (y, n) out, every element written: discarded. */
enum { AMP_MV_FIRST = __LINE__ };
static int amp_mv(amp_env *e, port_io *io) {
  amp_status st = AMP_SUCCESS;
  amp_array_view *a = NULL, *x = NULL, *y = NULL;
  PT(amp_array_view_create_const(amp_extent2(io->n, io->n), AMP_FLOAT, io->a, &a));
  PT(amp_array_view_create_const(amp_extent1(io->n), AMP_FLOAT, io->b, &x));
  PT(amp_array_view_create(amp_extent1(io->n), AMP_FLOAT, io->c, &y));
  PT(amp_array_view_discard_data(y));
  amp_arg args[] = {amp_arg_view(a), amp_arg_view(x), amp_arg_view(y), amp_arg_int(io->n)};
  size_t global = io->n;
  PT(amp_parallel_for_each_ndrange(e->av, e->k[PORT_MV][0], 1, &global, NULL, args, 4, NULL));
  PT(amp_array_view_synchronize(y));
fail:;
  amp_array_view *all[] = {a, x, y};
  return finish(st, "mv", all, 3);
}
enum { AMP_MV_LAST = __LINE__ };

/* correlation: a (data) in, changed on the device only: discarded before its release, so the
 * changed data never come back; c (the matrix) out, discarded; the means and deviations views
 * with no host memory. */
enum { AMP_CORR_FIRST = __LINE__ };
static int amp_corr(amp_env *e, port_io *io) {
  amp_status st = AMP_SUCCESS;
  int m = io->n;
  amp_array_view *data = NULL, *sym = NULL, *mean = NULL, *sd = NULL;
  PT(amp_array_view_create(amp_extent2(m, m), AMP_FLOAT, io->a, &data));
  PT(amp_array_view_create(amp_extent2(m, m), AMP_FLOAT, io->c, &sym));
  PT(amp_array_view_discard_data(sym));
  PT(amp_array_view_create_empty(amp_extent1(m), AMP_FLOAT, &mean));
  PT(amp_array_view_create_empty(amp_extent1(m), AMP_FLOAT, &sd));
  amp_arg sizes[] = {amp_arg_int(m), amp_arg_int(m)};
  amp_arg a_mean[] = {amp_arg_view(data), amp_arg_view(mean), sizes[0], sizes[1]};
  amp_arg a_sd[] = {amp_arg_view(data), amp_arg_view(mean), amp_arg_view(sd), sizes[0], sizes[1]};
  amp_arg a_mat[] = {amp_arg_view(data), amp_arg_view(sym), sizes[0], sizes[1]};
  size_t g1 = m, g2[2] = {m, m};
  amp_kernel **k = e->k[PORT_CORR];
  PT(amp_parallel_for_each_ndrange(e->av, k[0], 1, &g1, NULL, a_mean, 4, NULL));
  PT(amp_parallel_for_each_ndrange(e->av, k[1], 1, &g1, NULL, a_sd, 5, NULL));
  PT(amp_parallel_for_each_ndrange(e->av, k[2], 2, g2, NULL, a_sd, 5, NULL));
  PT(amp_parallel_for_each_ndrange(e->av, k[3], 1, &g1, NULL, a_mat, 4, NULL));
  PT(amp_array_view_synchronize(sym));
  PT(amp_array_view_discard_data(data));
fail:;
  amp_array_view *all[] = {data, sym, mean, sd};
  return finish(st, "correlation", all, 4);
}
enum { AMP_CORR_LAST = __LINE__ };

int port_amp_run(amp_env *e, int p, port_io *io) {
  static int (*const run[PORTS])(amp_env *, port_io *) = {amp_gemm, amp_conv2d, amp_jacobi, amp_mv,
                                                          amp_corr};
  return run[p](e, io);
}

int port_amp_lines(int p) {
  static const int lines[PORTS] = {
      AMP_GEMM_LAST - AMP_GEMM_FIRST - 1, AMP_CONV_LAST - AMP_CONV_FIRST - 1,
      AMP_JACOBI_LAST - AMP_JACOBI_FIRST - 1, AMP_MV_LAST - AMP_MV_FIRST - 1,
      AMP_CORR_LAST - AMP_CORR_FIRST - 1};
  return lines[p];
}
