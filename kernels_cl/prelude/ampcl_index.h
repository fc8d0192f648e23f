/* ampcl kernel prelude, part 3 of 4: what C++ AMP lets a kernel do with index<N>, extent<N> and
 * tiled_index, for ranks 1 to 3.
 *
 * In an ampcl kernel an index and an extent are both plain int arrays in AMP order (element 0 the
 * slowest dimension): AMP_INDEXN(idx) declares `const int idx[N]`, a tiled index's global_id,
 * local_id, tile and tile_origin are int[N] indexes and its tile_extent an int[N] extent, and the
 * declarations below give a view's extent or the launch's. The functions take such arrays (in
 * private memory, where all of these live); those that compute an index write it to `out`, an
 * int[N] the caller declares, which may be one of the operands.
 *
 *   C++ AMP                          ampcl kernel, rank N in 1..3
 *   ------------------------------   -------------------------------------------------------------
 *   a == b,  a != b                  amp_indexN_equal(a, b), amp_indexN_not_equal(a, b)
 *   a + b,  a - b                    amp_indexN_add(out, a, b), amp_indexN_sub(out, a, b)
 *   a + s,  a - s  (s an int)        amp_indexN_add_scalar(out, a, s), amp_indexN_sub_scalar(...)
 *   a * s,  a / s,  a % s            amp_indexN_mul(out, a, s), _div(out, a, s), _mod(out, a, s)
 *   v.extent  (a view's)             AMP_VIEW_EXTENTN(v, e);   declares const int e[N]
 *   the launch's extent              AMP_DOMAIN_EXTENTN(e);    declares const int e[N]
 *   e.contains(idx)                  amp_extentN_contains(e, idx)
 *   e.size()                         amp_extentN_size(e)
 *   row-major flat position          amp_extentN_linear(e, idx)   (idx[N-1] fastest)
 *   (the inverse)                    amp_extentN_delinear(out, e, flat)
 *
 * AMP defines the same ==, !=, +, -, *, / and % on extents as on indexes, and so do these: pass an
 * extent. Division and remainder follow C (they truncate toward zero); dividing by 0 is undefined,
 * as in AMP. Sizes and flat positions are int: views and launches in ampcl have fewer than 2^31
 * elements per dimension, and a flat position past INT_MAX is the caller's to avoid. */
#ifndef AMPCL_INDEX_H
#define AMPCL_INDEX_H

