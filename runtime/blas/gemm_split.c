/* runtime/blas/gemm_split.c: amp_blas_gemm_multi, one GEMM over several accelerators from host
 * memory (as cuBLAS-XT serves CUDA users).
 *
 * C = alpha op(A) op(B) + beta C. Accelerator g of G computes the rows [r_g, r_g + m_g) of C.
 * What crosses each link is only what that accelerator needs:
 *
 *   - its rows of op(A) (m_g x k), copied once at the start (staged like any copy of a view);
 *   - op(B) in column panels of w columns (k x w each), which every accelerator needs: the host
 *     packs each panel ONCE into a ring of pinned buffers (amp_host_alloc), so B's bytes cross host
 *     memory once whatever G is, and every accelerator's DMA engine reads the same pinned panel;
 *   - its block of C comes back a panel at a time (m_g x w), into pinned buffers of its own, and
 *     its thread and AMP_GEMM_MULTI_WRITERS - 1 more write alpha * P + beta * C into the
 *     caller's C.
 *
 * Each panel's product is a plain GEMM, alpha 1 and beta 0 (amp_blas_gemm on the accelerator:
 * ampcl's fast kernel on a GPU for op = no transpose, CLBlast for transposes, OpenBLAS on a CPU
 * device), so alpha and beta cost nothing on the device. The threads:
 *
 *   fillers (the calling thread and F - 1 others) pack panel j into slot j % S once all
 *     accelerators have released the panel that slot held (j - S);
 *   one thread per accelerator: for each panel j: wait until j is packed and copy it in on a copy
 *     queue of its own, enqueue its GEMM on a compute queue of its own (which waits for that
 *     copy), enqueue panel j + 1's copy if the host has packed it already, then bring panel
 *     j - 1's result back (on the accelerator's default queue, so it does not wait behind GEMM j),
 *     release j - 1's slot and write the result into C, with AMP_GEMM_MULTI_WRITERS - 1 threads
 *     started for that panel (write_back). So panel j + 1 crosses the link and j - 1 comes
 *     back while GEMM j runs. Its rows of A are copied in on the copy queue before the first
 *     GEMM; with AMP_GEMM_MULTI_A_PARTS = p > 1 they go in p chunks, and the first S panels are
 *     computed chunk by chunk, each chunk's GEMMs enqueued once it is in, so the device computes
 *     while the rest of A crosses. A result buffer is reused only once its panel is in C: 2 of
 *     them, or S + 1 with A in chunks.
 *
 * The pinned memory, a region per accelerator allocated on it (its result panels, and the ring
 * in the first accelerator's, or in every one's with AMP_GEMM_MULTI_SHARED=0), is kept for the
 * next call (per accelerator, the largest asked for; a concurrent call makes its own).
 * docs/TRANSFERS.md, "One GEMM over several GPUs", is the user's page for this.
 *
 * This file checks the call, plans it and runs its threads; gemm_split_workspace.c keeps the
 * pinned regions, gemm_split_ring.c packs the panels, gemm_split_part.c is one accelerator's
 * thread and gemm_split_write.c writes into C (gemm_split.h: what they share). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas/gemm_split.h"
#include "core/cpu_count.h"
#include "core/env_parse.h"
#include "core/knobs.h"
#include "data/source.h"

#define FN "amp_blas_gemm_multi"

/* ---- checks ------------------------------------------------------------------------------- */

static const char *kind_name(amp_elem_kind k) {
  static const char *const names[] = {"?", "int32", "uint32", "float", "double", "struct"};
  return k >= AMP_ELEM_INT32 && k <= AMP_ELEM_STRUCT ? names[k] : "?";
}

static amp_status check_matrix(const amp_array_view *v, const char *name, amp_elem_kind kind) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(v, AMP__MAGIC_ARRAY_VIEW, "array view", FN));
  if (v->extent.rank != 2)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH, FN ": %s has rank %d; a matrix has rank 2", name,
              v->extent.rank);
  if (v->type.kind != kind)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              FN ": %s holds %s elements and A %s; A, B and C must hold the same type", name,
              kind_name(v->type.kind), kind_name(kind));
  if (v->src->home >= 0)
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              FN ": %s is a view of a device array; the multi-accelerator GEMM takes views over "
                 "host memory (use amp_blas_gemm on the array's accelerator)",
              name);
fail:
  return status;
}

/* The host bytes a matrix view spans: [lo, hi). */
static void span(const amp_array_view *v, uintptr_t *lo, uintptr_t *hi) {
  size_t es = v->type.size;
  *lo = (uintptr_t)(v->src->host + v->offset * es);
  *hi = *lo + (((size_t)v->extent.dim[0] - 1) * v->stride[0] + (size_t)v->extent.dim[1]) * es;
}

