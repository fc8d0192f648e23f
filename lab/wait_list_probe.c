/* lab/wait_list_probe.c: what a driver charges for event wait lists on an in-order queue, with
 * plain OpenCL (issue 54: the gemm and Jacobi ports ran 1.2x raw OpenCL on an H100, with the
 * device idle about 120 us between commands that had all been enqueued).
 *
 * ampcl passes each command the events it depends on (the copies a kernel reads, the kernel a
 * read-back follows), even on the one in-order queue where the order alone guarantees them. This
 * runs the gemm port's commands (3 writes from malloc'd memory, the kernel, a blocking read; fresh
 * buffers each repeat, as the raw port does) and a chain of 20 small kernels, four ways each,
 * alternating, end to end on the host clock:
 *
 *   plain   no events (the raw port)
 *   events  every command returns an event, none waits for one
 *   waits   as events, and each command waits for the ones before it that it depends on
 *   prof    as waits, on a queue with profiling enabled (ampcl's default)
 *
 *   wait-list-probe [repeats] [n]      the first GPU (else the first device) of the first platform
 *                                      that has one */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *src =
    "__kernel void gemm(__global const float *a, __global const float *b, __global float *c,\n"
    "                   float alpha, float beta, int n) {\n"
    "  int col = get_global_id(0), row = get_global_id(1);\n"
    "  if (row >= n || col >= n) return;\n"
    "  float sum = 0;\n"
    "  for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];\n"
    "  c[row * n + col] = alpha * sum + beta * c[row * n + col];\n"
    "}\n"
    "__kernel void halve(__global float *x) { int i = get_global_id(0); x[i] = x[i] * 0.5f + 1.0f; "
    "}\n";

enum { PLAIN, EVENTS, WAITS, PROF, MODES };
static const char *names[MODES] = {"plain", "events", "waits", "prof"};

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct env {
  cl_context ctx;
  cl_command_queue q[2]; /* without and with profiling */
  cl_kernel gemm, step;
} env;

static void rel(cl_event *e, int n) {
  for (int i = 0; i < n; i++)
    if (e[i])
      clReleaseEvent(e[i]);
}

/* The gemm port's commands in one mode; returns 0 or the OR of the failed calls' codes. */
static cl_int gemm_once(env *e, int mode, int n, float *ha, float *hb, float *hc) {
  cl_int err = CL_SUCCESS, st;
  size_t bytes = (size_t)n * n * sizeof(float), global[2] = {(size_t)n, (size_t)n};
  cl_command_queue q = e->q[mode == PROF];
  cl_event ev[5] = {0};
  const int want = mode != PLAIN, wait = mode >= WAITS;
  cl_mem a = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, bytes, NULL, &st);
  err |= st;
  cl_mem b = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, bytes, NULL, &st);
  err |= st;
  cl_mem c = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, bytes, NULL, &st);
  err |= st;
  err |= clEnqueueWriteBuffer(q, a, CL_FALSE, 0, bytes, ha, 0, NULL, want ? &ev[0] : NULL);
  err |= clEnqueueWriteBuffer(q, b, CL_FALSE, 0, bytes, hb, 0, NULL, want ? &ev[1] : NULL);
  err |= clEnqueueWriteBuffer(q, c, CL_FALSE, 0, bytes, hc, 0, NULL, want ? &ev[2] : NULL);
  float alpha = 1.5f, beta = 1.2f;
  err |= clSetKernelArg(e->gemm, 0, sizeof a, &a);
  err |= clSetKernelArg(e->gemm, 1, sizeof b, &b);
  err |= clSetKernelArg(e->gemm, 2, sizeof c, &c);
  err |= clSetKernelArg(e->gemm, 3, sizeof alpha, &alpha);
  err |= clSetKernelArg(e->gemm, 4, sizeof beta, &beta);
  err |= clSetKernelArg(e->gemm, 5, sizeof n, &n);
  err |= clEnqueueNDRangeKernel(q, e->gemm, 2, NULL, global, NULL, wait ? 3 : 0, wait ? ev : NULL,
                                want ? &ev[3] : NULL);
  err |= clEnqueueReadBuffer(q, c, CL_TRUE, 0, bytes, hc, wait ? 1 : 0, wait ? &ev[3] : NULL,
                             want ? &ev[4] : NULL);
  rel(ev, 5);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
  return err;
}

