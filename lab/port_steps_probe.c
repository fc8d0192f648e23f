/* lab/port_steps_probe.c: where the gemm port's time goes, step by step on the host clock, in raw
 * OpenCL and in ampcl (issue 54: on an H100 the port ran 1.15x raw OpenCL paired, 0.71 against
 * 0.96 ms by medians, and the trace explained about 140 us of it).
 *
 * One gemm port run (bench/ports/gemm.cl, n x n floats: a and b in, c in and out), three ways,
 * rotating so that no way always follows another:
 *
 *   raw     its own context and queue (the queue's properties as ampcl's view's), as amp-bench's
 *           raw side: buffers | 3 writes, arguments, kernel | blocking read | releases
 *   rawamp  the same calls on ampcl's own context and queue
 *   amp     views | amp_parallel_for_each_ndrange | amp_array_view_synchronize | releases
 *
 * Prints each way's median per step and in all, in us, and the median of each repeat's amp/raw.
 *   port-steps-probe KERNEL_FILE [repeats] [n] [accelerator path]  (AMP_PROFILE applies)
 *
 * raw_once and amp_once stay out of line so that valgrind --tool=callgrind
 * --toggle-collect=raw_once --toggle-collect=amp_once counts each side's instructions (on POCL,
 * 2026-12-08, with a kernel of the same parameters that does nothing: 32.5k a raw run, about 72k
 * an ampcl run). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ampcl.h>
#include <ampcl/opencl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { RAW, RAWAMP, AMP, WAYS };
enum { STEPS = 4 };
static const char *way_name[WAYS] = {"raw", "rawamp", "amp"};
static const char *step_name[2][STEPS] = {{"buffers", "enqueue", "read", "release"},
                                          {"views", "launch", "sync", "release"}};

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return v[n / 2];
}

typedef struct data {
  int n;
  float *a, *b, *c;
} data;

/* The raw port's calls on ctx and q with kernel k; step times into t (STEPS + 1 stamps). */
__attribute__((noinline)) static cl_int raw_once(cl_context ctx, cl_command_queue q, cl_kernel k,
                                                 data *d, double *t) {
  cl_int err = CL_SUCCESS, st;
  size_t bytes = (size_t)d->n * d->n * sizeof(float), global[2] = {(size_t)d->n, (size_t)d->n};
  t[0] = now_us();
  cl_mem m[3];
  for (int i = 0; i < 3; i++) {
    m[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &st);
    err |= st;
  }
  t[1] = now_us();
  float *host[3] = {d->a, d->b, d->c}, alpha = 1.5f, beta = 1.2f;
  for (int i = 0; i < 3; i++)
    err |= clEnqueueWriteBuffer(q, m[i], CL_FALSE, 0, bytes, host[i], 0, NULL, NULL);
  for (int i = 0; i < 3; i++)
    err |= clSetKernelArg(k, (cl_uint)i, sizeof m[i], &m[i]);
  err |= clSetKernelArg(k, 3, sizeof alpha, &alpha);
  err |= clSetKernelArg(k, 4, sizeof beta, &beta);
  err |= clSetKernelArg(k, 5, sizeof d->n, &d->n);
  err |= clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL);
  t[2] = now_us();
  err |= clEnqueueReadBuffer(q, m[2], CL_TRUE, 0, bytes, d->c, 0, NULL, NULL);
  t[3] = now_us();
  for (int i = 0; i < 3; i++)
    clReleaseMemObject(m[i]);
  t[4] = now_us();
  return err;
}

