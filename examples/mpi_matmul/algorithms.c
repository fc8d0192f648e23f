/* examples/mpi_matmul/algorithms.c: Cannon's, Fox's and SUMMA's block matrix multiplication on a
 * q x q grid of MPI ranks, each block product on the rank's accelerator through amp_blas_gemm.
 *
 * Every rank holds one b x b block of A, B and C. The three algorithms differ only in how the
 * blocks of A and B that rank (i, j) needs, A(i,k) and B(k,j) for every k, come to it:
 *
 *   Cannon  skews A left by i and B up by j once (MPI_Sendrecv into the working blocks), so
 *           that rank (i, j) holds A(i, i+j) and B(i+j, j); then q times: multiply, shift A left
 *           by one and B up by one. Every message is a neighbour shift on the torus.
 *   Fox     q times: the rank in column k = (i + s) mod q of each row broadcasts its A block
 *           along the row (MPI_Bcast on the row communicator); every rank multiplies it with its
 *           current B block; then B shifts up by one.
 *   SUMMA   q times: column k broadcasts its A blocks along the rows, and row k its B blocks
 *           down the columns; every rank multiplies the two blocks it received.
 *
 * Overlap: while block product s runs (asynchronously on a GPU), the blocks for step s + 1 are
 * already on their way (MPI_Isend / MPI_Irecv for the shifts, MPI_Ibcast for SUMMA), into a
 * second buffer; before a buffer is received into again, the views that read it are waited for,
 * so no copy to the accelerator can read a block MPI is overwriting. */
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

/* The block product of one step: C += A * B (beta 0 on the first step), enqueued on the rank's
 * accelerator. *va and *vb get the views over the two blocks: the caller waits for them before
 * their memory is received into again. */
