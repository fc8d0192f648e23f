/* runtime/algorithms/stencil.c: amp_stencil_2d and amp_gaussian_blur
 * (kernels_cl/algorithms/stencil.cl), one launch each, the kernel built once per radius.
 * By default the column kernels: a thread per 4 columns x 32 rows of output walking down its
 * columns with the rows in registers (float4 loads where the views' rows start on 16 bytes), no
 * tile_static memory; the blur's weights go by value. AMP_STENCIL_COLUMNS=0 takes the tile_static
 * kernels instead: a tiled launch of 8 x 32 threads per 64 x 32 block of output (8 outputs of a
 * column per thread), the input window with its halo in tile_static memory. amp_gaussian_blur's
 * weights are a product g(a) g(b), so it takes the separable kernel of each kind (2 (2r + 1)
 * multiply-adds per output, not (2r + 1)^2). The environment knobs below choose the kernels and
 * their shapes, for measuring (lab/stencil_sweep.sh). */
#include <math.h>
#include <stdio.h>

#include "algorithms/algo.h"

#define ST_TX            32 /* stencil.cl: threads per tile, across */
#define SC_MAX_R_GENERAL 3  /* stencil.cl: amp_stencil_columns's largest radius */

/* The checks on src and dst both calls make. */
static amp_status check_images(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                               const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__algo_check_view(view, src, 2, 0, 0, "src", fn));
  AMP__TRY(amp__algo_check_view(view, dst, 2, 0, 1, "dst", fn));
  if (src->type.kind != AMP_ELEM_FLOAT || dst->type.kind != AMP_ELEM_FLOAT)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: src and dst must be views of AMP_FLOAT", fn);
  int H = src->extent.dim[0], W = src->extent.dim[1];
  if (dst->extent.dim[0] != H || dst->extent.dim[1] != W)
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH, "%s: src is %d x %d and dst %d x %d; they must be equal",
              fn, H, W, dst->extent.dim[0], dst->extent.dim[1]);
  if (dst->src == src->src)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: src and dst are views of the same data", fn);
fail:
  return status;
}

/* Launches kernel `kname` of stencil.cl built for radius r over the image: tiles of 8 x 32
 * threads, each tile 64 x 32 outputs. */
static amp_status launch_tiles(amp_accelerator_view *view, const char *kname, int r,
                               amp_array_view *src, amp_array_view *dst, amp_array_view *weights,
                               const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *k = NULL;
  int H = src->extent.dim[0], W = src->extent.dim[1];
  /* outputs per thread down a column and rows of 32 threads: the table's (algo_shapes.c: 8 and 8,
   * 4, 2, 1 where the device allows less); AMP_STENCIL_OY sets the outputs (1 .. 16), for
   * measuring */
  const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_STENCIL_TILES);
  int oy = s->per;
  AMP__TRY(amp__knob_int_in(AMP_KNOB_STENCIL_OY, 1, 16, s->per, &oy, fn));
  /* Fewer rows of 32 threads where the device allows fewer threads per tile or has less
   * tile_static memory: the window of (ty * oy + 2r) rows of 32 + 2r pixels (the separable
   * kernel's, with its padding and its second buffer of 33 columns, the larger) and the general
   * kernel's weights. */
  size_t row = (size_t)(ST_TX + 2 * r + 1 + ST_TX + 1) * sizeof(float);
  size_t fixed = (size_t)(2 * r) * row + (size_t)(2 * r + 1) * (2 * r + 1) * sizeof(float);
  /* where even one row of 32 threads does not fit, fewer outputs per thread (8.8 KB at radius 8
   * with 8 of them; 6.6 KB with 1) */
  while (oy > 1 && !amp__algo_tile_fits(view, ST_TX, ((size_t)oy * row + ST_TX - 1) / ST_TX, fixed))
    oy /= 2;
  int tile = s->tile;
  AMP__TRY(amp__algo_tile(view, s->tile, s->least, ((size_t)oy * row + ST_TX - 1) / ST_TX, fixed,
                          fn, fn, &tile));
  if (view->acc->props.max_tile_extent[2] < ST_TX)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "%s: tiles %d threads wide in dimension 1; %s allows %zu there", fn, ST_TX,
              view->acc->props.device_path, view->acc->props.max_tile_extent[2]);
  int ty = tile / ST_TX;
  char opts[48];
  snprintf(opts, sizeof opts, "-DR=%d -DST_OY=%d -DST_TY=%d", r, oy, ty);
  AMP__TRY(amp__algo_kernel_opts("stencil", opts, kname, &k));
  long rows = ((long)H + ty * oy - 1) / (ty * oy) * ty;
  long cols = ((long)W + ST_TX - 1) / ST_TX * ST_TX;
  if (rows > INT32_MAX || cols > INT32_MAX)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%s: a %d x %d image is too large to launch", fn, H, W);
  amp_arg args[] = {amp_arg_view(src), amp_arg_view(dst), amp_arg_view(weights)};
  amp_launch l = {amp_extent2((int)rows, (int)cols), 1, {ty, ST_TX, 1}, k, args, 3};
  AMP__TRY(amp_parallel_for_each_ex(view, &l, NULL));
