/* runtime/blas/gemm_split_ring.c: amp_blas_gemm_multi's ring of op(B)'s panels.
 *
 * The fillers (the calling thread and nfill - 1 others) pack panel p into slot p % ring once every
 * accelerator has released the panel that slot held (p - ring); each accelerator's thread waits
 * until its next panel is packed, copies it in, and releases the slot. j->lock and j->cond guard
 * the slots' state. */
#include <pthread.h>
#include <string.h>

#include "blas/gemm_split.h"

void amp__gemm_split_abort(job *j) {
  pthread_mutex_lock(&j->lock);
  j->abort = 1;
  pthread_cond_broadcast(&j->cond);
  pthread_mutex_unlock(&j->lock);
}

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

void amp__gemm_split_fill(job *j, size_t f) {
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

void *amp__gemm_split_filler_main(void *arg) {
  struct filler *fl = arg;
  job *j = fl->j;
  pthread_mutex_lock(&j->lock);
  while (!j->go && !j->abort)
    pthread_cond_wait(&j->cond, &j->lock);
  int skip = j->abort || fl->f >= j->nfill;
  pthread_mutex_unlock(&j->lock);
  if (!skip)
    amp__gemm_split_fill(j, fl->f);
  return NULL;
}

int amp__gemm_split_wait_panel(job *j, size_t p, int block) {
  size_t s = p % j->ring;
  pthread_mutex_lock(&j->lock);
  while (block && !j->abort && !(j->slot_panel[s] == (long)p && j->slot_filled[s] == j->nfill))
    pthread_cond_wait(&j->cond, &j->lock);
  int ok = !j->abort && j->slot_panel[s] == (long)p && j->slot_filled[s] == j->nfill;
  pthread_mutex_unlock(&j->lock);
  return ok;
}

void amp__gemm_split_release_panel(job *j, size_t p) {
  size_t s = p % j->ring;
  pthread_mutex_lock(&j->lock);
  j->slot_users[s]--;
  pthread_cond_broadcast(&j->cond);
  pthread_mutex_unlock(&j->lock);
}
