/* tiles: the C++ AMP article's tile_static and barrier demonstration, in C.
 *
 * A 16 x 16 extent is split into 2 x 2 tiles (AMP's extent.tile<2,2>()). In each tile the four
 * threads share a tile_static int[2][2]: each writes 42 into its own element, waits at the tile
 * barrier, then reads the three elements its neighbours wrote. The program prints which tile every
 * point belongs to and what every thread read, and checks both. The kernel is tiles.cl.
 *
 *   tiles [--size N] [--accelerator PATH] [--kernels DIR]   (N even, default 16)
 */
#include <inttypes.h>

#include "example.h"
#include "tiles_cl.h"     /* tiles_cl: tiles.cl as a string */
#include "tiles_launch.h" /* tiles_launch_ex: its typed launcher */

enum { TILE = 2, VALUE = 42, MAX_RUNS = 100000 };
/* Each timing repeats its work until this much wall time has passed and gives the mean per run:
 * at the default 16 x 16 one run takes microseconds, below what one clock reading can time. */
static const double MIN_TIMED_MS = 50.0;
/* Below this, a kernel is too short for its speedup to mean anything: the launch, not the tiles,
 * is what is timed. */
static const double SHORT_KERNEL_MS = 0.05;

static void usage(FILE *to) {
  fprintf(to,
          "usage: amp-tiles [--size N] [--accelerator PATH] [--kernels DIR]\n"
          "  --size N            the extent is N x N, N even (default 16); grids print up to 32\n"
          "  --accelerator PATH  device path as amp-info prints it (default: the default)\n"
          "  --kernels DIR       load DIR/tiles.cl instead of the built-in copy\n");
}

/* What the kernel computes, on the host: the tile number of every point, and what every thread
 * reads from its three neighbours once they have all written VALUE. */
static void tiles_seq(int *tile_number, int *neighbours_sum, int size) {
  for (int i = 0; i < size; i++)
    for (int j = 0; j < size; j++) {
      tile_number[i * size + j] = (i / TILE) * (size / TILE) + j / TILE;
      neighbours_sum[i * size + j] = (TILE * TILE - 1) * VALUE;
    }
}

/* The AMP version: the C++ AMP article's third listing, with the barrier, as a complete program. */
static amp_status tiles_amp(amp_accelerator_view *av, amp_kernel *kernel, int *tile_number,
                            int *neighbours_sum, int size, amp_future **done) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *avTile = NULL, *avSum = NULL;
  amp_extent matrix = amp_extent2(size, size);
  amp_tiled_extent tiledMatrix = amp_tile2(matrix, TILE, TILE);
  EX_TRY(amp_array_view_create(matrix, AMP_INT32, tile_number, &avTile));
  EX_TRY(amp_array_view_create(matrix, AMP_INT32, neighbours_sum, &avSum));
  EX_TRY(amp_array_view_discard_data(avTile));
  EX_TRY(amp_array_view_discard_data(avSum));

  EX_TRY(tiles_launch_ex(av, tiledMatrix, kernel, avTile, avSum, done));

  EX_TRY(amp_array_view_synchronize(avTile));
  EX_TRY(amp_array_view_synchronize(avSum));
fail:
  EX_CLEANUP(amp_array_view_release(avTile));
  EX_CLEANUP(amp_array_view_release(avSum));
  return status;
}

/* Prints a size x size grid of values, with lines between the tiles. */
static void print_grid(const char *title, const int *v, int size) {
  printf("\n%s\n", title);
  for (int i = 0; i < size; i++) {
    if (i > 0 && i % TILE == 0) {
      for (int j = 0; j < size; j++)
        printf("%s----", j > 0 && j % TILE == 0 ? "-+" : "");
      printf("\n");
    }
    for (int j = 0; j < size; j++)
      printf("%s%4d", j > 0 && j % TILE == 0 ? " |" : "", v[i * size + j]);
    printf("\n");
  }
}

