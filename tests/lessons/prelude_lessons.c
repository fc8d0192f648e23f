/* lessons_prelude: the lessons beside the matmul course that teach the prelude's random numbers
 * and tile collectives, against host references.
 *
 *   random_walks.cl  every walker's end, for 1 to 4096 walkers of 1, 31, 32, 100 and 1000 steps,
 *                    against the host following the same streams (include/ampcl/random.h): equal,
 *                    walker by walker. Over 4096 walkers of 1000 steps the mean end lies within
 *                    5 standard errors of 0 and the mean square within 5 of 1000 (a wrong
 *                    stream, shared or biased, misses).
 *   tile_compact.cl  tiles of 128 (the default), 96 and 7 threads, 1 to 40 tiles: the kept
 *                    elements, in order, and their count per tile, and each element less its
 *                    tile's first, against the host; the elements are multiples of 1/8, so the
 *                    tile's mean is exact in any order. What the kernel does not write of
 *                    `above` keeps its sentinel. */
#include "check.h"

#include <stdint.h>

static amp_kernel *builtin(const char *name, const char *options) {
  amp_program *p = NULL;
  amp_status made = amp_program_create_builtin(name, options, &p);
  return test_kernel_of(made, p, name);
}

/* The host's walker w: as random_walks.cl, from the same stream. */
static int host_walk(uint32_t seed, int w, int steps) {
  amp_random r = amp_random_make(seed, (uint64_t)w);
  int position = 0;
  for (int done = 0; done < steps; done += 32) {
    uint32_t bits = amp_random_uint(&r);
    int n = steps - done < 32 ? steps - done : 32;
    if (n < 32)
      bits &= (1u << n) - 1u;
    int ones = 0;
    for (int b = 0; b < 32; b++)
      ones += (bits >> b) & 1u;
    position += 2 * ones - n;
  }
  return position;
}

static void check_walks(amp_accelerator_view *av) {
  amp_kernel *k = builtin("random_walks", NULL);
  if (!k)
    return;
  static const int walkers[] = {1, 37, 4096}, steps[] = {1, 31, 32, 100, 1000};
  const uint32_t seed = 20261207u;
  for (size_t a = 0; a < 3; a++)
    for (size_t b = 0; b < 5; b++) {
      int n = walkers[a], s = steps[b], bad = 0;
      int *ends = calloc((size_t)n, sizeof *ends);
      amp_array_view *v = NULL;
      CHECK_OK(amp_array_view_create(amp_extent1(n), AMP_INT32, ends, &v));
      amp_arg args[] = {amp_arg_view(v), amp_arg_uint(seed), amp_arg_int(s)};
      CHECK_OK(amp_parallel_for_each(av, amp_extent1(n), k, args, AMP_NARGS(args)));
      CHECK_OK(amp_array_view_synchronize(v));
      double sum = 0, sum2 = 0;
      for (int w = 0; w < n; w++) {
        int want = host_walk(seed, w, s);
        if (ends[w] != want && bad++ < 3)
          fprintf(stderr, "%d walkers of %d steps: walker %d ends at %d, the host's at %d\n", n, s,
                  w, ends[w], want);
        sum += ends[w];
        sum2 += (double)ends[w] * ends[w];
      }
      CHECK_EQ_INT(bad, 0);
      if (n == 4096 && s == 1000) {
        /* ends: mean 0, variance s; squares: mean s, variance 2 s^2 - 2 s */
        double mean = sum / n, se = sqrt((double)s / n);
        double msq = sum2 / n, se2 = sqrt((2.0 * s * s - 2.0 * s) / n);
        printf("4096 walkers of 1000 steps: mean end %.3f (0 +- %.3f), mean square %.1f "
               "(1000 +- %.1f)\n",
               mean, se, msq, se2);
        CHECK(fabs(mean) < 5 * se);
        CHECK(fabs(msq - s) < 5 * se2);
      }
      amp_array_view_release(v);
      free(ends);
    }
  amp_kernel_release(k);
}

