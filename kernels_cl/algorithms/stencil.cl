/* stencil.cl: a 2-D stencil (convolution) of a float image with clamp-to-edge borders
 * (runtime/algorithms/stencil.c: amp_stencil_2d, amp_gaussian_blur):
 *
 *   dst(i, j) = sum over -r <= a, b <= r of w(a + r, b + r) * src(clamp(i + a), clamp(j + b))
 *
 * where w is a (2r + 1) x (2r + 1) view of weights and clamp keeps a row index in [0, H) and a
 * column index in [0, W). Built once per radius with -DR=<r> (0 .. ST_MAX_R, 8), so every loop
 * over the weights has a known length and unrolls.
 *
 * Two families of kernels:
 *   - the column kernels (amp_stencil_columns_sep, amp_stencil_columns; further down), the
 *     runtime's default on every device: a thread per 4 columns x SC_OY rows walks down its
 *     columns with the rows in registers, no tile_static memory, no barrier. Why: the tile_static
 *     kernels reached 0.58 (blur) and 0.48 (general) of the device copy on an H100, the loss
 *     likely (no profiler run) in the halo loaded through tile_static memory by scalar loads
 *     (a window row of 38 pixels takes 32 lanes two passes), the barriers between load and
 *     compute phases, and few bytes in flight per thread;
 *     the column kernels load 16 bytes a thread per row, read each input row once per strip, and
 *     leave the halo across to the L1 cache. On CPU devices they were 2-7 times faster too;
 *   - the tile_static kernels (amp_stencil_tiles, amp_stencil_separable; next), which
 *     AMP_STENCIL_COLUMNS=0 selects and amp_stencil_2d takes for radii above 3.
 *
 * Tile shape of the tile_static kernels: 2-D tiles of ST_TY x ST_TX (8 x 32) threads, each computing ST_OY (8) outputs of one
 * column, so a tile covers 64 rows x 32 columns of output. The tile first loads its input window,
 * (64 + 2r) x (32 + 2r) pixels with the halo, into tile_static memory (neighbouring threads,
 * neighbouring pixels of a row: coalesced; clamped at the image's edges). Each thread then walks
 * down the 8 + 2r window rows its outputs need: it reads the 2r + 1 pixels of a row once (a warp
 * reads 32 neighbouring words: no bank conflicts) and adds them, with their weights, into every
 * output that row touches. That is (8 + 2r)(2r + 1) / 8 tile_static reads per output instead of
 * (2r + 1)^2, and the weights (for r <= 3, 49 of them) sit in registers, read from global memory
 * once per thread; larger radii read them from tile_static memory.
 *
 * Domain: amp_extent2(ceil(H / 64) * 8, ceil(W / 32) * 32) tiled by (8, 32); outputs outside the
 * image are not stored. */
#ifndef R
#define R 3
#endif
#define ST_MAX_R 8
#define ST_TX    32
#ifndef ST_TY /* the runtime passes it (stencil.c): 8 tuned; 4, 2, 1 where the device allows less */
#define ST_TY 8
#endif
#ifndef ST_OY /* the runtime passes it (stencil.c) */
#define ST_OY 8
#endif
#define ST_K     (2 * R + 1)
#define ST_WY    (ST_TY * ST_OY + 2 * R)
#define ST_WX    (ST_TX + 2 * R)
#if R <= 3
#define ST_W(a, b) wr[(a) * ST_K + (b)]
#else
#define ST_W(a, b) wt[(a) * ST_K + (b)]
#endif

