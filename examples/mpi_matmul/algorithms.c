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
 *           A block along the row (MPI_Bcast on the row communicator); every rank multiplies it
 *           with its current B block; then B shifts up by one.
 *   SUMMA   (any pr x pc grid) steps along k in panels [k0, k1). A step's panel lies inside one
 *           block column of A (they are nb wide) and inside one block row of B (mb high): the
 *           steps are cut at every multiple of nb and every multiple of mb, pr + pc - gcd(pr, pc)
 *           steps whose widths w differ when neither of pr and pc divides the other (3 x 2: np/3,
 *           np/6, np/6, np/3). In each row the rank holding A's panel (mb x w, columns of its
 *           block) broadcasts it along the row, in each column the rank holding B's panel (w x nb,
 *           rows of its block) broadcasts it down the column, and every rank multiplies the two.
 *           On a q x q grid these are q steps of whole blocks, the textbook SUMMA.
 *
 * Overlap: before block product s is enqueued, the messages for step s + 1 are posted
 * (MPI_Isend / MPI_Irecv for the shifts, MPI_Ibcast for SUMMA) into a second buffer, so they can
 * travel while the product runs; how much they do depends on the MPI library's progress (Open MPI
 * without a progress thread moves most of a message inside MPI_Wait). Before a buffer is received
 * into again, the views that read it are waited for, so no copy to the accelerator can read a
 * block MPI is overwriting. A rank whose block product fails does no more products but still
 * posts and waits for every message and broadcast, so no other rank waits for it forever; the
 * error is returned after the last step. */
#include <stdio.h>
#include <string.h>

#include "mpi_matmul.h"

const char *const algorithm_names[ALG_COUNT] = {"cannon", "fox", "summa"};

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

/* The block product of one step: C += A * B (beta 0 on the first step), A mb x k and B k x nb,
 * enqueued on the rank's accelerator. *va and *vb get the views over the two blocks: the caller
 * waits for them before their memory is received into again. */
static amp_status block_product(grid *g, const void *A, const void *B, int k, int first,
                                amp_array_view *vc, amp_array_view **va, amp_array_view **vb,
                                timing *t) {
  amp_status status = AMP_SUCCESS;
  if (g->bad_product && ++g->products == 2) { /* the first one after the warm-up */
    fprintf(stderr, "mpi_matmul: rank %d: block product failed (--bad-product-rank)\n", g->rank);
    return AMP_ERROR_INVALID_ARGUMENT;
  }
  double c0 = MPI_Wtime();
  amp_elem_type type = g->dbl ? AMP_DOUBLE : AMP_FLOAT;
  status = amp_array_view_create_const(amp_extent2(g->mb, k), type, A, va);
  if (status == AMP_SUCCESS)
    status = amp_array_view_create_const(amp_extent2(k, g->nb), type, B, vb);
  if (status == AMP_SUCCESS)
    status = amp_blas_gemm(g->av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, *va, *vb, first ? 0.0 : 1.0, vc,
                           NULL);
  t->compute += MPI_Wtime() - c0;
  return status;
}

/* Waits until nothing reads the two blocks any more, then releases their views. */
static amp_status done_with(amp_array_view **va, amp_array_view **vb, timing *t) {
  double c0 = MPI_Wtime();
  amp_status s1 = *va ? amp_array_view_wait(*va) : AMP_SUCCESS;
  amp_status s2 = *vb ? amp_array_view_wait(*vb) : AMP_SUCCESS;
  amp_array_view_release(*va);
  amp_array_view_release(*vb);
  *va = *vb = NULL;
  t->compute += MPI_Wtime() - c0;
  return s1 != AMP_SUCCESS ? s1 : s2;
}

static void show_matrix(const grid *g, const void *m, int rows, int cols) {
  for (int x = 0; x < rows * cols; x++)
    printf("%s%g", x % cols ? " " : " | ",
           g->dbl ? ((const double *)m)[x] : (double)((const float *)m)[x]);
}

