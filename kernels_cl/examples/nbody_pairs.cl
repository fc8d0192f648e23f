/* nbody_pairs.cl: the n-body kernels' fourth stage (nbody.cl has the first three): every pair of
 * bodies once, with Newton's third law.
 *
 * nbody_fast (nbody.cl) computes N^2 interactions a step: the pull of j on i and, separately,
 * the pull of i on j. Both come from the same numbers: with equal masses the second is the
 * first with its sign flipped. On an H100 nbody_fast is issue-bound at about 12.4 instructions
 * per interaction (3 subtractions, 3 fused multiply-adds for r^2, one rsqrt, 2 multiplications
 * for rsqrt^3, 3 multiply-adds into the sum); using each pair for both bodies costs the same 12
 * plus 3 multiply-adds for the second body: 15 instructions per two interactions.
 *
 * The price is a reduction: body j's sum now collects terms from every tile of threads that
 * meets it, so it cannot live in one thread's registers. Here the terms meet in global memory
 * through atomic float adds (on NVIDIA GPUs one `atom.global.add.f32`, elsewhere a
 * compare-and-exchange loop: ampcl_atomics.h), so:
 *   - a step is two kernels: nbody_pairs sums every body's acceleration into `accel`, then
 *     nbody_pairs_advance moves the bodies and sets `accel` back to zero for the next step;
 *   - the sums are not bitwise reproducible: float addition depends on the order in which the
 *     tiles' adds land. The result is as accurate as nbody_fast's (tests/kernels/nbody.c holds
 *     both to the same tolerance against a double-precision reference).
 *
 * How the work is cut. Bodies form blocks of BLOCK = TILE * BPT consecutive bodies; with `blocks`
 * blocks, the pairs are the block pairs (I, J) with I <= J, a triangle. A tile of TILE threads
 * takes one task: CHUNK consecutive block pairs of one row I (I fixed, J = I..), or of two rows:
 * row r is folded with row blocks - 1 - r, whose lengths (blocks - r and r + 1) add up to
 * blocks + 1 for every r, so the tasks are all CHUNK long and no tile idles in a short row.
 *
 * One block pair (I, J), I < J: thread l holds BPT bodies of I (positions and sums in
 * registers: bodies I * BLOCK + a * TILE + l, a < BPT), and J's BLOCK positions and sums sit
 * in tile_static memory (the sums as +d f, d pointing from I's body to J's: minus J's pull, whose
 * sign is flipped once, at the atomic add). In round t (t = 0 .. TILE - 1) thread l works on J's
 * slot (l + t) % TILE of each of J's BPT rows: BPT x BPT pairs, both sums updated, and no two
 * threads touch the same J body in the same round (the rounds are a rotation). A barrier ends
 * each round, because the next round hands this thread's J slots to its neighbour. Per round a
 * thread does BPT^2 pairs (15 instructions each) and 3 BPT tile_static accesses: with BPT = 8,
 * 960 instructions of arithmetic against 24 loads and stores. After the TILE rounds, J's sums are
 * added to `accel` (3 atomic adds per J body), and after the task's last pair, I's.
 * The diagonal pair (I, I) is done one way only: each thread sums the pull of all of I's BLOCK
 * bodies on its own BPT bodies (as nbody_fast does), because the rotation would count each pair
 * twice there.
 *
 * N need not be a multiple of anything: slots past N hold a body far away (FAR in every
 * coordinate, as in nbody_fast), whose pull on a real body and whose share of a real body's
 * pull both flush to exactly 0; a padding body's sum (zero) goes nowhere (add_accel).
 *
 * Kernels:
 *
 *   nbody_pairs(bodies, accel)
 *       bodies: rank-1 view of N particles (nbody.cl's struct), read only.
 *       accel:  rank-2 float view of N x 4: the accelerations, summed into (x, y, z; the 4th
 *               column is not used); zero before the first step (nbody_pairs_advance leaves it
 *               so after each step). The mass is not applied here.
 *       Domain: tiles of TILE threads, any number: amp_tile1(amp_extent1(tiles * TILE), TILE).
 *       Tile g does tasks g, g + tiles, g + 2 tiles, ... so every count is correct; launch
 *       tasks tiles (below) or fewer: tasks = ((blocks + 1) / 2) * ceil((blocks + 1) / CHUNK),
 *       blocks = ceil(N / BLOCK). A GPU wants at least a few tiles per compute unit.
 *
 *   nbody_pairs_advance(previous, next, accel, delta_time, particle_mass)
 *       next[i] = previous[i] moved with acceleration accel[i] * particle_mass (semi-implicit
 *       Euler, as nbody.cl's advance), then accel[i] = 0. Domain: amp_extent1(N).
 *
 * Build options: -DTILE=32 (threads per tile; 32 is one NVIDIA warp, so the barriers cost
 * little), -DBPT=8 (bodies per thread on each side of a pair), -DCHUNK=8 (block pairs per task),
 * -DSOFTENING2 as in nbody.cl, and for speed "-cl-fast-relaxed-math -cl-denorms-are-zero"
 * (rsqrt as one flush-to-zero instruction, as for nbody_fast).
 *
 * Launch (host C, errors elided to CHECK):
 *
 *     CHECK(amp_program_create_builtin("nbody_pairs", "-DTILE=32 -DBPT=8 -DCHUNK=8", &prog));
 *     CHECK(amp_kernel_create(prog, "nbody_pairs", &pairs));
 *     CHECK(amp_kernel_create(prog, "nbody_pairs_advance", &advance));
 *     float *zeros = calloc((size_t)N * 4, sizeof(float));   // accel starts at zero
 *     CHECK(amp_array_view_create(amp_extent2(N, 4), AMP_FLOAT, zeros, &accel));
 *     long blocks = (N + 255) / 256, tasks = (blocks + 1) / 2 * ((blocks + 1 + 7) / 8);
 *     amp_tiled_extent dom = amp_tile1(amp_extent1((int)(tasks * 32)), 32);
 *     for (int s = 0; s < steps; s++) {
 *       amp_arg a1[] = {amp_arg_view(cur), amp_arg_view(accel)};
 *       CHECK(amp_parallel_for_each_tiled(av, dom, pairs, a1, AMP_NARGS(a1)));
 *       amp_arg a2[] = {amp_arg_view(cur), amp_arg_view(nxt), amp_arg_view(accel),
 *                       amp_arg_float(dt), amp_arg_float(mass)};
 *       CHECK(amp_parallel_for_each(av, amp_extent1(N), advance, a2, AMP_NARGS(a2)));
 *       amp_array_view *t = cur; cur = nxt; nxt = t;
 *     }
 *
 * Measured on an H100 at 262,144 bodies (lab/NOTEBOOK.md), counting N^2 interactions a step as
 * for the other kernels: about twice the plain tiled CUDA kernel and 1.6 times nbody_fast, at 7.9
 * instructions per interaction in the SASS of a round. Storing J's sums as +d f (their sign
 * flipped once, at the atomic add) matters: written as mad(-d, f, ...), the compiler computed -d
 * with 3 more subtractions per pair, 9.4 instructions per interaction, and the kernel was 14%
 * slower. */
