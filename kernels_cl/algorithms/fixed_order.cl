/* fixed_order.cl: amp_reduce and amp_scan in a fixed order of combining, the same on every device,
 * tile shape and thread count, so that a float or double result has the same bits everywhere
 * (runtime/algorithms/fixed_order.c: AMP_ALGO_FIXED_ORDER; docs/ALGORITHMS.md, "The same bits on
 * every device", writes the order out for a host to reproduce).
 *
 * Built like reduce.cl: the operator `T amp_reduce_op(T a, T b)`, `#define AMP_REDUCE_IDENTITY`
 * and, for the builtin operators, `AMP_REDUCE_VOP(a, b)` in front (without them, a sum), with
 * -DT=<element type>, -DFIX_U=<the unsigned type of its size> and -DFIX_W=<threads per tile>.
 *
 * The order. The view is cut into chunks of 1024 elements (FIX_CHUNK), the last one padded with
 * the identity. A chunk's value is a fixed tree:
 *   y[k] = (x[k] op x[k + 512]) op (x[k + 256] op x[k + 768])      for k < 256
 *   y[k] = y[k] op y[k + s]      for s = 128, 64, ..., 1 and k < s, in that order of s
 * and y[0] is the value. The chunks' values are a new, shorter view, reduced the same way, until
 * one value is left (n <= 1024: one chunk, one level).
 *
 * A scan (a sum) takes the chunks' values as above (S_c), their exclusive scan in this same
 * order, recursively (C_c; a view of one chunk has C_0 = 0), and then scans each chunk from C_c:
 * the chunk's 256 quads (4 elements each, padded with zeros) have inclusive sums r0 = x0,
 * r1 = r0 + x1, r2 = r1 + x2, r3 = r2 + x3 and s_q = r3; their inclusive scan is Hillis and
 * Steele's, I[q] = I[q - off] + I[q] for off = 1, 2, ..., 128 (q >= off), each step from the
 * previous step's values; base_q = C_c for q = 0 and C_c + I[q - 1] otherwise; the inclusive
 * result is base_q + r_j, the exclusive one base_q for j = 0 and base_q + r_(j-1) otherwise.
 *
 *   amp_reduce_fixed      tiles of FIX_W threads (a power of two, 1 to 256), each tile taking
 *                         `per` neighbouring chunks, one after the other: thread t loads elements
 *                         t, t + FIX_W, ... of the first level (coalesced) and the tile walks the
 *                         tree in tile_static memory. dst gets one value per chunk.
 *   amp_reduce_fixed_cpu  CPU devices: untiled, each thread walks `per` chunks with the tree in
 *                         16-vectors (the builtin operators; a caller's operator and a short last
 *                         chunk take the same tree in scalars).
 *   amp_scan_fixed        tiles of FIX_W threads, `per` chunks each, as amp_reduce_fixed;
 *                         `carries` holds C_c where has_carry is 1.
 *   amp_scan_fixed_cpu    CPU devices: untiled, each thread scans `per` chunks, the quads four to
 *                         a 16-vector, with no barrier.
 *
 * Only additions (or the operator) and no contraction: the bits depend on the order alone, on a
 * device that rounds to nearest as OpenCL requires and keeps subnormal numbers (a device that
 * flushes them to zero, as some GPUs do for float, differs where a sum or an element is
 * subnormal). */
#ifndef T /* the runtime always passes T; these defaults let the file build alone */
#define T float
#endif
#ifndef AMP_REDUCE_IDENTITY /* built alone: a sum */
#define AMP_REDUCE_IDENTITY 0
inline T amp_reduce_op(T a, T b) { return a + b; }
#define AMP_REDUCE_VOP(a, b) ((a) + (b))
#endif
#ifndef FIX_U /* the unsigned type of T's size: uint, or ulong for double (fixed_order.c) */
#define FIX_U uint
#endif
#ifndef FIX_W /* the runtime passes it (fixed_order.c) */
#define FIX_W 256
#endif
#if FIX_W < 1 || FIX_W > 256 || (FIX_W & (FIX_W - 1)) != 0
#error "fixed_order.cl: FIX_W must be a power of two from 1 to 256"
#endif
#define FIX_CHUNK 1024
#define FIX_PASTE_(a, b) a##b
#define FIX_PASTE(a, b)  FIX_PASTE_(a, b)
#define T16              FIX_PASTE(T, 16)
#define T8               FIX_PASTE(T, 8)
#define T4               FIX_PASTE(T, 4)
#define T2               FIX_PASTE(T, 2)

