/* amp-transfer: host <-> device throughput through array views, from malloc'd and from pinned
 * memory, next to raw OpenCL reads and writes measured in the same run.
 *
 *   amp-transfer [--accelerator PATH] [--mib 64,256,1024] [--repeats 5]
 *
 * Rows (GB/s, median of the repeats, 1 GB = 1e9 bytes). raw write/read malloc:
 * clEnqueueWriteBuffer / ReadBuffer, blocking, from/to malloc'd memory. raw write/read pinned: the
 * same from/to memory of a CL_MEM_ALLOC_HOST_PTR buffer, mapped. view h2d/d2h malloc:
 * amp_array_view_synchronize_to (after refresh) / amp_array_view_synchronize (after a kernel wrote
 * the view), over malloc'd memory; d2h async: amp_array_view_synchronize_async and a wait for its
 * future. view h2d/d2h pinned: the same over memory from amp_host_alloc.
 * Each view row is checked with the transfer counters: exactly the view's bytes moved, once. */
#include <ampcl.h>
#include <ampcl/opencl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "transfer_e2e.h"

#define MAX_SIZES   16
#define MAX_REPEATS 64
#define MAX_MIB     8191 /* a view's extent (an int) counts uints: the most below 2^31 */

static double now_s(void) {
  return bench_now_ms() * 1e-3;
}

static double median(const double *v, int n) {
  return bench_stats_of(v, n).median;
}