static int overlap(const amp_array_view *x, const amp_array_view *y) {
  uintptr_t a0, a1, b0, b1;
  span(x, &a0, &a1);
  span(y, &b0, &b1);
  return a0 < b1 && b0 < a1;
}

/* An environment setting in [lo, hi], or dflt when unset; a bad value fails, naming it. */
static amp_status env_size(amp__knob knob, unsigned long long lo, unsigned long long hi,
                           size_t dflt, size_t *out) {
  const char *name = amp__knob_name(knob), *v = amp__knob_get(knob);
  unsigned long long x;
  *out = dflt;
  if (!v || !*v)
    return AMP_SUCCESS;
  if (!amp__env_uint(v, lo, hi, &x))
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          FN ": %s is \"%s\"; it must be a whole number from %llu to %llu", name, v,
                          lo, hi);
  *out = (size_t)x;
  return AMP_SUCCESS;
}

/* ---- the plan and the threads -------------------------------------------------------------- */

/* The default panel width: about 256 MiB of op(B) per panel, at least 8 panels where n allows
 * (so copies overlap GEMMs), a multiple of 128 columns (whole tiles of the fast kernel). */
static size_t default_width(size_t n, size_t k, size_t es) {
  size_t w = ((size_t)256 << 20) / (k * es);
  size_t eighth = (n + 7) / 8;
  eighth = (eighth + 127) / 128 * 128;
  if (w > eighth)
    w = eighth;
  w = w / 128 * 128;
  if (w < 128)
    w = 128;
  return w < n ? w : n;
}

/* The call's arguments, checked in the order a caller would fix them; *pm, *pn and *pk: C's rows
 * and columns, and op(A)'s columns. */
static amp_status check_call(amp_accelerator_view *const *views, int nviews, amp_transpose trans_a,
                             amp_transpose trans_b, amp_array_view *a, amp_array_view *b,
                             amp_array_view *c, size_t *pm, size_t *pn, size_t *pk) {
  amp_status status = AMP_SUCCESS;
  if (!views)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, FN ": views is NULL");
  if (nviews < 1 || nviews > MAX_PARTS)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, FN ": nviews is %d; it must be from 1 to %d", nviews,
              MAX_PARTS);
  if ((trans_a != AMP_NO_TRANS && trans_a != AMP_TRANS) ||
      (trans_b != AMP_NO_TRANS && trans_b != AMP_TRANS))
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              FN ": trans_a is %d and trans_b is %d; each must be AMP_NO_TRANS (0) or AMP_TRANS "
                 "(1)",
              (int)trans_a, (int)trans_b);
  for (int g = 0; g < nviews; g++) {
    if (!views[g])
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, FN ": views[%d] is NULL", g);
    AMP__TRY(amp__check_handle(views[g], AMP__MAGIC_VIEW, "accelerator view", FN));
    for (int h = 0; h < g; h++)
      if (views[h]->acc == views[g]->acc)
        AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                  FN ": views[%d] and views[%d] are both on %s; give each accelerator once", h, g,
                  views[g]->acc->props.device_path);
  }
  AMP__TRY(amp__check_handle(a, AMP__MAGIC_ARRAY_VIEW, "array view", FN));
  if (a->type.kind != AMP_ELEM_FLOAT && a->type.kind != AMP_ELEM_DOUBLE)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              FN ": A holds %s elements; GEMM takes AMP_FLOAT or AMP_DOUBLE views",
              kind_name(a->type.kind));
  AMP__TRY(check_matrix(a, "A", a->type.kind));
  AMP__TRY(check_matrix(b, "B", a->type.kind));
  AMP__TRY(check_matrix(c, "C", a->type.kind));
  if (c->read_only)
    AMP__FAIL(AMP_ERROR_ACCESS_DENIED, FN ": C is a read-only view");
  const size_t m = (size_t)c->extent.dim[0], n = (size_t)c->extent.dim[1];
  const size_t am = (size_t)a->extent.dim[trans_a ? 1 : 0],
               k = (size_t)a->extent.dim[trans_a ? 0 : 1];
  const size_t bk = (size_t)b->extent.dim[trans_b ? 1 : 0],
               bn = (size_t)b->extent.dim[trans_b ? 0 : 1];
  if (am != m || bk != k || bn != n)
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH,
              FN ": op(A) is %zu x %zu, op(B) is %zu x %zu and C is %zu x %zu; they must be "
                 "m x k, k x n and m x n",
              am, k, bk, bn, m, n);
  if (a->type.kind == AMP_ELEM_DOUBLE)
    for (int g = 0; g < nviews; g++)
      if (!views[g]->acc->props.supports_double_precision)
        AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
                  FN ": views[%d]'s %s does not support double precision", g,
                  views[g]->acc->props.device_path);
  if (c->src == a->src || c->src == b->src)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              FN ": C is a view of the same data as %s; C must not share memory with A or B",
              c->src == a->src ? "A" : "B");
  if (a->src->host && c->src->host && overlap(a, c))
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, FN ": C's memory overlaps A's; C must not share "
                                             "memory with A or B");
  if (b->src->host && c->src->host && overlap(b, c))
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, FN ": C's memory overlaps B's; C must not share "
                                             "memory with A or B");
  *pm = m;
  *pn = n;
  *pk = k;