/* Prints the blocks a step multiplies (A mb x k, B k x nb), rank by rank (--show, tiny n). */
static void show(const grid *g, const char *alg, int step, const void *A, const void *B, int k) {
  for (int r = 0; r < g->p; r++) {
    MPI_Barrier(g->cart);
    if (r != g->rank)
      continue;
    printf("%s step %d, rank (%d,%d): A block", alg, step, g->i, g->j);
    show_matrix(g, A, g->mb, k);
    printf("   times B block");
    show_matrix(g, B, k, g->nb);
    printf("\n");
    fflush(stdout);
  }
  MPI_Barrier(g->cart);
}

static amp_status cannon(grid *g, amp_array_view *vc, timing *t) {
  amp_status status = AMP_SUCCESS;
  int q = g->pr, count = g->mb * g->nb, src, dst;
  size_t bytes = (size_t)count * g->esize;
  amp_array_view *va = NULL, *vb = NULL;
  /* the skew: A(i,j) moves i places left, B(i,j) j places up, sent from A and B straight into the
   * working blocks (MPI_Sendrecv_replace would stage each block through a temporary buffer of its
   * size: 1.9 s for two 1 GiB blocks on one H100 host); a block that stays is copied */
  COMM(t, MPI_Cart_shift(g->cart, 1, -g->i, &src, &dst));
  if (src == g->rank)
    memcpy(g->Aw[0], g->A, bytes);
  else
    COMM(t, MPI_Sendrecv(g->A, count, g->mtype, dst, 1, g->Aw[0], count, g->mtype, src, 1, g->cart,
                         MPI_STATUS_IGNORE));
  COMM(t, MPI_Cart_shift(g->cart, 0, -g->j, &src, &dst));
  if (src == g->rank)
    memcpy(g->Bw[0], g->B, bytes);
  else
    COMM(t, MPI_Sendrecv(g->B, count, g->mtype, dst, 2, g->Bw[0], count, g->mtype, src, 2, g->cart,
                         MPI_STATUS_IGNORE));
  int left, right, up, down;
  MPI_Cart_shift(g->cart, 1, -1, &right, &left); /* send left, receive from the right */
  MPI_Cart_shift(g->cart, 0, -1, &down, &up);    /* send up, receive from below */
  for (int s = 0, cur = 0; s < q; s++, cur ^= 1) {
    if (g->show)
      show(g, "cannon", s, g->Aw[cur], g->Bw[cur], g->nb);
    MPI_Request req[4];
    int nreq = 0;
    if (s + 1 < q) { /* the next blocks travel while this product runs */
      COMM(t, MPI_Irecv(g->Aw[cur ^ 1], count, g->mtype, right, 3, g->cart, &req[nreq++]));
      COMM(t, MPI_Irecv(g->Bw[cur ^ 1], count, g->mtype, down, 4, g->cart, &req[nreq++]));
      COMM(t, MPI_Isend(g->Aw[cur], count, g->mtype, left, 3, g->cart, &req[nreq++]));
      COMM(t, MPI_Isend(g->Bw[cur], count, g->mtype, up, 4, g->cart, &req[nreq++]));
    }
    if (status == AMP_SUCCESS) /* after a failure: no more products, the messages still flow */
      status = block_product(g, g->Aw[cur], g->Bw[cur], g->nb, s == 0, vc, &va, &vb, t);
    COMM(t, MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
    amp_status w = done_with(&va, &vb, t);
    if (status == AMP_SUCCESS)
      status = w;
  }
  return status;
}

static amp_status fox(grid *g, amp_array_view *vc, timing *t) {
  amp_status status = AMP_SUCCESS;
  int q = g->pr, count = g->mb * g->nb, up, down;
  size_t bytes = (size_t)count * g->esize;
  amp_array_view *va = NULL, *vb = NULL;
  memcpy(g->Bw[0], g->B, bytes);
  MPI_Cart_shift(g->cart, 0, -1, &down, &up);
  for (int s = 0, cur = 0; s < q; s++, cur ^= 1) {
    int k = (g->i + s) % q; /* the column whose A block this row multiplies now */
    if (g->j == k)
      memcpy(g->Aw[0], g->A, bytes);
    COMM(t, MPI_Bcast(g->Aw[0], count, g->mtype, k, g->row));
    if (g->show)
      show(g, "fox", s, g->Aw[0], g->Bw[cur], g->nb);
    MPI_Request req[2];
    int nreq = 0;
    if (s + 1 < q) { /* B's shift up travels while this product runs */
      COMM(t, MPI_Irecv(g->Bw[cur ^ 1], count, g->mtype, down, 5, g->cart, &req[nreq++]));
      COMM(t, MPI_Isend(g->Bw[cur], count, g->mtype, up, 5, g->cart, &req[nreq++]));
    }
    if (status == AMP_SUCCESS) /* after a failure: no more products, the messages still flow */
      status = block_product(g, g->Aw[0], g->Bw[cur], g->nb, s == 0, vc, &va, &vb, t);
    COMM(t, MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
    amp_status w = done_with(&va, &vb, t); /* A's buffer is broadcast into again next step */
    if (status == AMP_SUCCESS)
      status = w;
  }
  return status;
}

/* Where SUMMA's step after the one starting at k0 starts: the next multiple of nb (A's next block
 * column) or of mb (B's next block row), whichever comes first; np (a multiple of both) ends. */
static int summa_next(const grid *g, int k0) {
  int a = (k0 / g->nb + 1) * g->nb, b = (k0 / g->mb + 1) * g->mb;
  return a < b ? a : b;
}

/* SUMMA's broadcasts of the step [k0, k1) into the buffers `slot`: A's panel, columns k0 .. k1 - 1
 * of the block in grid column k0 / nb, packed into an mb x w block, along the rows; B's panel,
 * rows k0 .. k1 - 1 of the block in grid row k0 / mb (contiguous), down the columns. */
static void summa_post(grid *g, int k0, int k1, int slot, MPI_Request *req, timing *t) {
  int w = k1 - k0, ja = k0 / g->nb, ib = k0 / g->mb;
  size_t e = g->esize, row = (size_t)w * e;
  if (g->j == ja) {
    const char *a = (const char *)g->A + (size_t)(k0 - ja * g->nb) * e;
    for (int r = 0; r < g->mb; r++)
      memcpy((char *)g->Aw[slot] + (size_t)r * row, a + (size_t)r * (size_t)g->nb * e, row);
  }
  if (g->i == ib)
    memcpy(g->Bw[slot], (const char *)g->B + (size_t)(k0 - ib * g->mb) * (size_t)g->nb * e,
           row * (size_t)g->nb);
  COMM(t, MPI_Ibcast(g->Aw[slot], g->mb * w, g->mtype, ja, g->row, &req[0]));
  COMM(t, MPI_Ibcast(g->Bw[slot], w * g->nb, g->mtype, ib, g->col, &req[1]));
}

static amp_status summa(grid *g, amp_array_view *vc, timing *t) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *va = NULL, *vb = NULL;
  MPI_Request req[2][2];
  int k0 = 0, k1 = summa_next(g, 0);
  summa_post(g, k0, k1, 0, req[0], t);
  for (int s = 0, cur = 0; k0 < g->np; s++, cur ^= 1) {
    COMM(t, MPI_Waitall(2, req[cur], MPI_STATUSES_IGNORE));
    int k2 = k1 < g->np ? summa_next(g, k1) : k1;
    if (k1 < g->np) /* step s + 1's panels travel while this product runs */
      summa_post(g, k1, k2, cur ^ 1, req[cur ^ 1], t);
    if (g->show)
      show(g, "summa", s, g->Aw[cur], g->Bw[cur], k1 - k0);
    if (status == AMP_SUCCESS) /* after a failure: no more products, the broadcasts still flow */
      status = block_product(g, g->Aw[cur], g->Bw[cur], k1 - k0, s == 0, vc, &va, &vb, t);
    amp_status w = done_with(&va, &vb, t);
    if (status == AMP_SUCCESS)
      status = w;
    k0 = k1;
    k1 = k2;
  }
  return status;
}

amp_status run_algorithm(grid *g, algorithm alg, timing *t) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *vc = NULL;
  memset(t, 0, sizeof *t);
  if (alg != ALG_SUMMA && g->pr != g->pc) { /* mpi_matmul.c never asks for it */
    fprintf(stderr, "mpi_matmul: %s needs a square grid, not %d x %d\n", algorithm_names[alg],
            g->pr, g->pc);
    return AMP_ERROR_INVALID_ARGUMENT;
  }
  double t0 = MPI_Wtime();
  status =
      amp_array_view_create(amp_extent2(g->mb, g->nb), g->dbl ? AMP_DOUBLE : AMP_FLOAT, g->C, &vc);
  if (status == AMP_SUCCESS)
    status = amp_array_view_discard_data(vc);
  if (status == AMP_SUCCESS)
    status = alg == ALG_CANNON ? cannon(g, vc, t)
             : alg == ALG_FOX  ? fox(g, vc, t)
                               : summa(g, vc, t);
  double c0 = MPI_Wtime();
  if (status == AMP_SUCCESS)
    status = amp_array_view_synchronize(vc);
  t->compute += MPI_Wtime() - c0;
  amp_array_view_release(vc);
  t->total = MPI_Wtime() - t0;
  return status;
}