/* 20 small kernels on one buffer, each after the one before, then clFinish. */
static cl_int chain_once(env *e, int mode, cl_mem x, size_t len) {
  cl_int err = CL_SUCCESS;
  cl_command_queue q = e->q[mode == PROF];
  cl_event ev[20] = {0};
  const int want = mode != PLAIN, wait = mode >= WAITS;
  err |= clSetKernelArg(e->step, 0, sizeof x, &x);
  for (int i = 0; i < 20; i++)
    err |= clEnqueueNDRangeKernel(q, e->step, 1, NULL, &len, NULL, wait && i ? 1 : 0,
                                  wait && i ? &ev[i - 1] : NULL, want ? &ev[i] : NULL);
  err |= clFinish(q);
  rel(ev, 20);
  return err;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 21, n = argc > 2 ? atoi(argv[2]) : 384;
  if (reps < 1 || reps > 1000 || n < 16 || n > 8192)
    return 2;
  cl_platform_id plats[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, plats, &np);
  cl_device_id dev = NULL;
  for (cl_uint p = 0; p < np && !dev; p++)
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
      dev = NULL;
  for (cl_uint p = 0; p < np && !dev; p++)
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
      dev = NULL;
  if (!dev) {
    fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  char name[256] = "";
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  env e;
  cl_int err;
  e.ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  e.q[0] = clCreateCommandQueue(e.ctx, dev, 0, &err);
  e.q[1] = clCreateCommandQueue(e.ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  cl_program prog = clCreateProgramWithSource(e.ctx, 1, &src, NULL, &err);
  if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "build failed\n");
    return 1;
  }
  e.gemm = clCreateKernel(prog, "gemm", &err);
  e.step = clCreateKernel(prog, "halve", &err);
  if (!e.gemm || !e.step) {
    fprintf(stderr, "clCreateKernel failed (%d)\n", (int)err);
    return 1;
  }
  size_t nn = (size_t)n * n, len = (size_t)1 << 20;
  float *ha = malloc(nn * 4), *hb = malloc(nn * 4), *hc = malloc(nn * 4);
  double *t[2][MODES];
  for (int w = 0; w < 2; w++)
    for (int m = 0; m < MODES; m++)
      t[w][m] = malloc((size_t)reps * sizeof(double));
  if (!ha || !hb || !hc)
    return 1;
  for (size_t i = 0; i < nn; i++)
    ha[i] = (float)(i % 7) * 0.25f, hb[i] = (float)(i % 5) * 0.5f, hc[i] = 1.0f;
  cl_mem x = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, len * 4, NULL, &err);
  cl_int bad = CL_SUCCESS;
  for (int m = 0; m < MODES; m++) { /* warm-up: first enqueues, the kernel's first launch */
    bad |= gemm_once(&e, m, n, ha, hb, hc);
    bad |= chain_once(&e, m, x, len);
  }
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < MODES; k++) {
      int m = (r + k) % MODES; /* rotate the order so no mode always follows another */
      double t0 = now_us();
      bad |= gemm_once(&e, m, n, ha, hb, hc);
      double t1 = now_us();
      bad |= chain_once(&e, m, x, len);
      double t2 = now_us();
      t[0][m][r] = t1 - t0;
      t[1][m][r] = t2 - t1;
    }
  printf("%s; median of %d repeats, us, end to end on the host clock\n", name, reps);
  printf("%-8s %12s %12s\n", "mode", "gemm", "chain of 20");
  for (int m = 0; m < MODES; m++) {
    qsort(t[0][m], (size_t)reps, sizeof(double), cmp_d);
    qsort(t[1][m], (size_t)reps, sizeof(double), cmp_d);
    printf("%-8s %12.1f %12.1f\n", names[m], t[0][m][reps / 2], t[1][m][reps / 2]);
  }
  if (bad != CL_SUCCESS)
    printf("FAIL: a call failed (%d)\n", (int)bad);
  return bad != CL_SUCCESS;
}