__attribute__((reqd_work_group_size(ST_TX, ST_TY, 1))) __kernel void
amp_stencil_tiles(AMP_CONST_VIEW(float, src), AMP_VIEW(float, dst), AMP_CONST_VIEW(float, w)) {
  tile_static float win[ST_WY][ST_WX];
  AMP_TILED_INDEX2(idx);
  const int H = amp_extent(src, 0), W = amp_extent(src, 1);
  const int ly = idx.local_id[0], lx = idx.local_id[1];
  const int row0 = idx.tile_origin[0] * ST_OY, col0 = idx.tile_origin[1];
#if R <= 3
  float wr[ST_K * ST_K];
#pragma unroll
  for (int a = 0; a < ST_K; a++)
#pragma unroll
    for (int b = 0; b < ST_K; b++)
      wr[a * ST_K + b] = amp_at(w, a, b);
#else
  tile_static float wt[ST_K * ST_K];
  for (int e = ly * ST_TX + lx; e < ST_K * ST_K; e += ST_TX * ST_TY)
    wt[e] = amp_at(w, e / ST_K, e % ST_K);
#endif
  for (int y = ly; y < ST_WY; y += ST_TY) {
    const int gy = clamp(row0 - R + y, 0, H - 1);
    for (int x = lx; x < ST_WX; x += ST_TX)
      win[y][x] = amp_at(src, gy, clamp(col0 - R + x, 0, W - 1));
  }
  amp_barrier_wait_with_tile_static_memory_fence();
  float acc[ST_OY];
#pragma unroll
  for (int o = 0; o < ST_OY; o++)
    acc[o] = 0.0f;
#pragma unroll
  for (int wy = 0; wy < ST_OY + 2 * R; wy++) {
    float row[ST_K];
#pragma unroll
    for (int b = 0; b < ST_K; b++)
      row[b] = win[ly * ST_OY + wy][lx + b];
#pragma unroll
    for (int o = 0; o < ST_OY; o++) {
      const int a = wy - o; /* known when unrolled: the branch goes away */
      if (a >= 0 && a < ST_K) {
#pragma unroll
        for (int b = 0; b < ST_K; b++)
          acc[o] = fma(ST_W(a, b), row[b], acc[o]);
      }
    }
  }
  const int j = col0 + lx;
  if (j >= W)
    return;
#pragma unroll
  for (int o = 0; o < ST_OY; o++) {
    const int i = row0 + ly * ST_OY + o;
    if (i < H)
      amp_at(dst, i, j) = acc[o];
  }
}

/* amp_stencil_separable: the same for weights w(a, b) = g(a) * g(b) (amp_gaussian_blur), g a
 * rank-1 view of 2r + 1 floats, in two steps over the tile's window in tile_static memory:
 *   across: h(y, x) = sum_b g(b) * win(y, x + b) for every window row y and the tile's 32
 *           columns x, into hb. A task is 8 neighbouring x of one row: it reads 8 + 2r pixels
 *           once for its 8 sums; the 32 lanes of a warp take 32 neighbouring rows of one
 *           segment, and rows of odd length (ST_WX + 1, ST_TX + 1 floats) put them in 32
 *           different banks;
 *   down:   each thread sums its 8 outputs of a column from hb as amp_stencil_tiles does, with
 *           2r + 1 weights instead of (2r + 1)^2.
 * So 2(2r + 1) multiply-adds per output instead of (2r + 1)^2, and about 6 tile_static accesses
 * per output for r = 3. The result is the 2-D stencil's up to rounding (the sums are grouped
 * differently). */
#define SP_HX 8 /* across: outputs per task */

__attribute__((reqd_work_group_size(ST_TX, ST_TY, 1))) __kernel void
amp_stencil_separable(AMP_CONST_VIEW(float, src), AMP_VIEW(float, dst), AMP_CONST_VIEW(float, g)) {
  tile_static float win[ST_WY][ST_WX + 1];
  tile_static float hb[ST_WY][ST_TX + 1];
  AMP_TILED_INDEX2(idx);
  const int H = amp_extent(src, 0), W = amp_extent(src, 1);
  const int ly = idx.local_id[0], lx = idx.local_id[1], lid = ly * ST_TX + lx;
  const int row0 = idx.tile_origin[0] * ST_OY, col0 = idx.tile_origin[1];
  float gr[ST_K];
#pragma unroll
  for (int b = 0; b < ST_K; b++)
    gr[b] = amp_at(g, b);
  for (int y = ly; y < ST_WY; y += ST_TY) {
    const int gy = clamp(row0 - R + y, 0, H - 1);
    for (int x = lx; x < ST_WX; x += ST_TX)
      win[y][x] = amp_at(src, gy, clamp(col0 - R + x, 0, W - 1));
  }
  amp_barrier_wait_with_tile_static_memory_fence();
  for (int task = lid; task < ST_WY * (ST_TX / SP_HX); task += ST_TX * ST_TY) {
    const int y = task % ST_WY, x0 = (task / ST_WY) * SP_HX;
    float v[SP_HX + 2 * R];
#pragma unroll
    for (int i = 0; i < SP_HX + 2 * R; i++)
      v[i] = win[y][x0 + i];
#pragma unroll
    for (int i = 0; i < SP_HX; i++) {
      float s = 0.0f;
#pragma unroll
      for (int b = 0; b < ST_K; b++)
        s = fma(gr[b], v[i + b], s);
      hb[y][x0 + i] = s;
    }
  }
  amp_barrier_wait_with_tile_static_memory_fence();
  float acc[ST_OY];
#pragma unroll
  for (int o = 0; o < ST_OY; o++)
    acc[o] = 0.0f;
#pragma unroll
  for (int wy = 0; wy < ST_OY + 2 * R; wy++) {
    const float v = hb[ly * ST_OY + wy][lx];
#pragma unroll
    for (int o = 0; o < ST_OY; o++) {
      const int a = wy - o;
      if (a >= 0 && a < ST_K)
        acc[o] = fma(gr[a], v, acc[o]);
    }
  }
  const int j = col0 + lx;
  if (j >= W)
    return;
#pragma unroll
  for (int o = 0; o < ST_OY; o++) {
    const int i = row0 + ly * ST_OY + o;
    if (i < H)
      amp_at(dst, i, j) = acc[o];
  }
}

