/* runtime/blas/gemm_split_part.c: amp_blas_gemm_multi's work on one accelerator (gemm_split.c
 * has the whole plan): its rows of op(A) copied in (in chunks under the first panels' GEMMs with
 * AMP_GEMM_MULTI_A_PARTS > 1), then for each panel of op(B) its copy in on a queue of its own, its
 * GEMM on another, and the result back and into C, panel j + 1 crossing the link and j - 1 coming
 * back while GEMM j runs. */
#include <stdio.h>

#include "blas/blas_host.h"
#include "blas/gemm_split.h"

/* The block of rows [r0, r0 + nr) and columns [c0, c0 + nc) of v (a matrix over host memory) as a
 * section of a read-only view of the call's own over the same memory: nr rows of v's row stride,
 * placed inside v's host memory, from the block's first element or ending where the memory ends.
 * So each accelerator's part of A has a lock and device buffers of its own, released with the
 * call: a section of the caller's A would serialise every accelerator's copy under A's one lock
 * and leave a device buffer of all of A's memory on each accelerator, held by the caller's A. *out
 * stays NULL (and the call takes a section of A) when no such view fits. */
static amp_status own_block(const amp_array_view *v, size_t r0, size_t nr, size_t c0, size_t nc,
                            amp_array_view **out) {
  const size_t es = v->type.size, ld = v->stride[0], total = v->src->bytes / es;
  const size_t first = v->offset + r0 * ld + c0;
  size_t span;
  *out = NULL;
  if (!mul_ok(nr, ld, &span) || span > 0x7fffffff || span > total)
    return AMP_SUCCESS;
  const size_t base = first < total - span ? first : total - span;
  if (base + ld < first + nc) /* the block's columns do not fit in the view's rows */
    return AMP_SUCCESS;
  amp_array_view *whole = NULL;
  amp_status status = amp_array_view_create_const(amp_extent2((int)nr, (int)ld), v->type,
                                                  v->src->host + base * es, &whole);
  if (status == AMP_SUCCESS)
    status = amp_array_view_section(whole, amp_index2(0, (int)(first - base)),
                                    amp_extent2((int)nr, (int)nc), out);
  amp_array_view_release(whole); /* the section holds the memory's source */
  return status;
}

amp_status amp__gemm_split_part_setup(job *j, part *pt, amp_array_view *a) {
  unsigned char *ws = pt->out_base;
  amp_status status = AMP_SUCCESS;
  const amp_elem_type et = a->type;
  /* submitted as enqueued: on an automatic (batching) view, panel j + 1's copy and the GEMMs of
   * A's first chunks would wait unsubmitted until the thread next waits for something, instead of
   * running under GEMM j and while the rest of A crosses */
  AMP__TRY(amp_accelerator_create_view(pt->acc, AMP_QUEUING_MODE_IMMEDIATE, &pt->run));
  AMP__TRY(amp_accelerator_create_view(pt->acc, AMP_QUEUING_MODE_IMMEDIATE, &pt->copy));
  /* op(A)'s rows (A's columns when transposed): a view of their own (own_block), else a section
   * of A */
  if (!j->ta)
    AMP__TRY(own_block(a, pt->r0, pt->rows, 0, j->k, &pt->a));
  else
    AMP__TRY(own_block(a, 0, j->k, pt->r0, pt->rows, &pt->a));
  if (!pt->a && !j->ta)
    AMP__TRY(amp_array_view_section(a, amp_index2((int)pt->r0, 0),
                                    amp_extent2((int)pt->rows, (int)j->k), &pt->a));
  else if (!pt->a)
    AMP__TRY(amp_array_view_section(a, amp_index2(0, (int)pt->r0),
                                    amp_extent2((int)j->k, (int)pt->rows), &pt->a));
  const amp_extent pe =
      j->tb ? amp_extent2((int)j->w, (int)j->k) : amp_extent2((int)j->k, (int)j->w);
  for (size_t s = 0; s < j->ring; s++)
    AMP__TRY(amp_array_view_create_const(pe, et, pt->ring_mem[s], &pt->slot[s]));
  for (size_t b = 0; b < j->nout; b++) {
    pt->out_mem[b] = ws;
    ws += pt->rows * j->w * j->es;
    AMP__TRY(amp_array_view_create(amp_extent2((int)pt->rows, (int)j->w), et, pt->out_mem[b],
                                   &pt->out[b]));
  }
  pt->host_gemm = amp__blas_host_wanted(pt->acc, pt->a, pt->slot[0], pt->out[0]);
  pt->achunks = pt->host_gemm ? 1 : j->achunks < pt->rows ? j->achunks : pt->rows;
fail:
  return status;
}

void amp__gemm_split_part_teardown(part *pt) {
  if (pt->run)
    amp_accelerator_view_wait(pt->run);
  if (pt->copy)
    amp_accelerator_view_wait(pt->copy);
  amp_array_view_release(pt->a);
  for (size_t s = 0; s < MAX_RING; s++)
    amp_array_view_release(pt->slot[s]);
  for (size_t b = 0; b < MAX_OUT; b++)
    amp_array_view_release(pt->out[b]);
  amp_accelerator_view_release(pt->run);
  amp_accelerator_view_release(pt->copy);
}

