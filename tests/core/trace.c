/* trace: AMP_TRACE writes a timeline that matches what ampcl did (ampcl/trace.h).
 *
 *   test_trace on FILE     (AMP_TRACE=FILE) two views in, a kernel, a synchronize, twice; then a
 *                          kernel and a synchronize from each of two threads on two accelerators.
 *                          The file has exactly the copies the transfer counters report, with
 *                          their bytes, each kernel once, commands of each queue in order and not
 *                          overlapping, each kernel inside the host spans of the launch that
 *                          enqueued it and the synchronize that waited for it, and two device
 *                          tracks for the two accelerators (when POCL exposes two); map and
 *                          unmap of amp_host_alloc memory and a marker appear too.
 *   test_trace off FILE    (AMP_TRACE unset, AMP_PROFILE=0) tracing is off, no file is written
 *                          and no queue profiles.
 *   test_trace array-view FILE  (AMP_TRACE=FILE) copies to and from an array run on the array's own
 *                          accelerator view (a queue of their own), not on the default view where
 *                          the kernel that reads the array runs: the two commands are on one track,
 *                          the kernel on another, and the kernel still sees the copied data.
 *
 * The file is read line by line: ampcl writes one event per line (trace.c). amp-trace check reads
 * it as JSON (a second ctest entry). */
#include <pthread.h>
#include <unistd.h>

#include <ampcl/opencl.h>

#include "check.h"

static const char *src =
    "__kernel void axpy(AMP_CONST_VIEW(float, x), AMP_CONST_VIEW(float, y), AMP_VIEW(float, z)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(z, i[0]) = 2.0f * amp_at(x, i[0]) + amp_at(y, i[0]);\n"
    "}\n";

enum { N = 4096, MAXEV = 4096 };

typedef struct event {
  int tid;
  double ts, dur;
  char cat[48], name[96], acc[96];
  double bytes;
} event;

static event ev[MAXEV];
static int nev;

/* The value of "key": in a line, as a string or a number. */
static int field(const char *line, const char *key, char *out, size_t cap) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr(line, pat);
  if (!p)
    return 0;
  p += strlen(pat);
  size_t n = 0;
  if (*p == '"') {
    for (p++; *p && *p != '"' && n + 1 < cap; p++)
      out[n++] = *p;
  } else {
    for (; *p && *p != ',' && *p != '}' && n + 1 < cap; p++)
      out[n++] = *p;
  }
  out[n] = '\0';
  return 1;
}

static int read_trace(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  char line[2048], v[128];
  nev = 0;
  while (fgets(line, sizeof line, f) && nev < MAXEV) {
    if (!field(line, "ph", v, sizeof v) || strcmp(v, "X") != 0)
      continue;
    event *e = &ev[nev++];
    memset(e, 0, sizeof *e);
    field(line, "tid", v, sizeof v);
    e->tid = atoi(v);
    field(line, "ts", v, sizeof v);
    e->ts = atof(v);
    field(line, "dur", v, sizeof v);
    e->dur = atof(v);
    field(line, "cat", e->cat, sizeof e->cat);
    field(line, "name", e->name, sizeof e->name);
    field(line, "accelerator", e->acc, sizeof e->acc);
    if (field(line, "bytes", v, sizeof v))
      e->bytes = atof(v);
  }
  fclose(f);
  return 1;
}

static int count_cat(const char *prefix, double *bytes) {
  int n = 0;
  *bytes = 0;
  for (int i = 0; i < nev; i++)
    if (strncmp(ev[i].cat, prefix, strlen(prefix)) == 0) {
      n++;
      *bytes += ev[i].bytes;
    }
  return n;
}

/* The i-th host span named `name`, or NULL. */
static const event *host_span(const char *name, int i) {
  for (int k = 0; k < nev; k++)
    if (strcmp(ev[k].cat, "host") == 0 && strcmp(ev[k].name, name) == 0 && i-- == 0)
      return &ev[k];
  return NULL;
}

typedef struct worker {
  amp_accelerator *acc;
  amp_kernel *k;
  amp_status status;
} worker;