/* ---- the column kernels (GPUs): no tile_static memory, no barrier --------------------------
 *
 * amp_stencil_columns_sep (the blur) and amp_stencil_columns (the general weights): each thread
 * owns 4 neighbouring columns (a "group": columns 4g .. 4g + 3) of a strip of SC_OY rows, and
 * walks down the SC_OY + 2r input rows the strip needs, reading each once. Per input row it reads
 * its own group and SC_NB = ceil(r / 4) groups on each side (one 16-byte load each: float4 where
 * the host found the views 16-byte aligned, -DSC_ALIGNED=1, else vload4); the side groups are the
 * neighbouring threads' own groups, loaded by the same warp instruction, so the L1 cache serves
 * them and DRAM sees each input byte about once across (1 + 2r / SC_OY) down, the strip's halo
 * rows. The row's 4 + 2 * 4 SC_NB values then sit in registers:
 *   _sep: h = the row's 4 sums across with g (2r + 1 multiply-adds each); the last 2r + 1 rows'
 *         h stay in a ring of registers (slot t mod (2r + 1), known at compile time: nothing
 *         moves), and once 2r + 1 rows are in, an output row of 4 is sum_a g(a) h(row + a): one
 *         float4 store;
 *   general: the row adds into each of the 2r + 1 pending outputs it touches, with that row's
 *         weights ((2r + 1)^2 multiply-adds per output, the weights in registers): r <= 3 only
 *         (larger radii take amp_stencil_tiles, whose code does not grow with (2r + 1)^2 rows).
 * Clamp-to-edge: rows are clamped; a side group left of column 0 is column 0 repeated, one past
 * the last group the last column repeated, and a partial last group (W not a multiple of 4)
 * reads its missing columns as the last one. A thread past the image stores nothing.
 * Domain: amp_extent2(ceil(ceil(H / SC_OY) / TY) * TY, ceil(ceil(W / 4) / TX) * TX), tiles of
 * TY x TX threads (the runtime's AMP_STENCIL_TY / AMP_STENCIL_TX; the tile shape only orders the
 * work: nothing is shared). */
#ifndef SC_OY
#define SC_OY 32
#endif
#ifndef SC_ALIGNED
#define SC_ALIGNED 0
#endif
#define SC_NB ((R + 3) / 4)     /* side groups each side */
#define SC_NE (4 * (2 * SC_NB + 1)) /* values of a row a thread holds */

/* 4 columns from c (0 <= c < W) of row p, the missing ones past W as column W - 1. */
static inline float4 sc_load(__global const float *p, int c, int W) {
  if (c + 3 < W) {
#if SC_ALIGNED
    return *(__global const float4 *)(p + c);
#else
    return vload4(0, p + c);
#endif
  }
  return (float4)(p[c], p[min(c + 1, W - 1)], p[min(c + 2, W - 1)], p[W - 1]);
}

/* Stores the 4 columns from c (0 <= c < W) of row q, those past W not. */
static inline void sc_store(__global float *q, int c, int W, float4 v) {
  if (c + 3 < W) {
#if SC_ALIGNED
    *(__global float4 *)(q + c) = v;
#else
    vstore4(v, 0, q + c);
#endif
    return;
  }
  q[c] = v.s0;
  if (c + 1 < W)
    q[c + 1] = v.s1;
  if (c + 2 < W)
    q[c + 2] = v.s2;
}

