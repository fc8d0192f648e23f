/* lab/staging_probe.c: the ways to move data between ordinary (pageable) host memory and a GPU,
 * measured side by side with plain OpenCL, to choose ampcl's copy path (runtime/data/staging.c).
 *
 * For one buffer of --mib MiB it times, each the median of --repeats runs:
 *   pinned write/read       clEnqueue{Write,Read}Buffer from memory the driver pinned
 *                           (CL_MEM_ALLOC_HOST_PTR, mapped): the link's rate, the reference;
 *   pageable write/read     the same from malloc'd memory: what ampcl did so far;
 *   use-host-ptr write      a CL_MEM_USE_HOST_PTR buffer over the malloc'd memory, copied to the
 *                           device buffer (clEnqueueCopyBuffer), creation included;
 *   memcpy xT               malloc'd -> pinned host memory with T threads;
 *   staged write/read CxT   chunks of C MiB through a ring of pinned buffers, T threads copying
 *                           each chunk on the host while the previous chunk crosses the link.
 *
 *   staging-probe [--mib N] [--repeats R] [--chunks 4,16,64] [--threads 1,2,4,8] [--platform S]
 */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RING  4
#define MAX_T 16

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void die(const char *what, cl_int err) {
  fprintf(stderr, "staging-probe: %s failed (%d)\n", what, (int)err);
  exit(1);
}
#define CL(call, what)                                                                             \
  do {                                                                                             \
    cl_int e_ = (call);                                                                            \
    if (e_ != CL_SUCCESS)                                                                          \
      die(what, e_);                                                                               \
  } while (0)

/* ---- a pool of memcpy threads: each job is split into T slices ------------------------------ */
typedef struct pool {
  int n;
  pthread_t th[MAX_T];
  pthread_barrier_t start, done;
  unsigned char *dst;
  const unsigned char *src;
  size_t len;
  int quit;
} pool;

static void slice(pool *p, int i) {
  size_t per = ((p->len + (size_t)p->n - 1) / (size_t)p->n + 63) & ~(size_t)63; /* covers len */
  size_t lo = per * (size_t)i, hi = lo + per > p->len ? p->len : lo + per;
  if (lo < hi)
    memcpy(p->dst + lo, p->src + lo, hi - lo);
}

typedef struct worker_arg {
  pool *p;
  int i;
} worker_arg;

static void *worker(void *arg) {
  worker_arg *w = arg;
  for (;;) {
    pthread_barrier_wait(&w->p->start);
    if (w->p->quit)
      return NULL;
    slice(w->p, w->i);
    pthread_barrier_wait(&w->p->done);
  }
}

static worker_arg wargs[MAX_T];

static void pool_init(pool *p, int n) {
  memset(p, 0, sizeof *p);
  p->n = n;
  pthread_barrier_init(&p->start, NULL, (unsigned)n);
  pthread_barrier_init(&p->done, NULL, (unsigned)n);
  for (int i = 1; i < n; i++) {
    wargs[i].p = p;
    wargs[i].i = i;
    pthread_create(&p->th[i], NULL, worker, &wargs[i]);
  }
}

static void pool_copy(pool *p, void *dst, const void *src, size_t len) {
  if (p->n == 1) {
    memcpy(dst, src, len);
    return;
  }
  p->dst = dst;
  p->src = src;
  p->len = len;
  pthread_barrier_wait(&p->start);
  slice(p, 0);
  pthread_barrier_wait(&p->done);
}

static void pool_fini(pool *p) {
  if (p->n > 1) {
    p->quit = 1;
    pthread_barrier_wait(&p->start);
    for (int i = 1; i < p->n; i++)
      pthread_join(p->th[i], NULL);
  }
  pthread_barrier_destroy(&p->start);
  pthread_barrier_destroy(&p->done);
}

/* ---- the setup --------------------------------------------------------------------------------
 */
static cl_context ctx;
static cl_command_queue q;
static cl_mem dev;
static unsigned char *pageable, *pinned_big;
static cl_mem pinned_big_buf;
static size_t bytes;

static unsigned char *pinned_alloc(size_t n, cl_mem *buf) {
  cl_int err;
  *buf = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, n, NULL, &err);
  if (err != CL_SUCCESS)
    die("clCreateBuffer(ALLOC_HOST_PTR)", err);
  void *p =
      clEnqueueMapBuffer(q, *buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, n, 0, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    die("clEnqueueMapBuffer", err);
  return p;
}

