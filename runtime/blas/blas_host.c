/* runtime/blas/blas_host.c: GEMM on a CPU accelerator through OpenBLAS, in the host memory
 * itself.
 *
 * On a CPU device (POCL) an OpenCL GEMM runs on the same cores as OpenBLAS but at well under half
 * its speed (CLBlast against OpenBLAS on the same cores; lab/NOTEBOOK.md has the numbers). And the
 * data of views over host memory is already where OpenBLAS works. So when the accelerator is a
 * CPU device, every operand's data source is host memory, and OpenBLAS can be loaded, the GEMM
 * runs there: A and B are synchronised for reading (copied back only if a kernel wrote them),
 * C for writing (read too when beta is not 0), OpenBLAS computes on the host memory, and C's
 * copies on accelerators are dropped, exactly as after a host write through
 * amp_array_view_data. AMP_BLAS_CPU=opencl keeps CLBlast on CPU devices.
 *
 * OpenBLAS is loaded at run time (dlopen of libopenblas.so.0), so ampcl has no link dependency
 * on it: without it, CPU devices use CLBlast as before. The call blocks until C is computed; its
 * future is ready at once and reports the host time of the GEMM as its elapsed time. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blas/blas_host.h"
#include "core/env_parse.h"
#include "core/knobs.h"

/* CBLAS's enums and LP64 signatures (Debian's libopenblas0 is LP64). */
enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112 };
typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *,
                         int, float, float *, int);
typedef void (*dgemm_fn)(int, int, int, int, int, int, double, const double *, int, const double *,
                         int, double, double *, int);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static sgemm_fn sgemm;
static dgemm_fn dgemm;

static void load_openblas(void) {
  static const char *const names[] = {"libopenblas.so.0", "libopenblas.so"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h)
      continue;
    void *s = dlsym(h, "cblas_sgemm"), *d = dlsym(h, "cblas_dgemm");
    if (s && d) { /* ISO C has no object-to-function pointer cast: copy the bits */
      memcpy(&sgemm, &s, sizeof sgemm);
      memcpy(&dgemm, &d, sizeof dgemm);
      return; /* kept loaded for the life of the process */
    }
    dlclose(h);
  }
}

int amp__blas_host_available(void) {
  pthread_once(&load_once, load_openblas);
  return sgemm != NULL;
}

int amp__blas_host_wanted(const amp_accelerator *acc, const amp_array_view *a,
                          const amp_array_view *b, const amp_array_view *c) {
  if (!acc->props.is_emulated || acc->props.is_host)
    return 0;
  if (amp__env_blas_cpu_opencl(amp__knob_get(AMP_KNOB_BLAS_CPU)))
    return 0;
  if (a->src->home >= 0 || b->src->home >= 0 || c->src->home >= 0)
    return 0; /* device arrays live in the device's buffers */
  return amp__blas_host_available();
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Element 0 of the view in host memory (valid after a synchronize). */
static void *host_ptr(const amp_array_view *v) {
  return v->src->host + v->offset * v->type.size;
}

amp_status amp__blas_host_gemm(amp_accelerator_view *view, amp_transpose trans_a,
                               amp_transpose trans_b, double alpha, amp_array_view *a,
                               amp_array_view *b, double beta, amp_array_view *c,
                               amp_future **done) {
  amp_status status = AMP_SUCCESS;
  const size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1];
  const size_t k = (size_t)a->extent.dim[trans_a ? 0 : 1];
  /* CBLAS takes int sizes and leading dimensions */
  const size_t lim = (size_t)0x7fffffff;
  if (m > lim || n > lim || k > lim || a->stride[0] > lim || b->stride[0] > lim ||
      c->stride[0] > lim)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "amp_blas_gemm: a size or row stride above %zu does not fit OpenBLAS's int", lim);
  AMP__TRY(amp_array_view_synchronize(a));
  AMP__TRY(amp_array_view_synchronize(b));
  AMP__TRY(
      amp_array_view_synchronize_access(c, beta == 0.0 ? AMP_ACCESS_WRITE : AMP_ACCESS_READ_WRITE));
  uint64_t t0 = now_ns();
  const int ta = trans_a ? CBLAS_TRANS : CBLAS_NO_TRANS,
            tb = trans_b ? CBLAS_TRANS : CBLAS_NO_TRANS;
  if (a->type.kind == AMP_ELEM_FLOAT)
    sgemm(CBLAS_ROW_MAJOR, ta, tb, (int)m, (int)n, (int)k, (float)alpha, host_ptr(a),
          (int)a->stride[0], host_ptr(b), (int)b->stride[0], (float)beta, host_ptr(c),
          (int)c->stride[0]);
  else
    dgemm(CBLAS_ROW_MAJOR, ta, tb, (int)m, (int)n, (int)k, alpha, host_ptr(a), (int)a->stride[0],
          host_ptr(b), (int)b->stride[0], beta, host_ptr(c), (int)c->stride[0]);
  uint64_t t1 = now_ns();
  if (done) {
    cl_context ctx;
    cl_int err;
    AMP__TRY(amp__context(view->acc, &ctx));
    cl_event ev = clCreateUserEvent(ctx, &err);
    AMP__CL(err, "clCreateUserEvent (host GEMM)");
    clSetUserEventStatus(ev, CL_COMPLETE);
    status = amp__future_create(ev, 0, done);
    if (status != AMP_SUCCESS) {
      clReleaseEvent(ev);
      goto fail;
    }
    (*done)->host_ns = t1 - t0;
  }
fail:
  return status;
}
