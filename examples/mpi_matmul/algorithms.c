/* examples/mpi_matmul/algorithms.c: Cannon's, Fox's and SUMMA's block matrix multiplication on a
 * pr x pc grid of MPI ranks, each block product on the rank's accelerator through amp_blas_gemm.
 *
 * Every rank holds one mb x nb block of A, B and C (mpi_matmul.h). For its C(i,j), rank (i, j)
 * needs the rows of A in block row i and the columns of B in block column j, all along the inner
 * dimension k. The three algorithms differ only in how those come to it:
 *
 *   Cannon  (q x q grids) skews A left by i and B up by j once (MPI_Sendrecv into the working
 *           blocks), so that rank (i, j) holds A(i, i+j) and B(i+j, j); then q times: multiply,
 *           shift A left by one and B up by one. Every message is a neighbour shift on the torus.
 *   Fox     (q x q grids) q times: the rank in column k = (i + s) mod q of each row broadcasts its
 *           A block along the row (MPI_Ibcast on the row communicator); every rank multiplies it
 *           with its current B block; then B shifts up by one.
 *   SUMMA   (any pr x pc grid) steps along k in panels [k0, k1). A step's panel lies inside one
 *           block column of A (they are nb wide) and inside one block row of B (mb high), and is
 *           at most g->panel wide (--panel): the steps are cut at every multiple of nb, every
 *           multiple of mb, and every `panel` columns after a cut, so their widths w differ when
 *           neither of pr and pc divides the other (3 x 2: np/3, np/6, np/6, np/3). In each row the
 *           rank holding A's panel (mb x w, columns of its block) broadcasts it along the row, in
 *           each column the rank holding B's panel (w x nb, rows of its block) broadcasts it down
 *           the column, and every rank multiplies the two. On a q x q grid with whole-block panels
 *           these are q steps of whole blocks, the textbook SUMMA; narrower panels make more,
 *           smaller steps, so that the first step's messages (which nothing hides) are short.
 *
 * All three run the same pipeline (below): while step s's product runs on the accelerator, the
 * messages of step s + 1 travel and, once they have arrived, its operands cross the link on a
 * second queue. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mpi_matmul.h"

const char *const algorithm_names[ALG_COUNT] = {"cannon", "fox", "summa", "shared"};

double element_a(int n, int r, int c) {
  return r < n && c < n ? (double)((r * 7 + c * 3) % 11) - 5.0 : 0.0;
}
double element_b(int n, int r, int c) {
  return r < n && c < n ? (double)((r * 5 + c * 2) % 9) - 4.0 : 0.0;
}

/* Seconds spent in MPI, added to t->comm. */
#define COMM(t, call)                                                                              \
  do {                                                                                             \
    double c0_ = MPI_Wtime();                                                                      \
    call;                                                                                          \
    (t)->comm += MPI_Wtime() - c0_;                                                                \
  } while (0)

/* ---- the pipeline every algorithm runs ------------------------------------------------------- *
 * Step s multiplies an mb x k block of A by a k x nb block of B into C (kept on the accelerator
 * from the first step to the last: beta 0 on the first, 1 after). Its operands lie in host memory
 * (a working block received by MPI, or the rank's own block). Three things overlap:
 *
 *   - the messages that bring step s + 1's operands (posted before step s's product, waited for
 *     while it runs: Open MPI moves most of a message inside MPI_Wait, which now runs while the
 *     GPU computes instead of before);
 *   - the copy of step s + 1's operands to the accelerator, on a queue of its own (g->copies),
 *     driven from a thread of its own, while step s's product runs on g->av;
 *   - step s's product.
 *
 * Buffers are reused only when nothing reads them any more: host slot s % 2 is received into again
 * for step s + 2 only after step s's copy has finished (waited before step s's product); the device
 * arrays of slot s % 2 are copied into again for step s + 2 only after step s's product is done.
 * They are made once and kept while the steps' shapes stay the same (a new shape makes new ones):
 * on NVIDIA's OpenCL, releasing device memory waits until the GPU has no kernel running
 * (lab/release_probe.c), so a release per step held this loop until the product under which the
 * next copy should have run had ended. */

