/* Step 4 of docs/TUTORIAL.md: tiles and the memory a tile shares. The input is cut into tiles;
 * each tile adds up its elements in tile_static (__local) memory, with barriers between the
 * rounds. Two kernels: one whose tile size is fixed when it is built, one that takes it at run
 * time. Both are checked against the host. */
#include "step4_tile_sums_cl.h"
#include "step4_tile_sums_launch.h"
#include "tutorial.h"

enum { N = 64 * 1000 };

static int check(const char *what, const float *in, const float *sums, int tile) {
  int wrong = 0;
  for (int t = 0; t < N / tile; t++) {
    float expect = 0.0f;
    for (int i = 0; i < tile; i++)
      expect += in[t * tile + i];
    wrong += sums[t] != expect;
  }
  printf("%-34s tiles of %3d: %d tile sums wrong\n", what, tile, wrong);
  return wrong;
}

int main(void) {
  static float in[N], sums[N];
  for (int i = 0; i < N; i++)
    in[i] = (float)(i % 10); /* small integers: every sum is exact, in any order */

  /* The tile size, in one place: given to the compiler (-DTILE) and to the launch (amp_tile1).
   * 64, or the most the device allows (a power of two, so that it still divides N). */
  amp_accelerator_view *view;
  TRY(amp_default_view(&view)); /* belongs to the accelerator: no release */
  amp_accelerator *acc;
  amp_accelerator_properties props;
  TRY(amp_accelerator_view_get_accelerator(view, &acc));
  TRY(amp_accelerator_get_properties(acc, &props));
  int static_tile = 64;
  while ((size_t)static_tile > props.max_tile_size)
    static_tile /= 2;
  char options[32];
  snprintf(options, sizeof options, "-DTILE=%d", static_tile);
  amp_program *program;
  amp_kernel *fixed, *any;
  TRY(amp_program_create(step4_tile_sums_cl, options, &program));
  TRY(tile_sum_static_kernel(program, &fixed));
  TRY(tile_sum_local_kernel(program, &any));

  amp_array_view *vin, *vsums;
  TRY(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, in, &vin));
  TRY(amp_array_view_create(amp_extent1(N), AMP_FLOAT, sums, &vsums));
  int wrong = 0;

  /* 1. The tile_static kernel, launched with the tile it was built for. Its launcher takes a
   * tiled extent, since the kernel uses tiles. */
  TRY(amp_array_view_discard_data(vsums));
  TRY(tile_sum_static_launch(view, amp_tile1(amp_extent1(N), static_tile), fixed, vin, vsums));
  TRY(amp_array_view_synchronize(vsums));
  wrong += check("tile_sum_static (-DTILE)", in, sums, static_tile);

  /* 2. The __local kernel, with two tile sizes: the launch says how much memory a tile gets
   * (the launcher's part_bytes, for the kernel's `__local float *part`). */
  for (int tile = 32; tile <= 128; tile *= 4) {
    if ((size_t)tile > props.max_tile_size) { /* a smaller device */
      printf("%-34s tiles of %3d: more than this device's %zu, not run\n",
             "tile_sum_local (part_bytes)", tile, props.max_tile_size);
      continue;
    }
    TRY(amp_array_view_discard_data(vsums));
    TRY(tile_sum_local_launch(view, amp_tile1(amp_extent1(N), tile), any, vin, vsums,
                              sizeof(float) * (size_t)tile));
    TRY(amp_array_view_synchronize(vsums));
    wrong += check("tile_sum_local (part_bytes)", in, sums, tile);
  }

  TRY(amp_array_view_release(vin));
  TRY(amp_array_view_release(vsums));
  TRY(amp_kernel_release(fixed));
  TRY(amp_kernel_release(any));
  TRY(amp_program_release(program));
  return wrong == 0 ? 0 : 1;
}