/* The view itself for a full panel, else its section of wp columns (or rows, for B^T); a new
 * reference either way. */
static amp_status panel_view(amp_array_view *v, int rows_are_panel, size_t wp, size_t full,
                             amp_array_view **out) {
  if (wp == full) {
    *out = v;
    return amp_array_view_retain(v);
  }
  amp_extent e;
  amp_status status = amp_array_view_get_extent(v, &e);
  if (status != AMP_SUCCESS)
    return status;
  if (rows_are_panel)
    e.dim[0] = (int)wp;
  else
    e.dim[1] = (int)wp;
  return amp_array_view_section(v, amp_index2(0, 0), e, out);
}

/* Panel p's result: back to the host (blocking), into C, and its slot released. */
static amp_status finish_panel(part *pt, size_t p) {
  amp_status status = AMP_SUCCESS;
  job *j = pt->j;
  amp_future **futs = pt->fut[p % j->nout];
  uint64_t t0 = now_ns(), ns = 0;
  for (size_t c = 0; c < MAX_ACHUNK && futs[c]; c++) {
    AMP__TRY(amp_future_wait(futs[c]));
    if (amp_future_elapsed_ns(futs[c], &ns) == AMP_SUCCESS)
      pt->gemm_ns += ns;
  }
  uint64_t t1 = now_ns();
  AMP__TRY(amp_array_view_synchronize(pt->out[p % j->nout]));
  amp__gemm_split_release_panel(j, p);
  uint64_t t2 = now_ns();
  amp__gemm_split_write_back(j, pt, pt->out_mem[p % j->nout], p * j->w, panel_cols(j, p));
  uint64_t t3 = now_ns();
  pt->gwait_ns += t1 - t0;
  pt->back_ns += t2 - t1;
  pt->write_ns += t3 - t2;
  pt->last_ns = t3 - j->t0;
fail:
  for (size_t c = 0; c < MAX_ACHUNK; c++) {
    if (futs[c] && status != AMP_SUCCESS)
      amp_future_wait(futs[c]);
    amp_future_release(futs[c]);
    futs[c] = NULL;
  }
  return status;
}

/* op(A)'s rows [r0, r1) of the part (columns of A when transposed). */
static amp_status a_rows(const part *pt, size_t r0, size_t r1, amp_array_view **out) {
  const job *j = pt->j;
  if (j->ta)
    return amp_array_view_section(pt->a, amp_index2(0, (int)r0),
                                  amp_extent2((int)j->k, (int)(r1 - r0)), out);
  return amp_array_view_section(pt->a, amp_index2((int)r0, 0),
                                amp_extent2((int)(r1 - r0), (int)j->k), out);
}

/* Finishes every panel up to p (in order), those not finished yet. */
static amp_status finish_upto(part *pt, long p) {
  amp_status status = AMP_SUCCESS;
  while (status == AMP_SUCCESS && (long)pt->finished <= p)
    status = finish_panel(pt, pt->finished++);
  return status;
}

/* Panel p (packed) to the accelerator: its slot's view learns of the new contents, and the copy
 * is enqueued on the copy queue (nothing to copy when the GEMMs run on host memory). */
static amp_status send_panel(part *pt, size_t p) {
  amp_status status = AMP_SUCCESS;
  job *j = pt->j;
  amp_array_view *bv = NULL;
  AMP__TRY(amp_array_view_refresh(pt->slot[p % j->ring]));
  if (!pt->host_gemm) {
    AMP__TRY(panel_view(pt->slot[p % j->ring], j->tb != AMP_NO_TRANS, panel_cols(j, p), j->w, &bv));
    AMP__TRY(amp_array_view_synchronize_to(bv, pt->copy));
  }
fail:
  amp_array_view_release(bv);
  return status;
}

/* Rows [r0, r1) of panel p's result buffer (its wp columns); a new reference. */
static amp_status out_rows(part *pt, size_t p, size_t r0, size_t r1, amp_array_view **out) {
  return amp_array_view_section(pt->out[p % pt->j->nout], amp_index2((int)r0, 0),
                                amp_extent2((int)(r1 - r0), (int)panel_cols(pt->j, p)), out);
}

/* One GEMM: rows [r0, r1) of panel p's result = those rows of op(A) times the panel. */
static amp_status gemm_rows(part *pt, size_t p, size_t r0, size_t r1, amp_future **fut) {
  amp_status status = AMP_SUCCESS;
  job *j = pt->j;
  amp_array_view *av = NULL, *bv = NULL, *cv = NULL;
  if (r0 == 0 && r1 == pt->rows) {
    av = pt->a;
    AMP__TRY(amp_array_view_retain(av));
  } else {
    AMP__TRY(a_rows(pt, r0, r1, &av));
  }
  AMP__TRY(panel_view(pt->slot[p % j->ring], j->tb != AMP_NO_TRANS, panel_cols(j, p), j->w, &bv));
  AMP__TRY(out_rows(pt, p, r0, r1, &cv));
  AMP__TRY(amp_blas_gemm(pt->run, j->ta, j->tb, 1.0, av, bv, 0.0, cv, fut));
  if (!pt->first_ns)
    pt->first_ns = now_ns() - j->t0;
fail:
  amp_array_view_release(av);
  amp_array_view_release(bv);
  amp_array_view_release(cv);
  return status;
}

