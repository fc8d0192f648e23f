/* examples/mpi_matmul/shared_window.c: the blocks in one MPI-3 shared-memory window of the node,
 * for the "shared" algorithm (algorithms.c).
 *
 * Ranks on one node need not send each other blocks at all: MPI_Win_allocate_shared gives every
 * rank memory that the others can read with plain loads (MPI_Win_shared_query says where). A rank
 * then copies the panels it needs from their owners' blocks straight to its accelerator, with
 * ampcl's multi-threaded staging, instead of an MPI message (one core's memcpy inside the MPI
 * library, about 6 GB/s on the GPU host) followed by the copy. A's blocks are kept transposed
 * (nb x mb, row-major), so that a panel of A's columns, like a panel of B's rows, is contiguous. */
#include <stdio.h>
#include <stdlib.h>

#include "mpi_matmul.h"

int shared_window_create(grid *g) {
  MPI_Comm node;
  int node_size = 0, ok;
  g->win = MPI_WIN_NULL;
  MPI_Comm_split_type(g->cart, MPI_COMM_TYPE_SHARED, g->rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_size);
  ok = node_size == g->p; /* the same answer on every rank */
  if (ok) {
    MPI_Aint bytes = (MPI_Aint)((size_t)g->mb * (size_t)g->nb * g->esize);
    void *base = NULL;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true"); /* each rank's part on its own pages */
    ok = MPI_Win_allocate_shared(2 * bytes, (int)g->esize, info, node, &base, &g->win) ==
         MPI_SUCCESS;
    MPI_Info_free(&info);
    g->At_of = ok ? calloc((size_t)g->p, sizeof *g->At_of) : NULL;
    g->B_of = ok ? calloc((size_t)g->p, sizeof *g->B_of) : NULL;
    ok = ok && g->At_of && g->B_of;
    for (int r = 0; ok && r < g->p; r++) { /* node rank r is grid rank r: split by g->rank */
      MPI_Aint size;
      int unit;
      char *p = NULL;
      ok = MPI_Win_shared_query(g->win, r, &size, &unit, &p) == MPI_SUCCESS && size >= 2 * bytes;
      g->At_of[r] = p;
      g->B_of[r] = p ? p + bytes : NULL;
    }
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, g->cart);
    ok = all;
    if (ok) { /* passive target for the whole run: reads are plain loads, ordered by barriers */
      MPI_Win_lock_all(MPI_MODE_NOCHECK, g->win);
    } else {
      if (g->win != MPI_WIN_NULL)
        MPI_Win_free(&g->win);
      free(g->At_of);
      free(g->B_of);
      g->At_of = g->B_of = NULL;
      g->win = MPI_WIN_NULL;
    }
  }
  MPI_Comm_free(&node);
  return ok;
}

void shared_window_fill(grid *g) {
  char *at = (char *)g->At_of[g->rank], *b = (char *)g->B_of[g->rank];
  for (int c = 0; c < g->nb; c++) /* A^T: row c holds column c of A's block */
    for (int r = 0; r < g->mb; r++) {
      size_t x = (size_t)c * (size_t)g->mb + (size_t)r;
      double a = element_a(g->n, g->i * g->mb + r, g->j * g->nb + c);
      if (g->dbl)
        ((double *)at)[x] = a;
      else
        ((float *)at)[x] = (float)a;
    }
  for (int r = 0; r < g->mb; r++)
    for (int c = 0; c < g->nb; c++) {
      size_t x = (size_t)r * (size_t)g->nb + (size_t)c;
      double v = element_b(g->n, g->i * g->mb + r, g->j * g->nb + c);
      if (g->dbl)
        ((double *)b)[x] = v;
      else
        ((float *)b)[x] = (float)v;
    }
  MPI_Win_sync(g->win); /* this rank's stores, visible to the others after the barrier */
  MPI_Barrier(g->cart);
  MPI_Win_sync(g->win);
}

void shared_window_free(grid *g) {
  if (g->win != MPI_WIN_NULL) { /* made by shared_window_create: locked */
    MPI_Win_unlock_all(g->win);
    MPI_Win_free(&g->win);
  }
  free(g->At_of);
  free(g->B_of);
  g->At_of = g->B_of = NULL;
  g->win = MPI_WIN_NULL;
}
