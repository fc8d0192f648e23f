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
 * docs/TRANSFERS.md, "One GEMM over several GPUs", is the user's page for this. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ampcl/array.h"
#include "ampcl/blas.h"
#include "blas/blas_host.h"
#include "core/clobjects.h"
#include "core/cpu_count.h"
#include "core/env_parse.h"

#define FN          "amp_blas_gemm_multi"
#define MAX_PARTS   64 /* accelerators one call drives */
#define MAX_RING    16
#define MAX_FILL    64
#define MAX_ACHUNK  16 /* chunks of A's rows under the first panels */
#define MAX_OUT     (MAX_RING + 1)
#define MAX_WRITERS 16 /* threads writing one accelerator's results into C */
#define REASON      512

/* ---- the cached pinned workspaces ---------------------------------------------------------- *
 * One pinned region per accelerator (allocated on it, so its copies are the link's own), kept
 * between calls: the largest asked for of each; a concurrent call makes its own. A region that
 * waits in the cache counts as kept for the process in amp_cl_objects_live, as scratch.c's
 * buffers do (no call of the user's releases it); one a call uses counts as the user's. */

/* A region goes into the cache (into = 1) or out of it: its count moves with it. */
static void ws_count(int into) {
  amp__clobj(AMP_CL_MEM, into ? -1 : 1);
  amp__clobj_process(AMP_CL_MEM, into ? 1 : -1);
}

static pthread_mutex_t ws_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ws_entry {
  amp_accelerator *acc;
  void *ptr;
  size_t bytes;
  int busy;
} ws_cache[MAX_PARTS];

/* *out: `bytes` of pinned memory for acc: its cached region when that is free and large enough,
 * else a new one (a free cached one that is too small is freed first). */
static amp_status ws_get(amp_accelerator *acc, size_t bytes, void **out) {
  void *old = NULL;
  pthread_mutex_lock(&ws_lock);
  for (size_t i = 0; i < MAX_PARTS; i++) {
    struct ws_entry *e = &ws_cache[i];
    if (e->acc != acc || !e->ptr || e->busy)
      continue;
    if (e->bytes >= bytes) {
      e->busy = 1;
      *out = e->ptr;
      pthread_mutex_unlock(&ws_lock);
      ws_count(0);
      return AMP_SUCCESS;
    }
    old = e->ptr;
    memset(e, 0, sizeof *e);
    break;
  }
  pthread_mutex_unlock(&ws_lock);
  if (old) {
    ws_count(0);
    amp_host_free(old);
  }
  return amp_host_alloc(acc, bytes, out);
}

/* Gives a region back: kept as acc's cached one when it is that, or acc has none. */
static void ws_put(amp_accelerator *acc, void *ptr, size_t bytes) {
  struct ws_entry *empty = NULL;
  int kept = 0;
  pthread_mutex_lock(&ws_lock);
  for (size_t i = 0; i < MAX_PARTS && ptr; i++) {
    struct ws_entry *e = &ws_cache[i];
    if (e->ptr == ptr) {
      e->busy = 0;
      ptr = NULL;
      kept = 1;
    } else if (e->ptr && e->acc == acc) {
      empty = NULL; /* acc has its region: this one goes */
      break;
    } else if (!e->ptr && !empty) {
      empty = e;
    }
  }
  if (ptr && empty) {
    *empty = (struct ws_entry){acc, ptr, bytes, 0};
    ptr = NULL;
    kept = 1;
  }
  pthread_mutex_unlock(&ws_lock);
  if (kept)
    ws_count(1);
  amp_host_free(ptr);
}

/* ---- the job --------------------------------------------------------------------------------- */

typedef struct job job;