#ifndef SOFTENING2 /* added to every squared distance; must be > 0 */
#define SOFTENING2 0.01f
#endif
#ifndef TILE /* threads per tile (the launch's tile must match) */
#define TILE 32
#endif
#ifndef BPT /* bodies per thread */
#define BPT 8
#endif
#ifndef CHUNK /* block pairs per task */
#define CHUNK 8
#endif
#ifndef FAR /* where padding bodies are put, too far to pull on anything */
#define FAR 1e18f
#endif
#define BLOCK (TILE * BPT)

#if TILE < 1 || BPT < 1 || CHUNK < 1
#error "nbody_pairs: TILE, BPT and CHUNK must be at least 1"
#endif

typedef struct {
  float4 position, velocity;
} particle;

/* One pair: d = q - p and the common factor 1 / |d|^3 (softened); the caller applies it to both
 * bodies. rsqrt is one instruction when built with -cl-fast-relaxed-math (see nbody_fast). */
static inline float pair_factor(float3 d) {
  const float inv = rsqrt(mad(d.x, d.x, mad(d.y, d.y, mad(d.z, d.z, SOFTENING2))));
  return inv * inv * inv;
}

/* Body `i`'s position, or the far-away padding body past n. */
static inline float3 position_or_far(AMP_CONST_VIEW(particle, bodies), long i, int n) {
  return i < n ? amp_at(bodies, (int)i).position.xyz : (float3)(FAR);
}

/* Adds s to body i's acceleration (the mass comes in nbody_pairs_advance). A padding body (i >= n)
 * adds 0 to body n - 1 instead of branching around the adds: the same sum, and no atomic inside a
 * branch that differs between the threads of a tile (POCL 3.1 built with -cl-denorms-are-zero or
 * -cl-fast-relaxed-math read and wrote past the end of `accel` with the branch; measured). */
static inline void add_accel(AMP_VIEW(float, accel), long i, int n, float3 s) {
  const int mine = i < n, at = mine ? (int)i : n - 1;
  s = mine ? s : (float3)(0.0f);
  amp_atomic_fetch_add(&amp_at(accel, at, 0), s.x);
  amp_atomic_fetch_add(&amp_at(accel, at, 1), s.y);
  amp_atomic_fetch_add(&amp_at(accel, at, 2), s.z);
}