amp_status warm_up(grid *g) {
  timing t = {0, 0, 0};
  /* the working blocks' pages, fresh from calloc, are faulted in here, not in the first
   * algorithm's messages */
  const size_t bytes = (size_t)g->mb * (size_t)g->nb * g->esize;
  for (int k = 0; k < 2; k++) {
    memset(g->Aw[k], 0, bytes);
    memset(g->Bw[k], 0, bytes);
  }
  amp_array_view *vc = NULL, *va = NULL, *vb = NULL;
  amp_status status =
      amp_array_view_create(amp_extent2(g->mb, g->nb), g->dbl ? AMP_DOUBLE : AMP_FLOAT, g->C, &vc);
  if (status == AMP_SUCCESS)
    status = amp_array_view_discard_data(vc);
  /* SUMMA's first step, mb x w times w x nb (w = min(mb, nb); a whole block on a square grid):
   * every product of every algorithm has max(m, n, k) = max(mb, nb), amp_blas_gemm's size class */
  if (status == AMP_SUCCESS)
    status = block_product(g, g->Aw[0], g->Bw[0], summa_next(g, 0), 1, vc, &va, &vb, &t);
  if (status == AMP_SUCCESS)
    status = amp_array_view_wait(vc);
  amp_status s2 = done_with(&va, &vb, &t);
  if (status == AMP_SUCCESS)
    status = s2;
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

void hockney_cost(const grid *g, algorithm alg, double *messages, double *bytes) {
  double e = (double)g->esize, block = (double)g->mb * (double)g->nb * e, m = 0, b = 0;
  int q = g->pr;
  switch (alg) {
  case ALG_CANNON: /* skew of A and B, then q - 1 shifts of each, one block each */
    m = q > 1 ? 2.0 + 2.0 * (q - 1) : 0.0;
    b = m * block;
    break;
  case ALG_FOX: /* q broadcasts of A along a row, q - 1 shifts of B, one block each */
    m = (double)q * stages(q) + (q - 1);
    b = m * block;
    break;
  default: /* each step: A's mb x w panel along a row of pc, B's w x nb panel down a column of pr */
    for (int k0 = 0; k0 < g->np; k0 = summa_next(g, k0)) {
      double w = (double)(summa_next(g, k0) - k0);
      m += stages(g->pc) + stages(g->pr);
      b += stages(g->pc) * (double)g->mb * w * e + stages(g->pr) * w * (double)g->nb * e;
    }
    break;
  }
  *messages = m;
  *bytes = b;
}
