/* lab/local_probe.c: how much __local (tile_static) memory one work-group really gets, measured
 * with plain OpenCL on every GPU it finds.
 *
 * CL_DEVICE_LOCAL_MEM_SIZE is what a program is told; ampcl checks launches against it. NVIDIA's
 * driver reports 49,152 bytes, CUDA's default per-block limit, while the hardware lets a block opt
 * in to more (from compute capability 7.0: 64 KB to 227 KB, by generation). This probe asks the
 * driver directly, two ways:
 *   - static: a kernel that declares one __local int array of N bytes, built for each N;
 *   - dynamic: one kernel with a __local int * argument, whose size is set per launch.
 * Each launch of 256 threads writes a different value to every element, waits at the barrier,
 * and then every thread checks a stride of elements written by another thread, from the top of
 * the array down. Memory that wrapped around at a smaller size than asked would show up as
 * wrong values (a later index's write over an earlier one), not only as a refused launch.
 * One work-group per launch: what one tile gets, not how many such tiles share a multiprocessor.
 * Prints, per size: the build status, CL_KERNEL_LOCAL_MEM_SIZE, the enqueue and finish status,
 * and how many threads found every element right (the result buffer is cleared before each
 * launch). Exits 77 without a GPU. Not installed.
 *
 *   local-probe */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>

#define THREADS 256

/* Every element i gets 7i + 3; thread l then checks elements N-1-l, N-1-l-256, ... (written by
 * thread 255 - l), and writes 1 when all were right. */
#define BODY                                                                                       \
  "  const int l = get_local_id(0), s = get_local_size(0);\n"                                      \
  "  for (int i = l; i < n; i += s) buf[i] = 7 * i + 3;\n"                                         \
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"                                                              \
  "  int ok = 1;\n"                                                                                \
  "  for (int i = n - 1 - l; i >= 0; i -= s) ok &= buf[i] == 7 * i + 3;\n"                         \
  "  out[get_global_id(0)] = ok;\n"

static const char *source =
    "#ifdef STATIC_INTS\n"
    "__kernel void fixed(__global int *out) {\n"
    "  __local int buf[STATIC_INTS]; const int n = STATIC_INTS;\n" BODY "}\n"
    "#endif\n"
    "__kernel void sized(__global int *out, __local int *buf, int n) {\n" BODY "}\n";

/* Runs kernel k (arguments set) once on THREADS threads; *right: threads that found every element
 * right. Returns the first failing status (enqueue, then finish). */
static cl_int launch(cl_command_queue q, cl_kernel k, cl_mem out, int *right, cl_int *finish) {
  size_t g = THREADS, l = THREADS;
  int h[THREADS] = {0};
  *right = 0;
  *finish = CL_SUCCESS;
  cl_int e = clEnqueueWriteBuffer(q, out, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
  if (e == CL_SUCCESS)
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
  if (e != CL_SUCCESS)
    return e;
  if ((*finish = clFinish(q)) != CL_SUCCESS)
    return CL_SUCCESS;
  if (clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL) == CL_SUCCESS)
    for (int i = 0; i < THREADS; i++)
      *right += h[i] == 1;
  return CL_SUCCESS;
}

static void probe_device(cl_device_id d) {
  char name[256] = "";
  cl_ulong reported = 0;
  clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof reported, &reported, NULL);
  printf("%s: CL_DEVICE_LOCAL_MEM_SIZE %llu bytes\n", name, (unsigned long long)reported);
  cl_int e;
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  if (e != CL_SUCCESS) {
    printf("  no context (%d)\n", e);
    return;
  }
  cl_int eq, eb;
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &eq);
  cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, THREADS * sizeof(int), NULL, &eb);
  if (eq != CL_SUCCESS || eb != CL_SUCCESS) {
    printf("  no queue (%d) or buffer (%d)\n", eq, eb);
    if (eb == CL_SUCCESS)
      clReleaseMemObject(out);
    if (eq == CL_SUCCESS)
      clReleaseCommandQueue(q);
    clReleaseContext(c);
    return;
  }
  static const size_t kib[] = {32, 48, 64, 96, 128, 160, 200, 226, 227, 228, 256};
  const size_t nsizes = sizeof kib / sizeof kib[0];
  printf("  %-8s %10s %6s %12s %8s %8s %s\n", "kind", "bytes", "build", "kernel_local", "enqueue",
         "finish", "threads right");
  for (int dyn = 0; dyn < 2; dyn++)
    for (size_t i = 0; i < nsizes; i++) {
      const size_t bytes = kib[i] * 1024;
      const int ints = (int)(bytes / sizeof(int));
      char opts[64] = "";
      if (!dyn)
        snprintf(opts, sizeof opts, "-DSTATIC_INTS=%d", ints);
      cl_program p = clCreateProgramWithSource(c, 1, &source, NULL, &e);
      cl_int built = clBuildProgram(p, 1, &d, opts, NULL, NULL);
      cl_kernel k = NULL;
      cl_ulong klocal = 0;
      cl_int enq = CL_SUCCESS, fin = CL_SUCCESS;
      int right = 0;
      if (built == CL_SUCCESS && (k = clCreateKernel(p, dyn ? "sized" : "fixed", &e))) {
        cl_int set = clSetKernelArg(k, 0, sizeof out, &out);
        if (dyn && set == CL_SUCCESS)
          set = clSetKernelArg(k, 1, bytes, NULL);
        if (dyn && set == CL_SUCCESS)
          set = clSetKernelArg(k, 2, sizeof ints, &ints);
        clGetKernelWorkGroupInfo(k, d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof klocal, &klocal, NULL);
        enq = set != CL_SUCCESS ? set : launch(q, k, out, &right, &fin);
        clReleaseKernel(k);
      } else if (built == CL_SUCCESS) {
        enq = e; /* no kernel: its status stands in the enqueue column */
      }
      printf("  %-8s %10zu %6d %12llu %8d %8d %d of %d\n", dyn ? "dynamic" : "static", bytes, built,
             (unsigned long long)klocal, enq, fin, right, THREADS);
      clReleaseProgram(p);
      if (fin != CL_SUCCESS) { /* a failed kernel can leave the queue unusable: start again */
        clReleaseCommandQueue(q);
        q = clCreateCommandQueue(c, d, 0, &e);
        if (e != CL_SUCCESS) {
          printf("  no new queue (%d): stopping\n", e);
          clReleaseMemObject(out);
          clReleaseContext(c);
          return;
        }
      }
    }
  clReleaseMemObject(out);
  clReleaseCommandQueue(q);
  clReleaseContext(c);
}

int main(void) {
  cl_platform_id ps[16];
  cl_uint np = 0;
  int gpus = 0;
  if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS)
    np = 0;
  if (np > 16) /* the call gives the total count, and fills only 16 */
    np = 16;
  for (cl_uint i = 0; i < np; i++) {
    cl_device_id ds[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 16, ds, &nd) != CL_SUCCESS)
      continue;
    if (nd > 16)
      nd = 16;
    for (cl_uint j = 0; j < nd; j++, gpus++)
      probe_device(ds[j]);
  }
  if (!gpus) {
    printf("local-probe: no GPU\n");
    return 77;
  }
  return 0;
}