fail:
  return status;
}

/* The job's shape: accelerators, panel width, ring, A's chunks, fillers and writers (the
 * AMP_GEMM_MULTI_* settings or their defaults), and the result buffers per accelerator. */
static amp_status plan_shape(job *j, int nviews) {
  amp_status status = AMP_SUCCESS;
  const size_t m = j->m, n = j->n, k = j->k;
  j->nparts = (size_t)nviews < m ? (size_t)nviews : m; /* no accelerator without rows */
  /* the CPUs this process may run on (an MPI rank bound to one core gets 1 filler, not 8) */
  const int ncpu = amp__usable_cpus();
  size_t fill_dflt = ncpu >= 16 ? (size_t)ncpu / 8 : 1;
  AMP__TRY(env_size(AMP_KNOB_GEMM_MULTI_PANEL, 1, 0x7fffffff, default_width(n, k, j->es), &j->w));
  AMP__TRY(env_size(AMP_KNOB_GEMM_MULTI_RING, 2, MAX_RING, 3, &j->ring));
  AMP__TRY(env_size(AMP_KNOB_GEMM_MULTI_A_PARTS, 1, MAX_ACHUNK, m / j->nparts >= 1024 ? 4 : 1,
                    &j->achunks));
  AMP__TRY(
      env_size(AMP_KNOB_GEMM_MULTI_THREADS, 1, MAX_FILL, fill_dflt > 8 ? 8 : fill_dflt, &j->nfill));
  /* writers: a share of the CPUs beside the fillers, for each accelerator */
  size_t write_dflt = (size_t)ncpu / (2 * j->nparts);
  write_dflt = write_dflt < 1 ? 1 : write_dflt > 8 ? 8 : write_dflt;
  AMP__TRY(env_size(AMP_KNOB_GEMM_MULTI_WRITERS, 1, MAX_WRITERS, write_dflt, &j->nwriters));
  if (j->w > n)
    j->w = n;
  j->npanels = (n + j->w - 1) / j->w;
  /* chunked, the first min(ring, panels) panels are in flight together, and one more after */
  j->nout = j->achunks > 1 ? (j->ring < j->npanels ? j->ring : j->npanels) + 1 : 2;
  if (j->nfill > (j->tb ? j->w : k))
    j->nfill = j->tb ? j->w : k;
fail:
  return status;
}

/* The pinned regions: per accelerator nout results of m_g x w, and the ring (`ring` panels of
 * k x w) in part 0's region only, or in each (AMP_GEMM_MULTI_SHARED=0), with each accelerator's
 * rows of C. Every size checked (a view holds at most 2^31-1 elements). *slot_bytes and
 * *ring_bytes: a panel's and the ring's. */
static amp_status plan_regions(job *j, amp_accelerator_view *const *views, size_t *slot_bytes,
                               size_t *ring_bytes) {
  amp_status status = AMP_SUCCESS;
  const size_t m = j->m, k = j->k;
  size_t shared, out_elems, x;
  AMP__TRY(env_size(AMP_KNOB_GEMM_MULTI_SHARED, 0, 1, 1, &shared));
  j->nrings = shared ? 1 : j->nparts;
  if (!mul_ok(k, j->w, &j->slot_elems) || j->slot_elems > 0x7fffffff ||
      !mul_ok(j->slot_elems, j->es, slot_bytes) || !mul_ok(*slot_bytes, j->ring, ring_bytes))
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              FN ": a panel of %zu x %zu elements (AMP_GEMM_MULTI_PANEL) is more than a view "
                 "holds (2^31-1 elements); set a narrower panel",
              k, j->w);
  for (size_t g = 0; g < j->nparts; g++) {
    part *pt = &j->parts[g];
    pt->j = j;
    pt->index = (int)g;
    pt->acc = views[g]->acc;
    pt->r0 = m * g / j->nparts;
    pt->rows = m * (g + 1) / j->nparts - pt->r0;
    if (!mul_ok(pt->rows, j->w, &out_elems) || out_elems > 0x7fffffff ||
        !mul_ok(out_elems, j->nout * j->es, &x) || (g < j->nrings && !add_ok(x, *ring_bytes, &x)))
      AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
                FN ": a result panel of %zu x %zu elements is more than a view holds (2^31-1 "
                   "elements); set a narrower panel (AMP_GEMM_MULTI_PANEL)",
                pt->rows, j->w);
    pt->ws_bytes = x;
  }
