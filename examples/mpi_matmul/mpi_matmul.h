/* examples/mpi_matmul/mpi_matmul.h: what the block algorithms (algorithms.c) share with the
 * driver (mpi_matmul.c). */
#ifndef AMPCL_EXAMPLES_MPI_MATMUL_H
#define AMPCL_EXAMPLES_MPI_MATMUL_H

#include <ampcl.h>
#include <mpi.h>

typedef enum algorithm { ALG_CANNON, ALG_FOX, ALG_SUMMA, ALG_COUNT } algorithm;

/* One rank's view of the run: its place in the q x q grid, its blocks (b x b, row-major, in host
 * memory), and the ampcl views over them on its accelerator. */
typedef struct grid {
  MPI_Comm cart, row, col; /* the q x q torus; this rank's row and column */
  int q, rank, i, j;       /* grid size, rank, and its (row, column) */
  int n, b;                /* matrix size, block size (n padded up to q * b) */
  int dbl;                 /* double, else float */
  size_t esize;
  MPI_Datatype mtype;
  amp_accelerator_view *av;
  void *A, *B, *C;     /* this rank's blocks A(i,j), B(i,j), C(i,j) */
  void *Aw[2], *Bw[2]; /* working blocks: the current one and the next one being received */
  int show;            /* print the blocks at each step (tiny n) */
} grid;

/* Time spent, per rank. */
typedef struct timing {
  double total, comm, compute; /* seconds */
} timing;

/* Element (r, c) of the global A or B (deterministic, so every rank makes its own blocks), 0 in
 * the padding beyond n. */
double element_a(int n, int r, int c);
double element_b(int n, int r, int c);

/* One untimed block product on this rank's accelerator, so that building the kernels and
 * amp_blas_gemm's one-time choice of engine for this block size (ampcl/blas.h) are not charged to
 * the first algorithm timed; it also touches every page of the working blocks. */
amp_status warm_up(grid *g);

/* Runs the algorithm: C(i,j) = sum over k of A(i,k) B(k,j) on the grid; g->C holds the result. */
amp_status run_algorithm(grid *g, algorithm alg, timing *t);

/* Messages of one block each along the critical path of the algorithm (for Hockney's model):
 * point-to-point sends, and broadcast stages (a binomial tree over q ranks has ceil(log2 q)). */
double hockney_messages(algorithm alg, int q);

extern const char *const algorithm_names[ALG_COUNT];

#endif /* AMPCL_EXAMPLES_MPI_MATMUL_H */