static void *work(void *arg) {
  worker *w = arg;
  static _Thread_local float x[N], y[N], z[N];
  for (int i = 0; i < N; i++)
    x[i] = y[i] = (float)i;
  amp_accelerator_view *av = NULL;
  amp_array_view *vx = NULL, *vy = NULL, *vz = NULL;
  amp_status st = amp_accelerator_default_view(w->acc, &av);
  if (st == AMP_SUCCESS)
    st = amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx);
  if (st == AMP_SUCCESS)
    st = amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, y, &vy);
  if (st == AMP_SUCCESS)
    st = amp_array_view_create(amp_extent1(N), AMP_FLOAT, z, &vz);
  for (int r = 0; r < 3 && st == AMP_SUCCESS; r++) {
    amp_arg args[] = {amp_arg_view(vx), amp_arg_view(vy), amp_arg_view(vz)};
    st = amp_parallel_for_each(av, amp_extent1(N), w->k, args, 3);
    if (st == AMP_SUCCESS)
      st = amp_array_view_synchronize(vz);
  }
  amp_array_view_release(vx);
  amp_array_view_release(vy);
  amp_array_view_release(vz);
  w->status = st;
  return NULL;
}

static int traced(const char *path) {
  CHECK(amp_trace_enabled());
  REQUIRE_VIEW(av);
  amp_kernel *k = test_kernel(src, NULL, "axpy");
  static float x[N], y[N], z[N];
  for (int i = 0; i < N; i++)
    x[i] = y[i] = (float)i;
  CHECK_OK(amp_transfer_stats_reset());
  for (int r = 0; r < 2; r++) {
    amp_array_view *vx = NULL, *vy = NULL, *vz = NULL;
    CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx));
    CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, y, &vy));
    CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, z, &vz));
    CHECK_OK(amp_array_view_discard_data(vz));
    amp_arg args[] = {amp_arg_view(vx), amp_arg_view(vy), amp_arg_view(vz)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 3));
    CHECK_OK(amp_array_view_synchronize(vz));
    amp_array_view_release(vx);
    amp_array_view_release(vy);
    amp_array_view_release(vz);
  }
  amp_transfer_stats st = test_stats(NULL);
  CHECK_OK(amp_trace_flush());
  CHECK(read_trace(path));
  double wb = 0, rb = 0, db = 0;
  int writes = count_cat("write", &wb), reads = count_cat("read", &rb);
  /* with AMP_DEBUG=1 each launch also reads back its debug record: traced, not a data transfer */
  reads -= count_cat("read (debug record)", &db);
  rb -= db;
  printf("trace: %d events; %d writes (%.0f bytes), %d reads (%.0f bytes); counters: %llu in, "
         "%llu out\n",
         nev, writes, wb, reads, rb, (unsigned long long)st.to_device_count,
         (unsigned long long)st.to_host_count);
  CHECK_EQ_INT(writes, st.to_device_count);
  CHECK_EQ_INT(reads, st.to_host_count);
  CHECK_EQ_INT(wb, st.to_device_bytes);
  CHECK_EQ_INT(rb, st.to_host_bytes);
  double kb;
  CHECK_EQ_INT(count_cat("kernel", &kb), 2);
  /* each kernel inside its launch's span (it cannot start before it is enqueued) and its
   * synchronize's (which waited for it); 50 us for the alignment of the clocks */
  int kth = 0;
  for (int i = 0; i < nev; i++) {
    if (strcmp(ev[i].cat, "kernel") != 0)
      continue;
    const event *launch = host_span("amp_parallel_for_each", kth),
                *sync = host_span("amp_array_view_synchronize", kth);
    kth++;
    CHECK(launch && sync);
    if (!launch || !sync)
      continue;
    CHECK(ev[i].ts + 50 >= launch->ts);
    CHECK(ev[i].ts + ev[i].dur <= sync->ts + sync->dur + 50);
  }
  /* commands of one queue in order, not overlapping */
  for (int i = 0; i < nev; i++)
    for (int j = i + 1; j < nev; j++)
      if (ev[i].tid >= 1000 && ev[j].tid == ev[i].tid) {
        CHECK(ev[j].ts + 0.01 >= ev[i].ts + ev[i].dur);
        break;
      }

  /* the other commands: map and unmap of pinned host memory, a marker */
  amp_accelerator *acc0 = NULL;
  void *pinned = NULL;
  amp_future *marker = NULL;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc0));
  CHECK_OK(amp_host_alloc(acc0, 1 << 16, &pinned));
  CHECK_OK(amp_host_free(pinned));
  CHECK_OK(amp_accelerator_view_create_marker(av, &marker));
  CHECK_OK(amp_future_wait(marker));
  amp_future_release(marker);
  CHECK_OK(amp_trace_flush());
  CHECK(read_trace(path));
  double mb, ub, xb;
  CHECK(count_cat("map", &mb) >= 1 && mb >= (1 << 16));
  CHECK(count_cat("unmap", &ub) >= 1 && ub >= (1 << 16));
  CHECK(count_cat("marker", &xb) >= 1);

  /* two threads on two accelerators: two device tracks */
  amp_accelerator *devs[2];
  size_t nd = test_devices(devs, 2);
  if (nd == 2) {
    worker w[2] = {{devs[0], k, AMP_SUCCESS}, {devs[1], k, AMP_SUCCESS}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
      CHECK(pthread_create(&t[i], NULL, work, &w[i]) == 0);
    for (int i = 0; i < 2; i++)
      pthread_join(t[i], NULL);
    CHECK_OK(w[0].status);
    CHECK_OK(w[1].status);
    CHECK_OK(amp_trace_flush());
    CHECK(read_trace(path));
    /* both accelerators the threads used have kernels in the trace, on tracks of their own */
    int tids[2] = {-1, -1};
    for (int d = 0; d < 2; d++) {
      amp_accelerator_properties p;
      CHECK_OK(amp_accelerator_get_properties(devs[d], &p));
      int kernels = 0;
      for (int i = 0; i < nev; i++)
        if (strcmp(ev[i].cat, "kernel") == 0 && strcmp(ev[i].acc, p.device_path) == 0) {
          kernels++;
          tids[d] = ev[i].tid;
        }
      printf("%s: %d kernels\n", p.device_path, kernels);
      CHECK(kernels >= 3);
    }
    CHECK(tids[0] >= 1000 && tids[1] >= 1000 && tids[0] != tids[1]);
    CHECK_EQ_INT(count_cat("kernel", &kb), 8);
  } else {
    printf("one device: the two-thread part needs POCL_DEVICES=\"pthread pthread\"\n");
  }
  amp_kernel_release(k);
  return check_done();
}

