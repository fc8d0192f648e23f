/* ampcl/random.h: the host's twin of the kernel prelude's random numbers
 * (kernels_cl/prelude/ampcl_random.h): the counter-based generator Philox-4x32-10 (Random123's
 * philox4x32 with 10 rounds), and streams of words, floats and doubles drawn from it, giving the
 * same bits as a kernel does for the same seed, stream and position. Header-only (static inline),
 * nothing to link.
 *
 * A kernel draws with amp_random_make(seed, stream) and amp_random_float(&r) etc.; the host does
 * the same here, so it can check a kernel's random numbers, reproduce one work-item's draws, or
 * draw the same numbers without a device. The definitions (docs/KERNELS.md, "Random numbers"):
 *
 *   block k of stream s under seed S = philox4x32_10(counter (k low, k high, s low, s high),
 *                                                     key (S low, S high))
 *   the stream's words: block 0's x, y, z, w, then block 1's, ...
 *   a float:  (u >> 8) * 2^-24, in [0, 1);  a double: ((u1 >> 5) * 2^26 + (u2 >> 6)) * 2^-53
 *
 * The block function takes and gives arrays here (ctr[0] is the kernel's ctr.x); the kernel's
 * takes and gives uint4 and uint2. */
#ifndef AMPCL_RANDOM_H_HOST
#define AMPCL_RANDOM_H_HOST

#include <stdint.h>

/* Philox-4x32's multipliers and key increments */
#define AMP_PHILOX_M0 0xD2511F53u
#define AMP_PHILOX_M1 0xCD9E8D57u
#define AMP_PHILOX_W0 0x9E3779B9u
#define AMP_PHILOX_W1 0xBB67AE85u

/* out = the ten rounds of Philox-4x32 on ctr under key (out may be ctr). */
static inline void amp_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2],
                                     uint32_t out[4]) {
  uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key[0], k1 = key[1];
  for (int round = 0; round < 10; round++) {
    const uint64_t p0 = (uint64_t)AMP_PHILOX_M0 * c0, p1 = (uint64_t)AMP_PHILOX_M1 * c2;
    const uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
    const uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += AMP_PHILOX_W0;
    k1 += AMP_PHILOX_W1;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/* A stream, as in a kernel. */
typedef struct amp_random {
  uint32_t ctr[4];   /* the next block's counter: [0], [1] its number; [2], [3] the stream */
  uint32_t key[2];   /* the seed */
  uint32_t block[4]; /* the words of the block drawn last */
  unsigned used;     /* how many of them were taken (4: none is left) */
} amp_random;

static inline amp_random amp_random_make(uint64_t seed, uint64_t stream) {
  amp_random r = {{0u, 0u, (uint32_t)stream, (uint32_t)(stream >> 32)},
                  {(uint32_t)seed, (uint32_t)(seed >> 32)},
                  {0u, 0u, 0u, 0u},
                  4u};
  return r;
}

static inline uint32_t amp_random_uint(amp_random *r) {
  if (r->used == 4u) {
    amp_philox4x32_10(r->ctr, r->key, r->block);
    r->ctr[0] += 1u;
    r->ctr[1] += r->ctr[0] == 0u;
    r->used = 0u;
  }
  return r->block[r->used++];
}

static inline float amp_random_unit_float(uint32_t u) {
  return (float)(u >> 8) * 0x1.0p-24f;
}

static inline float amp_random_float(amp_random *r) {
  return amp_random_unit_float(amp_random_uint(r));
}

static inline double amp_random_double(amp_random *r) {
  const uint32_t a = amp_random_uint(r) >> 5, b = amp_random_uint(r) >> 6;
  return ((double)a * 67108864.0 + (double)b) * 0x1.0p-53;
}

#endif /* AMPCL_RANDOM_H_HOST */