static amp_status block_product(grid *g, const void *A, const void *B, int first,
                                amp_array_view *vc, amp_array_view **va, amp_array_view **vb,
                                timing *t) {
  amp_status status = AMP_SUCCESS;
  double c0 = MPI_Wtime();
  amp_elem_type type = g->dbl ? AMP_DOUBLE : AMP_FLOAT;
  amp_extent e = amp_extent2(g->b, g->b);
  status = amp_array_view_create_const(e, type, A, va);
  if (status == AMP_SUCCESS)
    status = amp_array_view_create_const(e, type, B, vb);
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

/* Prints the blocks a step multiplies, rank by rank (--show, tiny n). */
static void show(const grid *g, const char *alg, int step, const void *A, const void *B) {
  for (int r = 0; r < g->q * g->q; r++) {
    MPI_Barrier(g->cart);
    if (r != g->rank)
      continue;
    printf("%s step %d, rank (%d,%d): A block", alg, step, g->i, g->j);
    for (int x = 0; x < g->b * g->b; x++)
      printf("%s%g", x % g->b ? " " : " | ",
             g->dbl ? ((const double *)A)[x] : (double)((const float *)A)[x]);
    printf("   times B block");
    for (int x = 0; x < g->b * g->b; x++)
      printf("%s%g", x % g->b ? " " : " | ",
             g->dbl ? ((const double *)B)[x] : (double)((const float *)B)[x]);
    printf("\n");
    fflush(stdout);
  }
  MPI_Barrier(g->cart);
}

static amp_status cannon(grid *g, amp_array_view *vc, timing *t) {
  amp_status status = AMP_SUCCESS;
  int count = g->b * g->b, src, dst;
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
  for (int s = 0, cur = 0; s < g->q; s++, cur ^= 1) {
    if (g->show)
      show(g, "cannon", s, g->Aw[cur], g->Bw[cur]);
    MPI_Request req[4];
    int nreq = 0;
    if (s + 1 < g->q) { /* the next blocks travel while this product runs */
      COMM(t, MPI_Irecv(g->Aw[cur ^ 1], count, g->mtype, right, 3, g->cart, &req[nreq++]));
      COMM(t, MPI_Irecv(g->Bw[cur ^ 1], count, g->mtype, down, 4, g->cart, &req[nreq++]));
      COMM(t, MPI_Isend(g->Aw[cur], count, g->mtype, left, 3, g->cart, &req[nreq++]));
      COMM(t, MPI_Isend(g->Bw[cur], count, g->mtype, up, 4, g->cart, &req[nreq++]));
    }
    status = block_product(g, g->Aw[cur], g->Bw[cur], s == 0, vc, &va, &vb, t);
    COMM(t, MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
    amp_status w = done_with(&va, &vb, t);
    if (status == AMP_SUCCESS)
      status = w;
    if (status != AMP_SUCCESS)
      break;
  }
  return status;
}

static amp_status fox(grid *g, amp_array_view *vc, timing *t) {
  amp_status status = AMP_SUCCESS;
  int count = g->b * g->b, up, down;
  size_t bytes = (size_t)count * g->esize;
  amp_array_view *va = NULL, *vb = NULL;
  memcpy(g->Bw[0], g->B, bytes);
  MPI_Cart_shift(g->cart, 0, -1, &down, &up);
  for (int s = 0, cur = 0; s < g->q; s++, cur ^= 1) {
    int k = (g->i + s) % g->q; /* the column whose A block this row multiplies now */
    if (g->j == k)
      memcpy(g->Aw[0], g->A, bytes);
    COMM(t, MPI_Bcast(g->Aw[0], count, g->mtype, k, g->row));
    if (g->show)
      show(g, "fox", s, g->Aw[0], g->Bw[cur]);
    MPI_Request req[2];
    int nreq = 0;
    if (s + 1 < g->q) { /* B's shift up travels while this product runs */
      COMM(t, MPI_Irecv(g->Bw[cur ^ 1], count, g->mtype, down, 5, g->cart, &req[nreq++]));
      COMM(t, MPI_Isend(g->Bw[cur], count, g->mtype, up, 5, g->cart, &req[nreq++]));
    }
    status = block_product(g, g->Aw[0], g->Bw[cur], s == 0, vc, &va, &vb, t);
    COMM(t, MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
    amp_status w = done_with(&va, &vb, t); /* A's buffer is broadcast into again next step */
    if (status == AMP_SUCCESS)
      status = w;
    if (status != AMP_SUCCESS)
      break;
  }
  return status;
}

/* SUMMA's broadcasts of step k into the buffers `slot`. */
static void summa_post(grid *g, int k, int slot, MPI_Request *req, timing *t) {
  size_t bytes = (size_t)g->b * (size_t)g->b * g->esize;
  int count = g->b * g->b;
  if (g->j == k)
    memcpy(g->Aw[slot], g->A, bytes);
  if (g->i == k)
    memcpy(g->Bw[slot], g->B, bytes);
  COMM(t, MPI_Ibcast(g->Aw[slot], count, g->mtype, k, g->row, &req[0]));
  COMM(t, MPI_Ibcast(g->Bw[slot], count, g->mtype, k, g->col, &req[1]));
}

static amp_status summa(grid *g, amp_array_view *vc, timing *t) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *va = NULL, *vb = NULL;
  MPI_Request req[2][2];
  summa_post(g, 0, 0, req[0], t);
  for (int k = 0, cur = 0; k < g->q; k++, cur ^= 1) {
    COMM(t, MPI_Waitall(2, req[cur], MPI_STATUSES_IGNORE));
    if (k + 1 < g->q) /* step k + 1's blocks travel while this product runs */
      summa_post(g, k + 1, cur ^ 1, req[cur ^ 1], t);
    if (g->show)
      show(g, "summa", k, g->Aw[cur], g->Bw[cur]);
    status = block_product(g, g->Aw[cur], g->Bw[cur], k == 0, vc, &va, &vb, t);
    amp_status w = done_with(&va, &vb, t);
    if (status == AMP_SUCCESS)
      status = w;
    if (status != AMP_SUCCESS) {
      if (k + 1 < g->q) /* every rank still takes part in the posted broadcasts */
        MPI_Waitall(2, req[cur ^ 1], MPI_STATUSES_IGNORE);
      break;
    }
  }
  return status;
}

amp_status run_algorithm(grid *g, algorithm alg, timing *t) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *vc = NULL;
  memset(t, 0, sizeof *t);
  double t0 = MPI_Wtime();
  status =
      amp_array_view_create(amp_extent2(g->b, g->b), g->dbl ? AMP_DOUBLE : AMP_FLOAT, g->C, &vc);
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
  const size_t bytes = (size_t)g->b * (size_t)g->b * g->esize;
  for (int k = 0; k < 2; k++) {
    memset(g->Aw[k], 0, bytes);
    memset(g->Bw[k], 0, bytes);
  }
  amp_array_view *vc = NULL, *va = NULL, *vb = NULL;
  amp_status status =
      amp_array_view_create(amp_extent2(g->b, g->b), g->dbl ? AMP_DOUBLE : AMP_FLOAT, g->C, &vc);
  if (status == AMP_SUCCESS)
    status = amp_array_view_discard_data(vc);
  if (status == AMP_SUCCESS)
    status = block_product(g, g->A, g->B, 1, vc, &va, &vb, &t);
  if (status == AMP_SUCCESS)
    status = amp_array_view_wait(vc);
  amp_status s2 = done_with(&va, &vb, &t);
  if (status == AMP_SUCCESS)
    status = s2;
  amp_array_view_discard_data(vc); /* nothing to bring back: every algorithm overwrites C */
  amp_array_view_release(vc);
  return status;
}

double hockney_messages(algorithm alg, int q) {
  int stages = 0; /* ceil(log2 q): a binomial-tree broadcast over q ranks */
  while ((1 << stages) < q)
    stages++;
  switch (alg) {
  case ALG_CANNON: /* skew of A and B, then q - 1 shifts of each */
    return q > 1 ? 2.0 + 2.0 * (q - 1) : 0.0;
  case ALG_FOX: /* q broadcasts of A, q - 1 shifts of B */
    return (double)q * stages + (q - 1);
  default: /* q steps of two broadcasts */
    return 2.0 * q * stages;
  }
}