static int untraced(const char *path) {
  unlink(path);
  CHECK(!amp_trace_enabled());
  amp_accelerator_view *av = test_view();
  amp_kernel *k = test_kernel(src, NULL, "axpy");
  /* run with AMP_PROFILE=0: no queue records device times */
  bool profiling = true;
  cl_command_queue q = NULL;
  cl_command_queue_properties props = CL_QUEUE_PROFILING_ENABLE;
  CHECK_OK(amp_accelerator_view_get_profiling(av, &profiling));
  CHECK(!profiling);
  CHECK_OK(amp_accelerator_view_get_cl_queue(av, &q));
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) == CL_SUCCESS);
  CHECK(!(props & CL_QUEUE_PROFILING_ENABLE));
  static float x[N], y[N], z[N];
  amp_array_view *vx = NULL, *vy = NULL, *vz = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, y, &vy));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, z, &vz));
  amp_arg args[] = {amp_arg_view(vx), amp_arg_view(vy), amp_arg_view(vz)};
  if (av)
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 3));
  CHECK_OK(amp_array_view_synchronize(vz));
  CHECK_OK(amp_trace_flush());
  CHECK(access(path, F_OK) != 0); /* no file */
  amp_array_view_release(vx);
  amp_array_view_release(vy);
  amp_array_view_release(vz);
  amp_kernel_release(k);
  return check_done();
}

/* AMP_TRACE names a symbolic link (one another user could have planted where the trace goes): the
 * trace is not written through it, the flush says why, and the file it points to is unchanged. */
