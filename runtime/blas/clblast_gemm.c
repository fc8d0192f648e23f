/* runtime/blas/clblast_gemm.c: GEMM on array views through CLBlast, joined to the data model.
 *
 * The operands go through the same path as a kernel launch (data/source.c: amp__uses_acquire and
 * amp__uses_finish): what is missing is copied in, the events the GEMM must wait for are waited
 * for (CLBlast's C API takes no wait list, so a marker with that wait list goes first on the
 * in-order queue), and afterwards C counts as written on this accelerator. */
#include <stdio.h>

#include "ampcl/kernel.h"
#include "blas/clblast_gemm.h"
#include "core/trace_impl.h"
#include "exec/program.h"

#ifdef AMP_HAVE_CLBLAST
#include <clblast_c.h>
#endif

static _Atomic uint64_t n_clblast;

uint64_t amp__gemm_clblast_count(void) {
  return atomic_load(&n_clblast);
}

/* A kernel of one work-item that does nothing: enqueued just before a timed GEMM, its end is a
 * device timestamp of where the GEMM starts. (CLBlast returns the event of its last kernel only,
 * and markers carry no usable device timestamps on every platform: NVIDIA's do not.) */
static const char *stamp_src = "__kernel void amp_stamp(int unused) { (void)unused; }\n";
static pthread_mutex_t stamp_lock = PTHREAD_MUTEX_INITIALIZER;
/* One CLBlast call at a time in the process: CLBlast builds its tuning database for every call
 * without a lock, and two threads calling it at once (amp_blas_gemm_multi's, one per accelerator,
 * for every transposed panel) read memory the other had freed (AddressSanitizer, two POCL
 * devices; CLBlast issue #486: multi-threaded calls on several GPUs are unreliable). A call only
 * enqueues (its first per device also builds kernels), so the lock costs little. */
static pthread_mutex_t clblast_lock = PTHREAD_MUTEX_INITIALIZER;
static amp_kernel *stamp_kernel; /* made at the first timed GEMM; made again if that failed */

static amp_status get_stamp(amp_kernel **out) {
  amp_status status = AMP_SUCCESS;
  pthread_mutex_lock(&stamp_lock);
  if (!stamp_kernel) {
    amp_program *p = NULL;
    status = amp_program_create(stamp_src, NULL, &p);
    if (status == AMP_SUCCESS)
      status = amp_kernel_create(p, "amp_stamp", &stamp_kernel);
    amp_program_release(p); /* the kernel keeps it */
  }
  *out = stamp_kernel;
  pthread_mutex_unlock(&stamp_lock);
  return status;
}

/* Enqueues the stamp after `wait` on the view's queue; *out gets its event. */
static amp_status enqueue_stamp(amp_accelerator_view *view, const amp__evlist *wait,
                                cl_event *out) {
  amp_status status = AMP_SUCCESS;
  amp__kernel_pool *pool;
  amp_kernel *stamp;
  cl_kernel k = NULL;
  AMP__TRY(get_stamp(&stamp));
  AMP__TRY(amp__kernel_pool_get(stamp, view->acc, &pool));
  AMP__TRY(amp__kernel_take(pool, &k));
  cl_int zero = 0;
  size_t one = 1;
  AMP__CL(clSetKernelArg(k, 0, sizeof zero, &zero), "clSetKernelArg (timing kernel)");
  const uint64_t t = amp__trace_on() ? amp__trace_now() : 0;
  AMP__CL(clEnqueueNDRangeKernel(view->queue, k, 1, NULL, &one, NULL, (cl_uint)wait->n,
                                 wait->n ? wait->ev : NULL, out),
          "clEnqueueNDRangeKernel (timing kernel)");
  if (t)
    amp__trace_command(view->acc, view->queue, *out, "kernel", 0,
                       "ampcl timing stamp (before a GEMM)", "[1]", t);
fail:
  if (k)
    amp__kernel_give_back(pool, k);
  return status;
}

amp_status amp__blas_clblast(amp_accelerator_view *view, amp_transpose trans_a,
                             amp_transpose trans_b, double alpha, amp_array_view *a,
                             amp_array_view *b, double beta, amp_array_view *c, amp_future **done) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_blas_gemm";
