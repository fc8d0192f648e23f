/* monte_carlo.cl: a Monte Carlo estimate of pi, with the prelude's random numbers
 * (ampcl_random.h) and a tile collective (ampcl_collectives.h). See README.md.
 *
 * Every thread draws `per` points (x, y) uniform in the unit square from a stream of its own, two
 * from each block of four numbers (amp_random_float4: the whole block at once), and counts those
 * inside the quarter circle x^2 + y^2 < 1; the tile adds its threads' counts with
 * amp_tile_reduce, and its first thread writes the tile's count. The fraction inside estimates
 * pi / 4.
 *
 * The stream of thread g is amp_random_make(seed, g): the same numbers on every device and on the
 * host (include/ampcl/random.h), so the host can count any tile's points again and get the same
 * number. For that the test x * x + y * y < 1 must round the same way everywhere: no fused
 * multiply-add, hence the pragma (the host's C11 build contracts nothing either). */
#pragma OPENCL FP_CONTRACT OFF

#ifndef TILE
#define TILE 256
#endif

AMP_TILE_SHAPE(TILE)
__kernel void quarter_circle(AMP_VIEW(uint, hits), uint seed, int per) {
  AMP_TILED_INDEX1(idx);
  tile_static uint scratch[TILE];
  amp_random r = amp_random_make(seed, (ulong)idx.global_id[0]);
  uint inside = 0;
  for (int k = 0; k + 1 < per; k += 2) { /* two points from each block of four numbers */
    const float4 u = amp_random_float4(&r);
    inside += (u.x * u.x + u.y * u.y < 1.0f) + (u.z * u.z + u.w * u.w < 1.0f);
  }
  if (per % 2) { /* an odd count: the last point */
    const float x = amp_random_float(&r), y = amp_random_float(&r);
    inside += x * x + y * y < 1.0f;
  }
  const uint tile_inside = amp_tile_reduce(uint, sum, inside, scratch);
  if (idx.local_id[0] == 0)
    amp_at(hits, idx.tile[0]) = tile_inside;
}
