/* kernel_index: the prelude's index and extent operations (kernels_cl/prelude/ampcl_index.h) for
 * ranks 1, 2 and 3, against the same arithmetic done on the host.
 *
 * Each work item of a launch over an extent of rank N writes one row of results: its index; the
 * index plus, minus, times, divided by and modulo operands (negative ones included, so C's
 * truncation toward zero shows); ==, != and contains() on indexes inside and outside the extent;
 * the extent of a view and of the launch (AMP_VIEW_EXTENTN, AMP_DOMAIN_EXTENTN), its size, the
 * item's flat position and back again; and an operation whose output is its own operand. The row
 * it writes is the flat position it computed, so a wrong amp_extentN_linear shows as rows in the
 * wrong place. A tiled launch checks the tiled index's fields with the same operations:
 * tile_origin + local_id == global_id, tile * tile_extent == tile_origin, local_id inside
 * tile_extent, and local_id's flat position. Last, ampcl's grouped tile order
 * (amp_tile_order_grouped) for a few grids: each block taken once, in the documented order. */
#include "check.h"

enum { K = 64 }; /* result slots per work item */

static const char *src = "#define CAT3(a, b, c) a##b##c\n"
                         "#define XCAT3(a, b, c) CAT3(a, b, c)\n"
                         "#define CAT2(a, b) a##b\n"
                         "#define XCAT2(a, b) CAT2(a, b)\n"
                         "#define IDX(op) XCAT3(amp_index, N, op)\n"
                         "#define EXT(op) XCAT3(amp_extent, N, op)\n"
                         "#define PUT(x) amp_at(out, row, n++) = (x)\n"
                         "#define PUTN(a) for (int d = 0; d < N; d++) PUT((a)[d])\n"
                         "__kernel void ops(AMP_VIEW(int, out), AMP_CONST_VIEW(int, shape)) {\n"
                         "  XCAT2(AMP_INDEX, N)(idx);\n"
                         "  XCAT2(AMP_DOMAIN_EXTENT, N)(dom);\n"
                         "  XCAT2(AMP_VIEW_EXTENT, N)(shape, ext);\n"
                         "  const int o[3] = {1, -2, 3};\n"
                         "  const int row = EXT(_linear)(dom, idx);\n"
                         "  int n = 0, t[N], u[N];\n"
                         "  PUTN(idx);\n"
                         "  IDX(_add)(t, idx, o); PUTN(t);\n"
                         "  IDX(_sub)(t, idx, o); PUTN(t);\n"
                         "  IDX(_div)(u, t, 2); PUTN(u);\n"
                         "  IDX(_mod)(u, t, 3); PUTN(u);\n"
                         "  IDX(_add_scalar)(t, idx, 3); PUTN(t);\n"
                         "  IDX(_sub_scalar)(t, idx, 3); PUTN(t);\n"
                         "  IDX(_mul)(t, idx, -3); PUTN(t);\n"
                         "  for (int d = 0; d < N; d++) t[d] = idx[d];\n"
                         "  PUT(IDX(_equal)(t, idx)); PUT(IDX(_not_equal)(t, idx));\n"
                         "  IDX(_add)(t, t, o); PUTN(t); /* out is an operand */\n"
                         "  PUT(IDX(_equal)(t, idx)); PUT(IDX(_not_equal)(t, idx));\n"
                         "  PUT(EXT(_contains)(dom, idx)); PUT(EXT(_contains)(dom, t));\n"
                         "  IDX(_sub)(u, idx, o); PUT(EXT(_contains)(dom, u));\n"
                         "  PUTN(ext); PUT(IDX(_equal)(ext, dom));\n"
                         "  PUT(EXT(_size)(dom)); PUT(row);\n"
                         "  EXT(_delinear)(u, dom, row); PUTN(u);\n"
                         "  IDX(_mul)(u, dom, 2); PUTN(u); /* extents take the same arithmetic */\n"
                         "  const int len = n + 1;\n"
                         "  PUT(len); /* the row's length */\n"
                         "}\n"
                         "__kernel void tiled(AMP_VIEW(int, out)) {\n"
                         "  XCAT2(AMP_TILED_INDEX, N)(idx);\n"
                         "  XCAT2(AMP_DOMAIN_EXTENT, N)(dom);\n"
                         "  const int row = EXT(_linear)(dom, idx.global_id);\n"
                         "  int n = 0, t[N];\n"
                         "  IDX(_add)(t, idx.tile_origin, idx.local_id);\n"
                         "  PUT(IDX(_equal)(t, idx.global_id));\n"
                         "  for (int d = 0; d < N; d++) t[d] = idx.tile[d];\n"
                         "  for (int d = 0; d < N; d++) t[d] *= idx.tile_extent[d];\n"
                         "  PUT(IDX(_equal)(t, idx.tile_origin));\n"
                         "  PUT(EXT(_contains)(idx.tile_extent, idx.local_id));\n"
                         "  PUT(EXT(_linear)(idx.tile_extent, idx.local_id));\n"
                         "  PUT(EXT(_size)(idx.tile_extent));\n"
                         "}\n";