AMP_TILE_SHAPE(TILE)
__kernel void nbody_pairs(AMP_CONST_VIEW(particle, bodies), AMP_VIEW(float, accel)) {
  AMP_TILED_INDEX1(idx);
  tile_static float4 jpos[BPT * TILE], jacc[BPT * TILE];
  const int n = amp_extent(bodies, 0), l = idx.local_id[0];
  const long blocks = ((long)n + BLOCK - 1) / BLOCK;
  const long folds = (blocks + 1) / 2, per_fold = (blocks + 1 + CHUNK - 1) / CHUNK;
  const long tasks = folds * per_fold, tiles = get_num_groups(0);
  /* Everything below is the same in the whole tile, so every thread meets every barrier. The
   * loops stay in this function: POCL needs a function with barriers inlined into the kernel
   * (pocl/pocl#668; measured here: wrong sums when tiles ran on two threads at once). */
  for (long task = idx.tile[0]; task < tasks; task += tiles) {
    const long r = task / per_fold, c = task % per_fold;
    /* Fold r: row r (visits 0 .. blocks - r - 1, J = r + v), then row blocks - 1 - r (the rest,
     * up to blocks + 1 visits), unless r is the middle row of an odd count, alone. */
    const long first_row = blocks - r, visits = 2 * r + 1 == blocks ? first_row : blocks + 1;
    const long v0 = c * CHUNK, v1 = min(v0 + CHUNK, visits);
    for (int part = 0; part < 2; part++) {
      /* part 0: row r, pairs (r, r + v0) .. ; part 1: row blocks - 1 - r, from its diagonal */
      const long I = part == 0 ? r : blocks - 1 - r;
      const long j0 = part == 0 ? r + v0 : I + max(v0, first_row) - first_row;
      const long j1 = part == 0 ? r + min(v1, first_row) : I + v1 - first_row;
      if (j0 >= j1)
        continue;
      float3 p[BPT], acc[BPT]; /* this thread's BPT bodies of block I */
#pragma unroll
      for (int a = 0; a < BPT; a++) {
        p[a] = position_or_far(AMP_VIEW_ARG(bodies), I * BLOCK + a * TILE + l, n);
        acc[a] = (float3)(0.0f);
      }
      for (long J = j0; J < j1; J++) {
        /* J's bodies into tile_static memory: row b, slot s is body J * BLOCK + b * TILE + s. */
#pragma unroll
        for (int b = 0; b < BPT; b++) {
          jpos[b * TILE + l] =
              (float4)(position_or_far(AMP_VIEW_ARG(bodies), J * BLOCK + b * TILE + l, n), 0.0f);
          jacc[b * TILE + l] = (float4)(0.0f);
        }
        amp_barrier_wait_with_tile_static_memory_fence();
        if (J == I) {
          /* The diagonal: one way only, every body of the block on this thread's BPT bodies. */
          for (int t = 0; t < BLOCK; t++) {
            const float3 q = jpos[t].xyz;
#pragma unroll
            for (int a = 0; a < BPT; a++) {
              const float3 d = q - p[a];
              acc[a] = mad(d, (float3)(pair_factor(d)), acc[a]);
            }
          }
        } else {
          for (int t = 0; t < TILE; t++) {
            const int slot = (l + t) % TILE; /* a rotation: one thread per J slot per round */
#pragma unroll
            for (int b = 0; b < BPT; b++) {
              const float3 q = jpos[b * TILE + slot].xyz;
              float3 qacc = jacc[b * TILE + slot].xyz;
#pragma unroll
              for (int a = 0; a < BPT; a++) {
                const float3 d = q - p[a];
                const float3 f = (float3)(pair_factor(d));
                acc[a] = mad(d, f, acc[a]); /* J's body pulls on I's by d f, I's on J's by -d f: */
                qacc = mad(d, f, qacc);     /* jacc sums +d f, minus J's pull (no negations) */
              }
              jacc[b * TILE + slot] = (float4)(qacc, 0.0f);
            }
            amp_barrier_wait_with_tile_static_memory_fence(); /* slots move on to a neighbour */
          }
          /* J's sums are complete: thread l adds slot l of every row, with its sign. */
#pragma unroll
          for (int b = 0; b < BPT; b++)
            add_accel(AMP_VIEW_ARG(accel), J * BLOCK + b * TILE + l, n, -jacc[b * TILE + l].xyz);
        }
        amp_barrier_wait_with_tile_static_memory_fence(); /* before the next J overwrites them */
      }
#pragma unroll
      for (int a = 0; a < BPT; a++)
        add_accel(AMP_VIEW_ARG(accel), I * BLOCK + a * TILE + l, n, acc[a]);
    }
  }
}

__kernel void nbody_pairs_advance(AMP_CONST_VIEW(particle, previous), AMP_VIEW(particle, next),
                                  AMP_VIEW(float, accel), float delta_time, float particle_mass) {
  AMP_INDEX1(idx);
  const int i = idx[0];
  if (i >= amp_extent(previous, 0))
    return;
  particle p = amp_at(previous, i);
  const float3 a =
      (float3)(amp_at(accel, i, 0), amp_at(accel, i, 1), amp_at(accel, i, 2)) * particle_mass;
  p.velocity.xyz += a * delta_time;
  p.position.xyz += p.velocity.xyz * delta_time;
  amp_at(next, i) = p;
  amp_at(accel, i, 0) = amp_at(accel, i, 1) = amp_at(accel, i, 2) = 0.0f;
}
