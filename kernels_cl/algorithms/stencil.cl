/* stencil.cl: a 2-D stencil (convolution) of a float image with clamp-to-edge borders
 * (runtime/algorithms/stencil.c: amp_stencil_2d, amp_gaussian_blur):
 *
 *   dst(i, j) = sum over -r <= a, b <= r of w(a + r, b + r) * src(clamp(i + a), clamp(j + b))
 *
 * where w is a (2r + 1) x (2r + 1) view of weights and clamp keeps a row index in [0, H) and a
 * column index in [0, W). Built once per radius with -DR=<r> (0 .. ST_MAX_R, 8), so every loop
 * over the weights has a known length and unrolls.
 *
 * Tile shape: 2-D tiles of ST_TY x ST_TX (8 x 32) threads, each computing ST_OY (8) outputs of one
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
#define ST_TY    8
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