fail:
  amp_kernel_release(k);
  return status;
}

/* Whether a view's rows start on 16 bytes (the buffer's start is aligned far more: OpenCL's
 * CL_DEVICE_MEM_BASE_ADDR_ALIGN), so the column kernels may load and store float4. */
static int rows_aligned(const amp_array_view *v) {
  return v->offset % 4 == 0 && v->stride[0] % 4 == 0;
}

/* Launches a column kernel built for radius r (stencil.cl): amp_stencil_columns, or with
 * `separable` the blur's amp_stencil_columns_sep. One thread per 4 columns x SC_OY rows; the
 * weights are the launch's arguments after src and dst (nw of them: a view, or _sep's three by
 * value). The knobs, for measuring (bad values are errors naming them): AMP_STENCIL_ROWS (SC_OY, 1
 * to 128, default 32), AMP_STENCIL_TX and AMP_STENCIL_TY (the tile, threads across and down,
 * default 64 x 1, at most 1024 threads), AMP_STENCIL_ALIGNED (0: vload4 even where float4 would do;
 * 1, the default: float4 where the views allow it), AMP_STENCIL_PREFETCH (1: the blur loads its
 * next row before it sums the current one, the default on GPUs; 0, the default on CPU devices),
 * AMP_STENCIL_RING (stencil.cl's SC_RING: 0, the rows' loop unrolled whole, the default on GPUs; 1,
 * unrolled by periods of 2r + 1 rows, the default on CPU devices, where the whole unrolling took
 * several times as long to build).
 */
static amp_status launch_columns(amp_accelerator_view *view, int separable, int r,
                                 amp_array_view *src, amp_array_view *dst, const amp_arg *w,
                                 size_t nw, amp_future **done, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *k = NULL;
  int H = src->extent.dim[0], W = src->extent.dim[1];
  /* the table's shape (algo_shapes.c): a row of 64 threads, 32 rows of output each */
  const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_STENCIL_COLUMNS);
  int oy = s->per, tx = s->across, ty = s->tile / s->across, aligned = 1;
  int ring = view->acc->props.is_emulated;
  int pf = !view->acc->props.is_emulated; /* measured on a GPU only (stencil.cl: SC_PF) */
  AMP__TRY(amp__knob_int_in(AMP_KNOB_STENCIL_ROWS, 1, 128, oy, &oy, fn));
  AMP__TRY(amp__knob_int_in(AMP_KNOB_STENCIL_TX, 1, 1024, tx, &tx, fn));
  AMP__TRY(amp__knob_int_in(AMP_KNOB_STENCIL_TY, 1, 1024, ty, &ty, fn));
  AMP__TRY(amp__knob_int_in(AMP_KNOB_STENCIL_ALIGNED, 0, 1, aligned, &aligned, fn));
  AMP__TRY(amp__knob_int_in(AMP_KNOB_STENCIL_RING, 0, 1, ring, &ring, fn));
  AMP__TRY(amp__knob_int_in(AMP_KNOB_STENCIL_PREFETCH, 0, 1, pf, &pf, fn));
  if (tx * ty > 1024)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: AMP_STENCIL_TX %d x AMP_STENCIL_TY %d is %d threads; at most 1024", fn, tx, ty,
              tx * ty);
  /* Where the device allows fewer threads per tile (or fewer across), fewer rows of threads, then
   * fewer columns: no tile_static memory here. */
  {
    int tile = tx * ty, least = tx * ty < s->least ? tx * ty : s->least;
    AMP__TRY(amp__algo_tile(view, tx * ty, least, 0, 0, fn, fn, &tile));
    while (tx * ty > tile || (size_t)tx > view->acc->props.max_tile_extent[2])
      if (ty > 1 && (size_t)tx <= view->acc->props.max_tile_extent[2])
        ty = (ty + 1) / 2;
      else
        tx = (tx + 1) / 2;
  }
  aligned = aligned && rows_aligned(src) && rows_aligned(dst);
  if (!separable)
    pf = 0; /* only the blur's kernel reads SC_PF: one build of the general one either way */
  char opts[96];
  snprintf(opts, sizeof opts, "-DR=%d -DSC_OY=%d -DSC_ALIGNED=%d -DSC_RING=%d -DSC_PF=%d", r, oy,
           aligned, ring, pf);
  AMP__TRY(amp__algo_kernel_opts(
      "stencil", opts, separable ? "amp_stencil_columns_sep" : "amp_stencil_columns", &k));
  long strips = ((long)H + oy - 1) / oy, groups = ((long)W + 3) / 4;
  long rows = (strips + ty - 1) / ty * ty, cols = (groups + tx - 1) / tx * tx;
  if (rows > INT32_MAX || cols > INT32_MAX)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%s: a %d x %d image is too large to launch", fn, H, W);
  amp_arg args[5] = {amp_arg_view(src), amp_arg_view(dst)};
  for (size_t i = 0; i < nw && i < 3; i++)
    args[2 + i] = w[i];
  amp_launch l = {amp_extent2((int)rows, (int)cols), 1, {ty, tx, 1}, k, args, 2 + nw};
  AMP__TRY(amp_parallel_for_each_ex(view, &l, done));
