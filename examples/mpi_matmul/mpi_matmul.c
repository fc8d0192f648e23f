/* mpi_matmul: C = A * B on a pr x pc grid of MPI ranks, with Cannon's, Fox's and SUMMA's block
 * algorithms (algorithms.c), each rank's block products on its own accelerator.
 *
 *   mpirun -np P mpi_matmul [-n N] [--type float|double] [--algorithm cannon|fox|summa|shared|all]
 *                           [--panel W] [--verify] [--pingpong] [--accelerator PATH] [--show]
 *                           [--bad-accelerator-rank R] [--bad-product-rank R]
 *
 * Any P: the grid is MPI_Dims_create's, as square as P allows (4: 2 x 2, 2: 2 x 1, 6: 3 x 2).
 * SUMMA runs on any grid; Cannon and Fox need a square one (P = 1, 4, 9, ...): on another, "all"
 * runs SUMMA only and says so, and naming cannon or fox is an error. Rank r uses accelerator r mod
 * count, counting the GPUs if there are any, else the CPU devices (with one GPU, all ranks share
 * it; on POCL each rank gets the CPU device). N need not be a multiple of the grid: the matrices
 * are padded with zeros (mpi_matmul.h). --panel W cuts SUMMA's steps at most W columns wide
 * (default: whole blocks). For each algorithm rank 0 prints the time, GFLOP/s, the time in
 * communication, in copies between host and accelerator and on the host in block products, and
 * the products' own time on the accelerator (each the slowest rank's); with --pingpong, the
 * model's prediction of communication plus copies beside the measured sum: Hockney's latency
 * alpha and inverse bandwidth beta for MPI (a ping-pong of rank pairs for one-way messages, an
 * exchange for shifts, all pairs at once) and for the link (copies of pinned memory to the
 * accelerator, all ranks at once). --verify checks C:
 * against OpenBLAS on rank 0 for N <= 2048, and for any N with a checksum (C x against A (B x) for
 * a fixed vector x, C x summed over the ranks). A rank that cannot open its accelerator (try
 * --bad-accelerator-rank R) says so, and every rank exits with status 1: no rank waits forever. The
 * same when a block product fails half-way (try --bad-product-rank R: rank R's first timed one
 * fails); that rank goes on posting and waiting for every message, so the others finish their
 * steps. A run in double where a rank's device has no double precision exits with status 77
 * ("cannot run here"), every rank saying nothing more than which device lacks it. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_matmul.h"

#ifdef EX_HAVE_OPENBLAS
#include <cblas.h>
#endif

typedef struct options {
  int n, dbl, verify, pingpong, show, bad_rank, bad_product_rank, panel;
  int algs[ALG_COUNT];  /* to run */
  int named[ALG_COUNT]; /* named by --algorithm itself, not through "all" or by default */
  const char *path;
} options;

