/* overlap: copies and kernels of different pieces of a problem running at the same time.
 *
 * add-exp over n floats, end to end from host memory, two ways:
 *   whole    one launch over the whole arrays, then one synchronize: copy in, compute, copy out,
 *            one after the other;
 *   pieces   the arrays cut into P sections (default 2, the two halves); piece p is launched on
 *            its own accelerator view (an in-order queue) and its result is brought back with
 *            amp_array_view_synchronize_async. Piece p+1's copy in runs while piece p computes,
 *            and piece p's copy back runs while piece p+1 computes: a GPU has a copy engine for
 *            each direction besides its compute units, and ampcl tracks coherence per byte range,
 *            so sections of one view on different queues wait only for what they share.
 * Both are checked against the host's expf. With host memory from amp_host_alloc (--pinned) the
 * copies are pure DMA and the overlap is largest. Run with AMP_TRACE=overlap.json to see it on a
 * timeline (docs/PROFILING.md).
 *
 *   overlap [--size N] [--pieces P] [--repeats R] [--pinned] [--accelerator PATH] [--kernels DIR]
 */
#include <math.h>

#include "example.h"
#include "overlap_cl.h"
#include "overlap_launch.h"

enum { MAX_PIECES = 16 };

typedef struct run {
  amp_accelerator *acc;
  amp_accelerator_view *queues[MAX_PIECES];
  amp_kernel *k;
  int n, pieces;
  float *first, *second, *result;
} run;

/* One end-to-end add-exp in `pieces` sections (1: the whole arrays); *ms its time. */
static amp_status add_exp(const run *r, int pieces, double *ms) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *f = NULL, *s = NULL, *res = NULL;
  amp_array_view *pf[MAX_PIECES] = {0}, *ps[MAX_PIECES] = {0}, *pr[MAX_PIECES] = {0};
  amp_future *back[MAX_PIECES] = {0};
  amp_extent e = amp_extent1(r->n);
  double t0 = ex_now_ms();
  EX_TRY(amp_array_view_create_const(e, AMP_FLOAT, r->first, &f));
  EX_TRY(amp_array_view_create_const(e, AMP_FLOAT, r->second, &s));
  EX_TRY(amp_array_view_create(e, AMP_FLOAT, r->result, &res));
  EX_TRY(amp_array_view_discard_data(res));
  for (int p = 0; p < pieces; p++) {
    int lo = (int)((long)r->n * p / pieces), hi = (int)((long)r->n * (p + 1) / pieces);
    amp_index origin = amp_index1(lo);
    amp_extent len = amp_extent1(hi - lo);
    EX_TRY(amp_array_view_section(f, origin, len, &pf[p]));
    EX_TRY(amp_array_view_section(s, origin, len, &ps[p]));
    EX_TRY(amp_array_view_section(res, origin, len, &pr[p]));
    EX_TRY(add_exp_piece_launch(r->queues[p], len, r->k, pf[p], ps[p], pr[p]));
    EX_TRY(amp_array_view_synchronize_async(pr[p], &back[p]));
  }
  for (int p = 0; p < pieces; p++)
    EX_TRY(amp_future_wait(back[p]));
  *ms = ex_now_ms() - t0;
fail:
  for (int p = 0; p < pieces; p++) {
    EX_CLEANUP(amp_future_release(back[p]));
    EX_CLEANUP(EX_RELEASE_VIEWS(pf[p], ps[p], pr[p]));
  }
  EX_CLEANUP(EX_RELEASE_VIEWS(f, s, res));
  return status;
}

