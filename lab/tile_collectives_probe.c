/* lab/tile_collectives_probe.c: what the prelude's tile collectives (ampcl_collectives.h) cost
 * beside the tile reduction a kernel writes by hand, on the default accelerator.
 *
 * Each kernel sums n floats in tiles of 256 threads, one result per tile; every thread first adds
 * up `per` elements of its own (coalesced: element k * threads + its index), then the tile
 * reduces its 256 partial sums:
 *   hand        the textbook tree in tile_static memory, 8 steps, thread 0 writes sh[0];
 *   collective  amp_tile_reduce(float, sum, x, sh) after AMP_TILED_INDEX1(idx), every thread
 *               gets the sum: 1-D tiles (a thread's position is get_local_id(0)) of up to 1024
 *               threads (10 steps, two of them with nothing to do);
 *   max256      the same built with -DAMP_TILE_COLLECTIVES_MAX=256 (8 steps);
 *   any_rank    amp_tile_reduce in a kernel that declares no tiled index: tiles of any rank (a
 *               thread's position from get_local_id(0), (1) and (2)).
 * per = 1 measures the reduction alone; per = 16 a kernel that does some work of its own.
 * Each is checked against the host's sums (exact: the elements are small integers), then timed:
 * the median device time of --repeats launches (amp_future_elapsed_ns; wall clock where the
 * device gives no device times). Prints ms and the ratio to `hand`.
 *
 *   tile-collectives-probe [n] [repeats]        (default 2^24 and 21) */
#include <ampcl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TILE 256

static const char *source =
    "#ifndef PER\n#define PER 1\n#endif\n"
    "static inline float partial(AMP_CONST_VIEW(float, in)) {\n"
    "  const int i = (int)get_global_id(0), all = (int)get_global_size(0);\n"
    "  float x = 0.0f;\n"
    "  for (int k = 0; k < PER; k++) x += amp_at(in, k * all + i);\n"
    "  return x;\n"
    "}\n"
    "AMP_TILE_SHAPE(256)\n"
    "__kernel void hand(AMP_CONST_VIEW(float, in), AMP_VIEW(float, out)) {\n"
    "  tile_static float sh[256];\n"
    "  const int lid = (int)get_local_id(0);\n"
    "  sh[lid] = partial(AMP_VIEW_ARG(in));\n"
    "  amp_barrier_wait_with_tile_static_memory_fence();\n"
    "  for (int s = 128; s > 0; s >>= 1) {\n"
    "    if (lid < s) sh[lid] += sh[lid + s];\n"
    "    amp_barrier_wait_with_tile_static_memory_fence();\n"
    "  }\n"
    "  if (lid == 0) amp_at(out, (int)get_group_id(0)) = sh[0];\n"
    "}\n"
    "AMP_TILE_SHAPE(256)\n"
    "__kernel void collective(AMP_CONST_VIEW(float, in), AMP_VIEW(float, out)) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static float sh[256];\n"
    "  const float s = amp_tile_reduce(float, sum, partial(AMP_VIEW_ARG(in)), sh);\n"
    "  if (idx.local_id[0] == 0) amp_at(out, idx.tile[0]) = s;\n"
    "}\n"
    "AMP_TILE_SHAPE(256)\n"
    "__kernel void any_rank(AMP_CONST_VIEW(float, in), AMP_VIEW(float, out)) {\n"
    "  tile_static float sh[256];\n"
    "  const float s = amp_tile_reduce(float, sum, partial(AMP_VIEW_ARG(in)), sh);\n"
    "  if (get_local_id(0) == 0) amp_at(out, (int)get_group_id(0)) = s;\n"
    "}\n";

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median time of `repeats` launches of kernel `name` built with `opts`; -1 on a wrong sum or
 * an error. */