static int parse(int argc, char **argv, options *o, int rank) {
  memset(o, 0, sizeof *o);
  o->n = 512;
  o->bad_rank = -1;
  o->bad_product_rank = -1;
  int any = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if ((!strcmp(a, "-n") || !strcmp(a, "--size")) && v) {
      o->n = atoi(v);
      i++;
    } else if (!strcmp(a, "--type") && v && (!strcmp(v, "float") || !strcmp(v, "double"))) {
      o->dbl = !strcmp(v, "double");
      i++;
    } else if (!strcmp(a, "--algorithm") && v) {
      int found = 0;
      for (int k = 0; k < ALG_COUNT; k++)
        if (!strcmp(v, algorithm_names[k]) || !strcmp(v, "all")) {
          o->algs[k] = found = any = 1;
          o->named[k] |= !strcmp(v, algorithm_names[k]);
        }
      if (!found) {
        if (rank == 0)
          fprintf(stderr,
                  "mpi_matmul: --algorithm takes cannon, fox, summa, shared or all, not '%s'\n", v);
        return 0;
      }
      i++;
    } else if (!strcmp(a, "--verify")) {
      o->verify = 1;
    } else if (!strcmp(a, "--panel") && v) {
      char *end = NULL;
      long w = strtol(v, &end, 10);
      if (!end || *end || w < 1 || w > 65536) {
        if (rank == 0)
          fprintf(stderr, "mpi_matmul: --panel takes a width of 1 to 65536 columns, not '%s'\n", v);
        return 0;
      }
      o->panel = (int)w;
      i++;
    } else if (!strcmp(a, "--pingpong")) {
      o->pingpong = 1;
    } else if (!strcmp(a, "--show")) {
      o->show = 1;
    } else if (!strcmp(a, "--accelerator") && v) {
      o->path = v;
      i++;
    } else if (!strcmp(a, "--bad-accelerator-rank") && v) {
      o->bad_rank = atoi(v);
      i++;
    } else if (!strcmp(a, "--bad-product-rank") && v) {
      o->bad_product_rank = atoi(v);
      i++;
    } else {
      if (rank == 0)
        fprintf(stderr,
                "usage: mpirun -np P amp-mpi-matmul [-n N] [--type float|double] "
                "[--algorithm cannon|fox|summa|shared|all] [--panel W] [--verify] [--pingpong] "
                "[--accelerator PATH] [--show] [--bad-accelerator-rank R] "
                "[--bad-product-rank R]\n"
                "The P ranks form a grid as square as P allows (MPI_Dims_create: 2 x 1 "
                "for 2, 2 x 2 for 4, 3 x 2 for 6).\n"
                "SUMMA runs on any grid; Cannon and Fox need a square one (P = 1, 4, 9, "
                "16, ...), so on others \"all\" runs SUMMA only.\n");
      return 0;
    }
  }
  if (!any)
    for (int k = 0; k < ALG_COUNT; k++)
      o->algs[k] = 1;
  if (o->n < 1 || o->n > 65536) {
    if (rank == 0)
      fprintf(stderr, "mpi_matmul: -n must be 1 to 65536, not %d\n", o->n);
    return 0;
  }
  return 1;
}

/* The accelerator of this rank: --accelerator, or rank mod the number of GPUs (else CPU devices).
 */
static amp_status open_accelerator(const options *o, int rank, amp_accelerator_view **av,
                                   char *path, size_t cap) {
  amp_status st;
  amp_accelerator *acc = NULL;
  if (rank == o->bad_rank) {
    snprintf(path, cap, "ocl/no-such-platform/%d", rank);
    st = amp_accelerator_find(path, &acc);
  } else if (o->path) {
    snprintf(path, cap, "%s", o->path);
    st = amp_accelerator_find(path, &acc);
  } else {
    size_t n = 0, gpus = 0, cpus = 0;
    amp_accelerator *gpu[64], *cpu[64];
    st = amp_accelerator_count(&n);
    for (size_t i = 0; st == AMP_SUCCESS && i < n; i++) {
      amp_accelerator *a;
      amp_accelerator_properties p;
      if (amp_accelerator_get(i, &a) != AMP_SUCCESS ||
          amp_accelerator_get_properties(a, &p) != AMP_SUCCESS || p.is_host)
        continue;
      if (!p.is_emulated && gpus < 64)
        gpu[gpus++] = a;
      else if (p.is_emulated && cpus < 64)
        cpu[cpus++] = a;
    }
    if (st == AMP_SUCCESS && gpus + cpus == 0)
      st = AMP_ERROR_UNSUPPORTED_FEATURE;
    if (st == AMP_SUCCESS)
      acc = gpus ? gpu[(size_t)rank % gpus] : cpu[(size_t)rank % cpus];
    snprintf(path, cap, "(rank %d mod the %s)", rank, gpus ? "GPUs" : "CPU devices");
  }
  if (st == AMP_SUCCESS)
    st = amp_accelerator_default_view(acc, av);
  if (st == AMP_SUCCESS) {
    amp_accelerator_properties p;
    amp_accelerator_get_properties(acc, &p);
    snprintf(path, cap, "%s", p.device_path);
  }
  return st;
}

static void fill_blocks(grid *g) {
  for (int r = 0; r < g->mb; r++)
    for (int c = 0; c < g->nb; c++) {
      size_t x = (size_t)r * (size_t)g->nb + (size_t)c;
      double a = element_a(g->n, g->i * g->mb + r, g->j * g->nb + c);
      double b = element_b(g->n, g->i * g->mb + r, g->j * g->nb + c);
      if (g->dbl) {
        ((double *)g->A)[x] = a;
        ((double *)g->B)[x] = b;
      } else {
        ((float *)g->A)[x] = (float)a;
        ((float *)g->B)[x] = (float)b;
      }
    }
}

