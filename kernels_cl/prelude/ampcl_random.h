/* ampcl kernel prelude: random numbers, from the counter-based generator Philox-4x32-10 (Salmon,
 * Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC 2011; Random123's
 * philox4x32 with 10 rounds).
 *
 * A counter-based generator has no state to share or to seed per thread: block k of stream s under
 * seed S is one function of (k, s, S), 128 random bits, so every work-item can take a stream of
 * its own (its index) and draw from it, and any draw can be computed again anywhere. The host has
 * the same functions with the same results (include/ampcl/random.h), bit for bit, so a kernel's
 * random numbers can be checked, or reproduced, on the host.
 *
 *   uint4 amp_philox4x32_10(uint4 ctr, uint2 key)   the block function: 4 words from a 128-bit
 *                                                   counter and a 64-bit key
 *   amp_random r = amp_random_make(seed, stream);   a stream (seed and stream: ulong)
 *   uint amp_random_uint(&r)                        its next word
 *   float amp_random_float(&r)                      its next word as a float in [0, 1)
 *   double amp_random_double(&r)                    its next two words as a double in [0, 1)
 *                                                   (devices with double precision)
 *   uint4 amp_random_uint4(&r), float4 amp_random_float4(&r)   the next four at once (a whole
 *                                                   block, the fastest, when the words drawn so
 *                                                   far are a multiple of 4)
 *   float amp_random_unit_float(uint u)             a word as a float in [0, 1): (u >> 8) / 2^24
 *
 * The stream: block k (k = 0, 1, ...) is amp_philox4x32_10((k low, k high, stream low, stream
 * high), (seed low, seed high)), and its words x, y, z, w are the stream's words 4k .. 4k + 3. A
 * float takes one word's top 24 bits, (u >> 8) * 2^-24: every multiple of 2^-24 in [0, 1) equally
 * likely, 1 never. A double takes 27 bits of one word and 26 of the next, (a * 2^26 + b) * 2^-53.
 * Both are exact, so the host gives the same floats. Streams never overlap: each has 2^64 blocks.
 *
 *   __kernel void noise(AMP_VIEW(float, out), uint seed) {
 *     AMP_INDEX1(idx);
 *     amp_random r = amp_random_make(seed, (ulong)idx[0]);   // one stream per work-item
 *     amp_at(out, idx[0]) = amp_random_float(&r);
 *   }
 *
 * The block function is written out round by round (no loop): Mesa's llvmpipe ends a work-item's
 * loops after 65535 iterations in all, which a loop of ten rounds per block would reach sooner. */
#ifndef AMPCL_RANDOM_H
#define AMPCL_RANDOM_H

/* Philox-4x32's multipliers and key increments (the golden ratio and sqrt(3) - 1, in 32 bits) */
#define AMP_PHILOX_M0 0xD2511F53u
#define AMP_PHILOX_M1 0xCD9E8D57u
#define AMP_PHILOX_W0 0x9E3779B9u
#define AMP_PHILOX_W1 0xBB67AE85u

/* One round on (c, k), then the key's increment for the next. */
#define AMP__PHILOX_ROUND(c, k)                                                                    \
  do {                                                                                             \
    const uint hi0_ = mul_hi(AMP_PHILOX_M0, c.x), lo0_ = AMP_PHILOX_M0 * c.x;                      \
    const uint hi1_ = mul_hi(AMP_PHILOX_M1, c.z), lo1_ = AMP_PHILOX_M1 * c.z;                      \
    c = (uint4)(hi1_ ^ c.y ^ k.x, lo1_, hi0_ ^ c.w ^ k.y, lo0_);                                   \
    k += (uint2)(AMP_PHILOX_W0, AMP_PHILOX_W1);                                                    \
  } while (0)

static inline uint4 amp_philox4x32_10(uint4 ctr, uint2 key) {
  AMP__PHILOX_ROUND(ctr, key);
  AMP__PHILOX_ROUND(ctr, key);
  AMP__PHILOX_ROUND(ctr, key);
  AMP__PHILOX_ROUND(ctr, key);
  AMP__PHILOX_ROUND(ctr, key);
  AMP__PHILOX_ROUND(ctr, key);
  AMP__PHILOX_ROUND(ctr, key);
  AMP__PHILOX_ROUND(ctr, key);
  AMP__PHILOX_ROUND(ctr, key);
  AMP__PHILOX_ROUND(ctr, key);
  return ctr;
}

/* A stream: keep it in a private variable and pass its address. */
typedef struct amp_random {
  uint4 ctr;   /* the next block's counter: x, y its number; z, w the stream */
  uint2 key;   /* the seed */
  uint4 block; /* the words of the block drawn last */
  uint used;   /* how many of them were taken (4: none is left) */
} amp_random;

static inline amp_random amp_random_make(ulong seed, ulong stream) {
  amp_random r;
  r.ctr = (uint4)(0u, 0u, (uint)stream, (uint)(stream >> 32));
  r.key = (uint2)((uint)seed, (uint)(seed >> 32));
  r.block = (uint4)(0u);
  r.used = 4u;
  return r;
}

static inline uint amp_random_uint(amp_random *r) {
  if (r->used == 4u) {
    r->block = amp_philox4x32_10(r->ctr, r->key);
    r->ctr.x += 1u;
    r->ctr.y += r->ctr.x == 0u; /* 64-bit block numbers */
    r->used = 0u;
  }
  const uint u = r->used == 0u   ? r->block.x
                 : r->used == 1u ? r->block.y
                 : r->used == 2u ? r->block.z
                                 : r->block.w;
  r->used++;
  return u;
}

static inline float amp_random_unit_float(uint u) {
  return (float)(u >> 8) * 0x1.0p-24f;
}

static inline float amp_random_float(amp_random *r) {
  return amp_random_unit_float(amp_random_uint(r));
}

static inline uint4 amp_random_uint4(amp_random *r) {
  if (r->used == 4u) { /* at a block's start: the whole next block, with no choice per word */
    const uint4 b = amp_philox4x32_10(r->ctr, r->key);
    r->ctr.x += 1u;
    r->ctr.y += r->ctr.x == 0u;
    return b;
  }
  const uint a = amp_random_uint(r), b = amp_random_uint(r), c = amp_random_uint(r);
  return (uint4)(a, b, c, amp_random_uint(r));
}

static inline float4 amp_random_float4(amp_random *r) {
  const uint4 u = amp_random_uint4(r);
  return convert_float4(u >> 8) * 0x1.0p-24f;
}

#ifdef AMP_HAS_DOUBLE
static inline double amp_random_double(amp_random *r) {
  const uint a = amp_random_uint(r) >> 5, b = amp_random_uint(r) >> 6;
  return ((double)a * 67108864.0 + (double)b) * 0x1.0p-53;
}
#endif

#endif /* AMPCL_RANDOM_H */