fail:
  amp_kernel_release(k);
  return status;
}

/* Whether to take the column kernels: yes (on GPUs and CPU devices alike: on POCL and Intel's
 * CPU runtime they were 2-7 times faster than the tile_static ones), unless AMP_STENCIL_COLUMNS=0
 * asks for the tile_static kernels (for measuring and their test). amp_stencil_2d takes them for
 * radii up to 3 (SC_MAX_R_GENERAL), amp_stencil_tiles above. */
static amp_status use_columns(int *out, const char *fn) {
  return amp__knob_int_in(AMP_KNOB_STENCIL_COLUMNS, 0, 1, 1, out, fn);
}

amp_status amp_stencil_2d(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                          amp_array_view *weights) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_stencil_2d";
  int columns = 1;
  AMP__TRY(check_images(view, src, dst, fn));
  AMP__TRY(amp__algo_check_view(view, weights, 2, 0, 0, "weights", fn));
  if (weights->type.kind != AMP_ELEM_FLOAT)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: weights must be a view of AMP_FLOAT", fn);
  int kh = weights->extent.dim[0], kw = weights->extent.dim[1];
  if (kh != kw || kh % 2 == 0)
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH,
              "%s: weights is %d x %d; it must be square with an odd side (2r + 1)", fn, kh, kw);
  int r = kh / 2;
  if (r > AMP_STENCIL_MAX_RADIUS)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%s: weights of %d x %d mean radius %d; the limit is %d",
              fn, kh, kw, r, AMP_STENCIL_MAX_RADIUS);
  AMP__TRY(use_columns(&columns, fn));
  if (columns && r <= SC_MAX_R_GENERAL) {
    amp_arg w = amp_arg_view(weights);
    AMP__TRY(launch_columns(view, 0, r, src, dst, &w, 1, NULL, fn));
  } else {
    AMP__TRY(launch_tiles(view, "amp_stencil_tiles", r, src, dst, weights, fn));
  }
fail:
  return status;
}

amp_status amp_gaussian_blur(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                             float sigma) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_gaussian_blur";
  amp_array_view *w = NULL;
  amp_future *done = NULL;
  int columns = 1;
  float g[2 * AMP_STENCIL_MAX_RADIUS + 1] = {0};
  if (!(sigma > 0.0f) || sigma > AMP_STENCIL_MAX_RADIUS / 3.0f)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: sigma is %g; it must be in (0, %g]", fn,
              (double)sigma, AMP_STENCIL_MAX_RADIUS / 3.0);
  AMP__TRY(check_images(view, src, dst, fn));
  AMP__TRY(use_columns(&columns, fn));
  /* exp(-(a^2 + b^2) / (2 sigma^2)) / total = g(a) g(b) with g normalised to sum 1: the
   * separable kernel */
  int r = (int)ceilf(3.0f * sigma), k = 2 * r + 1;
  double total = 0, e[2 * AMP_STENCIL_MAX_RADIUS + 1];
  for (int a = -r; a <= r; a++)
    total += e[a + r] = exp(-(double)(a * a) / (2.0 * (double)sigma * (double)sigma));
  for (int i = 0; i < k; i++)
    g[i] = (float)(e[i] / total);
  if (columns) { /* the weights by value (two float8 and a float): nothing to copy in */
    amp_arg wa[3] = {amp_arg_bytes(g, 8 * sizeof g[0]), amp_arg_bytes(g + 8, 8 * sizeof g[0]),
                     amp_arg_float(g[16])};
    AMP__TRY(launch_columns(view, 1, r, src, dst, wa, 3, &done, fn));
    AMP__TRY(amp_future_wait(done));
  } else {
    AMP__TRY(amp_array_view_create_const(amp_extent1(k), AMP_FLOAT, g, &w));
    AMP__TRY(launch_tiles(view, "amp_stencil_separable", r, src, dst, w, fn));
  }
fail:
  amp_future_release(done);
  amp_array_view_release(w); /* waits for the launch: the weights live on this stack */
  return status;
}