static double at(const grid *g, const void *m, size_t x) {
  return g->dbl ? ((const double *)m)[x] : (double)((const float *)m)[x];
}

static double xvec(int c) {
  return (double)((c * 13) % 7) - 3.0;
}

/* Checks C: the checksum C x = A (B x) on every run, and against OpenBLAS for n <= 2048. Returns
 * 1 when right (on rank 0; the other ranks return 1). Every rank takes part in every collective
 * call, whatever fails. */
static int verify(const grid *g) {
  int ok = 1, have, all_have = 0;
  size_t block = (size_t)g->mb * (size_t)g->nb;
  double *y = calloc((size_t)g->np, sizeof *y);
  double *sum = g->rank == 0 ? calloc((size_t)g->np, sizeof *sum) : NULL;
  /* the whole C on rank 0, for the OpenBLAS comparison: p blocks, np * np elements */
  int full = g->n <= 2048;
  void *all = NULL;
  if (full && g->rank == 0 && (size_t)g->p <= SIZE_MAX / g->esize / block)
    all = malloc(block * (size_t)g->p * g->esize);
  full = full && (g->rank != 0 || all);
  have = y && (g->rank != 0 || sum);
  MPI_Allreduce(&have, &all_have, 1, MPI_INT, MPI_MIN, g->cart);
  MPI_Bcast(&full, 1, MPI_INT, 0, g->cart);
  if (!all_have) {
    if (g->rank == 0)
      printf("  check FAILED: a rank could not allocate %d doubles for the checksum\n", g->np);
    free(y);
    free(sum);
    free(all);
    return 0;
  }
  for (int r = 0; r < g->mb; r++)
    for (int c = 0; c < g->nb; c++)
      y[g->i * g->mb + r] +=
          at(g, g->C, (size_t)r * (size_t)g->nb + (size_t)c) * xvec(g->j * g->nb + c);
  MPI_Reduce(y, sum, g->np, MPI_DOUBLE, MPI_SUM, 0, g->cart);
  if (full)
    MPI_Gather(g->C, (int)block, g->mtype, all, (int)block, g->mtype, 0, g->cart);
  if (g->rank == 0) {
    double *bx = calloc((size_t)g->n, sizeof *bx), worst = 0, scale = 1;
    for (int r = 0; bx && r < g->n; r++)
      for (int c = 0; c < g->n; c++)
        bx[r] += element_b(g->n, r, c) * xvec(c);
    for (int r = 0; bx && r < g->n; r++) {
      double z = 0;
      for (int c = 0; c < g->n; c++)
        z += element_a(g->n, r, c) * bx[c];
      worst = fmax(worst, fabs(z - sum[r]));
      scale = fmax(scale, fabs(z));
    }
    for (int r = g->n; r < g->np; r++) /* the padding's rows of C are 0 */
      worst = fmax(worst, fabs(sum[r]));
    double tol = g->dbl ? 1e-10 : 1e-5;
    if (!bx || worst > tol * scale * g->n) {
      printf("  checksum FAILED: |C x - A (B x)| up to %g (scale %g)\n", worst, scale);
      ok = 0;
    }
    free(bx);
#ifdef EX_HAVE_OPENBLAS
    if (full && all) {
      double *a = malloc(sizeof(double) * (size_t)g->n * (size_t)g->n),
             *b = malloc(sizeof(double) * (size_t)g->n * (size_t)g->n),
             *c = malloc(sizeof(double) * (size_t)g->n * (size_t)g->n);
      for (int r = 0; a && b && r < g->n; r++)
        for (int k = 0; k < g->n; k++) {
          a[(size_t)r * g->n + k] = element_a(g->n, r, k);
          b[(size_t)r * g->n + k] = element_b(g->n, r, k);
        }
      double err = 1e300;
      if (a && b && c) {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->n, g->n, g->n, 1.0, a, g->n, b,
                    g->n, 0.0, c, g->n);
        err = 0;
        for (int r = 0; r < g->n; r++)
          for (int k = 0; k < g->n; k++) {
            int bi = r / g->mb, bj = k / g->nb; /* block (bi, bj) came from rank bi * pc + bj */
            size_t x = (size_t)(bi * g->pc + bj) * block + (size_t)(r % g->mb) * (size_t)g->nb +
                       (size_t)(k % g->nb);
            err = fmax(err, fabs(at(g, all, x) - c[(size_t)r * g->n + k]));
          }
      }
      if (err > (g->dbl ? 1e-9 : 1e-3)) {
        printf("  OpenBLAS comparison FAILED: largest difference %g\n", err);
        ok = 0;
      }
      free(a);
      free(b);
      free(c);
    }
#endif
  }
  free(all);
  free(y);
  free(sum);
  return ok;
}

