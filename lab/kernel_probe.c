/* lab/kernel_probe.c: what a driver makes of ampcl's kernel prelude, measured with plain OpenCL.
 *
 * Builds the same small kernels written three ways (plain OpenCL C; through ampcl's prelude and
 * view macros; variations of one suspect at a time) on every GPU and CPU device, and prints for
 * each what the driver reports: CL_KERNEL_WORK_GROUP_SIZE (the most threads per tile it allows),
 * CL_KERNEL_PRIVATE_MEM_SIZE, CL_KERNEL_LOCAL_MEM_SIZE. With an output folder it also writes each
 * program's binary (PTX on NVIDIA), so the registers and `.maxntid` can be read or fed to ptxas.
 * This is how the cause of NVIDIA's 256-thread limit on view kernels was found (docs/KERNELS.md).
 *
 *   kernel-probe <kernels_cl/prelude/ampcl_prelude.h> [outdir]
 */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct variant {
  const char *name;
  int prelude;         /* prepend ampcl's prelude */
  const char *options; /* build options */
  const char *src;
} variant;

#define VADD_PLAIN                                                                                 \
  "__kernel void k(__global float *c, __global const float *a, __global const float *b) {\n"       \
  "  int i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
#define VADD_VIEWS                                                                                 \
  "__kernel void k(AMP_VIEW(float, c), AMP_CONST_VIEW(float, a), AMP_CONST_VIEW(float, b)) {\n"    \
  "  AMP_INDEX1(i); amp_at(c, i[0]) = amp_at(a, i[0]) + amp_at(b, i[0]); }\n"
#define VADD_INT8                                                                                  \
  "__kernel void k(__global float *c, const int8 cs, __global const float *a, const int8 as,\n"    \
  "                __global const float *b, const int8 bs) {\n"                                    \
  "  int i = get_global_id(0); c[cs.s3 + i] = a[as.s3 + i] + b[bs.s3 + i]; }\n"
#define VADD_TILED                                                                                 \
  "__kernel void k(AMP_VIEW(float, c), AMP_CONST_VIEW(float, a), AMP_CONST_VIEW(float, b)) {\n"    \
  "  AMP_TILED_INDEX2(t); amp_at(c, t.global_id[0], t.global_id[1]) =\n"                           \
  "    amp_at(a, t.global_id[0], t.global_id[1]) + amp_at(b, t.global_id[0], t.global_id[1]); }\n"
#define REDUCE_VIEWS                                                                               \
  "__kernel void k(AMP_CONST_VIEW(float, a), AMP_VIEW(float, sums)) {\n"                           \
  "  AMP_TILED_INDEX1(t); tile_static float s[1024];\n"                                            \
  "  s[t.local_id[0]] = amp_at(a, t.global_id[0]); amp_barrier_wait();\n"                          \
  "  for (int w = t.tile_extent[0] / 2; w > 0; w /= 2) {\n"                                        \
  "    if (t.local_id[0] < w) s[t.local_id[0]] += s[t.local_id[0] + w]; amp_barrier_wait(); }\n"   \
  "  if (t.local_id[0] == 0) amp_at(sums, t.tile[0]) = s[0]; }\n"

/* About 100 live floats per thread: more registers than 1024 threads of one tile can have. */
#define HEAVY                                                                                      \
  "__kernel void k(__global float *c, __global const float *a, __global const float *b) {\n"       \
  "  float acc[96]; int i = get_global_id(0);\n"                                                   \
  "  _Pragma(\"unroll\") for (int j = 0; j < 96; j++) acc[j] = a[i + j] * b[j];\n"                 \
  "  for (int r = 0; r < 8; r++) {\n"                                                              \
  "    _Pragma(\"unroll\") for (int j = 0; j < 96; j++)\n"                                         \
  "      acc[j] = acc[j] * acc[(j + 1) % 96] + b[j + r]; }\n"                                      \
  "  float s = 0; _Pragma(\"unroll\") for (int j = 0; j < 96; j++) s += acc[j] * (float)j;\n"      \
  "  c[i] = s; }\n"

static const variant variants[] = {
    {"plain", 0, "", VADD_PLAIN},
    {"plain+arg-info", 0, "-cl-kernel-arg-info", VADD_PLAIN},
    {"plain+fp64-pragma", 0, "", "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" VADD_PLAIN},
    {"int8-by-value", 0, "", VADD_INT8},
    {"prelude+plain", 1, "", VADD_PLAIN},
    {"prelude+views", 1, "", VADD_VIEWS},
    {"prelude+views+arg-info", 1, "-cl-kernel-arg-info", VADD_VIEWS},
    {"prelude+tiled-index", 1, "-cl-kernel-arg-info", VADD_TILED},
    {"prelude+reduce", 1, "-cl-kernel-arg-info", REDUCE_VIEWS},
    {"prelude+views+nv-maxrreg64", 1, "-cl-kernel-arg-info -cl-nv-maxrregcount=64", VADD_VIEWS},
    {"prelude+views+reqd1024", 1, "-cl-kernel-arg-info",
     "__attribute__((reqd_work_group_size(1024, 1, 1)))\n" VADD_VIEWS},
    {"plain+reqd1024", 0, "", "__attribute__((reqd_work_group_size(1024, 1, 1)))\n" VADD_PLAIN},
    {"heavy-registers", 0, "", HEAVY},
    {"prelude+heavy-registers", 1, "-cl-kernel-arg-info", HEAVY},
};

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
    free(s);
    s = NULL;
  }
  if (s)
    s[n] = 0;
  fclose(f);
  return s;
}