fail:
  return status;
}

/* Host memory must hold A's and B's latest contents, and C's (read and then written here: the
 * accelerators' copies of C are dropped); B's and C's host memory and row strides to the job. */
static amp_status host_operands(job *j, amp_array_view *a, amp_array_view *b, amp_array_view *c) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp_array_view_synchronize(a));
  AMP__TRY(amp_array_view_synchronize(b));
  AMP__TRY(amp_array_view_synchronize_access(c, AMP_ACCESS_READ_WRITE));
  if (!a->src->host || !b->src->host || !c->src->host)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              FN ": %s has no data yet (a view created empty and never written)",
              !a->src->host   ? "A"
              : !b->src->host ? "B"
                              : "C");
  j->bhost = b->src->host + b->offset * j->es;
  j->ldb = b->stride[0];
  j->chost = c->src->host + c->offset * j->es;
  j->ldc = c->stride[0];
fail:
  return status;
}

/* Each accelerator's pinned region (the ring first, if it has one, then its results), the ring's
 * slots as released, and each part's views and queues. */
static amp_status setup(job *j, amp_array_view *a, size_t slot_bytes, size_t ring_bytes) {
  amp_status status = AMP_SUCCESS;
  for (size_t g = 0; g < j->nparts; g++) {
    part *pt = &j->parts[g];
    AMP__TRY(amp__gemm_split_ws_get(pt->acc, pt->ws_bytes, &pt->ws));
    /* a region: the ring first (if it has one), then its results */
    unsigned char *ring = j->parts[g < j->nrings ? g : 0].ws;
    for (size_t s = 0; s < j->ring; s++)
      pt->ring_mem[s] = ring + s * slot_bytes;
    pt->out_base = (unsigned char *)pt->ws + (g < j->nrings ? ring_bytes : 0);
  }
  for (size_t s = 0; s < j->ring; s++)
    j->slot_panel[s] = (long)s - (long)j->ring; /* "held" a panel before 0, released */
  for (size_t g = 0; g < j->nparts; g++)
    AMP__TRY(amp__gemm_split_part_setup(j, &j->parts[g], a));
fail:
  return status;
}

/* The job's lock and condition; *made once both are. */
static amp_status make_locks(job *j, int *made) {
  amp_status status = AMP_SUCCESS;
  if (pthread_mutex_init(&j->lock, NULL) != 0)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, FN ": pthread_mutex_init failed");
  if (pthread_cond_init(&j->cond, NULL) != 0) {
    pthread_mutex_destroy(&j->lock);
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, FN ": pthread_cond_init failed");
  }
  *made = 1;
fail:
  return status;
}

/* The fillers and one thread per accelerator started, the calling thread filling too, and all
 * joined; the first accelerator's failure is the call's. *t1: when the last thread ended. */
static amp_status run(job *j, uint64_t *t1) {
  amp_status status = AMP_SUCCESS;
  j->t0 = now_ns();
  /* the fillers first: the panels are divided among those that started */
  size_t nf = 1;
  for (; nf < j->nfill; nf++) {
    j->fill[nf] = (struct filler){.j = j, .f = nf};
    if (pthread_create(&j->fill[nf].thread, NULL, amp__gemm_split_filler_main, &j->fill[nf]) != 0)
      break;
  }
  pthread_mutex_lock(&j->lock);
  j->nfill = nf;
  j->go = 1;
  pthread_cond_broadcast(&j->cond);
  pthread_mutex_unlock(&j->lock);
  for (size_t g = 0; g < j->nparts && status == AMP_SUCCESS; g++) {
    part *pt = &j->parts[g];
    if (pthread_create(&pt->thread, NULL, amp__gemm_split_part_main, pt) != 0) {
      status = amp__set_error(AMP_ERROR_OUT_OF_MEMORY, FN ": could not start a host thread");
      amp__gemm_split_abort(j);
    } else {
      pt->started = 1;
    }
  }
  if (status == AMP_SUCCESS)
    amp__gemm_split_fill(j, 0);
  for (size_t f = 1; f < nf; f++)
    pthread_join(j->fill[f].thread, NULL);
  for (size_t g = 0; g < j->nparts; g++)
    if (j->parts[g].started)
      pthread_join(j->parts[g].thread, NULL);
  *t1 = now_ns();
  for (size_t g = 0; g < j->nparts && status == AMP_SUCCESS; g++)
    if (j->parts[g].status != AMP_SUCCESS)
      status = amp__set_error(j->parts[g].status, FN ": on %s: %s",
                              j->parts[g].acc->props.device_path, j->parts[g].reason);
  return status;
}