/* The host's version of one row of `ops`: fills r, sets *count, returns the flat position. */
static int host_row(int rank, const int *dim, const int *idx, int *r, int *count) {
  static const int o[3] = {1, -2, 3};
  int n = 0, t[3], u[3], size = 1, flat = 0;
#define HPUT(x) (r[n++] = (x))
#define HPUTN(a)                                                                                   \
  for (int d = 0; d < rank; d++)                                                                   \
  HPUT((a)[d])
  for (int d = 0; d < rank; d++) {
    size *= dim[d];
    flat = flat * dim[d] + idx[d];
  }
  HPUTN(idx);
  for (int d = 0; d < rank; d++)
    t[d] = idx[d] + o[d];
  HPUTN(t);
  for (int d = 0; d < rank; d++)
    t[d] = idx[d] - o[d];
  HPUTN(t);
  for (int d = 0; d < rank; d++)
    u[d] = t[d] / 2;
  HPUTN(u);
  for (int d = 0; d < rank; d++)
    u[d] = t[d] % 3;
  HPUTN(u);
  for (int d = 0; d < rank; d++)
    t[d] = idx[d] + 3;
  HPUTN(t);
  for (int d = 0; d < rank; d++)
    t[d] = idx[d] - 3;
  HPUTN(t);
  for (int d = 0; d < rank; d++)
    t[d] = idx[d] * -3;
  HPUTN(t);
  HPUT(1);
  HPUT(0);
  int in_plus = 1, in_minus = 1;
  for (int d = 0; d < rank; d++) {
    t[d] = idx[d] + o[d];
    in_plus &= t[d] >= 0 && t[d] < dim[d];
    in_minus &= idx[d] - o[d] >= 0 && idx[d] - o[d] < dim[d];
  }
  HPUTN(t);
  HPUT(0);
  HPUT(1);
  HPUT(1);
  HPUT(in_plus);
  HPUT(in_minus);
  HPUTN(dim);
  HPUT(1);
  HPUT(size);
  HPUT(flat);
  HPUTN(idx);
  for (int d = 0; d < rank; d++)
    u[d] = dim[d] * 2;
  HPUTN(u);
  const int len = n + 1;
  HPUT(len);
  *count = n;
  return flat;
#undef HPUT
#undef HPUTN
}

static void test_rank(amp_accelerator_view *av, int rank) {
  static const int dims[3][3] = {{37, 1, 1}, {5, 7, 1}, {3, 4, 5}};
  const int *dim = dims[rank - 1];
  const amp_extent e = rank == 1   ? amp_extent1(dim[0])
                       : rank == 2 ? amp_extent2(dim[0], dim[1])
                                   : amp_extent3(dim[0], dim[1], dim[2]);
  const int total = (int)amp_extent_size(e);
  char opts[16];
  snprintf(opts, sizeof opts, "-DN=%d", rank);
  int *out = malloc((size_t)total * K * sizeof *out), *shape = calloc((size_t)total, sizeof *shape);
  if (!out || !shape) {
    CHECK(!"out of memory");
    free(out);
    free(shape);
    return;
  }
  for (int i = 0; i < total * K; i++)
    out[i] = -12345;
  amp_kernel *k = test_kernel(src, opts, "ops");
  amp_array_view *vo, *vs;
  CHECK_OK(amp_array_view_create(amp_extent2(total, K), AMP_INT32, out, &vo));
  CHECK_OK(amp_array_view_create_const(e, AMP_INT32, shape, &vs));
  amp_arg a[] = {amp_arg_view(vo), amp_arg_view(vs)};
  if (k)
    CHECK_OK(amp_parallel_for_each(av, e, k, a, 2));
  CHECK_OK(amp_array_view_synchronize(vo));
  int bad = 0;
  for (int flat = 0; flat < total; flat++) {
    int idx[3] = {0}, want[K], rest = flat;
    for (int d = rank - 1; d >= 0; d--) {
      idx[d] = rest % dim[d];
      rest /= dim[d];
    }
    int n = 0, row = host_row(rank, dim, idx, want, &n);
    if (row != flat || memcmp(&out[(size_t)row * K], want, (size_t)n * sizeof *want) != 0) {
      if (bad++ == 0) {
        fprintf(stderr, "rank %d, item %d: got", rank, flat);
        for (int i = 0; i < n; i++)
          fprintf(stderr, " %d", out[(size_t)row * K + i]);
        fprintf(stderr, "\n  wanted");
        for (int i = 0; i < n; i++)
          fprintf(stderr, " %d", want[i]);
        fprintf(stderr, "\n");
      }
    }
  }
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(vo);
  amp_array_view_release(vs);
  amp_kernel_release(k);

  /* the tiled index's fields */
  static const int tiles[3][3] = {{37, 1, 1}, {5, 1, 1}, {1, 2, 5}};
  const int *tile = tiles[rank - 1];
  if (test_tile_allowed(av, NULL, rank, tile) == TEST_TILE_ABOVE_DEVICE) {
    /* a tile of one odd size (37 threads), whose extent is one tile: only where allowed */
    printf("rank %d tiled: skipped, a tile of %d x %d x %d threads is above this device's limit\n",
           rank, tile[0], tile[1], tile[2]);
    free(out);
    free(shape);
    return;
  }
  amp_tiled_extent te = rank == 1   ? amp_tile1(e, tile[0])
                        : rank == 2 ? amp_tile2(e, tile[0], tile[1])
                                    : amp_tile3(e, tile[0], tile[1], tile[2]);
  k = test_kernel(src, opts, "tiled");
  CHECK_OK(amp_array_view_create(amp_extent2(total, K), AMP_INT32, out, &vo));
  amp_arg at[] = {amp_arg_view(vo)};
  if (k)
    CHECK_OK(amp_parallel_for_each_tiled(av, te, k, at, 1));
  CHECK_OK(amp_array_view_synchronize(vo));
  bad = 0;
  int tsize = tile[0] * (rank > 1 ? tile[1] : 1) * (rank > 2 ? tile[2] : 1);
  for (int flat = 0; flat < total; flat++) {
    int idx[3] = {0}, rest = flat, local_flat = 0;
    for (int d = rank - 1; d >= 0; d--) {
      idx[d] = rest % dim[d];
      rest /= dim[d];
    }
    for (int d = 0; d < rank; d++)
      local_flat = local_flat * tile[d] + idx[d] % tile[d];
    const int *r = &out[(size_t)flat * K];
    bad += r[0] != 1 || r[1] != 1 || r[2] != 1 || r[3] != local_flat || r[4] != tsize;
  }
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(vo);
  amp_kernel_release(k);
  free(out);
  free(shape);
}