static int symlinked(const char *path) {
  char target[4096];
  snprintf(target, sizeof target, "%s.target", path);
  FILE *t = fopen(target, "w");
  if (!t) {
    fprintf(stderr, "cannot create %s\n", target);
    return 1;
  }
  fputs("not a trace\n", t);
  fclose(t);
  unlink(path);
  if (symlink(target, path) != 0) {
    fprintf(stderr, "cannot create the link %s\n", path);
    return 1;
  }
  REQUIRE_VIEW(av);
  int h[8] = {0};
  amp_array_view *v;
  REQUIRE_OK(amp_array_view_create(amp_extent1(8), AMP_INT32, h, &v));
  CHECK_OK(amp_array_view_synchronize_to(v, av)); /* something to trace */
  CHECK_OK(amp_array_view_release(v));
  CHECK_STATUS(amp_trace_flush(), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("symbolic link");
  char back[64] = "";
  t = fopen(target, "r");
  CHECK(t && fgets(back, sizeof back, t) && strcmp(back, "not a trace\n") == 0);
  if (t)
    fclose(t);
  unlink(path); /* the flush at exit then creates a plain file: that is allowed */
  return check_done();
}

/* The copies of an array go on its view's queue. */
static int array_view_queue(const char *path) {
  CHECK(amp_trace_enabled());
  REQUIRE_VIEW(av);
  amp_accelerator *acc = test_acc_of(av);
  amp_accelerator_view *own = NULL;
  amp_array *a = NULL;
  amp_array_view *va = NULL, *vz = NULL;
  amp_kernel *k = test_kernel(src, NULL, "axpy");
  static float x[N], back[N], z[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)(3 * i + 1);
  REQUIRE_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_IMMEDIATE, &own));
  REQUIRE_OK(amp_array_create(own, amp_extent1(N), AMP_FLOAT, &a));
  CHECK_OK(amp_copy_to_array(x, sizeof x, a)); /* on `own` */
  CHECK_OK(amp_array_view_of(a, &va));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, z, &vz));
  CHECK_OK(amp_array_view_discard_data(vz));
  amp_arg args[] = {amp_arg_view(va), amp_arg_view(va), amp_arg_view(vz)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 3)); /* on the default view */
  CHECK_OK(amp_array_view_synchronize(vz));
  CHECK_OK(amp_copy_from_array(a, back, sizeof back)); /* on `own` */
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += z[i] != 3.0f * x[i] || back[i] != x[i];
  CHECK_EQ_INT(wrong, 0);
  CHECK_OK(amp_trace_flush());
  CHECK(read_trace(path));
  int write_tid = -1, read_tid = -1, kernel_tid = -1;
  for (int i = 0; i < nev; i++) {
    if (strncmp(ev[i].cat, "write", 5) == 0 && ev[i].bytes == (double)sizeof x)
      write_tid = ev[i].tid;
    else if (strncmp(ev[i].cat, "read", 4) == 0 && ev[i].bytes == (double)sizeof back &&
             read_tid < 0 && write_tid >= 0 && kernel_tid >= 0)
      read_tid = ev[i].tid; /* the first read after the kernel: amp_copy_from_array or z's */
    else if (strcmp(ev[i].cat, "kernel") == 0)
      kernel_tid = ev[i].tid;
  }
  printf("trace: array write on track %d, kernel on %d\n", write_tid, kernel_tid);
  CHECK(write_tid >= 1000 && kernel_tid >= 1000);
  CHECK(write_tid != kernel_tid);
  /* the array's copy back is on its track; z's synchronize is on the kernel's */
  int array_read_on_own = 0;
  for (int i = 0; i < nev; i++)
    array_read_on_own |= strncmp(ev[i].cat, "read", 4) == 0 && ev[i].tid == write_tid;
  CHECK(array_read_on_own);
  amp_array_view_release(va);
  amp_array_view_release(vz);
  amp_array_release(a);
  amp_accelerator_view_release(own);
  return check_done();
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_trace on|off|symlink|array-view FILE\n");
    return 1;
  }
  const char *env = getenv("AMP_TRACE");
  if (strcmp(argv[1], "array-view") == 0)
    return env && strcmp(env, argv[2]) == 0 ? array_view_queue(argv[2]) : 1;
  if (strcmp(argv[1], "symlink") == 0)
    return env && strcmp(env, argv[2]) == 0 ? symlinked(argv[2]) : 1;
  if (strcmp(argv[1], "on") == 0) {
    if (!env || strcmp(env, argv[2]) != 0) {
      fprintf(stderr, "run with AMP_TRACE=%s\n", argv[2]);
      return 1;
    }
    return traced(argv[2]);
  }
  if (env) {
    fprintf(stderr, "run without AMP_TRACE\n");
    return 1;
  }
  return untraced(argv[2]);
}