/* Element k of the chunk at p, or the identity at and past `left` (the elements the chunk has). */
static inline T fix_at(__global const T *p, int k, long left) {
  return k < left ? p[k] : (T)(AMP_REDUCE_IDENTITY);
}

/* The first two levels of a chunk's tree for entry k. */
static inline T fix_first(__global const T *p, int k, long left) {
  return amp_reduce_op(amp_reduce_op(fix_at(p, k, left), fix_at(p, k + 512, left)),
                       amp_reduce_op(fix_at(p, k + 256, left), fix_at(p, k + 768, left)));
}

__kernel void amp_reduce_fixed(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst), int per) {
  tile_static T y[256];
  const int lid = (int)get_local_id(0);
  const long n = amp_extent(src, 0), chunks = amp_extent(dst, 0);
  __global const T *p = &amp_at(src, 0);
  for (int j = 0; j < per; j++) {
    const long c = (long)get_group_id(0) * per + j;
    if (c >= chunks) /* the same for the whole tile */
      break;
    for (int k = lid; k < 256; k += FIX_W)
      y[k] = fix_first(p + c * FIX_CHUNK, k, n - c * FIX_CHUNK);
    amp_barrier_wait_with_tile_static_memory_fence();
    for (int s = 128; s > 0; s >>= 1) {
      for (int k = lid; k < s; k += FIX_W)
        y[k] = amp_reduce_op(y[k], y[k + s]);
      amp_barrier_wait_with_tile_static_memory_fence();
    }
    if (lid == 0)
      amp_at(dst, (int)c) = y[0];
    amp_barrier_wait_with_tile_static_memory_fence(); /* y is refilled for the next chunk */
  }
}

/* One chunk's value in scalars, the same tree. */
static inline T fix_chunk_scalar(__global const T *p, long left) {
  T y[256];
  for (int k = 0; k < 256; k++)
    y[k] = fix_first(p, k, left);
  for (int s = 128; s > 0; s >>= 1)
    for (int k = 0; k < s; k++)
      y[k] = amp_reduce_op(y[k], y[k + s]);
  return y[0];
}

#ifdef AMP_REDUCE_VOP
/* One whole chunk's value in 16-vectors: the chunk is loaded in address order first (a CPU's
 * prefetcher then sees one stream: loading the four quarters side by side took twice as long on
 * POCL), then lane i of a[v] is y[16 v + i]. */
static inline T fix_chunk_vec(__global const T *p) {
  T16 l[64], a[16];
  for (int v = 0; v < 64; v++)
    l[v] = vload16(v, p);
  for (int v = 0; v < 16; v++) /* x[k], x[k + 256], x[k + 512], x[k + 768]: l[v + 16 j] */
    a[v] = AMP_REDUCE_VOP(AMP_REDUCE_VOP(l[v], l[v + 32]), AMP_REDUCE_VOP(l[v + 16], l[v + 48]));
  for (int s = 8; s > 0; s >>= 1) /* y[k] op y[k + 16 s] */
    for (int v = 0; v < s; v++)
      a[v] = AMP_REDUCE_VOP(a[v], a[v + s]);
  const T8 b = AMP_REDUCE_VOP(a[0].lo, a[0].hi); /* s = 8, 4, 2, 1 within the vector */
  const T4 c = AMP_REDUCE_VOP(b.lo, b.hi);
  const T2 d = AMP_REDUCE_VOP(c.lo, c.hi);
  return amp_reduce_op(d.x, d.y);
}
#endif