typedef struct operands {
  const void *A, *B; /* mb x k (k x mb if `at`) and k x nb, row-major, in host memory */
  int k, k0;         /* the inner dimension, and where the step starts along it (SUMMA) */
  int at;            /* A is given transposed ("shared") */
} operands;

/* One step's operands on their way to the accelerator, and the product that uses them. */
typedef struct step_slot {
  grid *g;
  operands op;
  amp_array *a, *b;  /* the device copies, mb x k and k x nb, kept from step to step */
  amp_extent ea, eb; /* their shapes */
  pthread_t thread;
  int copying;  /* the copy was started (on `thread`, or already done if `joined`) */
  int threaded; /* it runs on `thread` */
  amp_status copy_status;
  double copy_seconds;
  char why[256];    /* the copy's amp_last_error() (it is per thread) */
  amp_future *done; /* the product */
  amp_array_view *va, *vb;
} step_slot;

/* Seconds on a monotonic clock: the copy thread makes no MPI call (mpi_matmul.c asks MPI for
 * MPI_THREAD_FUNNELED: only the main thread calls MPI). */
static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void copy_run(step_slot *sl) {
  grid *g = sl->g;
  double t0 = seconds();
  size_t ea = (size_t)g->mb * (size_t)sl->op.k * g->esize,
         eb = (size_t)sl->op.k * (size_t)g->nb * g->esize;
  sl->copy_status = amp_copy_to_array(sl->op.A, ea, sl->a);
  if (sl->copy_status == AMP_SUCCESS)
    sl->copy_status = amp_copy_to_array(sl->op.B, eb, sl->b);
  if (sl->copy_status != AMP_SUCCESS)
    snprintf(sl->why, sizeof sl->why, "%s", amp_last_error());
  sl->copy_seconds = seconds() - t0;
}

static void *copy_main(void *arg) {
  copy_run(arg);
  return NULL;
}

/* Starts copying the step's operands to the accelerator. */
static amp_status copy_start(grid *g, step_slot *sl, const operands *op) {
  amp_elem_type type = g->dbl ? AMP_DOUBLE : AMP_FLOAT;
  sl->g = g;
  sl->op = *op;
  amp_extent ea = op->at ? amp_extent2(op->k, g->mb) : amp_extent2(g->mb, op->k),
             eb = amp_extent2(op->k, g->nb);
  amp_status st = AMP_SUCCESS;
  if (!(sl->a && sl->b && amp_extent_equal(sl->ea, ea) && amp_extent_equal(sl->eb, eb))) {
    if (sl->a) /* a new shape (or a failed step): new arrays */
      amp_array_release(sl->a);
    if (sl->b)
      amp_array_release(sl->b);
    sl->a = sl->b = NULL;
    st = amp_array_create(g->copies, ea, type, &sl->a);
    if (st == AMP_SUCCESS)
      st = amp_array_create(g->copies, eb, type, &sl->b);
    sl->ea = ea;
    sl->eb = eb;
  }
  if (st != AMP_SUCCESS)
    return st;
  sl->copying = 1;
  sl->threaded = pthread_create(&sl->thread, NULL, copy_main, sl) == 0;
  if (!sl->threaded) /* no thread to be had: copy here, without the overlap */
    copy_run(sl);
  return AMP_SUCCESS;
}

/* Waits for the slot's copy; its time goes to t->copies. */
static amp_status copy_finish(step_slot *sl, timing *t) {
  if (!sl->copying)
    return AMP_SUCCESS;
  if (sl->threaded)
    pthread_join(sl->thread, NULL);
  sl->copying = sl->threaded = 0;
  t->copies += sl->copy_seconds;
  if (sl->copy_status != AMP_SUCCESS)
    fprintf(stderr, "mpi_matmul: rank %d: copy to the accelerator failed: %s\n", sl->g->rank,
            sl->why);
  return sl->copy_status;
}