/* With AMP_DEBUG or AMP_GEMM_MULTI_VERBOSE set: the call's plan and time, and each accelerator's
 * times. */
static void report(const job *j, uint64_t t1) {
  const char *verbose = amp__knob_get(AMP_KNOB_GEMM_MULTI_VERBOSE);
  if (amp__debug_enabled() || (verbose && *verbose && strcmp(verbose, "0") != 0)) {
    fprintf(stderr,
            "[ampcl] " FN ": %zu x %zu x %zu on %zu accelerators, panels of %zu columns (%zu), "
            "ring %zu, %zu fill threads, %zu writers each, A in %zu parts: %.1f ms\n",
            j->m, j->n, j->k, j->nparts, j->w, j->npanels, j->ring, j->nfill, j->nwriters,
            j->achunks, (double)(t1 - j->t0) / 1e6);
    for (size_t g = 0; g < j->nparts; g++) {
      const part *pt = &j->parts[g];
      fprintf(stderr,
              "[ampcl]   %s: rows %zu..%zu: A in %.1f ms, GEMMs %.1f ms (device), first "
              "enqueued at %.1f ms, last result in C at %.1f ms; the thread waited for panels "
              "%.1f ms, for GEMMs %.1f ms, for results back %.1f ms, wrote C %.1f ms\n",
              pt->acc->props.device_path, pt->r0, pt->r0 + pt->rows, (double)pt->a_ns / 1e6,
              (double)pt->gemm_ns / 1e6, (double)pt->first_ns / 1e6, (double)pt->last_ns / 1e6,
              (double)pt->wait_ns / 1e6, (double)pt->gwait_ns / 1e6, (double)pt->back_ns / 1e6,
              (double)pt->write_ns / 1e6);
    }
  }
}

/* Every part's views and queues released, then the pinned regions kept or freed, then the job. */
static void job_free(job *j, int locks) {
  if (!j)
    return;
  for (size_t g = 0; g < j->nparts; g++)
    amp__gemm_split_part_teardown(&j->parts[g]);
  for (size_t g = 0; g < j->nparts; g++) /* after every part's views: nothing uses them now */
    if (j->parts[g].ws)
      amp__gemm_split_ws_put(j->parts[g].acc, j->parts[g].ws, j->parts[g].ws_bytes);
  if (locks) {
    pthread_cond_destroy(&j->cond);
    pthread_mutex_destroy(&j->lock);
  }
  free(j);
}

amp_status amp_blas_gemm_multi(amp_accelerator_view *const *views, int nviews,
                               amp_transpose trans_a, amp_transpose trans_b, double alpha,
                               amp_array_view *a, amp_array_view *b, double beta,
                               amp_array_view *c) {
  amp_status status = AMP_SUCCESS;
  job *j = NULL;
  int locks = 0;
  size_t m = 0, n = 0, k = 0, slot_bytes = 0, ring_bytes = 0;
  uint64_t t1 = 0;
  AMP__TRY(check_call(views, nviews, trans_a, trans_b, a, b, c, &m, &n, &k));
  j = calloc(1, sizeof *j);
  if (!j)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, FN ": out of memory");
  j->ta = trans_a;
  j->tb = trans_b;
  j->alpha = alpha;
  j->beta = beta;
  j->dbl = a->type.kind == AMP_ELEM_DOUBLE;
  j->es = a->type.size;
  j->m = m;
  j->n = n;
  j->k = k;
  AMP__TRY(plan_shape(j, nviews));
  AMP__TRY(plan_regions(j, views, &slot_bytes, &ring_bytes));
  AMP__TRY(host_operands(j, a, b, c));
  if (alpha == 0.0) { /* BLAS: A and B are not read */
    amp__gemm_split_scale_c(j);
    goto fail;
  }
  AMP__TRY(setup(j, a, slot_bytes, ring_bytes));
  AMP__TRY(make_locks(j, &locks));
  status = run(j, &t1);
  report(j, t1);
fail:
  job_free(j, locks);
  return status;
}
