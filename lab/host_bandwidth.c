/* lab/host_bandwidth.c: the host's own memory bandwidth, the bound for GPUs staging malloc'd
 * memory at once (issue 34). T threads each memcpy their share of a large buffer into another,
 * repeatedly; prints GB/s of bytes copied (each copied byte is read once and written once) for
 * each T. Staging one byte to a GPU reads it from malloc'd memory, writes it into a pinned ring
 * buffer, and the GPU's DMA reads that: about three touches of host memory when the ring does not
 * stay in the caches, two when it does.
 *
 *   host-bandwidth [GiB] [threads,threads,...]     (default 4 GiB; 1,8,16,32,48,64) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct job {
  char *dst;
  const char *src;
  size_t len;
  pthread_barrier_t *go;
} job;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *worker(void *arg) {
  job *j = arg;
  pthread_barrier_wait(j->go);
  memcpy(j->dst, j->src, j->len);
  pthread_barrier_wait(j->go);
  return NULL;
}

int main(int argc, char **argv) {
  size_t gib = argc > 1 ? (size_t)atoi(argv[1]) : 4;
  char list[256] = "1,8,16,32,48,64";
  if (argc > 2)
    snprintf(list, sizeof list, "%s", argv[2]);
  size_t bytes = gib << 30;
  char *src = malloc(bytes), *dst = malloc(bytes);
  if (!gib || !src || !dst) {
    fprintf(stderr, "host-bandwidth: cannot allocate 2 x %zu GiB\n", gib);
    return 1;
  }
  memset(src, 1, bytes); /* every page faulted in before timing */
  memset(dst, 2, bytes);
  printf("threads  GB/s copied (best of 3, %zu GiB)\n", gib);
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    int t = atoi(tok);
    if (t < 1 || t > 1024)
      continue;
    job *jobs = calloc((size_t)t, sizeof *jobs);
    pthread_t *th = calloc((size_t)t, sizeof *th);
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, (unsigned)t + 1);
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
      for (int i = 0; i < t; i++) {
        size_t lo = bytes * (size_t)i / (size_t)t, hi = bytes * (size_t)(i + 1) / (size_t)t;
        jobs[i] = (job){dst + lo, src + lo, hi - lo, &go};
        pthread_create(&th[i], NULL, worker, &jobs[i]);
      }
      pthread_barrier_wait(&go);
      double t0 = now();
      pthread_barrier_wait(&go);
      double s = now() - t0;
      for (int i = 0; i < t; i++)
        pthread_join(th[i], NULL);
      if ((double)bytes / s > best)
        best = (double)bytes / s;
    }
    printf("%7d  %.1f\n", t, best * 1e-9);
    pthread_barrier_destroy(&go);
    free(jobs);
    free(th);
  }
  free(src);
  free(dst);
  return 0;
}
