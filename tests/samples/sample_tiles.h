/* tests/samples/sample_tiles.h: how the reduction and scan tests run their checks, once for each
 * tile the samples are built for. Not amp-bench's (sample_drivers.h is the part it shares). */
#ifndef AMPCL_TESTS_SAMPLE_TILES_H
#define AMPCL_TESTS_SAMPLE_TILES_H

#include "check.h"
#include "sample_drivers.h"

/* Calls check(av, k) with the samples' kernels built for the tuned tile of 256 threads where the
 * device allows it (not on a device seen weaker), then for the least tile, 32. 1 where the
 * device's properties cannot be read (nothing run), else 0. */
static inline int sample_check_tiles(amp_accelerator_view *av,
                                     void (*check)(amp_accelerator_view *av,
                                                   const sample_kernels *k)) {
  amp_accelerator_properties props;
  if (test_props(av, &props) != AMP_SUCCESS)
    return 1;
  static const int tiles[] = {256, 32};
  for (int t = 0; t < 2; t++) {
    if (tiles[t] == 256 && props.max_tile_size < 256)
      continue;
    sample_kernels k;
    CHECK_OK(sample_kernels_create(tiles[t], &k));
    if (!k.carry) /* not made: nothing to check or release */
      continue;
    check(av, &k);
    sample_kernels_release(&k);
  }
  return 0;
}

#endif /* AMPCL_TESTS_SAMPLE_TILES_H */
