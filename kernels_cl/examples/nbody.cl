/* nbody.cl: one step of an all-pairs gravitational n-body simulation, in three stages: a naive
 * kernel, a tiled one, and a fast one. This is the C++ AMP article's simulation_step (after the C++ AMP
 * team's n-body sample).
 *
 * What it computes: every body i feels every body j (itself included, harmlessly, see below):
 *
 *     dist   = p_j - p_i                           (x, y, z only)
 *     r2     = dot(dist, dist) + SOFTENING2
 *     a_i   += dist * particle_mass * rsqrt(r2)^3
 *
 * then v_i += a_i * delta_time and p_i += v_i * delta_time (semi-implicit Euler). All bodies have
 * the same mass, a kernel argument. The w components of position and velocity are not used and
 * are copied through unchanged. (The original accumulated the whole float4, so garbage in w leaked
 * into the velocity's w; only xyz take part here.)
 *
 * Softening: -DSOFTENING2=<float> (default 0.01f, a softening length of 0.1 in position units)
 * is added to every squared distance. It keeps close encounters finite and makes the self term
 * (dist = 0) contribute exactly 0 instead of 0 * inf = NaN; it must be > 0. Choose it well below
 * the typical distance between bodies.
 *
 * Data: a rank-1 view of `particle` (below; the host declares the same 32-byte struct, e.g.
 * `typedef struct { float position[4], velocity[4]; } particle;` and AMP_STRUCT(particle)).
 * Each step reads `previous` and writes `next`; the host swaps the two views between steps, so a
 * body's update never sees a half-updated neighbour. The body count is previous's extent.
 *
 * Kernels, all with the arguments (previous, next, delta_time, particle_mass):
 *
 *   nbody_naive  One thread per body, looping over all bodies in global memory.
 *                Domain: amp_extent1(N), untiled.
 *
 *   nbody_tiled  Adds tile_static caching: each tile of TILE threads loads TILE positions at a
 *                time into tile_static memory, waits at a barrier, and every thread then reads
 *                them from there: global reads drop by a factor TILE. -DTILE=256 (default).
 *                N need not be a multiple of TILE: the domain is padded
 *                (amp_tiled_extent_pad(amp_tile1(amp_extent1(N), TILE))); threads beyond N still
 *                load and reach every barrier but do not store, and the last chunk of bodies is
 *                walked only up to N (a bound that is the same for the whole tile).
 *
 *   nbody_fast   Adds register blocking and fast math: each thread updates BPT bodies
 *                (-DBPT=4 default), so each position read from tile_static memory serves BPT
 *                interactions; rsqrt built with -cl-fast-relaxed-math; an inner loop of fixed length
 *                TILE, unrolled by UNROLL (-DUNROLL=16). The fixed length comes from padding
 *                instead of a guard: cache slots past N hold a body far away (-DFAR=1e18f in
 *                each coordinate), whose pull underflows to exactly 0. All bodies weigh the same,
 *                so the mass multiplies the sum once per body, not every interaction: 12
 *                operations per interaction instead of 13. Build it with
 *                "-cl-fast-relaxed-math -cl-denorms-are-zero" for the speed CUDA's
 *                -use_fast_math gives (flush-to-zero rsqrt). TILE=256, BPT=4, UNROLL=16 were the
 *                fastest measured on an H200 at 262,144 bodies (BPT=2 and 8 about a fifth slower,
 *                native_rsqrt 13% slower; lab/NOTEBOOK.md). Tile: TILE threads covering
 *                TILE * BPT bodies; thread l of tile g updates bodies g*TILE*BPT + b*TILE + l,
 *                b < BPT (consecutive threads on consecutive bodies: coalesced).
 *                Domain: amp_tiled_extent_pad(amp_tile1(amp_extent1((N + BPT - 1) / BPT), TILE)).
 *
 *   nbody_cpu    The same step shaped for CPU devices (POCL): VW bodies per work-item in vector
 *                lanes, no tile_static memory, no barrier (see the kernel).
 *                Domain: amp_extent1((N + VW - 1) / VW), untiled; -DVW=16 by default.
 *
 * Launch (host C, errors elided to CHECK):
 *
 *     CHECK(amp_program_create_builtin("nbody", "-DTILE=256 -DBPT=4 -DSOFTENING2=0.01f", &prog));
 *     CHECK(amp_kernel_create(prog, "nbody_fast", &k));
 *     amp_array_view *cur, *nxt;                           // two arrays of N particles
 *     CHECK(amp_array_view_create(amp_extent1(N), AMP_STRUCT(particle), p0, &cur));
 *     CHECK(amp_array_view_create(amp_extent1(N), AMP_STRUCT(particle), p1, &nxt));
 *     amp_tiled_extent dom =
 *         amp_tiled_extent_pad(amp_tile1(amp_extent1((N + 4 - 1) / 4), 256));
 *     for (int s = 0; s < steps; s++) {
 *       amp_arg args[] = {amp_arg_view(cur), amp_arg_view(nxt), amp_arg_float(dt),
 *                         amp_arg_float(mass)};
 *       CHECK(amp_parallel_for_each_tiled(av, dom, k, args, AMP_NARGS(args)));
 *       amp_array_view *t = cur; cur = nxt; nxt = t;      // previous <-> next
 *     }
 *     CHECK(amp_array_view_synchronize(cur));              // the latest state
 *
 * For nbody_naive pass amp_extent1(N) to amp_parallel_for_each; for nbody_tiled the padded
 * amp_tile1(amp_extent1(N), TILE). The tile size passed must equal -DTILE. */