#define TRY(call)                                                                                  \
  do {                                                                                             \
    amp_status st_ = (call);                                                                       \
    if (st_ != AMP_SUCCESS) {                                                                      \
      fprintf(stderr, "amp-transfer: %s failed: %s\n  %s\n", #call, amp_status_name(st_),          \
              amp_last_error());                                                                   \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

#define TRY_CL(call)                                                                               \
  do {                                                                                             \
    cl_int e_ = (call);                                                                            \
    if (e_ != CL_SUCCESS) {                                                                        \
      fprintf(stderr, "amp-transfer: %s failed: %s (%d)\n", #call,                                 \
              amp_status_name((amp_status)e_), (int)e_);                                           \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static const char *touch_src = "__kernel void touch(AMP_VIEW(uint, v)) {\n"
                               "  amp_at(v, 0) = amp_at(v, 0) + 1u;\n"
                               "}\n";

typedef struct ctx {
  amp_accelerator *acc;
  amp_accelerator_view *view;
  cl_context cl;
  cl_command_queue q;
  amp_kernel *touch;
  int repeats;
} ctx;

/* Raw OpenCL: blocking write and read of `bytes` between `host` and a device buffer. */
static void raw(const ctx *c, void *host, size_t bytes, double *gbs_w, double *gbs_r) {
  cl_int err;
  cl_mem d = clCreateBuffer(c->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  TRY_CL(err);
  double tw[MAX_REPEATS], tr[MAX_REPEATS];
  TRY_CL(clEnqueueWriteBuffer(c->q, d, CL_TRUE, 0, bytes, host, 0, NULL, NULL)); /* warm-up */
  for (int r = 0; r < c->repeats; r++) {
    double t0 = now_s();
    TRY_CL(clEnqueueWriteBuffer(c->q, d, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    double t1 = now_s();
    TRY_CL(clEnqueueReadBuffer(c->q, d, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    double t2 = now_s();
    tw[r] = t1 - t0;
    tr[r] = t2 - t1;
  }
  *gbs_w = (double)bytes / median(tw, c->repeats) / 1e9;
  *gbs_r = (double)bytes / median(tr, c->repeats) / 1e9;
  clReleaseMemObject(d);
}

/* Through a view over `host`: h2d by synchronize_to, d2h by synchronize after a kernel wrote it. */
static void through_view(const ctx *c, void *host, size_t bytes, double *gbs_h2d, double *gbs_d2h,
                         double *gbs_async) {
  amp_array_view *v;
  size_t n = bytes / 4;
  TRY(amp_array_view_create(amp_extent1((int)n), AMP_UINT32, host, &v));
  double th[MAX_REPEATS], td[MAX_REPEATS], ta[MAX_REPEATS];
  amp_arg args[] = {amp_arg_view(v)};
  TRY(amp_parallel_for_each(c->view, amp_extent1(1), c->touch, args, 1)); /* warm-up, build */
  TRY(amp_array_view_synchronize(v));
  for (int r = 0; r < c->repeats; r++) {
    amp_transfer_stats s0, s1;
    TRY(amp_array_view_refresh(v)); /* the host copy is the only valid one again */
    TRY(amp_transfer_stats_get(c->acc, &s0));
    double t0 = now_s();
    TRY(amp_array_view_synchronize_to(v, c->view));
    TRY(amp_array_view_wait(v));
    double t1 = now_s();
    TRY(amp_transfer_stats_get(c->acc, &s1));
    if (s1.to_device_bytes - s0.to_device_bytes != bytes) {
      fprintf(stderr, "amp-transfer: h2d moved %llu bytes, expected %zu\n",
              (unsigned long long)(s1.to_device_bytes - s0.to_device_bytes), bytes);
      exit(1);
    }
    TRY(amp_parallel_for_each(c->view, amp_extent1(1), c->touch, args, 1));
    TRY(amp_array_view_wait(v));
    double t2 = now_s();
    TRY(amp_array_view_synchronize(v));
    double t3 = now_s();
    TRY(amp_transfer_stats_get(c->acc, &s0));
    if (s0.to_host_bytes - s1.to_host_bytes != bytes) {
      fprintf(stderr, "amp-transfer: d2h moved %llu bytes, expected %zu\n",
              (unsigned long long)(s0.to_host_bytes - s1.to_host_bytes), bytes);
      exit(1);
    }
    TRY(amp_parallel_for_each(c->view, amp_extent1(1), c->touch, args, 1));
    TRY(amp_array_view_wait(v));
    amp_future *f;
    double t4 = now_s();
    TRY(amp_array_view_synchronize_async(v, &f));
    TRY(amp_future_wait(f));
    double t5 = now_s();
    amp_future_release(f);
    TRY(amp_transfer_stats_get(c->acc, &s1));
    if (s1.to_host_bytes - s0.to_host_bytes != bytes) {
      fprintf(stderr, "amp-transfer: async d2h moved %llu bytes, expected %zu\n",
              (unsigned long long)(s1.to_host_bytes - s0.to_host_bytes), bytes);
      exit(1);
    }
    th[r] = t1 - t0;
    td[r] = t3 - t2;
    ta[r] = t5 - t4;
  }
  TRY(amp_array_view_release(v));
  *gbs_h2d = (double)bytes / median(th, c->repeats) / 1e9;
  *gbs_d2h = (double)bytes / median(td, c->repeats) / 1e9;
  *gbs_async = (double)bytes / median(ta, c->repeats) / 1e9;
}

/* A comma-separated list of sizes in MiB, each 1..MAX_MIB; returns how many, or -1 (with the
 * reason printed) for anything else. */
static int parse_list(const char *s, size_t *out, int max) {
  int n = 0;
  for (;;) {
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || v < 1 || v > MAX_MIB || (*end != ',' && *end != '\0') || n == max) {
      fprintf(stderr, "amp-transfer: --mib wants up to %d sizes of 1..%d MiB, comma-separated\n",
              max, MAX_MIB);
      return -1;
    }
    out[n++] = (size_t)v;
    if (*end == '\0')
      return n;
    s = end + 1;
  }
}

int main(int argc, char **argv) {
  const char *path = "default";
  size_t mib[MAX_SIZES] = {64, 256, 1024};
  int nsizes = 3;
  long addexp = 0;
  ctx c = {0};
  c.repeats = 5;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--accelerator") && i + 1 < argc)
      path = argv[++i];
    else if (!strcmp(argv[i], "--mib") && i + 1 < argc) {
      if ((nsizes = parse_list(argv[++i], mib, MAX_SIZES)) < 0)
        return 2;
    } else if (!strcmp(argv[i], "--repeats") && i + 1 < argc)
      c.repeats = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--addexp") && i + 1 < argc) {
      if ((addexp = bench_parse_size(argv[++i])) < 1 || addexp > 0x7fffffffL) {
        fprintf(stderr, "amp-transfer: --addexp wants a number of floats, e.g. 2^28\n");
        return 2;
      }
    } else {
      printf("usage: amp-transfer [--accelerator PATH] [--mib 64,256,1024] [--repeats 5] "
             "[--addexp N]\n");
      return strcmp(argv[i], "--help") ? 2 : 0;
    }
  }
  if (c.repeats < 1 || c.repeats > MAX_REPEATS) {
    fprintf(stderr, "amp-transfer: --repeats must be 1..%d\n", MAX_REPEATS);
    return 2;
  }
  amp_program *prog;
  amp_accelerator_properties p;
  TRY(amp_accelerator_find(path, &c.acc));
  TRY(amp_accelerator_get_properties(c.acc, &p));
  TRY(amp_accelerator_default_view(c.acc, &c.view));
  TRY(amp_accelerator_get_cl_context(c.acc, &c.cl));
  TRY(amp_accelerator_view_get_cl_queue(c.view, &c.q));
  TRY(amp_program_create(touch_src, NULL, &prog));
  TRY(amp_kernel_create(prog, "touch", &c.touch));

  printf("amp-transfer on %s (%s), median of %d, GB/s (1e9 bytes/s)\n", p.device_path,
         p.description, c.repeats);
  printf("%8s | %10s %10s | %10s %10s | %10s %10s %10s | %10s %10s %10s\n", "MiB", "raw w mal",
         "raw r mal", "raw w pin", "raw r pin", "view h2d m", "view d2h m", "async d2h m",
         "view h2d p", "view d2h p", "async d2h p");
  for (int s = 0; s < nsizes; s++) {
    size_t bytes = mib[s] << 20;
    double rw, rr, pw, pr, vh, vd, va, ph, pd, pa;
    void *mem = malloc(bytes);
    void *pinned = NULL;
    if (!mem) {
      fprintf(stderr, "amp-transfer: out of memory for %zu MiB\n", mib[s]);
      return 1;
    }
    memset(mem, 1, bytes);
    TRY(amp_host_alloc(c.acc, bytes, &pinned));
    memset(pinned, 1, bytes);
    raw(&c, mem, bytes, &rw, &rr);
    raw(&c, pinned, bytes, &pw, &pr);
    through_view(&c, mem, bytes, &vh, &vd, &va);
    through_view(&c, pinned, bytes, &ph, &pd, &pa);
    printf("%8zu | %10.2f %10.2f | %10.2f %10.2f | %10.2f %10.2f %10.2f | %10.2f %10.2f %10.2f\n",
           mib[s], rw, rr, pw, pr, vh, vd, va, ph, pd, pa);
    fflush(stdout);
    TRY(amp_host_free(pinned));
    free(mem);
  }
  amp_kernel_release(c.touch);
  amp_program_release(prog);
  if (addexp) {
    transfer_setup t = {c.acc, c.view, c.cl, c.q, c.repeats};
    return transfer_addexp(&t, addexp);
  }
  return 0;
}