/* The functions of rank N, written once. */
#define AMP__INDEX_OPS(N)                                                                          \
  static inline bool amp_index##N##_equal(const int *a, const int *b) {                            \
    for (int d = 0; d < N; d++)                                                                    \
      if (a[d] != b[d])                                                                            \
        return false;                                                                              \
    return true;                                                                                   \
  }                                                                                                \
  static inline bool amp_index##N##_not_equal(const int *a, const int *b) {                        \
    return !amp_index##N##_equal(a, b);                                                            \
  }                                                                                                \
  static inline void amp_index##N##_add(int *out, const int *a, const int *b) {                    \
    for (int d = 0; d < N; d++)                                                                    \
      out[d] = a[d] + b[d];                                                                        \
  }                                                                                                \
  static inline void amp_index##N##_sub(int *out, const int *a, const int *b) {                    \
    for (int d = 0; d < N; d++)                                                                    \
      out[d] = a[d] - b[d];                                                                        \
  }                                                                                                \
  static inline void amp_index##N##_add_scalar(int *out, const int *a, int s) {                    \
    for (int d = 0; d < N; d++)                                                                    \
      out[d] = a[d] + s;                                                                           \
  }                                                                                                \
  static inline void amp_index##N##_sub_scalar(int *out, const int *a, int s) {                    \
    for (int d = 0; d < N; d++)                                                                    \
      out[d] = a[d] - s;                                                                           \
  }                                                                                                \
  static inline void amp_index##N##_mul(int *out, const int *a, int s) {                           \
    for (int d = 0; d < N; d++)                                                                    \
      out[d] = a[d] * s;                                                                           \
  }                                                                                                \
  static inline void amp_index##N##_div(int *out, const int *a, int s) {                           \
    for (int d = 0; d < N; d++)                                                                    \
      out[d] = a[d] / s;                                                                           \
  }                                                                                                \
  static inline void amp_index##N##_mod(int *out, const int *a, int s) {                           \
    for (int d = 0; d < N; d++)                                                                    \
      out[d] = a[d] % s;                                                                           \
  }                                                                                                \
  static inline bool amp_extent##N##_contains(const int *e, const int *idx) {                      \
    for (int d = 0; d < N; d++)                                                                    \
      if (idx[d] < 0 || idx[d] >= e[d])                                                            \
        return false;                                                                              \
    return true;                                                                                   \
  }                                                                                                \
  static inline int amp_extent##N##_size(const int *e) {                                           \
    int n = 1;                                                                                     \
    for (int d = 0; d < N; d++)                                                                    \
      n *= e[d];                                                                                   \
    return n;                                                                                      \
  }                                                                                                \
  static inline int amp_extent##N##_linear(const int *e, const int *idx) {                         \
    int flat = 0;                                                                                  \
    for (int d = 0; d < N; d++)                                                                    \
      flat = flat * e[d] + idx[d];                                                                 \
    return flat;                                                                                   \
  }                                                                                                \
  static inline void amp_extent##N##_delinear(int *out, const int *e, int flat) {                  \
    for (int d = N - 1; d > 0; d--) {                                                              \
      out[d] = flat % e[d];                                                                        \
      flat /= e[d];                                                                                \
    }                                                                                              \
    out[0] = flat;                                                                                 \
  }
AMP__INDEX_OPS(1)
AMP__INDEX_OPS(2)
AMP__INDEX_OPS(3)

/* A view's extent as an int[N] (AMP's v.extent). */
#define AMP_VIEW_EXTENT1(v, e) const int e[1] = {amp_extent(v, 0)}
#define AMP_VIEW_EXTENT2(v, e) const int e[2] = {amp_extent(v, 0), amp_extent(v, 1)}
#define AMP_VIEW_EXTENT3(v, e)                                                                     \
  const int e[3] = {amp_extent(v, 0), amp_extent(v, 1), amp_extent(v, 2)}

/* The extent the kernel was launched over (the compute domain), as an int[N]. */
#define AMP_DOMAIN_EXTENT1(e) const int e[1] = {(int)get_global_size(0)}
#define AMP_DOMAIN_EXTENT2(e) const int e[2] = {(int)get_global_size(1), (int)get_global_size(0)}
#define AMP_DOMAIN_EXTENT3(e)                                                                      \
  const int e[3] = {(int)get_global_size(2), (int)get_global_size(1), (int)get_global_size(0)}

/* Not AMP's, for GEMM-like kernels where each tile of a rank-2 tiled launch computes one block
 * of a tiles_m x tiles_n grid of blocks: which block tile number `lin` takes (out[0] its block
 * row, out[1] its block column) when the tiles, numbered with tile[1] fastest (the order GPUs
 * tend to start them), are dealt out `group` block rows at a time. The tiles running at once then
 * share `group` block rows of one operand and a narrow band of the other's columns in the L2
 * cache; group 1 is plain row-by-row order. kernels_cl/gemm/matmul_fast.cl (step 9) measures it. */
static inline void amp_tile_order_grouped(int tiles_m, int tiles_n, int lin, int group,
                                          int out[2]) {
  const int band = lin / (group * tiles_n), in_band = lin % (group * tiles_n);
  const int band_rows = min(group, tiles_m - band * group);
  out[0] = band * group + in_band % band_rows;
  out[1] = in_band / band_rows;
}

#endif /* AMPCL_INDEX_H */