#ifndef SOFTENING2 /* added to every squared distance; must be > 0 */
#define SOFTENING2 0.01f
#endif
#ifndef TILE /* nbody_tiled's and nbody_fast's threads per tile (the launch's tile must match) */
#define TILE 256
#endif
#ifndef BPT /* bodies per thread in nbody_fast */
#define BPT 4
#endif
#ifndef UNROLL /* unrolling of nbody_fast's inner loop */
#define UNROLL 16
#endif

#ifndef FAR
#define FAR 1e18f /* where nbody_fast puts padding bodies; see there */
#endif

typedef struct {
  float4 position, velocity;
} particle;

/* The original's bodybody_interaction: the pull of a body at p2 on one at p1. */
static inline float3 body_body(float3 acc, float4 p1, float4 p2, float mass) {
  const float3 dist = p2.xyz - p1.xyz;
  const float r2 = dot(dist, dist) + SOFTENING2;
  const float inv = rsqrt(r2);
  return acc + dist * (mass * inv * inv * inv);
}

/* Semi-implicit Euler: velocity first, then position with the new velocity. */
static inline particle advance(particle p, float3 acc, float dt) {
  p.velocity.xyz += acc * dt;
  p.position.xyz += p.velocity.xyz * dt;
  return p;
}

__kernel void nbody_naive(AMP_CONST_VIEW(particle, previous), AMP_VIEW(particle, next),
                          float delta_time, float particle_mass) {
  AMP_INDEX1(idx);
  const int n = amp_extent(previous, 0), i = idx[0];
  if (i >= n)
    return;
  const particle p = amp_at(previous, i);
  float3 acc = (float3)(0.0f);
  for (int j = 0; j < n; j++)
    acc = body_body(acc, p.position, amp_at(previous, j).position, particle_mass);
  amp_at(next, i) = advance(p, acc, delta_time);
}

AMP_TILE_SHAPE(TILE) /* another tile is refused: the cache holds TILE positions */
__kernel void nbody_tiled(AMP_CONST_VIEW(particle, previous), AMP_VIEW(particle, next),
                          float delta_time, float particle_mass) {
  AMP_TILED_INDEX1(idx);
  tile_static float4 cache[TILE];
  const int n = amp_extent(previous, 0), i = idx.global_id[0], l = idx.local_id[0];
  const int mine = i < n; /* threads of the padding compute nothing, but join every barrier */
  const float4 pos = mine ? amp_at(previous, i).position : (float4)(0.0f);
  float3 acc = (float3)(0.0f);
  for (int base = 0; base < n; base += TILE) {
    const int j = base + l;
    cache[l] = j < n ? amp_at(previous, j).position : (float4)(0.0f);
    amp_barrier_wait();
    const int count = min(TILE, n - base); /* the same in every thread of the tile */
    for (int t = 0; t < count; t++)
      acc = body_body(acc, pos, cache[t], particle_mass);
    amp_barrier_wait();
  }
  if (mine)
    amp_at(next, i) = advance(amp_at(previous, i), acc, delta_time);
}