int main(int argc, char **argv) {
  amp_status status = AMP_SUCCESS;
  int size = 16;
  const char *path = NULL, *kernels_dir = NULL;
  const ex_option options[] = {{"--size", TILE, 1 << 14, &size, NULL, NULL}};
  int parsed = ex_parse_args(argc, argv, "tiles", usage, options, sizeof options / sizeof *options,
                             &path, &kernels_dir);
  if (parsed >= 0)
    return parsed;
  if (size % TILE) {
    fprintf(stderr, "--size must be even: the 2 x 2 tiles must divide the extent\n");
    return 2;
  }

  size_t count = (size_t)size * (size_t)size;
  int *tile_number = malloc(count * sizeof(int)), *sum = malloc(count * sizeof(int));
  int *want_tile = malloc(count * sizeof(int)), *want_sum = malloc(count * sizeof(int));
  amp_program *program = NULL;
  amp_kernel *kernel = NULL;
  amp_future *done = NULL;
  int exit_code = 1;
  if (!tile_number || !sum || !want_tile || !want_sum) {
    fprintf(stderr, "tiles: out of host memory\n");
    goto fail;
  }
  printf("tiles: a %d x %d extent in %d x %d tiles, tile_static int tile_mem[2][2] per tile\n",
         size, size, TILE, TILE);

  int seq_runs = 0;
  double t0 = ex_now_ms(), seq_ms;
  do {
    tiles_seq(want_tile, want_sum, size);
    seq_runs++;
    seq_ms = ex_now_ms() - t0;
  } while (seq_ms < MIN_TIMED_MS && seq_runs < MAX_RUNS);
  seq_ms /= seq_runs;

  amp_accelerator *acc;
  amp_accelerator_view *av;
  EX_TRY(ex_open_view(path, &acc, &av));
  EX_TRY(ex_load_program(kernels_dir, "tiles", tiles_cl, NULL, &program));
  EX_TRY(tiles_kernel(program, &kernel));

  /* Run 1 compiles the kernel; the runs after it are timed, as many as MIN_TIMED_MS holds. */
  EX_TRY(tiles_amp(av, kernel, tile_number, sum, size, &done));
  EX_TRY(amp_future_release(done));
  done = NULL;
  int runs = 0;
  double e2e_ms = 0, kernel_ms = 0;
  do {
    t0 = ex_now_ms();
    EX_TRY(tiles_amp(av, kernel, tile_number, sum, size, &done));
    e2e_ms += ex_now_ms() - t0;
    double ms; /* NAN where the device gives no device time: the sum is NAN, printed n/a */
    EX_TRY(ex_device_ms(done, &ms));
    kernel_ms += ms;
    EX_TRY(amp_future_release(done));
    done = NULL;
    runs++;
  } while (e2e_ms < MIN_TIMED_MS && runs < MAX_RUNS);
  e2e_ms /= runs;
  kernel_ms /= runs;

  if (size <= 32) {
    print_grid("tile number of each thread (idx.tile[0] * tiles per row + idx.tile[1]):",
               tile_number, size);
    print_grid("what each thread read from its three neighbours after the barrier:", sum, size);
  }

  for (size_t k = 0; k < count; k++) {
    if (tile_number[k] != want_tile[k] || sum[k] != want_sum[k]) {
      fprintf(
          stderr, "MISMATCH at (%zu, %zu): got tile %d and sum %d, expected tile %d and sum %d\n",
          k / (size_t)size, k % (size_t)size, tile_number[k], sum[k], want_tile[k], want_sum[k]);
      goto fail;
    }
  }
  printf("\ntimings (run 1 compiled the kernel; each time is the mean of its runs over at least "
         "%.0f ms):\n",
         MIN_TIMED_MS);
  printf("  sequential CPU     %12.6f ms  (%d runs)\n", seq_ms, seq_runs);
  if (isnan(kernel_ms)) {
    /* no kernel time to tell launch cost from work: no speedups, as for a short kernel */
    printf("  kernel (device)    %12s     (no device time; the reason is above)\n", "n/a");
    printf("  end-to-end         %12.6f ms  (views, kernel, synchronize)\n", e2e_ms);
  } else if (kernel_ms < SHORT_KERNEL_MS) {
    printf("  kernel (device)    %12.6f ms  (%d runs)\n", kernel_ms, runs);
    printf("  end-to-end         %12.6f ms  (views, kernel, synchronize)\n", e2e_ms);
    printf("  no speedups: %d x %d is too little work to compare the two; the device "
           "times are\n  the cost of a launch, not of the tiles (try --size 2048)\n",
           size, size);
  } else {
    printf("  kernel (device)    %12.6f ms  (%d runs)  speedup %6.2fx\n", kernel_ms, runs,
           seq_ms / kernel_ms);
    printf("  end-to-end         %12.6f ms  speedup %6.2fx  (views, kernel, synchronize)\n", e2e_ms,
           seq_ms / e2e_ms);
  }
  printf("verified: %zu threads in %zu tiles each read %d from their 3 neighbours after the "
         "barrier\n",
         count, count / (TILE * TILE), (TILE * TILE - 1) * VALUE);
  exit_code = 0;

fail:
  EX_CLEANUP(amp_future_release(done));
  EX_CLEANUP(amp_kernel_release(kernel));
  EX_CLEANUP(amp_program_release(program));
  EX_FREE(tile_number, sum, want_tile, want_sum);
  return status == AMP_SUCCESS ? exit_code : 1;
}