/* e[0 .. SC_NE): columns 4(g - SC_NB) .. 4(g + SC_NB) + 3 of row p, clamped to [0, W). */
static inline void sc_row(__global const float *p, int g, int G, int W, float *e) {
#pragma unroll
  for (int k = -SC_NB; k <= SC_NB; k++) {
    const int gk = g + k;
    float4 v = sc_load(p, 4 * clamp(gk, 0, G - 1), W);
    if (k < 0 && gk < 0)
      v = (float4)(v.s0);
    if (k > 0 && gk >= G)
      v = (float4)(v.s3);
    e[4 * (k + SC_NB) + 0] = v.s0;
    e[4 * (k + SC_NB) + 1] = v.s1;
    e[4 * (k + SC_NB) + 2] = v.s2;
    e[4 * (k + SC_NB) + 3] = v.s3;
  }
}

#define SC_E0 (4 * SC_NB - R) /* e index of the leftmost pixel column 0 of the group needs */
#define SC_T  (SC_OY + 2 * R)   /* input rows a strip reads */
#ifndef SC_RING
#define SC_RING 0
#endif

/* The 4 sums across, with weights g, of a row's values e (sc_row). */
static inline float4 sc_across(const float *e, const float *g) {
  float4 s = (float4)(0.0f);
#pragma unroll
  for (int b = 0; b < ST_K; b++)
    s = fma((float4)(g[b]),
            (float4)(e[SC_E0 + b], e[SC_E0 + b + 1], e[SC_E0 + b + 2], e[SC_E0 + b + 3]), s);
  return s;
}

/* The rows' loop: the window of the last 2r + 1 rows (the blur) or the 2r + 1 pending outputs
 * (general weights) is a ring of 2r + 1 registers, row (or output) t in slot t mod (2r + 1). The
 * loop is unrolled by periods of SC_PERIOD rows, a multiple of 2r + 1 or the whole strip, so
 * every slot index is known at compile time; -DSC_RING (the runtime's AMP_STENCIL_RING) picks:
 *   0: one period, the whole strip's SC_T rows: the compiler sees every load ahead (code grows
 *      with SC_OY);
 *   1: periods of 2r + 1 rows (code of 2r + 1 rows whatever SC_OY: builds several times faster
 *      on CPU devices). */
#if SC_RING
#define SC_PERIOD ST_K
#else
#define SC_PERIOD SC_T
#endif
/* -DSC_PF=1 (the runtime's AMP_STENCIL_PREFETCH, on by default on GPUs): the blur issues row
 * t + 1's loads before it sums row t and stores an output, so each thread keeps a row's loads in
 * flight under its arithmetic. Even with the strip unrolled whole, NVIDIA's compiler did not move
 * the loads ahead of the stores itself: on an H200 the blur went from 0.69-0.70 of the device
 * copy to 0.74-0.77 (lab/NOTEBOOK.md, 2026-11-27, "the blur loads a row ahead"). */
#ifndef SC_PF
#define SC_PF 0
#endif

/* g0, g8, g16: the 2r + 1 weights by value (0 .. 7, 8 .. 15, 16; no view to copy in). */
__kernel void amp_stencil_columns_sep(AMP_CONST_VIEW(float, src), AMP_VIEW(float, dst),
                                      const float8 g0, const float8 g8, const float g16) {
  AMP_INDEX2(idx);
  const int H = amp_extent(src, 0), W = amp_extent(src, 1), G = (W + 3) / 4;
  const int grp = idx[1], i0 = idx[0] * SC_OY;
  if (grp >= G || i0 >= H)
    return;
  const float gr[17] = {g0.s0, g0.s1, g0.s2, g0.s3, g0.s4, g0.s5, g0.s6, g0.s7, g8.s0,
                        g8.s1, g8.s2, g8.s3, g8.s4, g8.s5, g8.s6, g8.s7, g16};
  __global const float *sp = src_data + src_shape.s3;
  __global float *dp = dst_data + dst_shape.s3;
  const int sstride = src_shape.s4, dstride = dst_shape.s4;
  float4 h[ST_K]; /* row t's sums across in slot t mod (2r + 1) */
#define SC_ROWP(t) (sp + (long)clamp(i0 - R + (t), 0, H - 1) * sstride)
#if SC_PF
  float en[SC_NE]; /* the next row's values, loaded a row ahead */
  sc_row(SC_ROWP(0), grp, G, W, en);
#endif
  for (int base = 0; base < SC_T; base += SC_PERIOD) {
#pragma unroll
    for (int p = 0; p < SC_PERIOD; p++) {
      const int t = base + p; /* base is a multiple of 2r + 1 (or 0): t's slot is p's */
      if (t < SC_T) {
        float e[SC_NE];
#if SC_PF
#pragma unroll
        for (int i = 0; i < SC_NE; i++)
          e[i] = en[i];
        if (t + 1 < SC_T)
          sc_row(SC_ROWP(t + 1), grp, G, W, en);
#else
        sc_row(SC_ROWP(t), grp, G, W, e);
#endif
        h[p % ST_K] = sc_across(e, gr);
        const int o = t - 2 * R; /* the output row complete with this input row */
        if (o >= 0 && i0 + o < H) {
          float4 acc = (float4)(0.0f);
#pragma unroll
          for (int a = 0; a < ST_K; a++) /* row t - 2r + a sits in slot (p + 1 + a) mod (2r + 1) */
            acc = fma((float4)(gr[a]), h[(p + 1 + a) % ST_K], acc);
          sc_store(dp + (long)(i0 + o) * dstride, 4 * grp, W, acc);
        }
      }
    }
  }
#undef SC_ROWP
}

