/* bench/ports_raw.c: the raw OpenCL host code of each port (ports.h), as a raw OpenCL program
 * writes it: buffers, writes, kernel arguments, enqueues, the read back, the releases. Errors are
 * OR'ed together (a failed call's code is nonzero) and reported at the end of each run. */
#include <stdio.h>

#include "ports.h"

static cl_mem buffer(raw_env *e, size_t bytes, cl_int *err) {
  cl_int st = CL_SUCCESS;
  cl_mem m = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, bytes, NULL, &st);
  *err |= st;
  return m;
}

static int finish(cl_int err, const char *port, cl_mem *bufs, int n) {
  for (int i = 0; i < n; i++)
    if (bufs[i])
      clReleaseMemObject(bufs[i]);
  if (err != CL_SUCCESS)
    fprintf(stderr, "amp-bench: raw OpenCL %s: a call failed (%d)\n", port, (int)err);
  return err != CL_SUCCESS;
}

/* gemm: a, b in; c in and out. */
enum { RAW_GEMM_FIRST = __LINE__ };
static int raw_gemm(raw_env *e, port_io *io) {
  cl_int err = CL_SUCCESS;
  size_t bytes = (size_t)io->n * io->n * sizeof(float), global[2] = {io->n, io->n};
  cl_mem a = buffer(e, bytes, &err), b = buffer(e, bytes, &err), c = buffer(e, bytes, &err);
  err |= clEnqueueWriteBuffer(e->q, a, CL_FALSE, 0, bytes, io->a, 0, NULL, NULL);
  err |= clEnqueueWriteBuffer(e->q, b, CL_FALSE, 0, bytes, io->b, 0, NULL, NULL);
  err |= clEnqueueWriteBuffer(e->q, c, CL_FALSE, 0, bytes, io->c, 0, NULL, NULL);
  cl_kernel k = e->k[PORT_GEMM][0];
  float alpha = 1.5f, beta = 1.2f;
  err |= clSetKernelArg(k, 0, sizeof a, &a);
  err |= clSetKernelArg(k, 1, sizeof b, &b);
  err |= clSetKernelArg(k, 2, sizeof c, &c);
  err |= clSetKernelArg(k, 3, sizeof alpha, &alpha);
  err |= clSetKernelArg(k, 4, sizeof beta, &beta);
  err |= clSetKernelArg(k, 5, sizeof io->n, &io->n);
  err |= clEnqueueNDRangeKernel(e->q, k, 2, NULL, global, NULL, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(e->q, c, CL_TRUE, 0, bytes, io->c, 0, NULL, NULL);
  cl_mem all[] = {a, b, c};
  return finish(err, "gemm", all, 3);
}
enum { RAW_GEMM_LAST = __LINE__ };

/* conv2d: a in; b in (its border is kept) and out. */
enum { RAW_CONV_FIRST = __LINE__ };
static int raw_conv2d(raw_env *e, port_io *io) {
  cl_int err = CL_SUCCESS;
  size_t bytes = (size_t)io->n * io->n * sizeof(float), global[2] = {io->n, io->n};
  cl_mem in = buffer(e, bytes, &err), out = buffer(e, bytes, &err);
  err |= clEnqueueWriteBuffer(e->q, in, CL_FALSE, 0, bytes, io->a, 0, NULL, NULL);
  err |= clEnqueueWriteBuffer(e->q, out, CL_FALSE, 0, bytes, io->b, 0, NULL, NULL);
  cl_kernel k = e->k[PORT_CONV2D][0];
  err |= clSetKernelArg(k, 0, sizeof in, &in);
  err |= clSetKernelArg(k, 1, sizeof out, &out);
  err |= clSetKernelArg(k, 2, sizeof io->n, &io->n);
  err |= clSetKernelArg(k, 3, sizeof io->n, &io->n);
  err |= clEnqueueNDRangeKernel(e->q, k, 2, NULL, global, NULL, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(e->q, out, CL_TRUE, 0, bytes, io->b, 0, NULL, NULL);
  cl_mem all[] = {in, out};
  return finish(err, "conv2d", all, 2);
}
enum { RAW_CONV_LAST = __LINE__ };

/* jacobi: a in and out, steps time steps; b a temporary on the device. */
enum { RAW_JACOBI_FIRST = __LINE__ };
static int raw_jacobi(raw_env *e, port_io *io) {
  cl_int err = CL_SUCCESS;
  size_t bytes = (size_t)io->n * io->n * sizeof(float), global[2] = {io->n, io->n};
  cl_mem a = buffer(e, bytes, &err), b = buffer(e, bytes, &err);
  err |= clEnqueueWriteBuffer(e->q, a, CL_FALSE, 0, bytes, io->a, 0, NULL, NULL);
  cl_kernel step = e->k[PORT_JACOBI][0], copy = e->k[PORT_JACOBI][1];
  err |= clSetKernelArg(step, 0, sizeof a, &a);
  err |= clSetKernelArg(step, 1, sizeof b, &b);
  err |= clSetKernelArg(step, 2, sizeof io->n, &io->n);
  err |= clSetKernelArg(copy, 0, sizeof a, &a);
  err |= clSetKernelArg(copy, 1, sizeof b, &b);
  err |= clSetKernelArg(copy, 2, sizeof io->n, &io->n);
  for (int t = 0; t < io->steps; t++) {
    err |= clEnqueueNDRangeKernel(e->q, step, 2, NULL, global, NULL, 0, NULL, NULL);
    err |= clEnqueueNDRangeKernel(e->q, copy, 2, NULL, global, NULL, 0, NULL, NULL);
  }
  err |= clEnqueueReadBuffer(e->q, a, CL_TRUE, 0, bytes, io->a, 0, NULL, NULL);
  cl_mem all[] = {a, b};
  return finish(err, "jacobi", all, 2);
}
enum { RAW_JACOBI_LAST = __LINE__ };

/* mv: a (n x n) and b (x, n) in; c (y, n) out. */
enum { RAW_MV_FIRST = __LINE__ };
static int raw_mv(raw_env *e, port_io *io) {
  cl_int err = CL_SUCCESS;
  size_t bytes = (size_t)io->n * io->n * sizeof(float), vbytes = io->n * sizeof(float);
  size_t global = io->n;
  cl_mem a = buffer(e, bytes, &err), x = buffer(e, vbytes, &err), y = buffer(e, vbytes, &err);
  err |= clEnqueueWriteBuffer(e->q, a, CL_FALSE, 0, bytes, io->a, 0, NULL, NULL);
  err |= clEnqueueWriteBuffer(e->q, x, CL_FALSE, 0, vbytes, io->b, 0, NULL, NULL);
  cl_kernel k = e->k[PORT_MV][0];
  err |= clSetKernelArg(k, 0, sizeof a, &a);
  err |= clSetKernelArg(k, 1, sizeof x, &x);
  err |= clSetKernelArg(k, 2, sizeof y, &y);
  err |= clSetKernelArg(k, 3, sizeof io->n, &io->n);
  err |= clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(e->q, y, CL_TRUE, 0, vbytes, io->c, 0, NULL, NULL);
  cl_mem all[] = {a, x, y};
  return finish(err, "mv", all, 3);
}
enum { RAW_MV_LAST = __LINE__ };

/* correlation: a (data, n x n) in, changed on the device only; c (the matrix) out; the means and
 * deviations temporaries on the device. */
enum { RAW_CORR_FIRST = __LINE__ };
static int raw_corr(raw_env *e, port_io *io) {
  cl_int err = CL_SUCCESS;
  int m = io->n;
  size_t bytes = (size_t)m * m * sizeof(float), vbytes = m * sizeof(float);
  size_t g1 = m, g2[2] = {m, m};
  cl_mem data = buffer(e, bytes, &err), sym = buffer(e, bytes, &err);
  cl_mem mean = buffer(e, vbytes, &err), sd = buffer(e, vbytes, &err);
  err |= clEnqueueWriteBuffer(e->q, data, CL_FALSE, 0, bytes, io->a, 0, NULL, NULL);
  cl_kernel *k = e->k[PORT_CORR];
  err |= clSetKernelArg(k[0], 0, sizeof data, &data);
  err |= clSetKernelArg(k[0], 1, sizeof mean, &mean);
  err |= clSetKernelArg(k[1], 0, sizeof data, &data);
  err |= clSetKernelArg(k[1], 1, sizeof mean, &mean);
  err |= clSetKernelArg(k[1], 2, sizeof sd, &sd);
  err |= clSetKernelArg(k[2], 0, sizeof data, &data);
  err |= clSetKernelArg(k[2], 1, sizeof mean, &mean);
  err |= clSetKernelArg(k[2], 2, sizeof sd, &sd);
  err |= clSetKernelArg(k[3], 0, sizeof data, &data);
  err |= clSetKernelArg(k[3], 1, sizeof sym, &sym);
  for (int i = 0; i < 4; i++) {
    cl_uint first = i == 0 || i == 3 ? 2 : 3;
    err |= clSetKernelArg(k[i], first, sizeof m, &m);
    err |= clSetKernelArg(k[i], first + 1, sizeof m, &m);
  }
  err |= clEnqueueNDRangeKernel(e->q, k[0], 1, NULL, &g1, NULL, 0, NULL, NULL);
  err |= clEnqueueNDRangeKernel(e->q, k[1], 1, NULL, &g1, NULL, 0, NULL, NULL);
  err |= clEnqueueNDRangeKernel(e->q, k[2], 2, NULL, g2, NULL, 0, NULL, NULL);
  err |= clEnqueueNDRangeKernel(e->q, k[3], 1, NULL, &g1, NULL, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(e->q, sym, CL_TRUE, 0, bytes, io->c, 0, NULL, NULL);
  cl_mem all[] = {data, sym, mean, sd};
  return finish(err, "correlation", all, 4);
}
enum { RAW_CORR_LAST = __LINE__ };

int port_raw_run(raw_env *e, int p, port_io *io) {
  static int (*const run[PORTS])(raw_env *, port_io *) = {raw_gemm, raw_conv2d, raw_jacobi, raw_mv,
                                                          raw_corr};
  return run[p](e, io);
}

int port_raw_lines(int p) {
  static const int lines[PORTS] = {
      RAW_GEMM_LAST - RAW_GEMM_FIRST - 1, RAW_CONV_LAST - RAW_CONV_FIRST - 1,
      RAW_JACOBI_LAST - RAW_JACOBI_FIRST - 1, RAW_MV_LAST - RAW_MV_FIRST - 1,
      RAW_CORR_LAST - RAW_CORR_FIRST - 1};
  return lines[p];
}