/* amp_tile_order_grouped (ampcl's, not AMP's): for each tile number of a tiles_m x tiles_n grid,
 * the block a kernel computes. Every block must be taken exactly once; a full band runs down its
 * `group` block rows before moving a column; group 1 is row-major order. */
static void test_tile_order(amp_accelerator_view *av) {
  static const char *order_src =
      "__kernel void order(AMP_VIEW(int, out), int tiles_m, int tiles_n, int group) {\n"
      "  AMP_INDEX1(idx);\n"
      "  int blk[2];\n"
      "  amp_tile_order_grouped(tiles_m, tiles_n, idx[0], group, blk);\n"
      "  amp_at(out, idx[0], 0) = blk[0];\n"
      "  amp_at(out, idx[0], 1) = blk[1];\n"
      "}\n";
  static const int cases[][3] = {{10, 7, 4}, {5, 3, 1}, {3, 9, 8}, {1, 1, 8}, {16, 2, 8}};
  amp_kernel *k = test_kernel(order_src, NULL, "order");
  for (size_t c = 0; k && c < sizeof cases / sizeof cases[0]; c++) {
    const int tm = cases[c][0], tn = cases[c][1], group = cases[c][2], total = tm * tn;
    int out[2 * 160], seen[160] = {0};
    amp_array_view *v = NULL;
    CHECK_OK(amp_array_view_create(amp_extent2(total, 2), AMP_INT32, out, &v));
    amp_arg args[] = {amp_arg_view(v), amp_arg_int(tm), amp_arg_int(tn), amp_arg_int(group)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(total), k, args, AMP_NARGS(args)));
    CHECK_OK(amp_array_view_synchronize(v));
    int bad = 0;
    for (int lin = 0; lin < total; lin++) {
      const int r = out[2 * lin], col = out[2 * lin + 1];
      if (r < 0 || r >= tm || col < 0 || col >= tn || seen[r * tn + col]++) {
        bad++;
        continue;
      }
      const int g = group < tm ? group : tm;
      if (lin < g * tn) /* the first band is full */
        bad += r != lin % g || col != lin / g;
      if (group == 1)
        bad += r != lin / tn || col != lin % tn;
    }
    if (bad)
      fprintf(stderr, "  tile order %d x %d, group %d: %d wrong\n", tm, tn, group, bad);
    CHECK_EQ_INT(bad, 0);
    amp_array_view_release(v);
  }
  amp_kernel_release(k);
}

int main(void) {
  REQUIRE_VIEW(av);
  for (int rank = 1; rank <= 3; rank++)
    test_rank(av, rank);
  test_tile_order(av);
  return check_done();
}