typedef struct part {
  job *j;
  int index;
  amp_accelerator *acc;
  amp_accelerator_view *run, *copy;  /* queues of its own: GEMMs, copies in */
  size_t r0, rows;                   /* its rows of C */
  amp_array_view *a;                 /* its rows of op(A) */
  amp_array_view *slot[MAX_RING];    /* the panels of the ring, seen from this accelerator */
  unsigned char *ring_mem[MAX_RING]; /* the ring it copies from (its own, or part 0's) */
  void *ws;                          /* its pinned region: a ring if it has one, its results */
  unsigned char *out_base;           /* its results in it */
  size_t ws_bytes;
  amp_array_view *out[MAX_OUT]; /* nout results of rows x w, over pinned memory */
  unsigned char *out_mem[MAX_OUT];
  int host_gemm;   /* the GEMMs run on host memory (OpenBLAS on a CPU device): no copies in */
  size_t achunks;  /* the first panels' GEMMs, one per chunk of A's rows */
  size_t finished; /* panels whose results are in C */
  amp_future *fut[MAX_OUT][MAX_ACHUNK]; /* the GEMMs writing each result buffer */
  pthread_t thread;
  int started;
  amp_status status;
  char reason[REASON];
  /* for AMP_DEBUG and AMP_GEMM_MULTI_VERBOSE: A's copy in, the GEMMs' device time, this thread's
   * waits for packed panels, for GEMMs to finish, for results to come back, and its writes into C;
   * when the first GEMM was enqueued and the last result was in C (from the call's start) */
  uint64_t a_ns, gemm_ns, wait_ns, gwait_ns, back_ns, write_ns, first_ns, last_ns;
} part;

struct job {
  amp_transpose ta, tb;
  double alpha, beta;
  int dbl;
  size_t es, m, n, k, w, npanels, ring, nfill, nparts, achunks;
  size_t nwriters; /* host threads writing each accelerator's results into C */
  size_t nout;     /* result buffers per accelerator: 2, or the first panels + 1 when chunked */
  const unsigned char *bhost; /* B's element 0 and row stride (elements) */
  size_t ldb;
  unsigned char *chost;
  size_t ldc;
  size_t nrings;     /* 1: every accelerator copies from part 0's ring; else one ring each */
  size_t slot_elems; /* k * w */
  uint64_t t0;       /* when the call started (now_ns), for AMP_GEMM_MULTI_VERBOSE */
  pthread_mutex_t lock;
  pthread_cond_t cond;
  long slot_panel[MAX_RING];    /* the panel slot s holds or is being packed with */
  size_t slot_filled[MAX_RING]; /* fillers done with it */
  size_t slot_users[MAX_RING];  /* accelerators yet to release it */
  int abort;
  part parts[MAX_PARTS];
  /* filler threads 1..nfill-1 (0 is the caller); they start packing once `go` is set, when
   * nfill is the number that started */
  struct filler {
    job *j;
    size_t f;
    pthread_t thread;
  } fill[MAX_FILL];
  int go;
};

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void job_abort(job *j) {
  pthread_mutex_lock(&j->lock);
  j->abort = 1;
  pthread_cond_broadcast(&j->cond);
  pthread_mutex_unlock(&j->lock);
}

static size_t panel_cols(const job *j, size_t p) {
  size_t c0 = p * j->w;
  return j->n - c0 < j->w ? j->n - c0 : j->w;
}

/* ---- packing op(B)'s panels ----------------------------------------------------------------- */

/* Filler f's share of panel p, into its slot: rows of the k x w panel (op(B) = B), or rows of B
 * (op(B) = B^T: the panel is w rows of B, each k long). The slot keeps a row pitch of w (or k), so
 * a narrower last panel is a section of the slot's view. */