#ifndef AMP_HAVE_CLBLAST
  (void)view;
  (void)trans_a;
  (void)trans_b;
  (void)alpha;
  (void)a;
  (void)b;
  (void)beta;
  (void)c;
  (void)done;
  AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE, "%s: ampcl was built without CLBlast (AMP_WITH_CLBLAST)",
            fn);
#else
  amp__evlist wait = {0};
  cl_event ev = NULL, start = NULL;
  int acquired = 0;
  amp__use uses[3] = {{.view = a}, {.view = b}, {.view = c, .write = 1}};
  size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1];
  size_t k = (size_t)a->extent.dim[trans_a ? 0 : 1];
  AMP__TRY(amp__uses_acquire(view, uses, 3, &wait));
  acquired = 1;
  /* What the GEMM waits for goes first on the in-order queue, as a marker, or, when the caller
   * wants the device time, as the stamp kernel whose end marks where the GEMM starts. */
  amp__flush_producers(wait.ev, wait.n, view->queue);
  if (done)
    AMP__TRY(enqueue_stamp(view, &wait, &start));
  else if (wait.n) {
    amp__traced tr = amp__trace_start();
    AMP__CL(clEnqueueMarkerWithWaitList(view->queue, (cl_uint)wait.n, wait.ev, amp__trace_ev(&tr)),
            "clEnqueueMarkerWithWaitList (before GEMM)");
    amp__trace_end(&tr, view->acc, view->queue, "marker", 0, "wait for the GEMM's operands");
  }
  cl_mem A = amp__view_buffer(a, view->acc), B = amp__view_buffer(b, view->acc),
         C = amp__view_buffer(c, view->acc);
  CLBlastTranspose ta = trans_a ? CLBlastTransposeYes : CLBlastTransposeNo;
  CLBlastTranspose tb = trans_b ? CLBlastTransposeYes : CLBlastTransposeNo;
  CLBlastStatusCode st;
  const uint64_t t_enq = amp__trace_on() ? amp__trace_now() : 0;
  pthread_mutex_lock(&clblast_lock);
  if (a->type.kind == AMP_ELEM_FLOAT)
    st = CLBlastSgemm(CLBlastLayoutRowMajor, ta, tb, m, n, k, (float)alpha, A, a->offset,
                      a->stride[0], B, b->offset, b->stride[0], (float)beta, C, c->offset,
                      c->stride[0], &view->queue, &ev);
  else
    st = CLBlastDgemm(CLBlastLayoutRowMajor, ta, tb, m, n, k, alpha, A, a->offset, a->stride[0], B,
                      b->offset, b->stride[0], beta, C, c->offset, c->stride[0], &view->queue, &ev);
  pthread_mutex_unlock(&clblast_lock);
  if (st != CLBlastSuccess) {
    ev = NULL;
    AMP__FAIL(st < 0 && st > -100 ? amp__cl_status(st) : AMP_ERROR_OPENCL,
              "%s: CLBlast%cgemm failed with CLBlast status %d (see clblast_c.h)", fn,
              a->type.kind == AMP_ELEM_FLOAT ? 'S' : 'D', (int)st);
  }
  if (t_enq) {
    char shape[80];
    snprintf(shape, sizeof shape, "m %zu, n %zu, k %zu", m, n, k);
    amp__trace_command(view->acc, view->queue, ev, "gemm",
                       (uint64_t)(m * k + k * n + m * n) * a->type.size,
                       a->type.kind == AMP_ELEM_FLOAT ? "CLBlastSgemm (last kernel)"
                                                      : "CLBlastDgemm (last kernel)",
                       shape, t_enq);
  }
  amp__uses_finish(view, uses, 3, ev);
  acquired = 0;
  atomic_fetch_add(&n_clblast, 1);
  amp__view_enqueued(view);
  if (done) {
    AMP__TRY(amp__future_create_span(start, ev, done));
    ev = start = NULL;
  }
fail:
  if (acquired)
    amp__uses_finish(view, uses, 3, NULL);
  if (ev)
    clReleaseEvent(ev);
  if (start)
    clReleaseEvent(start);
  amp__evlist_free(&wait);
#endif
#ifndef AMP_HAVE_CLBLAST
fail:
#endif
  return status;
}