static long wrong(const run *r) {
  long bad = 0;
  for (int i = 0; i < r->n; i++) {
    float want = r->first[i] + expf(r->second[i]);
    bad += !(fabsf(r->result[i] - want) <= 1e-4f * fabsf(want) + 1e-6f);
  }
  return bad;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median of `repeats` checked runs in `pieces` pieces (after one warm-up), or -1. */
static double measure(const run *r, int pieces, int repeats) {
  double ms[64];
  for (int i = -1; i < repeats; i++) {
    for (int j = 0; j < r->n; j++)
      r->result[j] = NAN;
    double t = 0;
    if (add_exp(r, pieces, &t) != AMP_SUCCESS)
      return -1;
    long bad = wrong(r);
    if (bad) {
      fprintf(stderr, "%d piece(s): %ld wrong elements\n", pieces, bad);
      return -1;
    }
    if (i >= 0)
      ms[i] = t;
  }
  qsort(ms, (size_t)repeats, sizeof ms[0], cmp);
  return ms[repeats / 2];
}

int main(int argc, char **argv) {
  amp_status status = AMP_SUCCESS;
  run r = {0};
  const char *path = NULL, *kdir = NULL;
  int repeats = 3, pinned = 0, ok = 0;
  r.n = 1 << 22;
  r.pieces = 2;
  amp_program *prog = NULL;
  amp_accelerator_view *dv = NULL;
  float **arrays[3] = {&r.first, &r.second, &r.result};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--size") && ex_parse_int(a, v, 1, 1 << 29, &r.n))
      i++;
    else if (!strcmp(a, "--pieces") && ex_parse_int(a, v, 1, MAX_PIECES, &r.pieces))
      i++;
    else if (!strcmp(a, "--repeats") && ex_parse_int(a, v, 1, 64, &repeats))
      i++;
    else if (!strcmp(a, "--pinned"))
      pinned = 1;
    else if (!strcmp(a, "--accelerator") && v)
      path = argv[++i];
    else if (!strcmp(a, "--kernels") && v)
      kdir = argv[++i];
    else {
      fprintf(stderr, "usage: amp-overlap [--size N] [--pieces P] [--repeats R] [--pinned] "
                      "[--accelerator PATH] [--kernels DIR]\n");
      return 2;
    }
  }
  EX_TRY(ex_open_view(path, &r.acc, &dv));
  for (int p = 0; p < r.pieces; p++)
    EX_TRY(amp_accelerator_create_view(r.acc, AMP_QUEUING_MODE_AUTOMATIC, &r.queues[p]));
  EX_TRY(ex_load_program(kdir, "overlap", overlap_cl, NULL, &prog));
  EX_TRY(add_exp_piece_kernel(prog, &r.k));
  size_t bytes = (size_t)r.n * sizeof(float);
  for (int i = 0; i < 3; i++) {
    if (pinned)
      EX_TRY(amp_host_alloc(r.acc, bytes, (void **)arrays[i]));
    else if (!(*arrays[i] = malloc(bytes)))
      EX_TRY(AMP_ERROR_OUT_OF_MEMORY);
  }
  for (int i = 0; i < r.n; i++) {
    r.first[i] = (float)(i % 1000) * 0.001f;
    r.second[i] = (float)(i % 777) * -0.01f;
  }
  printf("add-exp over %d floats from %s memory, median of %d\n", r.n,
         pinned ? "pinned (amp_host_alloc)" : "malloc'd", repeats);
  double whole = measure(&r, 1, repeats);
  double split = whole < 0 ? -1 : measure(&r, r.pieces, repeats);
  if (whole < 0 || split < 0) {
    printf("FAILED\n");
  } else {
    printf("  whole: %9.2f ms\n  %d pieces on %d queues: %9.2f ms (%.2fx)\n", whole, r.pieces,
           r.pieces, split, whole / split);
    printf("verified\n");
    ok = 1;
  }
fail:
  for (int i = 0; i < 3; i++) {
    if (pinned)
      EX_CLEANUP(amp_host_free(*arrays[i]));
    else
      free(*arrays[i]);
  }
  for (int p = 0; p < MAX_PIECES; p++)
    EX_CLEANUP(amp_accelerator_view_release(r.queues[p]));
  EX_CLEANUP(amp_kernel_release(r.k));
  EX_CLEANUP(amp_program_release(prog));
  return ok && status == AMP_SUCCESS ? 0 : 1;
}