static void pack(const job *j, size_t p, size_t f) {
  const size_t wp = panel_cols(j, p), c0 = p * j->w, es = j->es;
  for (size_t r = 0; r < j->nrings; r++) {
    unsigned char *dst = j->parts[r].ring_mem[p % j->ring];
    if (!j->tb) {
      size_t i0 = j->k * f / j->nfill, i1 = j->k * (f + 1) / j->nfill;
      for (size_t i = i0; i < i1; i++)
        memcpy(dst + i * j->w * es, j->bhost + (i * j->ldb + c0) * es, wp * es);
    } else {
      size_t i0 = wp * f / j->nfill, i1 = wp * (f + 1) / j->nfill;
      for (size_t i = i0; i < i1; i++)
        memcpy(dst + i * j->k * es, j->bhost + (c0 + i) * j->ldb * es, j->k * es);
    }
  }
}

static void fill_all(job *j, size_t f) {
  for (size_t p = 0; p < j->npanels; p++) {
    size_t s = p % j->ring;
    pthread_mutex_lock(&j->lock);
    while (!j->abort && !(j->slot_panel[s] == (long)p ||
                          (j->slot_panel[s] == (long)p - (long)j->ring && j->slot_users[s] == 0)))
      pthread_cond_wait(&j->cond, &j->lock);
    if (j->abort) {
      pthread_mutex_unlock(&j->lock);
      return;
    }
    if (j->slot_panel[s] != (long)p) { /* the first filler here claims the slot */
      j->slot_panel[s] = (long)p;
      j->slot_filled[s] = 0;
      j->slot_users[s] = j->nparts;
    }
    pthread_mutex_unlock(&j->lock);
    pack(j, p, f);
    pthread_mutex_lock(&j->lock);
    j->slot_filled[s]++;
    pthread_cond_broadcast(&j->cond);
    pthread_mutex_unlock(&j->lock);
  }
}

static void *fill_main(void *arg) {
  struct filler *fl = arg;
  job *j = fl->j;
  pthread_mutex_lock(&j->lock);
  while (!j->go && !j->abort)
    pthread_cond_wait(&j->cond, &j->lock);
  int skip = j->abort || fl->f >= j->nfill;
  pthread_mutex_unlock(&j->lock);
  if (!skip)
    fill_all(j, fl->f);
  return NULL;
}

/* ---- one accelerator's thread --------------------------------------------------------------- */

/* Waits until panel p is packed (or only looks, when !block); 0 when it is not (the job was
 * aborted, or it is not packed yet). */
static int wait_panel(job *j, size_t p, int block) {
  size_t s = p % j->ring;
  pthread_mutex_lock(&j->lock);
  while (block && !j->abort && !(j->slot_panel[s] == (long)p && j->slot_filled[s] == j->nfill))
    pthread_cond_wait(&j->cond, &j->lock);
  int ok = !j->abort && j->slot_panel[s] == (long)p && j->slot_filled[s] == j->nfill;
  pthread_mutex_unlock(&j->lock);
  return ok;
}

static void release_panel(job *j, size_t p) {
  size_t s = p % j->ring;
  pthread_mutex_lock(&j->lock);
  j->slot_users[s]--;
  pthread_cond_broadcast(&j->cond);
  pthread_mutex_unlock(&j->lock);
}

/* C[r0 + i0.., c0..] = alpha * P + beta * C for rows [i0, i1) of the part's and the panel's wp
 * columns. */
static void write_rows(const job *j, const part *pt, const unsigned char *res, size_t c0, size_t wp,
                       size_t i0, size_t i1) {
  const size_t es = j->es;
  for (size_t i = i0; i < i1; i++) {
    unsigned char *dst = j->chost + ((pt->r0 + i) * j->ldc + c0) * es;
    const unsigned char *src = res + i * j->w * es;
    if (j->alpha == 1.0 && j->beta == 0.0) {
      memcpy(dst, src, wp * es);
    } else if (j->dbl) {
      double *d = (double *)(void *)dst;
      const double *p = (const double *)(const void *)src, al = j->alpha, be = j->beta;
      if (be == 0.0)
        for (size_t c = 0; c < wp; c++)
          d[c] = al * p[c];
      else
        for (size_t c = 0; c < wp; c++)
          d[c] = al * p[c] + be * d[c];
    } else {
      float *d = (float *)(void *)dst;
      const float *p = (const float *)(const void *)src, al = (float)j->alpha, be = (float)j->beta;
      if (be == 0.0f)
        for (size_t c = 0; c < wp; c++)
          d[c] = al * p[c];
      else
        for (size_t c = 0; c < wp; c++)
          d[c] = al * p[c] + be * d[c];
    }
  }
}