__attribute__((noinline)) static int amp_once(amp_accelerator_view *av, amp_kernel *k, data *d,
                                              double *t) {
  amp_status st = AMP_SUCCESS;
  amp_extent ext = amp_extent2(d->n, d->n);
  amp_array_view *a = NULL, *b = NULL, *c = NULL;
  t[0] = now_us();
  if ((st = amp_array_view_create_const(ext, AMP_FLOAT, d->a, &a)) != AMP_SUCCESS ||
      (st = amp_array_view_create_const(ext, AMP_FLOAT, d->b, &b)) != AMP_SUCCESS ||
      (st = amp_array_view_create(ext, AMP_FLOAT, d->c, &c)) != AMP_SUCCESS)
    goto fail;
  t[1] = now_us();
  amp_arg args[] = {amp_arg_view(a),     amp_arg_view(b),     amp_arg_view(c),
                    amp_arg_float(1.5f), amp_arg_float(1.2f), amp_arg_int(d->n)};
  size_t global[2] = {(size_t)d->n, (size_t)d->n};
  if ((st = amp_parallel_for_each_ndrange(av, k, 2, global, NULL, args, 6, NULL)) != AMP_SUCCESS)
    goto fail;
  t[2] = now_us();
  st = amp_array_view_synchronize(c);
  t[3] = now_us();
fail:
  amp_array_view_release(a);
  amp_array_view_release(b);
  amp_array_view_release(c);
  t[4] = now_us();
  if (st != AMP_SUCCESS)
    fprintf(stderr, "ampcl: %s\n", amp_last_error());
  return st != AMP_SUCCESS;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (s && fread(s, 1, (size_t)len, f) != (size_t)len) {
    free(s);
    s = NULL;
  }
  if (s)
    s[len] = 0;
  fclose(f);
  return s;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return fprintf(stderr, "usage: %s KERNEL_FILE [repeats] [n] [accelerator]\n", argv[0]), 2;
  int reps = argc > 2 ? atoi(argv[2]) : 41, n = argc > 3 ? atoi(argv[3]) : 384;
  if (reps < 1 || reps > 2000 || n < 16 || n > 4096)
    return 2;
  char *text = read_file(argv[1]);
  amp_accelerator *acc = NULL;
  amp_accelerator_view *av = NULL;
  amp_program *prog = NULL;
  amp_kernel *ak = NULL;
  cl_device_id dev = NULL;
  cl_context actx = NULL;
  cl_command_queue aq = NULL;
  cl_command_queue_properties props = 0;
  if (!text ||
      (argc > 4 ? amp_accelerator_find(argv[4], &acc) : amp_accelerator_get_default(&acc)) ||
      amp_accelerator_default_view(acc, &av) || amp_program_create(text, NULL, &prog) ||
      amp_program_build(prog, acc) || amp_kernel_create(prog, "gemm", &ak) ||
      amp_accelerator_get_cl_device(acc, &dev) || amp_accelerator_get_cl_context(acc, &actx) ||
      amp_accelerator_view_get_cl_queue(av, &aq) ||
      clGetCommandQueueInfo(aq, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL))
    return fprintf(stderr, "setup: %s\n", text ? amp_last_error() : "cannot read the kernel file"),
           1;
  cl_int err = CL_SUCCESS;
  cl_context rctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_command_queue rq = err ? NULL : clCreateCommandQueue(rctx, dev, props, &err);
  cl_kernel rk[2] = {NULL, NULL};
  cl_context ctxs[2] = {rctx, actx};
  for (int i = 0; i < 2 && !err; i++) {
    cl_program p = clCreateProgramWithSource(ctxs[i], 1, (const char **)&text, NULL, &err);
    if (!err)
      err = clBuildProgram(p, 1, &dev, NULL, NULL, NULL);
    if (!err)
      rk[i] = clCreateKernel(p, "gemm", &err);
  }
  if (err)
    return fprintf(stderr, "raw setup failed (%d)\n", (int)err), 1;
  size_t nn = (size_t)n * n;
  data d = {n, malloc(nn * 4), malloc(nn * 4), malloc(nn * 4)};
  double *t[WAYS][STEPS + 1], *ratio = malloc((size_t)reps * sizeof(double));
  for (int w = 0; w < WAYS; w++)
    for (int s = 0; s <= STEPS; s++)
      t[w][s] = malloc((size_t)reps * sizeof(double));
  if (!d.a || !d.b || !d.c || !ratio)
    return 1;
  for (size_t i = 0; i < nn; i++)
    d.a[i] = (float)(i % 7) * 0.25f, d.b[i] = (float)(i % 5) * 0.5f, d.c[i] = 1.0f;
  int bad = 0;
  double st[STEPS + 1];
  for (int r = -3; r < reps; r++) /* three warm-up rounds */
    for (int j = 0; j < WAYS; j++) {
      int w = ((r < 0 ? 0 : r) + j) % WAYS;
      if (w == AMP)
        bad |= amp_once(av, ak, &d, st);
      else
        bad |= raw_once(w == RAW ? rctx : actx, w == RAW ? rq : aq, rk[w == RAWAMP], &d, st) != 0;
      if (r < 0)
        continue;
      for (int s = 0; s < STEPS; s++)
        t[w][s][r] = st[s + 1] - st[s];
      t[w][STEPS][r] = st[STEPS] - st[0];
    }
  for (int r = 0; r < reps; r++)
    ratio[r] = t[AMP][STEPS][r] / t[RAW][STEPS][r];
  char name[256] = "";
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  printf("%s; gemm n=%d; queue profiling %s; median of %d repeats, us on the host clock\n", name, n,
         props & CL_QUEUE_PROFILING_ENABLE ? "on" : "off", reps);
  printf("%-8s", "way");
  for (int s = 0; s < STEPS; s++)
    printf(" %9s/%-9s", step_name[0][s], step_name[1][s]);
  printf(" %9s\n", "all");
  for (int w = 0; w < WAYS; w++) {
    printf("%-8s", way_name[w]);
    for (int s = 0; s <= STEPS; s++)
      printf(s < STEPS ? " %19.1f" : " %9.1f", median(t[w][s], reps));
    printf("\n");
  }
  printf("amp/raw paired: %.3f\n", median(ratio, reps));
  if (bad)
    printf("FAIL: a call failed\n");
  return bad;
}