/* Its rows [r0, r1) of op(A) to the accelerator, on the copy queue (staged from ordinary memory:
 * this thread copies). Nothing to copy when the GEMMs run on host memory. */
static amp_status send_a(part *pt, size_t r0, size_t r1) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *av = NULL;
  uint64_t t0 = now_ns();
  if (pt->host_gemm)
    return AMP_SUCCESS;
  AMP__TRY(a_rows(pt, r0, r1, &av));
  AMP__TRY(amp_array_view_synchronize_to(av, pt->copy));
fail:
  amp_array_view_release(av);
  pt->a_ns += now_ns() - t0;
  return status;
}

/* Waits for panel p (*ok 0 when the job was aborted meanwhile) and sends it. */
static amp_status take_panel(part *pt, size_t p, int *ok) {
  uint64_t tw = now_ns();
  *ok = amp__gemm_split_wait_panel(pt->j, p, 1);
  if (!*ok)
    return AMP_SUCCESS; /* another thread failed: its status is the call's */
  pt->wait_ns += now_ns() - tw;
  return send_panel(pt, p);
}

/* Panel p's result buffer made writable without a copy in: only once the panel that used it
 * before is in C. */
static amp_status discard_out(part *pt, size_t p) {
  amp_array_view *cv = NULL;
  amp_status status = out_rows(pt, p, 0, pt->rows, &cv);
  if (status == AMP_SUCCESS)
    status = amp_array_view_discard_data(cv);
  amp_array_view_release(cv);
  return status;
}

/* One accelerator's work. With A in chunks, the first min(ring, panels) panels are computed chunk
 * by chunk as A's rows arrive (each chunk's GEMMs over all of them), so the device computes while
 * the rest of A crosses; then panel by panel: panel p's GEMM, the next panel's copy in if it is
 * packed, and the results up to p - 1 back and into C. */
static amp_status part_run(part *pt) {
  amp_status status = AMP_SUCCESS;
  job *j = pt->j;
  size_t sent = 0, first = 0; /* panels whose copy in is enqueued; the loop's first panel */
  int ok = 1;
  if (pt->achunks > 1) {
    size_t p0 = j->ring < j->npanels ? j->ring : j->npanels;
    for (size_t c = 0; c < pt->achunks; c++) {
      size_t r0 = pt->rows * c / pt->achunks, r1 = pt->rows * (c + 1) / pt->achunks;
      AMP__TRY(send_a(pt, r0, r1));
      for (; sent < p0; sent++) {
        AMP__TRY(take_panel(pt, sent, &ok));
        if (!ok)
          goto fail;
        AMP__TRY(discard_out(pt, sent));
      }
      for (size_t q = 0; q < p0; q++)
        AMP__TRY(gemm_rows(pt, q, r0, r1, &pt->fut[q % j->nout][c]));
    }
    first = p0;
  } else {
    AMP__TRY(send_a(pt, 0, pt->rows));
  }
  for (size_t p = first; p < j->npanels; p++) {
    /* the slot panel p goes to, and the result buffer it writes, must be free */
    AMP__TRY(finish_upto(pt, (long)p - (long)(j->ring < j->nout ? j->ring : j->nout)));
    if (sent == p) {
      AMP__TRY(take_panel(pt, p, &ok));
      if (!ok)
        goto fail;
      sent++;
    }
    AMP__TRY(discard_out(pt, p));
    AMP__TRY(gemm_rows(pt, p, 0, pt->rows, &pt->fut[p % j->nout][0]));
    /* the next panel's copy under this GEMM, if the host has packed it already */
    if (p + 1 < j->npanels && sent == p + 1 && amp__gemm_split_wait_panel(j, p + 1, 0)) {
      AMP__TRY(take_panel(pt, p + 1, &ok));
      if (!ok)
        goto fail;
      sent++;
    }
    AMP__TRY(finish_upto(pt, (long)p - 1));
  }
  AMP__TRY(finish_upto(pt, (long)j->npanels - 1));
fail:
  for (size_t i = 0; i < MAX_OUT; i++)
    for (size_t c = 0; c < MAX_ACHUNK; c++)
      if (pt->fut[i][c]) {
        amp_future_wait(pt->fut[i][c]);
        amp_future_release(pt->fut[i][c]);
        pt->fut[i][c] = NULL;
      }
  return status;
}

void *amp__gemm_split_part_main(void *arg) {
  part *pt = arg;
  pt->status = part_run(pt);
  if (pt->status != AMP_SUCCESS) {
    snprintf(pt->reason, sizeof pt->reason, "%s", amp_last_error());
    amp__gemm_split_abort(pt->j);
  }
  return NULL;
}
