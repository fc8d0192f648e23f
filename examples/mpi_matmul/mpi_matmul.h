/* examples/mpi_matmul/mpi_matmul.h: what the block algorithms (algorithms.c) share with the
 * driver (mpi_matmul.c). */
#ifndef AMPCL_EXAMPLES_MPI_MATMUL_H
#define AMPCL_EXAMPLES_MPI_MATMUL_H

#include <ampcl.h>
#include <mpi.h>

typedef enum algorithm { ALG_CANNON, ALG_FOX, ALG_SUMMA, ALG_SHARED, ALG_COUNT } algorithm;

/* One rank's view of the run: its place in the pr x pc grid, its blocks (mb x nb, row-major, in
 * host memory), and the ampcl views over them on its accelerator. The matrices are n x n, padded
 * with zeros to np x np, np the least multiple of lcm(pr, pc) at or above n, so that every rank
 * holds blocks of the same shape: mb = np / pr rows and nb = np / pc columns of A, B and C. Cannon
 * and Fox run only on square grids (pr == pc, so mb == nb); SUMMA on any (algorithms.c). */
typedef struct grid {
  MPI_Comm cart, row, col;   /* the pr x pc torus; this rank's row (pc ranks), column (pr ranks) */
  int p, pr, pc, rank, i, j; /* ranks, grid rows and columns, rank, and its (row, column) */
  int n, np;                 /* matrix size, and n padded up to a multiple of lcm(pr, pc) */
  int mb, nb;                /* block rows (np / pr) and columns (np / pc); mb * nb <= INT_MAX */
  int dbl;                   /* double, else float */
  size_t esize;
  MPI_Datatype mtype;
  amp_accelerator_view *av;     /* the block products run here */
  amp_accelerator_view *copies; /* a second queue of the same accelerator: the operands of step
                                   s + 1 cross the link on it while step s's product runs */
  /* this rank's blocks A(i,j), B(i,j), C(i,j), and the working blocks, the current one and the
   * next one being received: Cannon's and Fox's mb x nb blocks, SUMMA's panels (mb x w of A,
   * w x nb of B, w <= min(mb, nb)); each holds mb * nb. In pinned memory (amp_host_alloc) where
   * the accelerator gives it, so that copies to it are DMA at the link's speed and MPI reads and
   * writes them in place. */
  void *A, *B, *C;
  void *Aw[2], *Bw[2];
  int pinned; /* the seven blocks came from amp_host_alloc (else calloc) */
  /* "shared" (shared_window.c): every rank's A block, transposed (nb x mb), and B block in one
   * MPI-3 shared-memory window of the node; MPI_WIN_NULL when the ranks are not all on one node */
  MPI_Win win;
  const void **At_of, **B_of; /* by grid rank */
  int panel;                  /* SUMMA's widest panel (--panel; default min(mb, nb)) */
  int show;                   /* print the blocks at each step (tiny n) */
  int bad_product; /* test: this rank's first timed block product fails (--bad-product-rank) */
  int products;    /* timed block products started */
} grid;

/* Time spent, per rank, in seconds: the whole algorithm; in MPI calls; on the host thread in
 * the block products (enqueueing them and waiting for them); the copies between host and
 * accelerator (each copy's own duration, summed: they run on a thread of their own, under the
 * products and the messages); and the products' own run time on the accelerator (from the
 * futures' profiling), with unmeasured 1 where a product had none (the device's timestamps
 * measure nothing, or AMP_PROFILE=0): products is then printed n/a. */
typedef struct timing {
  double total, comm, compute, copies, products, unmeasured;
} timing;
enum { TIMING_FIELDS = 6 };

/* Why a product had no device time (amp_future_elapsed_ns's reason), or NULL when all had one. */
const char *products_unmeasured_why(void);

/* The node's shared window (mpi_matmul.c calls it once after the grid is made): when every rank
 * runs on one node (MPI_Comm_split_type), each allocates its A^T and B blocks in an MPI-3
 * shared-memory window and learns where every other rank's are. Returns 1 when the window exists,
 * 0 when the ranks span several nodes or the window could not be had (the same on every rank). */
int shared_window_create(grid *g);
/* Fills this rank's A^T and B blocks in the window and waits until every rank has (a barrier). */
void shared_window_fill(grid *g);
void shared_window_free(grid *g);

/* Element (r, c) of the global A or B (deterministic, so every rank makes its own blocks), 0 in
 * the padding beyond n. */
double element_a(int n, int r, int c);
double element_b(int n, int r, int c);

/* One untimed block product on this rank's accelerator, of the shape SUMMA's first step
 * multiplies (for Cannon and Fox, a whole block), so that building the kernels and amp_blas_gemm's
 * one-time choice of engine for this size class (ampcl/blas.h) are not charged to the first
 * algorithm timed; it also touches every page of the working blocks. */
amp_status warm_up(grid *g);

/* Runs the algorithm: C(i,j) = sum over k of A(i,k) B(k,j) on the grid; g->C holds the result.
 * Cannon and Fox need g->pr == g->pc (AMP_ERROR_INVALID_ARGUMENT otherwise). */
amp_status run_algorithm(grid *g, algorithm alg, timing *t);

/* Hockney's model of the communication on one rank's critical path, in two classes: messages
 * sent one way while the partner only receives (the stages of a broadcast: a broadcast over r
 * ranks counts as ceil(log2 r) messages of its size, a binomial tree), messages[0] and bytes[0];
 * and shifts, where every rank sends and receives at once (Cannon's skew and shifts, Fox's shift
 * of B), messages[1] and bytes[1]. The predicted time is alpha * messages[0] + beta * bytes[0] +
 * alpha_x * messages[1] + beta_x * bytes[1], each class with the parameters measured for its
 * pattern (mpi_matmul.c: ping-pong and exchange). */
void hockney_cost(const grid *g, algorithm alg, double messages[2], double bytes[2]);

/* The copies between host and accelerator of one rank over the whole algorithm: every step
 * copies its two operands in (*copies copies of *bytes in all), and C comes back once at the end
 * (*c_bytes). The link term of the model is alpha_link (copies + 1) + beta_link bytes (with the
 * link's parameters for the operands' memory: pinned, or ordinary for "shared") + beta_pinned
 * c_bytes. */
void link_cost(const grid *g, algorithm alg, double *copies, double *bytes, double *c_bytes);

extern const char *const algorithm_names[ALG_COUNT];

#endif /* AMPCL_EXAMPLES_MPI_MATMUL_H */