__kernel void amp_reduce_fixed_cpu(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst), int per) {
  const long n = amp_extent(src, 0), chunks = amp_extent(dst, 0);
  __global const T *p = &amp_at(src, 0);
  const long first = (long)get_global_id(0) * per;
  for (long c = first; c < first + per && c < chunks; c++) {
    const long left = n - c * FIX_CHUNK;
#ifdef AMP_REDUCE_VOP
    if (left >= FIX_CHUNK) {
      amp_at(dst, (int)c) = fix_chunk_vec(p + c * FIX_CHUNK);
      continue;
    }
#endif
    amp_at(dst, (int)c) = fix_chunk_scalar(p + c * FIX_CHUNK, left);
  }
}


/* One step of Hillis and Steele's scan over h[16] (256 entries), for off < 16, from the top
 * down. FIX_LANES: 0, 1, ..., 15. */
#define FIX_U16   FIX_PASTE(FIX_U, 16)
#define FIX_LANES (FIX_U16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define FIX_HS_STEP(off)                                                                           \
  do {                                                                                             \
    for (int j = 15; j > 0; j--)                                                                   \
      h[j] = shuffle2(h[j - 1], h[j], FIX_LANES + (FIX_U)(16 - (off))) + h[j];                     \
    const T16 low = shuffle2(h[0], h[0], FIX_LANES + (FIX_U)(16 - (off))) + h[0];                  \
    h[0] = select(low, h[0], FIX_LANES < (FIX_U)(off));                                            \
  } while (0)

/* amp_scan_fixed_cpu's whole chunk: the same order as amp_scan_fixed's, with no barrier. The quad
 * sums in a private array, from 16-vectors (4 quads each: lanes 0, 4, 8, 12 are the quads' first
 * elements); Hillis and Steele's steps in place, from the top down (each entry is added to before
 * the entry it reads from changes); the results from a second read of the chunk. */
static inline void fix_scan_chunk_vec(__global const T *p, __global T *o, T carry, int inclusive) {
  T s[256];
  T16 h[16];
  for (int m = 0; m < 64; m++) {
    const T16 v = vload16(m, p);
    vstore4(((v.s048c + v.s159d) + v.s26ae) + v.s37bf, m, s);
  }
  for (int j = 0; j < 16; j++)
    h[j] = vload16(j, s);
  /* off = 1, 2, 4, 8: entry q - off is lane i - off of the same vector or of the one before, lane
   * 16 - off + i of the two side by side; entries below off keep their value */
  FIX_HS_STEP(1);
  FIX_HS_STEP(2);
  FIX_HS_STEP(4);
  FIX_HS_STEP(8);
  for (int k = 1; k < 16; k <<= 1) /* off = 16 k: whole vectors */
    for (int j = 15; j >= k; j--)
      h[j] = h[j - k] + h[j];
  for (int j = 0; j < 16; j++)
    vstore16(h[j], j, s);
  for (int m = 0; m < 64; m++) {
    const T16 v = vload16(m, p);
    const T4 r0 = v.s048c, r1 = r0 + v.s159d, r2 = r1 + v.s26ae, r3 = r2 + v.s37bf;
    T4 base = (T4)(carry) + (T4)(m ? s[4 * m - 1] : (T)0, s[4 * m], s[4 * m + 1], s[4 * m + 2]);
    if (m == 0)
      base.x = carry; /* quad 0 starts at the carry itself */
    T16 out;
    if (inclusive) {
      out.s048c = base + r0;
      out.s159d = base + r1;
      out.s26ae = base + r2;
      out.s37bf = base + r3;
    } else {
      out.s048c = base;
      out.s159d = base + r0;
      out.s26ae = base + r1;
      out.s37bf = base + r2;
    }
    vstore16(out, m, o);
  }
}

/* Four elements of a chunk from quad q, zeros at and past `left`. */
static inline T4 fix_quad(__global const T *p, int q, long left) {
  if (4 * q + 3 < left)
    return vload4(q, p);
  T4 x = (T4)(0);
  if (4 * q < left)
    x.x = p[4 * q];
  if (4 * q + 1 < left)
    x.y = p[4 * q + 1];
  if (4 * q + 2 < left)
    x.z = p[4 * q + 2];
  return x;
}