/* Enqueues the slot's block product, C += A B (C = A B on the first step), and submits it. */
static amp_status product(grid *g, step_slot *sl, int first, amp_array_view *vc, timing *t) {
  if (g->bad_product && ++g->products == 1) { /* the first one after the warm-up */
    fprintf(stderr, "mpi_matmul: rank %d: block product failed (--bad-product-rank)\n", g->rank);
    return AMP_ERROR_INVALID_ARGUMENT;
  }
  double c0 = MPI_Wtime();
  amp_status st = amp_array_view_of(sl->a, &sl->va);
  if (st == AMP_SUCCESS)
    st = amp_array_view_of(sl->b, &sl->vb);
  if (st == AMP_SUCCESS)
    st = amp_blas_gemm(g->av, sl->op.at ? AMP_TRANS : AMP_NO_TRANS, AMP_NO_TRANS, 1.0, sl->va,
                       sl->vb, first ? 0.0 : 1.0, vc, &sl->done);
  if (st == AMP_SUCCESS) /* the default view batches commands: submit it before MPI_Wait */
    st = amp_accelerator_view_flush(g->av);
  t->compute += MPI_Wtime() - c0;
  return st;
}

static char unmeasured_why[512];

const char *products_unmeasured_why(void) {
  return unmeasured_why[0] ? unmeasured_why : NULL;
}

/* Waits for the slot's product (if any) and releases its views (the arrays stay for the slot's
 * next step). A product without a device time (AMP_ERROR_UNSUPPORTED_FEATURE: the device's
 * timestamps measure nothing, or AMP_PROFILE=0) is counted as unmeasured, not as 0. */
static amp_status product_finish(step_slot *sl, timing *t) {
  double c0 = MPI_Wtime();
  amp_status st = sl->done ? amp_future_wait(sl->done) : AMP_SUCCESS;
  uint64_t ns = 0;
  if (st == AMP_SUCCESS && sl->done) {
    st = amp_future_elapsed_ns(sl->done, &ns);
    if (st == AMP_SUCCESS) {
      t->products += (double)ns * 1e-9;
    } else if (st == AMP_ERROR_UNSUPPORTED_FEATURE) {
      t->unmeasured = 1;
      if (!unmeasured_why[0])
        snprintf(unmeasured_why, sizeof unmeasured_why, "%s", amp_last_error());
      st = AMP_SUCCESS;
    }
  }
  amp_future_release(sl->done);
  amp_array_view_release(sl->va);
  amp_array_view_release(sl->vb);
  sl->done = NULL;
  sl->va = sl->vb = NULL;
  t->compute += MPI_Wtime() - c0;
  return st;
}

/* Starts bringing step s's operands into host slot `slot` (MPI requests into req[*nreq...]) and
 * says where they will be; `prev` is step s - 1's operands (s > 0). */
typedef void post_fn(grid *g, int s, int slot, const operands *prev, operands *op, MPI_Request *req,
                     int *nreq, timing *t);

enum { MAX_REQ = 4 };

/* Runs `steps` steps: C (in vc, on the accelerator) = the sum of the steps' products. A rank whose
 * product or copy fails does no more of either, but still posts and waits for every message, so
 * that no other rank waits for it forever; the first error is returned after the last step. */