AMP_TILE_SHAPE(TILE) /* another tile is refused: the cache holds TILE positions */
__kernel void nbody_fast(AMP_CONST_VIEW(particle, previous), AMP_VIEW(particle, next),
                         float delta_time, float particle_mass) {
  AMP_TILED_INDEX1(idx);
  tile_static float4 cache[TILE];
  const int n = amp_extent(previous, 0), l = idx.local_id[0];
  const int first = idx.tile[0] * TILE * BPT + l;
  float3 pos[BPT], acc[BPT];
#pragma unroll
  for (int b = 0; b < BPT; b++) {
    const int i = first + b * TILE;
    pos[b] = i < n ? amp_at(previous, i).position.xyz : (float3)(0.0f);
    acc[b] = (float3)(0.0f);
  }
  for (int base = 0; base < n; base += TILE) {
    const int j = base + l;
    /* Padding slots hold a body far away (FAR in every coordinate): its pull, d / |d|^3 ~ 1e-36,
     * is below float's smallest normal number and flushes to exactly 0 (inv^3 ~ 1e-55 already
     * does), so the loop needs no guard and no mass factor per interaction. */
    cache[l] = j < n ? amp_at(previous, j).position : (float4)(FAR);
    amp_barrier_wait_with_tile_static_memory_fence();
#pragma unroll UNROLL
    for (int t = 0; t < TILE; t++) {
      const float4 q = cache[t]; /* one tile_static read serves BPT bodies */
#pragma unroll
      for (int b = 0; b < BPT; b++) {
        const float3 d = q.xyz - pos[b];
        /* rsqrt, not native_rsqrt: built with -cl-fast-relaxed-math, NVIDIA's compiler turns it
         * into one flush-to-zero MUFU.RSQ, while native_rsqrt becomes a non-FTZ rsqrt that ptxas
         * wraps in three more instructions (measured: 936 against 1128 SASS instructions). */
        const float inv = rsqrt(mad(d.x, d.x, mad(d.y, d.y, mad(d.z, d.z, SOFTENING2))));
        const float inv2 = inv * inv;
        acc[b] = mad(d, (float3)(inv2 * inv), acc[b]); /* the mass is applied once, at the end */
      }
    }
    amp_barrier_wait_with_tile_static_memory_fence();
  }
#pragma unroll
  for (int b = 0; b < BPT; b++) {
    const int i = first + b * TILE;
    if (i < n)
      amp_at(next, i) = advance(amp_at(previous, i), acc[b] * particle_mass, delta_time);
  }
}

/* nbody_cpu: the same step shaped for CPU devices (POCL). A CPU runtime runs a work-group's
 * work-items one after another on one core and gets SIMD from the vector types in the code, so
 * here one work-item updates VW bodies (-DVW=16 default: one float16, an AVX-512 register), held
 * as three vectors x, y, z; the loop over all bodies broadcasts one body at a time against all VW
 * lanes. No tile_static memory and no barrier: on a CPU the cache does that job. The math is
 * nbody_fast's (rsqrt, mass applied once, the same softening). Bodies past N in the last
 * work-item compute garbage in their lanes and are not stored.
 * Domain: amp_extent1((N + VW - 1) / VW), untiled. On a GPU use nbody_fast. */
#ifndef VW /* bodies per work-item in nbody_cpu (a vector width) */
#define VW 16
#endif
#define NB_CAT2(a, b) a##b
#define NB_CAT(a, b) NB_CAT2(a, b)
#define FV NB_CAT(float, VW)
__kernel void nbody_cpu(AMP_CONST_VIEW(particle, previous), AMP_VIEW(particle, next),
                        float delta_time, float particle_mass) {
  AMP_INDEX1(idx);
  const int n = amp_extent(previous, 0), first = idx[0] * VW;
  float xs[VW], ys[VW], zs[VW];
  for (int v = 0; v < VW; v++) { /* gather VW positions into lanes */
    const float4 p = amp_at(previous, min(first + v, n - 1)).position;
    xs[v] = p.x;
    ys[v] = p.y;
    zs[v] = p.z;
  }
  const FV x = NB_CAT(vload, VW)(0, xs), y = NB_CAT(vload, VW)(0, ys),
           z = NB_CAT(vload, VW)(0, zs);
  FV ax = (FV)(0.0f), ay = (FV)(0.0f), az = (FV)(0.0f);
  for (int j = 0; j < n; j++) {
    const float4 q = amp_at(previous, j).position; /* broadcast to every lane */
    const FV dx = (FV)(q.x) - x, dy = (FV)(q.y) - y, dz = (FV)(q.z) - z;
    const FV inv = fast_math_rsqrt(mad(dx, dx, mad(dy, dy, mad(dz, dz, (FV)(SOFTENING2)))));
    const FV inv3 = inv * inv * inv;
    ax = mad(dx, inv3, ax);
    ay = mad(dy, inv3, ay);
    az = mad(dz, inv3, az);
  }
  float axs[VW], ays[VW], azs[VW];
  NB_CAT(vstore, VW)(ax, 0, axs);
  NB_CAT(vstore, VW)(ay, 0, ays);
  NB_CAT(vstore, VW)(az, 0, azs);
  for (int v = 0; v < VW && first + v < n; v++)
    amp_at(next, first + v) = advance(amp_at(previous, first + v),
                                      (float3)(axs[v], ays[v], azs[v]) * particle_mass, delta_time);
}