__kernel void amp_scan_fixed(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst), AMP_CONST_VIEW(T, carries),
                             int per, int inclusive, int has_carry) {
  tile_static T hs[2][256];
  const int lid = (int)get_local_id(0);
  const long n = amp_extent(src, 0), chunks = (n + FIX_CHUNK - 1) / FIX_CHUNK;
  __global const T *p = &amp_at(src, 0);
  __global T *o = &amp_at(dst, 0);
  for (int j = 0; j < per; j++) {
    const long c = (long)get_group_id(0) * per + j;
    if (c >= chunks) /* the same for the whole tile */
      break;
    __global const T *pc = p + c * FIX_CHUNK;
    __global T *oc = o + c * FIX_CHUNK;
    const long left = n - c * FIX_CHUNK;
    for (int q = lid; q < 256; q += FIX_W) {
      const T4 x = fix_quad(pc, q, left);
      hs[0][q] = ((x.x + x.y) + x.z) + x.w;
    }
    amp_barrier_wait_with_tile_static_memory_fence();
    int b = 0;
    for (int off = 1; off < 256; off <<= 1) {
      for (int q = lid; q < 256; q += FIX_W)
        hs[b ^ 1][q] = q >= off ? hs[b][q - off] + hs[b][q] : hs[b][q];
      b ^= 1;
      amp_barrier_wait_with_tile_static_memory_fence();
    }
    const T carry = has_carry ? amp_at(carries, (int)c) : (T)0;
    for (int q = lid; q < 256 && 4 * q < left; q += FIX_W) {
      const T4 x = fix_quad(pc, q, left);
      const T base = q == 0 ? carry : carry + hs[b][q - 1];
      const T r0 = x.x, r1 = r0 + x.y, r2 = r1 + x.z, r3 = r2 + x.w;
      const T4 r = inclusive ? (T4)(base + r0, base + r1, base + r2, base + r3)
                             : (T4)(base, base + r0, base + r1, base + r2);
      if (4 * q + 3 < left) {
        vstore4(r, q, oc);
      } else {
        oc[4 * q] = r.x;
        if (4 * q + 1 < left)
          oc[4 * q + 1] = r.y;
        if (4 * q + 2 < left)
          oc[4 * q + 2] = r.z;
      }
    }
    amp_barrier_wait_with_tile_static_memory_fence(); /* hs is refilled for the next chunk */
  }
}

__kernel void amp_scan_fixed_cpu(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst),
                                 AMP_CONST_VIEW(T, carries), int per, int inclusive,
                                 int has_carry) {
  const long n = amp_extent(src, 0), chunks = (n + FIX_CHUNK - 1) / FIX_CHUNK;
  __global const T *p = &amp_at(src, 0);
  __global T *o = &amp_at(dst, 0);
  const long first = (long)get_global_id(0) * per;
  for (long c = first; c < first + per && c < chunks; c++) {
    const long left = n - c * FIX_CHUNK;
    const T carry = has_carry ? amp_at(carries, (int)c) : (T)0;
    if (left >= FIX_CHUNK) {
      fix_scan_chunk_vec(p + c * FIX_CHUNK, o + c * FIX_CHUNK, carry, inclusive);
      continue;
    }
    /* the short last chunk: the tiled kernel's steps, one thread */
    __global const T *pc = p + c * FIX_CHUNK;
    __global T *oc = o + c * FIX_CHUNK;
    T s[256];
    for (int q = 0; q < 256; q++) {
      const T4 x = fix_quad(pc, q, left);
      s[q] = ((x.x + x.y) + x.z) + x.w;
    }
    for (int off = 1; off < 256; off <<= 1)
      for (int q = 255; q >= off; q--)
        s[q] = s[q - off] + s[q];
    for (int q = 0; 4 * q < left; q++) {
      const T4 x = fix_quad(pc, q, left);
      const T base = q == 0 ? carry : carry + s[q - 1];
      const T r0 = x.x, r1 = r0 + x.y, r2 = r1 + x.z;
      const T r[4] = {inclusive ? base + r0 : base, inclusive ? base + r1 : base + r0,
                      inclusive ? base + r2 : base + r1, inclusive ? base + (r2 + x.w) : base + r2};
      for (int j = 0; j < 4 && 4 * q + j < left; j++)
        oc[4 * q + j] = r[j];
    }
  }
}