static double run(amp_accelerator_view *av, const char *name, const char *opts, int per,
                  amp_array_view *in, amp_array_view *out, const float *x, int n, int repeats) {
  char o[128];
  snprintf(o, sizeof o, "-DPER=%d %s", per, opts);
  amp_program *p = NULL;
  amp_kernel *k = NULL;
  if (amp_program_create(source, o, &p) || amp_kernel_create(p, name, &k)) {
    fprintf(stderr, "%s: %s\n", name, amp_last_error());
    return -1;
  }
  amp_program_release(p);
  int threads = n / per, tiles = threads / TILE;
  amp_arg args[] = {amp_arg_view(in), amp_arg_view(out)};
  amp_launch l = {amp_extent1(threads), 1, {TILE, 1, 1}, k, args, AMP_NARGS(args)};
  double *ms = malloc((size_t)repeats * sizeof *ms);
  double result = -1;
  for (int r = -1; r < repeats; r++) { /* r = -1: the build, and the check */
    amp_future *f = NULL;
    double t0 = now_ms();
    if (amp_parallel_for_each_ex(av, &l, &f) || amp_future_wait(f)) {
      fprintf(stderr, "%s: %s\n", name, amp_last_error());
      amp_future_release(f);
      goto done;
    }
    uint64_t ns = 0;
    ms[r < 0 ? 0 : r] = amp_future_elapsed_ns(f, &ns) == AMP_SUCCESS ? ns / 1e6 : now_ms() - t0;
    amp_future_release(f);
    if (r < 0) {
      float *got = NULL;
      if (amp_array_view_data(out, (void **)&got)) {
        fprintf(stderr, "%s: %s\n", name, amp_last_error());
        goto done;
      }
      for (int t = 0; t < tiles; t++) {
        double want = 0;
        for (int k2 = 0; k2 < per; k2++)
          for (int j = 0; j < TILE; j++)
            want += x[k2 * threads + t * TILE + j];
        if (got[t] != (float)want) {
          fprintf(stderr, "%s: tile %d sums to %g, host %g\n", name, t, got[t], want);
          goto done;
        }
      }
    }
  }
  qsort(ms, (size_t)repeats, sizeof *ms, cmp_double);
  result = ms[repeats / 2];
done:
  free(ms);
  amp_kernel_release(k);
  return result;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 24, repeats = argc > 2 ? atoi(argv[2]) : 21;
  if (n < 16 * TILE || n % (16 * TILE) || repeats < 1) {
    fprintf(stderr, "usage: tile-collectives-probe [n, a multiple of %d] [repeats]\n", 16 * TILE);
    return 2;
  }
  amp_accelerator_view *av = NULL;
  amp_accelerator *acc = NULL;
  amp_accelerator_properties props;
  if (amp_default_view(&av) || amp_accelerator_view_get_accelerator(av, &acc) ||
      amp_accelerator_get_properties(acc, &props)) {
    fprintf(stderr, "%s\n", amp_last_error());
    return 1;
  }
  float *x = malloc((size_t)n * sizeof *x);
  for (int i = 0; i < n; i++)
    x[i] = (float)(i % 7);
  amp_array *a = NULL, *b = NULL;
  amp_array_view *in = NULL, *out = NULL;
  if (amp_array_create_from(av, amp_extent1(n), AMP_FLOAT, x, &a) || amp_array_view_of(a, &in) ||
      amp_array_create(av, amp_extent1(n / TILE), AMP_FLOAT, &b) || amp_array_view_of(b, &out)) {
    fprintf(stderr, "%s\n", amp_last_error());
    return 1;
  }
  printf("%s, n = %d floats, tiles of %d, median of %d\n", props.device_path, n, TILE, repeats);
  printf("%-4s %10s %20s %20s %20s\n", "per", "hand ms", "collective ms (ratio)",
         "max256 ms (ratio)", "any_rank ms (ratio)");
  int rc = 0;
  static const int pers[] = {1, 16};
  for (int i = 0; i < 2; i++) {
    double h = run(av, "hand", "", pers[i], in, out, x, n, repeats), c[3];
    c[0] = run(av, "collective", "", pers[i], in, out, x, n, repeats);
    c[1] = run(av, "collective", "-DAMP_TILE_COLLECTIVES_MAX=256", pers[i], in, out, x, n, repeats);
    c[2] = run(av, "any_rank", "", pers[i], in, out, x, n, repeats);
    if (h < 0 || c[0] < 0 || c[1] < 0 || c[2] < 0) {
      rc = 1;
      continue;
    }
    printf("%-4d %10.3f %12.3f (%5.2f) %12.3f (%5.2f) %12.3f (%5.2f)\n", pers[i], h, c[0], c[0] / h,
           c[1], c[1] / h, c[2], c[2] / h);
  }
  amp_array_view_release(in);
  amp_array_view_release(out);
  amp_array_release(a);
  amp_array_release(b);
  free(x);
  return rc;
}