/* Least squares t = alpha + beta m over `count` points into ab[0] (alpha) and ab[1] (beta). */
static void fit(const double *m, const double *t, int count, double ab[2]) {
  double sm = 0, st = 0, smm = 0, smt = 0;
  for (int s = 0; s < count; s++) {
    sm += m[s];
    st += t[s];
    smm += m[s] * m[s];
    smt += m[s] * t[s];
  }
  ab[1] = (count * smt - sm * st) / (count * smm - sm * sm);
  ab[0] = (st - ab[1] * sm) / count;
  if (ab[0] < 0)
    ab[0] = t[0]; /* the fit can undershoot the smallest message's time */
  if (!(ab[1] > 0))
    ab[1] = t[count - 1] / m[count - 1]; /* and, on a machine too busy to time, miss the slope */
}

/* The sizes of every measurement (ping-pong, exchange, the link's copies): 8 B .. 1 KiB, then
 * 16 KiB .. 1 GiB (at most a block, the largest the algorithms move). The large ones reach the
 * blocks and panels of hundreds of MiB the algorithms move on a GPU, whose staged copies ran
 * faster than a fit of sizes up to 64 MiB priced them (lab/NOTEBOOK.md, 2026-11-27, "the blur loads
 * a row ahead"). */
enum { SIZES = 25 };
static int size_of(int s) {
  return s < 8 ? 8 << s : (16 << 10) << (s - 8);
}

/* Repetitions per size: fewer for the large ones, long enough to time on their own. */
static int reps_of(int bytes) {
  return bytes >= (64 << 20) ? 3 : 10;
}

/* Hockney's alpha (s) and beta (s per byte) for MPI, both patterns the algorithms use, with all
 * rank pairs (0, 1), (2, 3), ... at once, as the algorithms' ranks all send at once: one way
 * (ping-pong: one rank of a pair sends while the other receives; broadcasts) into ab[0], ab[1],
 * and exchange (both ranks of a pair send and receive at the same time, from one buffer into
 * another, MPI_Sendrecv as the skews call it; the shifts' Isend and Irecv do the same) into ab[2],
 * ab[3]. Not MPI_Sendrecv_replace, which the algorithms do not call: Open MPI's moved 1.00 GB/s
 * at these sizes and priced Cannon's shifts at 3.2 times what they took (lab/NOTEBOOK.md,
 * 2026-11-27, "the split's writes into C"). Messages up to 1 GiB but no larger than `block`; rank
 * 0's times are fitted and sent to all. Returns 0 (on every rank) when a rank could not allocate
 * its buffers. */
