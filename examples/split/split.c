/* split: one problem over every accelerator of the machine, end to end from host memory.
 *
 * add-exp (result[i] = first[i] + exp(second[i])) over n floats, split the way docs/MULTI_GPU.md
 * tells a user to split their own work:
 *
 *   1. enumerate the accelerators (or take --accelerators LIST);
 *   2. give each accelerator one block of the arrays, and drive each from a host thread of its own;
 *   3. inside its block, each accelerator works in pieces, each piece with views of its own on an
 *      accelerator view (an in-order queue) of its own, so that one piece's data crosses the link
 *      while another piece computes or comes back;
 *   4. bring results back the way the memory allows: from pinned memory (amp_host_alloc, --pinned)
 *      with amp_array_view_synchronize_async right after each launch; from malloc'd memory with
 *      a blocking amp_array_view_synchronize of piece k after piece k + 1 is launched (ampcl
 *      stages blocking copies through pinned buffers at the link's speed; docs/TRANSFERS.md).
 *
 * It times the first accelerator alone on the whole arrays, then all of them, the same way, and
 * checks every result against the host's expf.
 *
 *   split [--size N] [--pieces P] [--pinned] [--accelerators LIST] [--repeats R] [--kernels DIR]
 */
#include <math.h>
#include <pthread.h>

#include "example.h"
#include "split_cl.h"
#include "split_launch.h"

enum { MAX_ACCS = 16, MAX_PIECES = 16 };

/* Everything a run shares: the arrays in host memory, the host's answer and the kernel. */
typedef struct problem {
  int n, pieces, pinned;
  float *first, *second, *result;
  float *expect; /* first[i] + expf(second[i]), computed once on the host */
  amp_kernel *kernel;
} problem;

/* One accelerator's share: its block of the arrays, its queues, and how its thread did. */
typedef struct part {
  const problem *pb;
  amp_accelerator *acc;
  amp_accelerator_view *queue[MAX_PIECES]; /* one in-order queue per piece */
  int lo, len;                             /* the block: elements [lo, lo + len) */
  amp_status status;
} part;

/* The k-th of `count` near-equal slices of [0, len): [*lo, *lo + *size). */
static void slice(int len, int k, int count, int *lo, int *size) {
  long long a = (long long)len * k / count, b = (long long)len * (k + 1) / count;
  *lo = (int)a;
  *size = (int)(b - a);
}

/* The work of one accelerator, on a thread of its own: its block in pieces. Each piece gets views
 * of its own over its slice of the host arrays (a view belongs to one accelerator's work; two
 * threads never share one), is launched on its own queue, and comes back as the memory allows. */
static void *part_main(void *arg) {
  part *pt = arg;
  const problem *pb = pt->pb;
  amp_status status = AMP_SUCCESS;
  amp_array_view *f[MAX_PIECES] = {0}, *s[MAX_PIECES] = {0}, *r[MAX_PIECES] = {0};
  amp_future *back[MAX_PIECES] = {0};
  int last = -1; /* the last piece launched */
  for (int k = 0; k < pb->pieces; k++) {
    int lo, len;
    slice(pt->len, k, pb->pieces, &lo, &len);
    if (len == 0) /* a block smaller than the piece count */
      continue;
    lo += pt->lo;
    amp_extent e = amp_extent1(len);
    EX_TRY(amp_array_view_create_const(e, AMP_FLOAT, pb->first + lo, &f[k]));
    EX_TRY(amp_array_view_create_const(e, AMP_FLOAT, pb->second + lo, &s[k]));
    EX_TRY(amp_array_view_create(e, AMP_FLOAT, pb->result + lo, &r[k]));
    EX_TRY(amp_array_view_discard_data(r[k])); /* the old contents need not be copied in */
    EX_TRY(add_exp_launch(pt->queue[k], e, pb->kernel, f[k], s[k], r[k]));
    if (pb->pinned) /* DMA: enqueued now, the copy engines overlap it with the other pieces */
      EX_TRY(amp_array_view_synchronize_async(r[k], &back[k]));
    else if (last >= 0) /* staged: the previous piece comes back while this one computes */
      EX_TRY(amp_array_view_synchronize(r[last]));
    last = k;
  }
  if (!pb->pinned && last >= 0)
    EX_TRY(amp_array_view_synchronize(r[last]));
  for (int k = 0; k < pb->pieces; k++)
    if (back[k])
      EX_TRY(amp_future_wait(back[k]));
fail:
  for (int k = 0; k < pb->pieces; k++) {
    EX_CLEANUP(amp_future_release(back[k]));
    EX_CLEANUP(amp_array_view_release(f[k]));
    EX_CLEANUP(amp_array_view_release(s[k]));
    EX_CLEANUP(amp_array_view_release(r[k]));
  }
  pt->status = status;
  return NULL;
}

/* One end-to-end run over the first `nparts` parts: each gets a block and a thread; *ms is the
 * wall time from the first thread started to the last joined. */