static void probe(cl_device_id dev, const char *devname, int devno, const char *prelude,
                  const char *outdir) {
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    printf("  clCreateContext failed: %d\n", (int)err);
    return;
  }
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
    const variant *va = &variants[v];
    const char *parts[3] = {va->prelude ? prelude : "", va->prelude ? "\n#line 1\n" : "", va->src};
    cl_program p = clCreateProgramWithSource(ctx, 3, parts, NULL, &err);
    if (err == CL_SUCCESS)
      err = clBuildProgram(p, 1, &dev, va->options, NULL, NULL);
    if (err != CL_SUCCESS) {
      char log[4096] = "";
      if (p)
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
      printf("  %-30s build failed (%d): %.300s\n", va->name, (int)err, log);
      if (p)
        clReleaseProgram(p);
      continue;
    }
    cl_kernel k = clCreateKernel(p, "k", &err);
    size_t wg = 0, pref = 0;
    cl_ulong priv = 0, local = 0;
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof pref,
                             &pref, NULL);
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, NULL);
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    /* Try a 1024-thread launch for real: what the driver accepts is what counts. */
    size_t global = 4096;
    const size_t tiles[3] = {1024, 512, 256};
    cl_int launch[3] = {CL_INVALID_VALUE, CL_INVALID_VALUE, CL_INVALID_VALUE};
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    if (err == CL_SUCCESS) {
      cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * 8192, NULL, &err);
      cl_uint nargs = 0;
      clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
      int shape[8] = {4096, 0, 0, 0, 0, 0, 0, 1};
      for (cl_uint a = 0; a < nargs; a++) {
        /* buffers and int8 shapes alternate for view kernels; plain kernels are all buffers */
        if (clSetKernelArg(k, a, sizeof buf, &buf) != CL_SUCCESS)
          clSetKernelArg(k, a, sizeof shape, shape);
      }
      for (int t = 0; t < 3; t++) {
        launch[t] = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &tiles[t], 0, NULL, NULL);
        if (launch[t] == CL_SUCCESS)
          launch[t] = clFinish(q);
      }
      clReleaseMemObject(buf);
      clReleaseCommandQueue(q);
    }
    printf("  %-30s work_group_size %5zu  pref_multiple %3zu  private %5llu B  local %6llu B  "
           "launch 1024/512/256: %d %d %d\n",
           va->name, wg, pref, (unsigned long long)priv, (unsigned long long)local, (int)launch[0],
           (int)launch[1], (int)launch[2]);
    if (outdir) {
      size_t bsize = 0;
      clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bsize, &bsize, NULL);
      unsigned char *bin = malloc(bsize + 1);
      unsigned char *bins[1] = {bin};
      if (bin && clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS) {
        char path[1024];
        snprintf(path, sizeof path, "%s/dev%d-%s.bin", outdir, devno, va->name);
        FILE *f = fopen(path, "wb");
        if (f) {
          fwrite(bin, 1, bsize, f);
          fclose(f);
        }
      }
      free(bin);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  (void)devname;
  clReleaseContext(ctx);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: kernel-probe <ampcl_prelude.h> [outdir]\n");
    return 2;
  }
  char *prelude = read_file(argv[1]);
  if (!prelude) {
    fprintf(stderr, "kernel-probe: cannot read %s\n", argv[1]);
    return 2;
  }
  cl_platform_id plats[8];
  cl_uint np = 0;
  if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS || np == 0) {
    fprintf(stderr, "kernel-probe: no OpenCL platform\n");
    free(prelude);
    return 1;
  }
  int devno = 0;
  for (cl_uint i = 0; i < np; i++) {
    cl_device_id devs[8];
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 8, devs, &nd) != CL_SUCCESS)
      continue;
    for (cl_uint d = 0; d < nd; d++, devno++) {
      char name[256] = "", ver[256] = "";
      clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof name, name, NULL);
      clGetDeviceInfo(devs[d], CL_DRIVER_VERSION, sizeof ver, ver, NULL);
      printf("device %d: %s (driver %s)\n", devno, name, ver);
      probe(devs[d], name, devno, prelude, argc > 2 ? argv[2] : NULL);
    }
  }
  free(prelude);
  return 0;
}