static int pingpong(const grid *g, size_t block, double ab[4]) {
  double m[SIZES], t[SIZES], tx[SIZES];
  int partner = g->rank ^ 1, active = partner < g->p, sizes = 2; /* at least two points */
  while (sizes < SIZES && (size_t)size_of(sizes) <= block)
    sizes++;
  const size_t most = (size_t)size_of(sizes - 1);
  char *buf = active ? malloc(most) : NULL, *other = active ? malloc(most) : NULL;
  int have = !active || (buf && other), all_have = 0;
  MPI_Allreduce(&have, &all_have, 1, MPI_INT, MPI_MIN, g->cart);
  if (!all_have) {
    free(buf);
    free(other);
    return 0;
  }
  if (active) { /* pages touched before any timing */
    memset(buf, 0, most);
    memset(other, 0, most);
  }
  for (int s = 0; s < sizes; s++) {
    int bytes = size_of(s), reps = reps_of(bytes);
    m[s] = bytes;
    MPI_Barrier(g->cart);
    double t0 = MPI_Wtime();
    for (int r = 0; active && r < reps; r++) {
      if (g->rank < partner) {
        MPI_Send(buf, bytes, MPI_BYTE, partner, 9, g->cart);
        MPI_Recv(buf, bytes, MPI_BYTE, partner, 9, g->cart, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, bytes, MPI_BYTE, partner, 9, g->cart, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_BYTE, partner, 9, g->cart);
      }
    }
    t[s] = (MPI_Wtime() - t0) / (2.0 * reps); /* one way */
    MPI_Barrier(g->cart);
    t0 = MPI_Wtime();
    for (int r = 0; active && r < reps; r++)
      MPI_Sendrecv(buf, bytes, MPI_BYTE, partner, 10, other, bytes, MPI_BYTE, partner, 10, g->cart,
                   MPI_STATUS_IGNORE);
    tx[s] = (MPI_Wtime() - t0) / reps; /* one message each way, at once */
  }
  free(buf);
  free(other);
  fit(m, t, sizes, ab);
  fit(m, tx, sizes, ab + 2);
  MPI_Bcast(ab, 4, MPI_DOUBLE, 0, g->cart);
  return 1;
}

/* The same two parameters for the link: every rank copies `src` (pinned memory, or ordinary
 * memory that ampcl stages) to its accelerator at once, blocking copies of 8 B up to 1 GiB (at
 * most `block` bytes); rank 0's times are fitted and sent to all. Returns 0 (on every rank) when a
 * rank's copies failed. A rank whose copy fails copies no more but still takes part in every
 * size's barrier: the others are waiting there (stopping early hung the job). */
static int link_model(const grid *g, const void *src, size_t block, double *alpha, double *beta) {
  double m[SIZES], t[SIZES];
  int count = 0, ok = 1, all_ok = 0;
  char why[256] = "";
  for (int s = 0; s < SIZES && (size_t)size_of(s) <= block; s++) {
    amp_array *a = NULL;
    int bytes = size_of(s), reps = reps_of(bytes);
    ok = ok && amp_array_create(g->copies, amp_extent1(bytes / 4), AMP_FLOAT, &a) == AMP_SUCCESS &&
         amp_copy_to_array(src, (size_t)bytes, a) == AMP_SUCCESS; /* the first, untimed */
    if (!ok && !why[0])
      snprintf(why, sizeof why, "%s", amp_last_error());
    MPI_Barrier(g->cart);
    double t0 = MPI_Wtime();
    for (int r = 0; r < reps && ok; r++)
      ok = amp_copy_to_array(src, (size_t)bytes, a) == AMP_SUCCESS;
    if (!ok && !why[0])
      snprintf(why, sizeof why, "%s", amp_last_error());
    m[count] = bytes;
    t[count++] = (MPI_Wtime() - t0) / reps;
    amp_array_release(a);
  }
  ok = ok && count >= 2;
  if (!ok && why[0])
    fprintf(stderr, "mpi_matmul: rank %d: a copy to the accelerator failed: %s\n", g->rank, why);
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, g->cart);
  if (!all_ok && g->rank == 0)
    fprintf(stderr, "mpi_matmul: the link's copies could not be timed\n");
  if (!all_ok)
    return 0;
  double ab[2];
  fit(m, t, count, ab);
  MPI_Bcast(ab, 2, MPI_DOUBLE, 0, g->cart);
  *alpha = ab[0];
  *beta = ab[1];
  return 1;
}

static int gcd(int a, int b) {
  while (b) {
    int r = a % b;
    a = b;
    b = r;
  }
  return a;
}