static amp_status run_parts(part *parts, int nparts, int n, double *ms) {
  pthread_t threads[MAX_ACCS];
  int started[MAX_ACCS] = {0};
  amp_status status = AMP_SUCCESS;
  double t0 = ex_now_ms();
  for (int p = 0; p < nparts; p++) {
    slice(n, p, nparts, &parts[p].lo, &parts[p].len);
    parts[p].status = AMP_SUCCESS;
    started[p] = pthread_create(&threads[p], NULL, part_main, &parts[p]) == 0;
    if (!started[p]) /* no thread to be had: this part runs here, after the others started */
      part_main(&parts[p]);
  }
  for (int p = 0; p < nparts; p++) {
    if (started[p])
      pthread_join(threads[p], NULL);
    if (status == AMP_SUCCESS)
      status = parts[p].status; /* the thread printed its reason already */
  }
  *ms = ex_now_ms() - t0;
  return status;
}

/* Elements further from the host's answer than the kernel's native_exp may be (a few ulp on
 * GPUs): 1e-4 relative plus 1e-6 absolute. */
static long wrong(const problem *pb) {
  long bad = 0;
  for (int i = 0; i < pb->n; i++)
    bad += !(fabsf(pb->result[i] - pb->expect[i]) <= 1e-4f * fabsf(pb->expect[i]) + 1e-6f);
  return bad;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median of `repeats` checked runs on the first `nparts` parts (after one warm-up, which
 * builds the kernel for each device), or -1; the fastest and slowest in range[0..1]. */
static double measure(const problem *pb, part *parts, int nparts, int repeats, double range[2]) {
  double ms[64];
  for (int i = -1; i < repeats; i++) {
    for (int j = 0; j < pb->n; j++)
      pb->result[j] = NAN;
    double t = 0;
    if (run_parts(parts, nparts, pb->n, &t) != AMP_SUCCESS)
      return -1;
    long bad = wrong(pb);
    if (bad) {
      fprintf(stderr, "%d accelerator(s): %ld wrong elements\n", nparts, bad);
      return -1;
    }
    if (i >= 0)
      ms[i] = t;
  }
  qsort(ms, (size_t)repeats, sizeof ms[0], cmp);
  range[0] = ms[0];
  range[1] = ms[repeats - 1];
  return ms[repeats / 2];
}

/* The accelerators of --accelerators LIST (comma-separated paths, as amp-info prints them), or
 * without a list every accelerator on the default accelerator's platform (other platforms' devices,
 * such as a CPU device on a GPU machine, would only slow a split of GPUs down). Returns how many,
 * 0 after printing what is wrong. */
static int pick_accelerators(const char *list, amp_accelerator **accs) {
  amp_accelerator_properties dp, p;
  amp_accelerator *a = NULL;
  int count = 0;
  if (!list) {
    size_t n = 0;
    if (amp_accelerator_get_default(&a) != AMP_SUCCESS ||
        amp_accelerator_get_properties(a, &dp) != AMP_SUCCESS ||
        amp_accelerator_count(&n) != AMP_SUCCESS) {
      fprintf(stderr, "no accelerator: %s\n", amp_last_error());
      return 0;
    }
    for (size_t i = 0; i < n && count < MAX_ACCS; i++)
      if (amp_accelerator_get(i, &a) == AMP_SUCCESS &&
          amp_accelerator_get_properties(a, &p) == AMP_SUCCESS && !p.is_host &&
          strcmp(p.platform_name, dp.platform_name) == 0)
        accs[count++] = a;
    return count;
  }
  char buf[4096];
  if (strlen(list) >= sizeof buf) {
    fprintf(stderr, "--accelerators: the list is longer than %zu characters\n", sizeof buf - 1);
    return 0;
  }
  strcpy(buf, list);
  for (char *item = buf, *next; item; item = next) {
    if ((next = strchr(item, ',')))
      *next++ = '\0';
    if (!*item) {
      fprintf(stderr, "--accelerators: an empty name in '%s'\n", list);
      return 0;
    }
    if (count == MAX_ACCS) {
      fprintf(stderr, "--accelerators: more than %d accelerators in '%s'\n", MAX_ACCS, list);
      return 0;
    }
    if (amp_accelerator_find(item, &a) != AMP_SUCCESS) {
      fprintf(stderr, "--accelerators: %s\n", amp_last_error());
      return 0;
    }
    if (amp_accelerator_get_properties(a, &p) != AMP_SUCCESS || p.is_host) {
      fprintf(stderr, "--accelerators: '%s' is the host, which runs no kernels\n", item);
      return 0;
    }
    for (int i = 0; i < count; i++)
      if (accs[i] == a) {
        fprintf(stderr, "--accelerators: '%s' is named twice\n", item);
        return 0;
      }
    accs[count++] = a;
  }
  return count;
}

int main(int argc, char **argv) {
  amp_status status = AMP_SUCCESS;
  problem pb = {.n = 1 << 24, .pieces = 4};
  part parts[MAX_ACCS] = {0};
  amp_accelerator *accs[MAX_ACCS];
  const char *list = NULL, *kdir = NULL;
  int repeats = 3, naccs = 0, ok = 0;
  amp_program *prog = NULL;
  float **arrays[3] = {&pb.first, &pb.second, &pb.result};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--size") || !strcmp(a, "--pieces") || !strcmp(a, "--repeats")) {
      int ok_value = !strcmp(a, "--size")     ? ex_parse_int(a, v, 1, 1 << 30, &pb.n)
                     : !strcmp(a, "--pieces") ? ex_parse_int(a, v, 1, MAX_PIECES, &pb.pieces)
                                              : ex_parse_int(a, v, 1, 64, &repeats);
      if (!ok_value)
        return 2;
      i++;
    } else if (!strcmp(a, "--pinned")) {
      pb.pinned = 1;
    } else if ((!strcmp(a, "--accelerators") || !strcmp(a, "--kernels")) && !v) {
      fprintf(stderr, "%s needs a value\n", a);
      return 2;
    } else if (!strcmp(a, "--accelerators")) {
      list = argv[++i];
    } else if (!strcmp(a, "--kernels")) {
      kdir = argv[++i];
    } else {
      fprintf(stderr,
              "unknown option '%s'\nusage: amp-split [--size N] [--pieces P] [--pinned] "
              "[--accelerators PATH,PATH,...] [--repeats R] [--kernels DIR]\n",
              a);
      return 2;
    }
  }
  /* 1. the accelerators, each with one queue per piece */
  if (!(naccs = pick_accelerators(list, accs)))
    return 2;
  printf("split over %d accelerator(s):", naccs);
  for (int p = 0; p < naccs; p++) {
    amp_accelerator_properties props;
    EX_TRY(amp_accelerator_get_properties(accs[p], &props));
    printf(" %s", props.device_path);
    parts[p].pb = &pb;
    parts[p].acc = accs[p];
    for (int k = 0; k < pb.pieces; k++)
      EX_TRY(amp_accelerator_create_view(accs[p], AMP_QUEUING_MODE_IMMEDIATE, &parts[p].queue[k]));
  }
  printf("\n");
  /* 2. the kernel (one program serves every accelerator; each builds it at its first launch) */
  EX_TRY(ex_load_program(kdir, "split", split_cl, NULL, &prog));
  EX_TRY(add_exp_kernel(prog, &pb.kernel));
  /* 3. the data in host memory: pinned (any accelerator's amp_host_alloc is pinned for all) */
  size_t bytes = (size_t)pb.n * sizeof(float);
  for (int i = 0; i < 3; i++) {
    if (pb.pinned)
      EX_TRY(amp_host_alloc(accs[0], bytes, (void **)arrays[i]));
    else if (!(*arrays[i] = malloc(bytes)))
      EX_TRY(AMP_ERROR_OUT_OF_MEMORY);
  }
  if (!(pb.expect = malloc(bytes)))
    EX_TRY(AMP_ERROR_OUT_OF_MEMORY);
  for (int i = 0; i < pb.n; i++) {
    pb.first[i] = (float)(i % 1000) * 0.001f;
    pb.second[i] = (float)(i % 777) * -0.01f;
    pb.expect[i] = pb.first[i] + expf(pb.second[i]);
  }
  printf("add-exp over %d floats from %s memory, %d piece(s) per accelerator, median of %d, end to "
         "end\n",
         pb.n, pb.pinned ? "pinned (amp_host_alloc)" : "malloc'd", pb.pieces, repeats);
  /* 4. the first accelerator alone, then all of them */
  double r1[2] = {0}, rall[2] = {0};
  double one = measure(&pb, parts, 1, repeats, r1);
  double all = one < 0 || naccs == 1 ? one : measure(&pb, parts, naccs, repeats, rall);
  if (one < 0 || all < 0) {
    printf("FAILED\n");
  } else {
    double gb = 3.0 * (double)bytes * 1e-9;
    printf("  1 accelerator:  %9.2f ms  %7.2f GB/s  (runs %.2f to %.2f ms)\n", one, gb / one * 1e3,
           r1[0], r1[1]);
    if (naccs > 1)
      printf("  %d accelerators: %9.2f ms  %7.2f GB/s  (%.2fx one; runs %.2f to %.2f ms)\n", naccs,
             all, gb / all * 1e3, one / all, rall[0], rall[1]);
    else
      printf("  (only one accelerator: nothing to split over)\n");
    printf("verified\n");
    ok = 1;
  }
fail:
  for (int i = 0; i < 3; i++) {
    if (pb.pinned)
      EX_CLEANUP(amp_host_free(*arrays[i]));
    else
      free(*arrays[i]);
  }
  free(pb.expect);
  for (int p = 0; p < naccs; p++)
    for (int k = 0; k < MAX_PIECES; k++)
      EX_CLEANUP(amp_accelerator_view_release(parts[p].queue[k]));
  EX_CLEANUP(amp_kernel_release(pb.kernel));
  EX_CLEANUP(amp_program_release(prog));
  return ok && status == AMP_SUCCESS ? 0 : 1;
}
