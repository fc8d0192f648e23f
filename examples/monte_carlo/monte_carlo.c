/* monte_carlo: pi from random points, with its error bar. Each thread draws points in the unit
 * square from a random stream of its own (the prelude's Philox-4x32-10, kernels_cl/prelude/
 * ampcl_random.h) and counts those inside the quarter circle; each tile adds its threads' counts
 * with amp_tile_reduce; amp_reduce adds the tiles'. The fraction inside, p, estimates pi / 4, and
 * its standard error is sqrt(p (1 - p) / N) for N points.
 *
 *   monte_carlo [--samples N] [--per K] [--seed S] [--accelerator PATH] [--kernels DIR]
 *
 * Checks two things: the estimate lies within 4 standard errors of pi (a wrong kernel, or random
 * numbers that are not uniform and independent, would miss by many), and the first and last tiles'
 * counts equal what the host counts with the same streams (include/ampcl/random.h gives the
 * kernel's numbers bit for bit). Exits 1 if either fails. Kernel: monte_carlo.cl. */
#include <inttypes.h>
#include <math.h>

#include "example.h"
#include "monte_carlo_cl.h" /* monte_carlo_cl: monte_carlo.cl as a string */

#define TILE 256 /* threads per tile, or the most the device allows where fewer */
#define PI   3.14159265358979323846

static void usage(FILE *to) {
  fprintf(to, "usage: amp-monte-carlo [--samples N] [--per K] [--seed S] [--accelerator PATH] "
              "[--kernels DIR]\n"
              "  --samples N         points in all, rounded up to whole tiles (default 16777216)\n"
              "  --per K             points per thread (default 64)\n"
              "  --seed S            the random streams' seed (default 2026)\n"
              "  --accelerator PATH  device path as amp-info prints it (default: the default)\n"
              "  --kernels DIR       load DIR/monte_carlo.cl instead of the built-in copy\n");
}

/* The points of tile t that fall inside, counted on the host from the same streams. */
static uint32_t host_tile_count(uint32_t seed, int tile, int tile_threads, int per) {
  uint32_t inside = 0;
  for (int g = tile * tile_threads; g < (tile + 1) * tile_threads; g++) {
    amp_random r = amp_random_make(seed, (uint64_t)g);
    for (int k = 0; k < per; k++) {
      const float x = amp_random_float(&r), y = amp_random_float(&r);
      inside += x * x + y * y < 1.0f;
    }
  }
  return inside;
}

int main(int argc, char **argv) {
  amp_status status = AMP_SUCCESS;
  int samples = 1 << 24, per = 64, seed = 2026;
  const char *path = NULL, *kernels_dir = NULL;
  const ex_option options[] = {{"--samples", 1, 1 << 30, &samples, NULL, NULL},
                               {"--per", 1, 1 << 16, &per, NULL, NULL},
                               {"--seed", 0, INT32_MAX, &seed, NULL, NULL}};
  int parsed = ex_parse_args(argc, argv, "monte_carlo", usage, options,
                             sizeof options / sizeof *options, &path, &kernels_dir);
  if (parsed >= 0)
    return parsed;
  amp_accelerator *acc = NULL;
  amp_accelerator_view *av = NULL;
  amp_program *program = NULL;
  amp_kernel *kernel = NULL;
  amp_array_view *hits = NULL;
  amp_future *done = NULL;
  uint32_t *counts = NULL;
  int failed = 0;
  char opts[32], buf[32];
  EX_TRY(ex_open_view(path, &acc, &av));
  amp_accelerator_properties props;
  EX_TRY(amp_accelerator_get_properties(acc, &props));
  int tile = TILE;
  while ((size_t)tile > props.max_tile_size && tile > 1)
    tile /= 2;
  if (tile != TILE)
    printf("tiles of %d threads: the device allows %zu per tile\n", tile, props.max_tile_size);
  const int per_tile = tile * per;
  const int tiles = samples / per_tile + (samples % per_tile != 0);
  const double n = (double)tiles * per_tile;
  snprintf(opts, sizeof opts, "-DTILE=%d", tile);
  EX_TRY(ex_load_program(kernels_dir, "monte_carlo", monte_carlo_cl, opts, &program));
  EX_TRY(amp_kernel_create(program, "quarter_circle", &kernel));
  printf("%.0f points: %d tiles of %d threads, %d points each, seed %d\n", n, tiles, tile, per,
         seed);

  counts = calloc((size_t)tiles, sizeof *counts);
  if (!counts) {
    fprintf(stderr, "out of memory\n");
    status = AMP_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  EX_TRY(amp_array_view_create(amp_extent1(tiles), AMP_UINT32, counts, &hits));
  amp_arg args[] = {amp_arg_view(hits), amp_arg_uint((uint32_t)seed), amp_arg_int(per)};
  amp_tiled_extent dom = amp_tile1(amp_extent1(tiles * tile), tile);
  amp_launch launch = {.domain = dom.extent,
                       .tiled = 1,
                       .tile = {tile},
                       .kernel = kernel,
                       .args = args,
                       .nargs = AMP_NARGS(args)};
  uint32_t inside = 0; /* at most 2^30 points: no wrap-around */
  double e2e = 0, kernel_ms = NAN;
  for (int run = 0; run < 2; run++) { /* run 0 compiles the kernel; run 1 is timed */
    double t0 = ex_now_ms();
    EX_TRY(amp_array_view_discard_data(hits));
    amp_future_release(done);
    done = NULL;
    EX_TRY(amp_parallel_for_each_ex(av, &launch, &done));
    EX_TRY(amp_reduce(av, hits, AMP_REDUCE_SUM, &inside));
    e2e = ex_now_ms() - t0;
  }
  EX_TRY(ex_device_ms(done, &kernel_ms));

  const double p = inside / n, estimate = 4.0 * p, se = 4.0 * sqrt(p * (1.0 - p) / n);
  const double off = (estimate - PI) / se;
  printf("inside the quarter circle: %" PRIu32 " of %.0f\n", inside, n);
  printf("pi ~ %.6f +- %.6f (one standard error); pi is %.6f, %.2f standard errors away\n",
         estimate, se, PI, off);
  printf("kernel %s ms, end to end %.3f ms (launch, amp_reduce, its result read back)\n",
         ex_fmt(buf, sizeof buf, "%.3f", kernel_ms), e2e);
  if (fabs(off) > 4.0) {
    printf("FAILED: the estimate is more than 4 standard errors from pi\n");
    failed = 1;
  }
  /* the host counts the first and the last tile again, from the same streams */
  EX_TRY(amp_array_view_synchronize(hits));
  const int check[2] = {0, tiles - 1};
  for (int c = 0; c < 2; c++) {
    uint32_t want = host_tile_count((uint32_t)seed, check[c], tile, per);
    if (counts[check[c]] != want) {
      printf("FAILED: tile %d counted %" PRIu32 " points inside, the host %" PRIu32 "\n", check[c],
             counts[check[c]], want);
      failed = 1;
    }
  }
  if (!failed)
    printf("verified: within 4 standard errors of pi, and tiles 0 and %d count what the host "
           "counts\n",
           tiles - 1);
fail:
  EX_CLEANUP(amp_future_release(done));
  EX_CLEANUP(amp_array_view_release(hits));
  EX_CLEANUP(amp_kernel_release(kernel));
  EX_CLEANUP(amp_program_release(program));
  free(counts);
  return status != AMP_SUCCESS || failed ? 1 : 0;
}
