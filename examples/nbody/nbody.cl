/* nbody.cl: one step of the n-body simulation of the C++ AMP article (after the C++ AMP team's n-body
 * sample): every body feels the gravity of every other body, then moves.
 *
 * A particle is {float4 position, velocity}, the same struct as the host's {cl_float4, cl_float4}.
 * position.w holds the body's mass (the original leaves w unused and uses one PARTICLE_MASS); this
 * lets the tiled kernel pad with massless bodies. Units have G = 1. Forces are softened: the
 * distance squared gets softening2 added, so close encounters stay finite and a body's pull on
 * itself is zero. Each step reads `previous` and writes `next` (the host swaps the two views).
 *
 *   nbody_naive  one thread per body over an extent of `bodies`; reads every position from
 *                global memory (the C++ AMP article's simulation_step).
 *   nbody_tiled  tiles of TILE threads (-DTILE=256 by default): the tile loads TILE positions into
 *                tile_static memory, every thread uses all of them, and so on through the bodies,
 *                so each position is read from global memory once per tile rather than once per
 *                thread. Launched over `bodies` padded up to whole tiles: padding threads load
 *                massless bodies and write nothing, and every thread reaches every barrier. */
#ifndef TILE
#define TILE 256
#endif

typedef struct particle {
  float4 position; /* x, y, z, mass */
  float4 velocity; /* x, y, z, unused */
} particle;

/* The original's bodybody_interaction: the acceleration body p2 gives body p1, added to acc. */
static inline float3 bodybody_interaction(float3 acc, const float4 p1, const float4 p2,
                                          const float softening2) {
  float3 dist = p2.xyz - p1.xyz;
  float absDist = dot(dist, dist) + softening2;
  float invDist = rsqrt(absDist);
  float invDistCube = invDist * invDist * invDist;
  return acc + dist * (p2.w * invDistCube);
}

__kernel void nbody_naive(AMP_CONST_VIEW(particle, previous), AMP_VIEW(particle, next), float dt,
                          float softening2) {
  AMP_INDEX1(idx);
  const int bodies = amp_extent(previous, 0);
  particle p = amp_at(previous, idx[0]);
  float3 acceleration = (float3)(0.0f);

  for (int body = 0; body < bodies; ++body)
    acceleration = bodybody_interaction(acceleration, p.position, amp_at(previous, body).position,
                                        softening2);

  p.velocity.xyz += acceleration * dt;
  p.position.xyz += p.velocity.xyz * dt;
  amp_at(next, idx[0]) = p;
}

__kernel void nbody_tiled(AMP_CONST_VIEW(particle, previous), AMP_VIEW(particle, next), float dt,
                          float softening2) {
  AMP_TILED_INDEX1(idx);
  tile_static float4 cache[TILE];
  const int bodies = amp_extent(previous, 0);
  const int i = idx.global_id[0], lid = idx.local_id[0];
  particle p = amp_at(previous, min(i, bodies - 1)); /* padding threads copy a real body */
  float3 acceleration = (float3)(0.0f);

  for (int base = 0; base < bodies; base += TILE) {
    const int j = base + lid;
    cache[lid] = j < bodies ? amp_at(previous, j).position : (float4)(0.0f); /* mass 0 */
    amp_barrier_wait(); /* the tile's positions are all loaded */

    for (int k = 0; k < TILE; ++k)
      acceleration = bodybody_interaction(acceleration, p.position, cache[k], softening2);

    amp_barrier_wait(); /* everyone is done with them before the next load */
  }

  if (i < bodies) {
    p.velocity.xyz += acceleration * dt;
    p.position.xyz += p.velocity.xyz * dt;
    amp_at(next, i) = p;
  }
}