struct writer {
  const job *j;
  const part *pt;
  const unsigned char *res;
  size_t c0, wp, i0, i1;
  pthread_t thread;
};

static void *writer_main(void *arg) {
  const struct writer *w = arg;
  write_rows(w->j, w->pt, w->res, w->c0, w->wp, w->i0, w->i1);
  return NULL;
}

/* The part's rows of C for one panel, by nwriters threads (this one and nwriters - 1 started for
 * it): one host thread writing the rows moved 3.5-3.8 GB/s on a four-GPU host, which made the
 * write-back as long as the GEMMs (lab/NOTEBOOK.md, session 21). A thread that cannot be started
 * leaves its rows to this one. */
static void write_back(const job *j, const part *pt, const unsigned char *res, size_t c0,
                       size_t wp) {
  struct writer w[MAX_WRITERS];
  size_t n = j->nwriters < pt->rows ? j->nwriters : pt->rows;
  int started[MAX_WRITERS] = {0};
  for (size_t t = 1; t < n; t++) {
    w[t] = (struct writer){.j = j,
                           .pt = pt,
                           .res = res,
                           .c0 = c0,
                           .wp = wp,
                           .i0 = pt->rows * t / n,
                           .i1 = pt->rows * (t + 1) / n};
    started[t] = pthread_create(&w[t].thread, NULL, writer_main, &w[t]) == 0;
  }
  write_rows(j, pt, res, c0, wp, 0, pt->rows / n); /* the share of writer 0 */
  for (size_t t = 1; t < n; t++) {
    if (started[t])
      pthread_join(w[t].thread, NULL);
    else
      write_rows(j, pt, res, c0, wp, w[t].i0, w[t].i1);
  }
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
  release_panel(j, p);
  uint64_t t2 = now_ns();
  write_back(j, pt, pt->out_mem[p % j->nout], p * j->w, panel_cols(j, p));
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
  *ok = wait_panel(pt->j, p, 1);
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
    if (p + 1 < j->npanels && sent == p + 1 && wait_panel(j, p + 1, 0)) {
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

static void *part_main(void *arg) {
  part *pt = arg;
  pt->status = part_run(pt);
  if (pt->status != AMP_SUCCESS) {
    snprintf(pt->reason, sizeof pt->reason, "%s", amp_last_error());
    job_abort(pt->j);
  }
  return NULL;
}

/* ---- checks and set-up ------------------------------------------------------------------------
 */

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
static amp_status env_size(const char *name, unsigned long long lo, unsigned long long hi,
                           size_t dflt, size_t *out) {
  const char *v = getenv(name);
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

static int mul_ok(size_t a, size_t b, size_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

static int add_ok(size_t a, size_t b, size_t *out) {
  return !__builtin_add_overflow(a, b, out);
}

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

/* C = beta * C (alpha 0: A and B are not read, as in BLAS). */
static void scale_c(const job *j) {
  for (size_t i = 0; i < j->m; i++) {
    unsigned char *row = j->chost + i * j->ldc * j->es;
    for (size_t x = 0; x < j->n; x++) {
      if (j->dbl) {
        double *d = (double *)(void *)row + x;
        *d = j->beta == 0.0 ? 0.0 : j->beta * *d;
      } else {
        float *d = (float *)(void *)row + x;
        *d = j->beta == 0.0 ? 0.0f : (float)j->beta * *d;
      }
    }
  }
}

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

static amp_status part_setup(job *j, part *pt, amp_array_view *a) {
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

static void part_teardown(part *pt) {
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

amp_status amp_blas_gemm_multi(amp_accelerator_view *const *views, int nviews,
                               amp_transpose trans_a, amp_transpose trans_b, double alpha,
                               amp_array_view *a, amp_array_view *b, double beta,
                               amp_array_view *c) {
  amp_status status = AMP_SUCCESS;
  job *j = NULL;
  int locks = 0;
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
  j->nparts = (size_t)nviews < m ? (size_t)nviews : m; /* no accelerator without rows */
  /* the CPUs this process may run on (an MPI rank bound to one core gets 1 filler, not 8) */
  const int ncpu = amp__usable_cpus();
  size_t fill_dflt = ncpu >= 16 ? (size_t)ncpu / 8 : 1;
  AMP__TRY(env_size("AMP_GEMM_MULTI_PANEL", 1, 0x7fffffff, default_width(n, k, j->es), &j->w));
  AMP__TRY(env_size("AMP_GEMM_MULTI_RING", 2, MAX_RING, 3, &j->ring));
  AMP__TRY(env_size("AMP_GEMM_MULTI_A_PARTS", 1, MAX_ACHUNK, m / j->nparts >= 1024 ? 4 : 1,
                    &j->achunks));
  AMP__TRY(
      env_size("AMP_GEMM_MULTI_THREADS", 1, MAX_FILL, fill_dflt > 8 ? 8 : fill_dflt, &j->nfill));
  /* writers: a share of the CPUs beside the fillers, for each accelerator */
  size_t write_dflt = (size_t)ncpu / (2 * j->nparts);
  write_dflt = write_dflt < 1 ? 1 : write_dflt > 8 ? 8 : write_dflt;
  AMP__TRY(env_size("AMP_GEMM_MULTI_WRITERS", 1, MAX_WRITERS, write_dflt, &j->nwriters));
  if (j->w > n)
    j->w = n;
  j->npanels = (n + j->w - 1) / j->w;
  /* chunked, the first min(ring, panels) panels are in flight together, and one more after */
  j->nout = j->achunks > 1 ? (j->ring < j->npanels ? j->ring : j->npanels) + 1 : 2;
  if (j->nfill > (trans_b ? j->w : k))
    j->nfill = trans_b ? j->w : k;

  /* The pinned regions: per accelerator nout results of m_g x w, and the ring (`ring` panels of
   * k x w) in part 0's region only, or in each (AMP_GEMM_MULTI_SHARED=0). Every size checked (a
   * view holds at most 2^31-1 elements). */
  size_t shared, slot_bytes, ring_bytes, out_elems, x;
  AMP__TRY(env_size("AMP_GEMM_MULTI_SHARED", 0, 1, 1, &shared));
  j->nrings = shared ? 1 : j->nparts;
  if (!mul_ok(k, j->w, &j->slot_elems) || j->slot_elems > 0x7fffffff ||
      !mul_ok(j->slot_elems, j->es, &slot_bytes) || !mul_ok(slot_bytes, j->ring, &ring_bytes))
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
        !mul_ok(out_elems, j->nout * j->es, &x) || (g < j->nrings && !add_ok(x, ring_bytes, &x)))
      AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
                FN ": a result panel of %zu x %zu elements is more than a view holds (2^31-1 "
                   "elements); set a narrower panel (AMP_GEMM_MULTI_PANEL)",
                pt->rows, j->w);
    pt->ws_bytes = x;
  }

  /* Host memory must hold A's and B's latest contents, and C's (read and then written here: the
   * accelerators' copies of C are dropped). */
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
  if (alpha == 0.0) { /* BLAS: A and B are not read */
    scale_c(j);
    goto fail;
  }

  for (size_t g = 0; g < j->nparts; g++) {
    part *pt = &j->parts[g];
    AMP__TRY(ws_get(pt->acc, pt->ws_bytes, &pt->ws));
    /* a region: the ring first (if it has one), then its results */
    unsigned char *ring = j->parts[g < j->nrings ? g : 0].ws;
    for (size_t s = 0; s < j->ring; s++)
      pt->ring_mem[s] = ring + s * slot_bytes;
    pt->out_base = (unsigned char *)pt->ws + (g < j->nrings ? ring_bytes : 0);
  }
  for (size_t s = 0; s < j->ring; s++)
    j->slot_panel[s] = (long)s - (long)j->ring; /* "held" a panel before 0, released */
  for (size_t g = 0; g < j->nparts; g++)
    AMP__TRY(part_setup(j, &j->parts[g], a));

  if (pthread_mutex_init(&j->lock, NULL) != 0)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, FN ": pthread_mutex_init failed");
  if (pthread_cond_init(&j->cond, NULL) != 0) {
    pthread_mutex_destroy(&j->lock);
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, FN ": pthread_cond_init failed");
  }
  locks = 1;
  j->t0 = now_ns();
  /* the fillers first: the panels are divided among those that started */
  size_t nf = 1;
  for (; nf < j->nfill; nf++) {
    j->fill[nf] = (struct filler){.j = j, .f = nf};
    if (pthread_create(&j->fill[nf].thread, NULL, fill_main, &j->fill[nf]) != 0)
      break;
  }
  pthread_mutex_lock(&j->lock);
  j->nfill = nf;
  j->go = 1;
  pthread_cond_broadcast(&j->cond);
  pthread_mutex_unlock(&j->lock);
  for (size_t g = 0; g < j->nparts && status == AMP_SUCCESS; g++) {
    part *pt = &j->parts[g];
    if (pthread_create(&pt->thread, NULL, part_main, pt) != 0) {
      status = amp__set_error(AMP_ERROR_OUT_OF_MEMORY, FN ": could not start a host thread");
      job_abort(j);
    } else {
      pt->started = 1;
    }
  }
  if (status == AMP_SUCCESS)
    fill_all(j, 0);
  for (size_t f = 1; f < nf; f++)
    pthread_join(j->fill[f].thread, NULL);
  for (size_t g = 0; g < j->nparts; g++)
    if (j->parts[g].started)
      pthread_join(j->parts[g].thread, NULL);
  uint64_t t1 = now_ns();
  for (size_t g = 0; g < j->nparts && status == AMP_SUCCESS; g++)
    if (j->parts[g].status != AMP_SUCCESS)
      status = amp__set_error(j->parts[g].status, FN ": on %s: %s",
                              j->parts[g].acc->props.device_path, j->parts[g].reason);
  const char *verbose = getenv("AMP_GEMM_MULTI_VERBOSE");
  if (amp__debug_enabled() || (verbose && *verbose && strcmp(verbose, "0") != 0)) {
    fprintf(stderr,
            "[ampcl] " FN ": %zu x %zu x %zu on %zu accelerators, panels of %zu columns (%zu), "
            "ring %zu, %zu fill threads, %zu writers each, A in %zu parts: %.1f ms\n",
            m, n, k, j->nparts, j->w, j->npanels, j->ring, j->nfill, j->nwriters, j->achunks,
            (double)(t1 - j->t0) / 1e6);
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
fail:
  if (j) {
    amp_status keep = status;
    for (size_t g = 0; g < j->nparts; g++)
      part_teardown(&j->parts[g]);
    for (size_t g = 0; g < j->nparts; g++) /* after every part's views: nothing uses them now */
      if (j->parts[g].ws)
        ws_put(j->parts[g].acc, j->parts[g].ws, j->parts[g].ws_bytes);
    if (locks) {
      pthread_cond_destroy(&j->cond);
      pthread_mutex_destroy(&j->lock);
    }
    status = keep;
  }
  free(j);
  return status;
}