/* acc + the sums across of a row's values e with one row of weights wa. */
static inline float4 sc_add(float4 acc, const float *e, const float *wa) {
#pragma unroll
  for (int b = 0; b < ST_K; b++)
    acc = fma((float4)(wa[b]),
              (float4)(e[SC_E0 + b], e[SC_E0 + b + 1], e[SC_E0 + b + 2], e[SC_E0 + b + 3]), acc);
  return acc;
}

/* The general weights' column kernel is for radii up to 3 (49 weights in registers, (2r + 1)^2
 * multiply-adds a row unrolled); the runtime takes amp_stencil_tiles above. */
#define SC_MAX_R_GENERAL 3
#if R <= SC_MAX_R_GENERAL
__kernel void amp_stencil_columns(AMP_CONST_VIEW(float, src), AMP_VIEW(float, dst),
                                  AMP_CONST_VIEW(float, w)) {
  AMP_INDEX2(idx);
  const int H = amp_extent(src, 0), W = amp_extent(src, 1), G = (W + 3) / 4;
  const int grp = idx[1], i0 = idx[0] * SC_OY;
  if (grp >= G || i0 >= H)
    return;
  float wr[ST_K * ST_K]; /* in registers */
#pragma unroll
  for (int a = 0; a < ST_K; a++)
#pragma unroll
    for (int b = 0; b < ST_K; b++)
      wr[a * ST_K + b] = amp_at(w, a, b);
#define SC_WROW(a) (wr + (a) * ST_K)
  __global const float *sp = src_data + src_shape.s3;
  __global float *dp = dst_data + dst_shape.s3;
  const int sstride = src_shape.s4, dstride = dst_shape.s4;
  float4 acc[ST_K]; /* output o's sums in slot o mod (2r + 1) */
#pragma unroll
  for (int o = 0; o < ST_K; o++)
    acc[o] = (float4)(0.0f);
  for (int base = 0; base < SC_T; base += SC_PERIOD) {
#pragma unroll
    for (int p = 0; p < SC_PERIOD; p++) {
      const int t = base + p; /* base is a multiple of 2r + 1 (or 0): t's slot is p's */
      if (t < SC_T) {
        float e[SC_NE];
        sc_row(sp + (long)clamp(i0 - R + t, 0, H - 1) * sstride, grp, G, W, e);
#pragma unroll
        for (int a = 0; a < ST_K; a++) {
          const int o = t - a; /* the output row this input row is row a of */
          if (o >= 0 && o < SC_OY)
            acc[(p - a + ST_K) % ST_K] = sc_add(acc[(p - a + ST_K) % ST_K], e, SC_WROW(a));
        }
        const int o = t - 2 * R; /* complete: in slot (p + 1) mod (2r + 1) */
        if (o >= 0) {
          if (i0 + o < H)
            sc_store(dp + (long)(i0 + o) * dstride, 4 * grp, W, acc[(p + 1) % ST_K]);
          acc[(p + 1) % ST_K] = (float4)(0.0f);
        }
      }
    }
  }
#undef SC_WROW
}
#endif