static amp_status pipeline(grid *g, int steps, post_fn *post, amp_array_view *vc, timing *t) {
  amp_status status = AMP_SUCCESS, st;
  step_slot sl[2];
  operands op[2];
  MPI_Request req[MAX_REQ];
  int nreq = 0;
  memset(sl, 0, sizeof sl);
  memset(op, 0, sizeof op);
  post(g, 0, 0, NULL, &op[0], req, &nreq, t);
  COMM(t, MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
  status = copy_start(g, &sl[0], &op[0]);
  for (int s = 0; s < steps; s++) {
    int cur = s & 1, nxt = cur ^ 1;
    nreq = 0;
    if (s + 1 < steps) /* host slot nxt: its last copy (step s - 1) is done */
      post(g, s + 1, nxt, &op[cur], &op[nxt], req, &nreq, t);
    st = copy_finish(&sl[cur], t);
    status = status == AMP_SUCCESS ? st : status;
    if (status == AMP_SUCCESS)
      status = product(g, &sl[cur], s == 0, vc, t);
    COMM(t, MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
    st = product_finish(&sl[nxt], t); /* step s - 1's product read slot nxt's arrays */
    status = status == AMP_SUCCESS ? st : status;
    if (s + 1 < steps && status == AMP_SUCCESS)
      status = copy_start(g, &sl[nxt], &op[nxt]);
  }
  for (int k = 0; k < 2; k++) {
    st = copy_finish(&sl[k], t);
    status = status == AMP_SUCCESS ? st : status;
    st = product_finish(&sl[k], t);
    status = status == AMP_SUCCESS ? st : status;
    if (sl[k].a)
      amp_array_release(sl[k].a);
    if (sl[k].b)
      amp_array_release(sl[k].b);
  }
  return status;
}

/* A rows x cols matrix, row by row; `transposed`: stored as its transpose (cols x rows). */
static void show_matrix(const grid *g, const void *m, int rows, int cols, int transposed) {
  for (int x = 0; x < rows * cols; x++) {
    int y = transposed ? (x % cols) * rows + x / cols : x;
    printf("%s%g", x % cols ? " " : " | ",
           g->dbl ? ((const double *)m)[y] : (double)((const float *)m)[y]);
  }
}

/* Prints the blocks a step multiplies (A mb x k, B k x nb), rank by rank (--show, tiny n). */
static void show(const grid *g, const char *alg, int step, const operands *op) {
  for (int r = 0; r < g->p; r++) {
    MPI_Barrier(g->cart);
    if (r != g->rank)
      continue;
    printf("%s step %d, rank (%d,%d): A block", alg, step, g->i, g->j);
    show_matrix(g, op->A, g->mb, op->k, op->at);
    printf("   times B block");
    show_matrix(g, op->B, op->k, g->nb, 0);
    printf("\n");
    fflush(stdout);
  }
  MPI_Barrier(g->cart);
}

/* Cannon: step 0's operands are the skewed blocks, A(i, i+j) and B(i+j, j): A(i,j) moves i places
 * left, B(i,j) j places up, received straight into the working blocks (MPI_Sendrecv_replace would
 * stage each block through a temporary buffer of its size: 1.9 s for two 1 GiB blocks on one H100
 * host); a block that stays is used where it is. Step s + 1's are step s's shifted left (A) and up
 * (B) by one. */
static void cannon_post(grid *g, int s, int slot, const operands *prev, operands *op,
                        MPI_Request *req, int *nreq, timing *t) {
  int count = g->mb * g->nb, src, dst;
  op->k = g->nb;
  op->A = g->Aw[slot];
  op->B = g->Bw[slot];
  if (s == 0) {
    COMM(t, MPI_Cart_shift(g->cart, 1, -g->i, &src, &dst));
    if (src == g->rank)
      op->A = g->A;
    else
      COMM(t, MPI_Sendrecv(g->A, count, g->mtype, dst, 1, g->Aw[slot], count, g->mtype, src, 1,
                           g->cart, MPI_STATUS_IGNORE));
    COMM(t, MPI_Cart_shift(g->cart, 0, -g->j, &src, &dst));
    if (src == g->rank)
      op->B = g->B;
    else
      COMM(t, MPI_Sendrecv(g->B, count, g->mtype, dst, 2, g->Bw[slot], count, g->mtype, src, 2,
                           g->cart, MPI_STATUS_IGNORE));
  } else {
    int left, right, up, down;
    MPI_Cart_shift(g->cart, 1, -1, &right, &left); /* send left, receive from the right */
    MPI_Cart_shift(g->cart, 0, -1, &down, &up);    /* send up, receive from below */
    COMM(t, MPI_Irecv(g->Aw[slot], count, g->mtype, right, 3, g->cart, &req[(*nreq)++]));
    COMM(t, MPI_Irecv(g->Bw[slot], count, g->mtype, down, 4, g->cart, &req[(*nreq)++]));
    COMM(t, MPI_Isend(prev->A, count, g->mtype, left, 3, g->cart, &req[(*nreq)++]));
    COMM(t, MPI_Isend(prev->B, count, g->mtype, up, 4, g->cart, &req[(*nreq)++]));
  }
}

/* Fox: at step s the rank in column k = (i + s) mod q of each row broadcasts its A block along
 * the row (from the block itself); B starts as the rank's own block and shifts up by one per
 * step. */
static void fox_post(grid *g, int s, int slot, const operands *prev, operands *op, MPI_Request *req,
                     int *nreq, timing *t) {
  int q = g->pr, count = g->mb * g->nb, k = (g->i + s) % q, up, down;
  op->k = g->nb;
  op->A = g->j == k ? g->A : g->Aw[slot];
  COMM(t, MPI_Ibcast((void *)op->A, count, g->mtype, k, g->row, &req[(*nreq)++]));
  if (s == 0) {
    op->B = g->B;
    return;
  }
  MPI_Cart_shift(g->cart, 0, -1, &down, &up);
  op->B = g->Bw[slot];
  COMM(t, MPI_Irecv(g->Bw[slot], count, g->mtype, down, 5, g->cart, &req[(*nreq)++]));
  COMM(t, MPI_Isend(prev->B, count, g->mtype, up, 5, g->cart, &req[(*nreq)++]));
}

/* Where SUMMA's step after the one starting at k0 starts: the next multiple of nb (A's next block
 * column) or of mb (B's next block row), or k0 + panel, whichever comes first; np (a multiple of
 * both) ends. */
static int summa_next(const grid *g, int k0) {
  int a = (k0 / g->nb + 1) * g->nb, b = (k0 / g->mb + 1) * g->mb, c = k0 + g->panel;
  int m = a < b ? a : b;
  return c < m ? c : m;
}

/* SUMMA's step [k0, k1): A's panel, columns k0 .. k1 - 1 of the block in grid column k0 / nb,
 * packed into an mb x w block by its owner, broadcast along the rows; B's panel, rows k0 .. k1 - 1
 * of the block in grid row k0 / mb (contiguous: broadcast from the block itself), down the
 * columns. */
static void summa_post(grid *g, int s, int slot, const operands *prev, operands *op,
                       MPI_Request *req, int *nreq, timing *t) {
  int k0 = s == 0 ? 0 : prev->k0 + prev->k, k1 = summa_next(g, k0);
  int w = k1 - k0, ja = k0 / g->nb, ib = k0 / g->mb;
  size_t e = g->esize, row = (size_t)w * e;
  op->k0 = k0;
  op->k = w;
  op->A = g->Aw[slot];
  if (g->j == ja) {
    const char *a = (const char *)g->A + (size_t)(k0 - ja * g->nb) * e;
    for (int r = 0; r < g->mb; r++)
      memcpy((char *)g->Aw[slot] + (size_t)r * row, a + (size_t)r * (size_t)g->nb * e, row);
  }
  op->B = g->i == ib ? (const char *)g->B + (size_t)(k0 - ib * g->mb) * (size_t)g->nb * e
                     : (const char *)g->Bw[slot];
  COMM(t, MPI_Ibcast(g->Aw[slot], g->mb * w, g->mtype, ja, g->row, &req[(*nreq)++]));
  COMM(t, MPI_Ibcast((void *)op->B, w * g->nb, g->mtype, ib, g->col, &req[(*nreq)++]));
}

/* "shared" (ranks on one node): the steps are SUMMA's, but nothing is sent. Each rank reads its
 * operands from their owners' blocks in the node's shared window (shared_window.c): A's panel,
 * rows k0 .. k1 - 1 of the transposed block of grid column k0 / nb in its own grid row, and B's,
 * rows k0 .. k1 - 1 of the block of grid row k0 / mb in its own grid column; the copy to the
 * accelerator reads them there, staged by ampcl's host threads. */
static void shared_post(grid *g, int s, int slot, const operands *prev, operands *op,
                        MPI_Request *req, int *nreq, timing *t) {
  (void)slot, (void)req, (void)nreq, (void)t;
  int k0 = s == 0 ? 0 : prev->k0 + prev->k, k1 = summa_next(g, k0);
  int ja = k0 / g->nb, ib = k0 / g->mb, owner_a, owner_b;
  int ca[2] = {g->i, ja}, cb[2] = {ib, g->j};
  size_t e = g->esize;
  MPI_Cart_rank(g->cart, ca, &owner_a);
  MPI_Cart_rank(g->cart, cb, &owner_b);
  op->k0 = k0;
  op->k = k1 - k0;
  op->at = 1;
  op->A = (const char *)g->At_of[owner_a] + (size_t)(k0 - ja * g->nb) * (size_t)g->mb * e;
  op->B = (const char *)g->B_of[owner_b] + (size_t)(k0 - ib * g->mb) * (size_t)g->nb * e;
}

static int summa_steps(const grid *g) {
  int steps = 0;
  for (int k0 = 0; k0 < g->np; k0 = summa_next(g, k0))
    steps++;
  return steps;
}

/* --show: the pipeline runs the steps one at a time; each step's blocks are printed here. */
static const char *show_name;
static post_fn *show_inner;
static void show_post(grid *g, int s, int slot, const operands *prev, operands *op,
                      MPI_Request *req, int *nreq, timing *t) {
  show_inner(g, s, slot, prev, op, req, nreq, t);
  MPI_Waitall(*nreq, req, MPI_STATUSES_IGNORE);
  *nreq = 0;
  show(g, show_name, s, op);
}

amp_status run_algorithm(grid *g, algorithm alg, timing *t) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *vc = NULL;
  memset(t, 0, sizeof *t);
  if (alg == ALG_SHARED && g->win == MPI_WIN_NULL) { /* mpi_matmul.c never asks for it */
    fprintf(stderr, "mpi_matmul: shared needs every rank on one node\n");
    return AMP_ERROR_INVALID_ARGUMENT;
  }
  if ((alg == ALG_CANNON || alg == ALG_FOX) && g->pr != g->pc) { /* nor this */
    fprintf(stderr, "mpi_matmul: %s needs a square grid, not %d x %d\n", algorithm_names[alg],
            g->pr, g->pc);
    return AMP_ERROR_INVALID_ARGUMENT;
  }
  post_fn *post = alg == ALG_CANNON  ? cannon_post
                  : alg == ALG_FOX   ? fox_post
                  : alg == ALG_SUMMA ? summa_post
                                     : shared_post;
  int steps = alg == ALG_CANNON || alg == ALG_FOX ? g->pr : summa_steps(g);
  if (g->show) {
    show_name = algorithm_names[alg];
    show_inner = post;
    post = show_post;
  }
  double t0 = MPI_Wtime();
  status =
      amp_array_view_create(amp_extent2(g->mb, g->nb), g->dbl ? AMP_DOUBLE : AMP_FLOAT, g->C, &vc);
  if (status == AMP_SUCCESS)
    status = amp_array_view_discard_data(vc);
  amp_status st = pipeline(g, steps, post, vc, t);
  status = status == AMP_SUCCESS ? st : status;
  double c0 = MPI_Wtime();
  if (status == AMP_SUCCESS) /* C comes back: a copy */
    status = amp_array_view_synchronize(vc);
  t->copies += MPI_Wtime() - c0;
  amp_array_view_release(vc);
  t->total = MPI_Wtime() - t0;
  return status;
}

amp_status warm_up(grid *g) {
  timing t;
  memset(&t, 0, sizeof t);
  /* the working blocks' pages are touched here, not in the first algorithm's messages */
  const size_t bytes = (size_t)g->mb * (size_t)g->nb * g->esize;
  for (int k = 0; k < 2; k++) {
    memset(g->Aw[k], 0, bytes);
    memset(g->Bw[k], 0, bytes);
  }
  amp_array_view *vc = NULL;
  amp_status status =
      amp_array_view_create(amp_extent2(g->mb, g->nb), g->dbl ? AMP_DOUBLE : AMP_FLOAT, g->C, &vc);
  if (status == AMP_SUCCESS)
    status = amp_array_view_discard_data(vc);
  /* SUMMA's first step, mb x w times w x nb: every product of every algorithm has
   * max(m, n, k) = max(mb, nb), amp_blas_gemm's size class; through the copies queue as in the
   * algorithms; and once more with A transposed when "shared" may run (its own kernel) */
  const int bad = g->bad_product; /* --bad-product-rank fails a timed product, not these */
  g->bad_product = 0;
  for (int at = 0; at <= (g->win != MPI_WIN_NULL) && status == AMP_SUCCESS; at++) {
    step_slot sl;
    memset(&sl, 0, sizeof sl);
    operands op = {g->Aw[0], g->Bw[0], summa_next(g, 0), 0, at};
    status = copy_start(g, &sl, &op);
    amp_status st = copy_finish(&sl, &t);
    status = status == AMP_SUCCESS ? st : status;
    if (status == AMP_SUCCESS)
      status = product(g, &sl, 1, vc, &t);
    st = product_finish(&sl, &t);
    status = status == AMP_SUCCESS ? st : status;
  }
  g->bad_product = bad;
  amp_array_view_discard_data(vc); /* nothing to bring back: every algorithm overwrites C */
  amp_array_view_release(vc);
  return status;
}

/* ceil(log2 r): the stages of a binomial-tree broadcast over r ranks */
static int stages(int r) {
  int s = 0;
  while (s < 62 && (1LL << s) < (long long)r)
    s++;
  return s;
}

void hockney_cost(const grid *g, algorithm alg, double messages[2], double bytes[2]) {
  double e = (double)g->esize, block = (double)g->mb * (double)g->nb * e;
  int q = g->pr;
  messages[0] = messages[1] = bytes[0] = bytes[1] = 0;
  switch (alg) {
  case ALG_CANNON: /* shifts only: the skew of A and B, then q - 1 shifts of each, a block each */
    messages[1] = q > 1 ? 2.0 + 2.0 * (q - 1) : 0.0;
    bytes[1] = messages[1] * block;
    break;
  case ALG_FOX: /* q broadcasts of A along a row (one way), q - 1 shifts of B (both ways) */
    messages[0] = (double)q * stages(q);
    bytes[0] = messages[0] * block;
    messages[1] = q - 1;
    bytes[1] = messages[1] * block;
    break;
  case ALG_SHARED: /* no messages: the operands are read where they lie */
    break;
  default: /* each step: A's mb x w panel along a row of pc, B's w x nb panel down a column of pr */
    for (int k0 = 0; k0 < g->np; k0 = summa_next(g, k0)) {
      double w = (double)(summa_next(g, k0) - k0);
      messages[0] += stages(g->pc) + stages(g->pr);
      bytes[0] += stages(g->pc) * (double)g->mb * w * e + stages(g->pr) * w * (double)g->nb * e;
    }
    break;
  }
}

void link_cost(const grid *g, algorithm alg, double *copies, double *bytes, double *c_bytes) {
  double e = (double)g->esize, c = 0, b = 0;
  if (alg == ALG_SUMMA || alg == ALG_SHARED) {
    for (int k0 = 0; k0 < g->np; k0 = summa_next(g, k0)) {
      double w = (double)(summa_next(g, k0) - k0);
      c += 2;
      b += ((double)g->mb * w + w * (double)g->nb) * e;
    }
  } else { /* q steps of whole blocks */
    c = 2.0 * g->pr;
    b = 2.0 * g->pr * (double)g->mb * (double)g->nb * e;
  }
  *copies = c;
  *bytes = b;
  *c_bytes = (double)g->mb * (double)g->nb * e;
}