/* Staged write: chunk c goes user -> ring[c % RING] (host threads) -> device (DMA). */
static void staged_write(pool *p, unsigned char **ring, size_t chunk) {
  cl_event ev[RING] = {0};
  size_t nchunks = (bytes + chunk - 1) / chunk;
  for (size_t c = 0; c < nchunks; c++) {
    int r = (int)(c % RING);
    if (ev[r]) {
      CL(clWaitForEvents(1, &ev[r]), "clWaitForEvents");
      clReleaseEvent(ev[r]);
    }
    size_t off = c * chunk, len = off + chunk > bytes ? bytes - off : chunk;
    pool_copy(p, ring[r], pageable + off, len);
    CL(clEnqueueWriteBuffer(q, dev, CL_FALSE, off, len, ring[r], 0, NULL, &ev[r]),
       "clEnqueueWriteBuffer (staged)");
    clFlush(q);
  }
  CL(clFinish(q), "clFinish");
  for (int r = 0; r < RING; r++)
    if (ev[r])
      clReleaseEvent(ev[r]);
}

/* Staged read: the DMA of chunk c + RING is in flight while chunk c is copied out. */
static void staged_read(pool *p, unsigned char **ring, size_t chunk) {
  cl_event ev[RING] = {0};
  size_t nchunks = (bytes + chunk - 1) / chunk;
  for (size_t c = 0; c < nchunks && c < RING; c++) {
    size_t off = c * chunk, len = off + chunk > bytes ? bytes - off : chunk;
    CL(clEnqueueReadBuffer(q, dev, CL_FALSE, off, len, ring[c], 0, NULL, &ev[c]),
       "clEnqueueReadBuffer (staged)");
  }
  clFlush(q);
  for (size_t c = 0; c < nchunks; c++) {
    int r = (int)(c % RING);
    size_t off = c * chunk, len = off + chunk > bytes ? bytes - off : chunk;
    CL(clWaitForEvents(1, &ev[r]), "clWaitForEvents");
    clReleaseEvent(ev[r]);
    ev[r] = NULL;
    pool_copy(p, pageable + off, ring[r], len);
    size_t next = c + RING;
    if (next < nchunks) {
      size_t noff = next * chunk, nlen = noff + chunk > bytes ? bytes - noff : chunk;
      CL(clEnqueueReadBuffer(q, dev, CL_FALSE, noff, nlen, ring[r], 0, NULL, &ev[r]),
         "clEnqueueReadBuffer (staged)");
      clFlush(q);
    }
  }
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int repeats = 5;

/* Median GB/s of `run` over the repeats (one warm-up first). */
#define MEASURE(label, stmt)                                                                       \
  do {                                                                                             \
    double t_[100];                                                                                \
    stmt;                                                                                          \
    for (int r_ = 0; r_ < repeats; r_++) {                                                         \
      double t0_ = now_s();                                                                        \
      stmt;                                                                                        \
      t_[r_] = now_s() - t0_;                                                                      \
    }                                                                                              \
    qsort(t_, (size_t)repeats, sizeof t_[0], cmp);                                                 \
    double med_ = t_[repeats / 2];                                                                 \
    printf("%-34s %9.2f ms %8.2f GB/s\n", label, med_ * 1e3, (double)bytes / med_ / 1e9);          \
    fflush(stdout);                                                                                \
  } while (0)

static int parse_list(const char *s, int *out, int max) {
  int n = 0;
  while (*s && n < max) {
    out[n++] = atoi(s);
    const char *c = strchr(s, ',');
    if (!c)
      break;
    s = c + 1;
  }
  return n;
}

int main(int argc, char **argv) {
  size_t mib = 1024;
  int chunks[8] = {4, 16, 64}, nch = 3, threads[8] = {1, 2, 4, 8}, nth = 4;
  const char *want = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--mib") && i + 1 < argc)
      mib = (size_t)atol(argv[++i]);
    else if (!strcmp(argv[i], "--repeats") && i + 1 < argc)
      repeats = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--chunks") && i + 1 < argc)
      nch = parse_list(argv[++i], chunks, 8);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      nth = parse_list(argv[++i], threads, 8);
    else if (!strcmp(argv[i], "--platform") && i + 1 < argc)
      want = argv[++i];
    else {
      fprintf(stderr, "usage: staging-probe [--mib N] [--repeats R] [--chunks LIST] "
                      "[--threads LIST] [--platform SUBSTRING]\n");
      return 2;
    }
  }
  if (repeats < 1 || repeats > 99 || mib < 1)
    return 2;
  bytes = mib << 20;
  cl_platform_id plats[8];
  cl_uint np = 0;
  CL(clGetPlatformIDs(8, plats, &np), "clGetPlatformIDs");
  cl_device_id d = NULL;
  for (cl_uint i = 0; i < np && !d; i++) {
    char name[256] = "";
    clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (want && !strstr(name, want))
      continue;
    if (clGetDeviceIDs(plats[i], want ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &d, NULL) !=
        CL_SUCCESS)
      d = NULL;
  }
  if (!d) {
    fprintf(stderr, "staging-probe: no %s device\n", want ? want : "GPU");
    return 1;
  }
  char dname[256] = "";
  clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof dname, dname, NULL);
  printf("device %s, %zu MiB, median of %d\n", dname, mib, repeats);
  cl_int err;
  ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    die("clCreateContext", err);
  q = clCreateCommandQueue(ctx, d, 0, &err);
  if (err != CL_SUCCESS)
    die("clCreateCommandQueue", err);
  dev = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (err != CL_SUCCESS)
    die("clCreateBuffer", err);
  pageable = malloc(bytes);
  if (!pageable)
    die("malloc", 0);
  for (size_t i = 0; i < bytes; i++)
    pageable[i] = (unsigned char)(i * 131);
  pinned_big = pinned_alloc(bytes, &pinned_big_buf);
  memcpy(pinned_big, pageable, bytes);

  MEASURE("pinned write (the link)",
          CL(clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, bytes, pinned_big, 0, NULL, NULL), "write"));
  MEASURE("pinned read (the link)",
          CL(clEnqueueReadBuffer(q, dev, CL_TRUE, 0, bytes, pinned_big, 0, NULL, NULL), "read"));
  MEASURE("pageable write",
          CL(clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, bytes, pageable, 0, NULL, NULL), "write"));
  MEASURE("pageable read",
          CL(clEnqueueReadBuffer(q, dev, CL_TRUE, 0, bytes, pageable, 0, NULL, NULL), "read"));
  MEASURE("use-host-ptr write", {
    cl_mem u = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, bytes, pageable, &err);
    if (err != CL_SUCCESS)
      die("clCreateBuffer(USE_HOST_PTR)", err);
    CL(clEnqueueCopyBuffer(q, u, dev, 0, 0, bytes, 0, NULL, NULL), "copy");
    CL(clFinish(q), "clFinish");
    clReleaseMemObject(u);
  });
  for (int t = 0; t < nth; t++) {
    pool p;
    pool_init(&p, threads[t] < 1 ? 1 : threads[t] > MAX_T ? MAX_T : threads[t]);
    char label[64];
    snprintf(label, sizeof label, "memcpy x%d", p.n);
    MEASURE(label, pool_copy(&p, pinned_big, pageable, bytes));
    for (int c = 0; c < nch; c++) {
      size_t chunk = (size_t)chunks[c] << 20;
      cl_mem rb[RING];
      unsigned char *ring[RING];
      for (int r = 0; r < RING; r++)
        ring[r] = pinned_alloc(chunk, &rb[r]);
      snprintf(label, sizeof label, "staged write %dMiB x%d", chunks[c], p.n);
      MEASURE(label, staged_write(&p, ring, chunk));
      snprintf(label, sizeof label, "staged read %dMiB x%d", chunks[c], p.n);
      MEASURE(label, staged_read(&p, ring, chunk));
      for (int r = 0; r < RING; r++) {
        clEnqueueUnmapMemObject(q, rb[r], ring[r], 0, NULL, NULL);
        clReleaseMemObject(rb[r]);
      }
      clFinish(q);
    }
    pool_fini(&p);
  }
  /* the staged read must have brought back what the staged write sent */
  int bad = 0;
  for (size_t i = 0; i < bytes; i += 4093)
    bad += pageable[i] != (unsigned char)(i * 131);
  printf("round trip %s\n", bad ? "CORRUPTED" : "verified");
  clEnqueueUnmapMemObject(q, pinned_big_buf, pinned_big, 0, NULL, NULL);
  clFinish(q);
  clReleaseMemObject(pinned_big_buf);
  clReleaseMemObject(dev);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(pageable);
  return bad != 0;
}
