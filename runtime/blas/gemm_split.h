/* runtime/blas/gemm_split.h: what the files of amp_blas_gemm_multi share (gemm_split.c says how
 * the call works): the job, its part on each accelerator, and the functions one file gives the
 * others. */
#ifndef AMPCL_RUNTIME_GEMM_SPLIT_H
#define AMPCL_RUNTIME_GEMM_SPLIT_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "ampcl/array.h"
#include "ampcl/blas.h"
#include "core/accelerator_impl.h"

#define MAX_PARTS   64 /* accelerators one call drives */
#define MAX_RING    16
#define MAX_FILL    64
#define MAX_ACHUNK  16 /* chunks of A's rows under the first panels */
#define MAX_OUT     (MAX_RING + 1)
#define MAX_WRITERS 16 /* threads writing one accelerator's results into C */
#define REASON      512

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

static inline uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Columns of panel p: w, or fewer for the last. */
static inline size_t panel_cols(const job *j, size_t p) {
  size_t c0 = p * j->w;
  return j->n - c0 < j->w ? j->n - c0 : j->w;
}

static inline int mul_ok(size_t a, size_t b, size_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

static inline int add_ok(size_t a, size_t b, size_t *out) {
  return !__builtin_add_overflow(a, b, out);
}

/* ---- gemm_split_workspace.c: the pinned regions, kept between calls ---- */

/* *out: `bytes` of pinned memory for acc: its cached region when that is free and large enough,
 * else a new one (a free cached one that is too small is freed first). */
amp_status amp__gemm_split_ws_get(amp_accelerator *acc, size_t bytes, void **out);
/* Gives a region back: kept as acc's cached one when it is that, or acc has none. */
void amp__gemm_split_ws_put(amp_accelerator *acc, void *ptr, size_t bytes);

/* ---- gemm_split_ring.c: op(B)'s panels through the ring of pinned slots ---- */

/* Stops the job: every thread waiting on it returns. */
void amp__gemm_split_abort(job *j);
/* Filler f (0 is the calling thread) packs its share of every panel, each once its slot is free. */
void amp__gemm_split_fill(job *j, size_t f);
/* The thread of filler 1..nfill-1 (a struct filler): waits for `go`, then fills. */
void *amp__gemm_split_filler_main(void *arg);
/* Waits until panel p is packed (or only looks, when !block); 0 when it is not (the job was
 * aborted, or it is not packed yet). */
int amp__gemm_split_wait_panel(job *j, size_t p, int block);
/* One accelerator is done with panel p's slot. */
void amp__gemm_split_release_panel(job *j, size_t p);

/* ---- gemm_split_write.c: the host's writes into C ---- */

/* The part's rows of C for one panel (res: its result, wp columns from c0) = alpha * res + beta *
 * C, by nwriters threads. */
void amp__gemm_split_write_back(const job *j, const part *pt, const unsigned char *res, size_t c0,
                                size_t wp);
/* C = beta * C (alpha 0: A and B are not read, as in BLAS). */
void amp__gemm_split_scale_c(const job *j);

/* ---- gemm_split_part.c: one accelerator's part ---- */

/* The part's queues, its rows of op(A), the ring's slots and its result buffers as views. */
amp_status amp__gemm_split_part_setup(job *j, part *pt, amp_array_view *a);
/* The part's thread: its panels' GEMMs and results; a failure aborts the job. */
void *amp__gemm_split_part_main(void *arg);
/* Waits for the part's queues and releases its views and queues. */
void amp__gemm_split_part_teardown(part *pt);

#endif /* AMPCL_RUNTIME_GEMM_SPLIT_H */