static void check_compact(amp_accelerator_view *av) {
  static const int tiles[] = {128, 96, 7}, counts[] = {1, 3, 40};
  for (size_t t = 0; t < 3; t++) {
    char opts[32];
    snprintf(opts, sizeof opts, "-DTILE=%d", tiles[t]);
    amp_kernel *k = builtin("tile_compact", t == 0 ? NULL : opts);
    if (!k)
      continue;
    if (test_tile_allowed(av, k, 1, &tiles[t]) == TEST_TILE_ABOVE_DEVICE) {
      printf("tile_compact: tiles of %d threads are above what the device allows: not run\n",
             tiles[t]);
      amp_kernel_release(k);
      continue;
    }
    for (size_t c = 0; c < 3; c++) {
      const int tile = tiles[t], ntiles = counts[c], n = tile * ntiles;
      float *in = malloc((size_t)n * sizeof *in), *above = malloc((size_t)n * sizeof *above);
      float *from_first = malloc((size_t)n * sizeof *from_first);
      int *count = malloc((size_t)ntiles * sizeof *count);
      for (int i = 0; i < n; i++) {
        uint32_t h = (uint32_t)(i + 7919 * (int)c) * 2654435761u;
        in[i] = (float)((int)(h >> 24) - 128) / 8.0f; /* -16 .. 15.875 */
        above[i] = -1000.0f;                          /* the sentinel */
      }
      amp_array_view *vi = NULL, *va = NULL, *vc = NULL, *vf = NULL;
      CHECK_OK(amp_array_view_create_const(amp_extent1(n), AMP_FLOAT, in, &vi));
      CHECK_OK(amp_array_view_create(amp_extent1(n), AMP_FLOAT, above, &va));
      CHECK_OK(amp_array_view_create(amp_extent1(ntiles), AMP_INT32, count, &vc));
      CHECK_OK(amp_array_view_create(amp_extent1(n), AMP_FLOAT, from_first, &vf));
      amp_arg args[] = {amp_arg_view(vi), amp_arg_view(va), amp_arg_view(vc), amp_arg_view(vf)};
      amp_launch l = {amp_extent1(n), 1, {tile, 1, 1}, k, args, AMP_NARGS(args)};
      CHECK_OK(amp_parallel_for_each_ex(av, &l, NULL));
      CHECK_OK(amp_array_view_synchronize(va));
      CHECK_OK(amp_array_view_synchronize(vc));
      CHECK_OK(amp_array_view_synchronize(vf));
      int bad = 0;
      for (int g = 0; g < ntiles && !bad; g++) {
        const float *x = in + (size_t)g * tile;
        float sum = 0;
        for (int i = 0; i < tile; i++)
          sum += x[i]; /* exact: multiples of 1/8, small */
        const float mean = sum / tile;
        int kept = 0;
        for (int i = 0; i < tile; i++) {
          if (x[i] > mean && above[(size_t)g * tile + kept++] != x[i])
            bad = 1;
          if (from_first[(size_t)g * tile + i] != x[i] - x[0])
            bad = 1;
        }
        for (int i = kept; i < tile; i++)
          if (above[(size_t)g * tile + i] != -1000.0f)
            bad = 1;
        if (count[g] != kept)
          bad = 1;
        if (bad)
          fprintf(stderr, "tile_compact, tiles of %d: tile %d differs from the host's\n", tile, g);
      }
      CHECK_EQ_INT(bad, 0);
      amp_array_view_release(vi);
      amp_array_view_release(va);
      amp_array_view_release(vc);
      amp_array_view_release(vf);
      free(in);
      free(above);
      free(from_first);
      free(count);
    }
    amp_kernel_release(k);
  }
}

int main(void) {
  REQUIRE_TEST_DEVICE_VIEW(av);
  check_walks(av);
  check_compact(av);
  return check_done();
}