int main(int argc, char **argv) {
  /* threads: ampcl's (staging) and the pipeline's copy thread, none of which calls MPI */
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int p, rank, rc = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  options o;
  if (!parse(argc, argv, &o, rank)) {
    MPI_Finalize();
    return 2;
  }
  /* the grid: pr x pc = p, as square as p allows (pr >= pc); every rank computes the same */
  int dims[2] = {0, 0};
  MPI_Dims_create(p, 2, dims);
  int pr = dims[0], pc = dims[1], skipped = 0;
  for (int k = 0; k < ALG_COUNT && pr != pc; k++) {
    if (k == ALG_SUMMA || k == ALG_SHARED || !o.algs[k])
      continue;
    if (o.named[k]) {
      if (rank == 0)
        fprintf(stderr,
                "mpi_matmul: --algorithm %s needs a square grid of q x q ranks (P = 1, 4, 9, 16, "
                "...), and P = %d ranks make a %d x %d grid; SUMMA runs on any P (--algorithm "
                "summa)\n",
                algorithm_names[k], p, pr, pc);
      MPI_Finalize();
      return 2;
    }
    o.algs[k] = 0; /* asked for through "all" or by default */
    skipped = 1;
  }
  /* n padded up to a multiple of lcm(pr, pc) (at most p): blocks of mb x nb. MPI counts and
   * amp_extent2 are ints, so a block holds at most INT_MAX elements (and its bytes a size_t). */
  long long l = (long long)(pr / gcd(pr, pc)) * pc, most = INT_MAX;
  long long npad = ((long long)o.n + l - 1) / l * l, mb = npad / pr, nb = npad / pc;
  if ((unsigned long long)most > SIZE_MAX / sizeof(double))
    most = (long long)(SIZE_MAX / sizeof(double));
  if (npad > INT_MAX || mb * nb > most) {
    if (rank == 0)
      fprintf(stderr,
              "mpi_matmul: -n %d on a %d x %d grid makes blocks of %lld x %lld = %.0f elements, "
              "more than %lld (an MPI count and an amp_extent are ints): use more ranks or a "
              "smaller -n\n",
              o.n, pr, pc, mb, nb, (double)mb * (double)nb, most);
    MPI_Finalize();
    return 2;
  }
  grid g = {0};
  g.win = MPI_WIN_NULL;
  g.p = p;
  g.pr = pr;
  g.pc = pc;
  g.n = o.n;
  g.np = (int)npad;
  g.mb = (int)mb;
  g.nb = (int)nb;
  g.dbl = o.dbl;
  g.esize = o.dbl ? sizeof(double) : sizeof(float);
  g.mtype = o.dbl ? MPI_DOUBLE : MPI_FLOAT;
  g.show = o.show && o.n <= 8;
  int periods[2] = {1, 1}, keep_row[2] = {0, 1}, keep_col[2] = {1, 0}, coords[2];
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &g.cart);
  MPI_Comm_rank(g.cart, &g.rank);
  MPI_Cart_coords(g.cart, g.rank, 2, coords);
  g.i = coords[0];
  g.j = coords[1];
  g.bad_product = g.rank == o.bad_product_rank;
  MPI_Cart_sub(g.cart, keep_row, &g.row);
  MPI_Cart_sub(g.cart, keep_col, &g.col);

  /* every rank opens its accelerator; all learn whether every one could */
  char path[160];
  amp_status st = open_accelerator(&o, g.rank, &g.av, path, sizeof path);
  size_t bytes = (size_t)g.mb * (size_t)g.nb * g.esize;
  void **bufs[7] = {&g.A, &g.B, &g.C, &g.Aw[0], &g.Aw[1], &g.Bw[0], &g.Bw[1]};
  int pinned[7] = {0}, no_memory = 0;
  amp_accelerator *acc = NULL;
  if (st == AMP_SUCCESS)
    st = amp_accelerator_view_get_accelerator(g.av, &acc);
  if (st == AMP_SUCCESS) /* the copies' own queue */
    st = amp_accelerator_create_view(acc, AMP_QUEUING_MODE_IMMEDIATE, &g.copies);
  g.pinned = 1;
  for (int k = 0; k < 7 && st == AMP_SUCCESS; k++) {
    /* pinned memory where the accelerator gives it (DMA at the link's speed, no staging), else
     * ordinary memory: the same results, slower copies */
    pinned[k] = amp_host_alloc(acc, bytes, bufs[k]) == AMP_SUCCESS;
    g.pinned &= pinned[k];
    if (!pinned[k] && !(*bufs[k] = calloc(1, bytes)))
      no_memory = 1, st = AMP_ERROR_OUT_OF_MEMORY;
  }
  g.panel = o.panel ? o.panel : (g.mb < g.nb ? g.mb : g.nb);
  int ok = st == AMP_SUCCESS, all_ok = 0;
  if (no_memory)
    fprintf(stderr, "mpi_matmul: rank %d: no host memory for its 7 blocks of %zu bytes\n", g.rank,
            bytes);
  else if (!ok)
    fprintf(stderr, "mpi_matmul: rank %d: accelerator %s: %s\n  %s\n", g.rank, path,
            amp_status_name(st), amp_last_error());
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, g.cart);
  if (!all_ok) {
    if (g.rank == 0)
      fprintf(stderr, "mpi_matmul: a rank could not start (its message is above); stopping\n");
    rc = 1;
    goto done;
  }
  if (g.dbl) { /* the whole run is in double: where a rank's device has none, it cannot run here */
    amp_accelerator_properties ap;
    int have =
            amp_accelerator_get_properties(acc, &ap) == AMP_SUCCESS && ap.supports_double_precision,
        all_have = 0;
    if (!have)
      fprintf(stderr,
              "mpi_matmul: rank %d: %s has no double precision: --type double cannot run "
              "here\n",
              g.rank, path);
    MPI_Allreduce(&have, &all_have, 1, MPI_INT, MPI_MIN, g.cart);
    if (!all_have) {
      rc = 77; /* "cannot run here", as the tests' skip */
      goto done;
    }
  }
  if (g.rank == 0) {
    char pad[32] = "";
    if (g.np != g.n)
      snprintf(pad, sizeof pad, " (n padded to %d)", g.np);
    printf("mpi_matmul: n %d (%s), %d x %d ranks, blocks of %d x %d%s; rank 0 on %s\n", g.n,
           g.dbl ? "double" : "float", pr, pc, g.mb, g.nb, pad, path);
    if (skipped)
      printf("mpi_matmul: %d ranks make a %d x %d grid: cannon and fox need a square one (P = 1, "
             "4, 9, 16, ...), so they are left out\n",
             p, pr, pc);
  }
  /* "shared": the node's shared window, when every rank is on one node */
  if (o.algs[ALG_SHARED] && !shared_window_create(&g)) {
    if (o.named[ALG_SHARED]) {
      if (g.rank == 0)
        fprintf(stderr, "mpi_matmul: --algorithm shared needs every rank on one node and an MPI-3 "
                        "shared-memory window of two blocks each; this job has neither\n");
      rc = 2;
      goto done;
    }
    o.algs[ALG_SHARED] = 0;
    if (g.rank == 0)
      printf("mpi_matmul: the ranks are not all on one node: shared is left out\n");
  }
  /* the model's parameter pairs: MPI's (ping-pong and exchange) and the link's (copies of the
   * working blocks, and of the shared window where there is one) */
  double mpi[4] = {0, 0, 0, 0}, alpha_l = 0, beta_l = 0, alpha_o = 0, beta_o = 0;
  int model = 0;
  if (o.pingpong) {
    model = p > 1 ? pingpong(&g, bytes, mpi) : 1;
    model = model && link_model(&g, g.Aw[0], bytes, &alpha_l, &beta_l);
    if (model && g.win != MPI_WIN_NULL) /* the shared window is ordinary memory: staged */
      model = link_model(&g, g.At_of[g.rank], bytes, &alpha_o, &beta_o);
    if (g.rank == 0 && model) {
      if (p > 1) {
        printf("Hockney, MPI:  alpha %8.2f us, beta %.4f ns/byte (%6.2f GB/s), ping-pong of rank "
               "pairs, all at once\n",
               mpi[0] * 1e6, mpi[1] * 1e9, 1e-9 / mpi[1]);
        printf("Hockney, MPI:  alpha %8.2f us, beta %.4f ns/byte (%6.2f GB/s), exchange: both "
               "ranks of each pair send at once\n",
               mpi[2] * 1e6, mpi[3] * 1e9, 1e-9 / mpi[3]);
      }
      printf("Hockney, link: alpha %8.2f us, beta %.4f ns/byte (%6.2f GB/s), copies of %s "
             "memory to the accelerator, all ranks at once\n",
             alpha_l * 1e6, beta_l * 1e9, 1e-9 / beta_l, g.pinned ? "pinned" : "ordinary");
      if (g.win != MPI_WIN_NULL)
        printf("Hockney, link: alpha %8.2f us, beta %.4f ns/byte (%6.2f GB/s), copies of the "
               "shared window (ordinary memory, staged), all ranks at once\n",
               alpha_o * 1e6, beta_o * 1e9, 1e-9 / beta_o);
    } else if (g.rank == 0) {
      printf("Hockney: not measured (a rank could not allocate its buffer or copy to its "
             "accelerator)\n");
    }
  }
  st = warm_up(&g);
  ok = st == AMP_SUCCESS;
  if (!ok)
    fprintf(stderr, "mpi_matmul: rank %d: the warm-up block product failed: %s\n  %s\n", g.rank,
            amp_status_name(st), amp_last_error());
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, g.cart);
  if (!all_ok) {
    rc = 1;
    goto done;
  }
  if (g.rank == 0)
    printf("%-8s %10s %10s %9s %9s %10s %11s %11s %11s  %s\n", "", "time ms", "GFLOP/s", "comm ms",
           "copies ms", "compute ms", "products ms", "comm+copies", "model ms",
           o.verify ? "check" : "");
  int unmeasured = 0; /* products ms printed n/a: said why after the table */
  for (int a = 0; a < ALG_COUNT; a++) {
    if (!o.algs[a])
      continue;
    if (a == ALG_SHARED)
      shared_window_fill(&g); /* ends with a barrier */
    else
      fill_blocks(&g);
    MPI_Barrier(g.cart);
    timing t, worst;
    st = run_algorithm(&g, (algorithm)a, &t);
    ok = st == AMP_SUCCESS;
    if (!ok)
      fprintf(stderr, "mpi_matmul: rank %d: %s failed: %s\n  %s\n", g.rank, algorithm_names[a],
              amp_status_name(st), amp_last_error());
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, g.cart);
    MPI_Reduce(&t, &worst, TIMING_FIELDS, MPI_DOUBLE, MPI_MAX, 0, g.cart);
    if (!all_ok) {
      rc = 1;
      break;
    }
    int verified = o.verify ? verify(&g) : 1;
    if (g.rank == 0) {
      double flops = 2.0 * (double)g.n * g.n * g.n;
      char predicted[32] = "-";
      if (model) {
        double messages[2], volume[2], copies, copied, c_bytes;
        hockney_cost(&g, (algorithm)a, messages, volume);
        link_cost(&g, (algorithm)a, &copies, &copied, &c_bytes);
        /* shared's operands come from the window (ordinary memory), the others' from the working
         * blocks, whose link parameters were measured from them (pinned, or not) */
        const double al = a == ALG_SHARED ? alpha_o : alpha_l,
                     bl = a == ALG_SHARED ? beta_o : beta_l;
        snprintf(predicted, sizeof predicted, "%.3f",
                 (messages[0] * mpi[0] + volume[0] * mpi[1] + messages[1] * mpi[2] +
                  volume[1] * mpi[3] + copies * al + copied * bl + alpha_l + c_bytes * beta_l) *
                     1e3);
      }
      char products[32] = "n/a"; /* a product on some rank had no device time */
      if (!worst.unmeasured)
        snprintf(products, sizeof products, "%.3f", worst.products * 1e3);
      else
        unmeasured = 1;
      printf("%-8s %10.3f %10.2f %9.3f %9.3f %10.3f %11s %11.3f %11s  %s\n", algorithm_names[a],
             worst.total * 1e3, flops / worst.total * 1e-9, worst.comm * 1e3, worst.copies * 1e3,
             worst.compute * 1e3, products, (worst.comm + worst.copies) * 1e3, predicted,
             !o.verify  ? ""
             : verified ? "verified"
                        : "FAILED");
      if (!verified)
        rc = 1;
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, g.cart);
  }
  if (unmeasured) /* rank 0 only: it printed the table */
    printf("products ms: n/a: a block product had no device time on some rank (rank 0: %s)\n",
           products_unmeasured_why() ? products_unmeasured_why() : "it had one");
done:
  for (int k = 0; k < 7; k++) {
    if (pinned[k])
      amp_host_free(*bufs[k]);
    else
      free(*bufs[k]);
  }
  shared_window_free(&g);
  amp_accelerator_view_release(g.copies);
  MPI_Comm_free(&g.row);
  MPI_Comm_free(&g.col);
  MPI_Comm_free(&g.cart);
  MPI_Finalize();
  return rc;
}
