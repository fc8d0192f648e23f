/* runtime/algorithms/compact.c: amp_copy_if and amp_unique, stream compaction
 * (kernels_cl/algorithms/compact.cl). On GPUs, for n < 2^30, one launch with decoupled look-back
 * (after one that zeroes its state): every element read once, the kept ones written once. Elsewhere
 * three launches, no tile waiting on another: each tile's count, an exclusive amp_scan of the
 * counts, and the write (the input read twice). AMP_COMPACT_PASSES=1 or 3 forces one or the other
 * (another value is an error naming it); onesweep.c says why the look-back is kept to GPUs by
 * default. The write kernel takes its warp path (ballots and shuffles, ampcl_warp.h) on NVIDIA
 * GPUs of compute capability 7.0+, and on any device with AMP_WARP_EMULATE=1 (for testing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/algo.h"
#include "core/knobs.h"

#define CI_MAX_ITEMS 8192
#define CI_LIMIT     (1L << 30) /* compact.cl: 30-bit status values */

static amp_status passes_wanted(const amp_accelerator_view *view, size_t n, int *out,
                                const char *fn) {
  amp_status status = AMP_SUCCESS;
  int one = !view->acc->props.is_emulated;
  AMP__TRY(amp__algo_knob_either(AMP_KNOB_COMPACT_PASSES, "1", 1, "3", 0, &one, fn));
  *out = one && n < (size_t)CI_LIMIT;
fail:
  return status;
}

static amp_status compact(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                          const char *pred, size_t *count, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *kc = NULL, *kw = NULL, *ki = NULL;
  amp_array_view *state = NULL, *total = NULL;
  char *prefix = NULL;
  uint32_t got = 0;
  if (!count)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: count is NULL", fn);
  AMP__TRY(amp__algo_check_view(view, src, 1, 0, 0, "src", fn));
  AMP__TRY(amp__algo_check_view(view, dst, 1, 0, 1, "dst", fn));
  if (dst->type.kind != src->type.kind)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: dst holds another element type than src", fn);
  if (dst->extent.dim[0] < src->extent.dim[0])
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH,
              "%s: src has %d elements and dst %d; dst must have at least as many as src", fn,
              src->extent.dim[0], dst->extent.dim[0]);
  if (dst->src == src->src)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: src and dst are views of the same data", fn);
  /* AMP_COMPACT_AGG_ONLY=1, for testing: every look-back walks back to the first tile through
   * the others' aggregates (compact.cl, CI_AGG_ONLY), which it seldom does on a CPU device */
  int agg_only = 0, relaxed = 1, warp_path = 0;
  const char *warp = "";
  AMP__TRY(amp__knob_int_in(AMP_KNOB_COMPACT_AGG_ONLY, 0, 1, 0, &agg_only, fn));
  /* AMP_COMPACT_RELAXED=0, for measuring: the GPU's look-back reads with atomic_or(p, 0) too */
  AMP__TRY(amp__knob_int_in(AMP_KNOB_COMPACT_RELAXED, 0, 1, 1, &relaxed, fn));
  /* AMP_COMPACT_WARP=0, for measuring: the portable path on the GPU too */
  AMP__TRY(amp__algo_warp_path(view, AMP_KNOB_COMPACT_WARP, &warp_path, &warp, fn));
  /* Elements per thread and threads per tile: the warp path (NVIDIA) 24 x 128 for copy_if and
   * 24 x 256 for unique, each the fastest of its call's shapes on an H200 in three alternating
   * rounds (copy_if 0.73-0.76 of the copy against 0.70-0.72 for 32 x 128, unique 0.71-0.73 against
   * 0.65-0.69; lab/NOTEBOOK.md, 2026-11-27, "ballots for the sort"); the portable path 16 x 256 (8
   * elements for double: the same bytes). The shapes are the table's (algo_shapes.c). The look-back
   * reads 32 predecessors at once. For measuring, AMP_COMPACT_PER (4 .. 32, the double's is half of
   * it), AMP_COMPACT_TILE (64 .. 1024, a multiple of 32) and AMP_COMPACT_WINDOW (1 .. 32) set them;
   * a tile holds at most CI_MAX_ITEMS elements (32 KB of tile_static memory). */
  const amp__algo_shape *s = amp__algo_shape_of(
      view, !warp_path ? AMP__SHAPE_COMPACT
                       : (pred ? AMP__SHAPE_COMPACT_WARP_IF : AMP__SHAPE_COMPACT_WARP_UNIQUE));
  int per = s->per, tile = s->tile, window = 32;
  AMP__TRY(amp__knob_int_in(AMP_KNOB_COMPACT_PER, 4, 32, s->per, &per, fn));
  AMP__TRY(amp__knob_int_in(AMP_KNOB_COMPACT_TILE, 64, 1024, s->tile, &tile, fn));
  AMP__TRY(amp__knob_int_in(AMP_KNOB_COMPACT_WINDOW, 1, 32, 32, &window, fn));
  if (tile % 32 != 0)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: AMP_COMPACT_TILE=%d: expected a multiple of 32", fn,
              tile);
  if (tile * per > CI_MAX_ITEMS)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: AMP_COMPACT_TILE=%d times AMP_COMPACT_PER=%d is %d elements a tile, over the "
              "limit of %d",
              fn, tile, per, tile * per, CI_MAX_ITEMS);
  const int wide = src->type.kind == AMP_ELEM_DOUBLE;
  if (wide)
    per /= 2;
  /* The tile the device allows: the tuned one (or AMP_COMPACT_TILE's), or powers of two below it
   * down to 32, at the same elements per thread. tile_static memory per thread: its elements
   * (padded one word in 32 in the portable path), its scan entry, the warp emulation's word;
   * besides: the look-back window and a few words. */
  AMP__TRY(amp__algo_tile(view, tile, s->least, ((size_t)per * 33 * src->type.size + 31) / 32 + 9,
                          32 * 4 + 32, fn, fn, &tile));
  int items = per * tile;
  char opts[192];
  snprintf(opts, sizeof opts,
           "-DT=%s -DCI_WIDE=%d -DCI_PER=%d -DCI_TILE=%d -DCI_WINDOW=%d -DCI_AGG_ONLY=%d "
           "-DCI_RELAXED=%d%s%s",
           amp__algo_type_name(src->type.kind, 0), wide, per, tile, window, agg_only, relaxed,
           pred ? " -DCOMPACT_USER" : " -DCOMPACT_UNIQUE", warp);
  if (pred) {
    size_t a = strlen(pred);
    if (a > SIZE_MAX - 2 || !(prefix = malloc(a + 2)))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "%s: out of memory for the predicate's text", fn);
    memcpy(prefix, pred, a);
    memcpy(prefix + a, "\n", 2);
  }
  AMP__TRY(amp__algo_kernel_prefix("compact", prefix, opts, "amp_compact_write", &kw));
  size_t n = (size_t)src->extent.dim[0];
  size_t tiles = n / (size_t)items + (n % (size_t)items != 0);
  int one = 0;
  AMP__TRY(passes_wanted(view, n, &one, fn));
  AMP__TRY(amp__array_view_create_empty(amp_extent1(1), AMP_UINT32, fn, &total));
  AMP__TRY(amp__array_view_create_empty(amp_extent1((int)tiles + 1), AMP_UINT32, fn, &state));
  if (one) {
    AMP__TRY(amp__algo_kernel_opts("onesweep", "", "amp_onesweep_init", &ki));
    amp_arg a0[] = {amp_arg_view(state)};
    int small = tile < 256 ? tile : 256;
    AMP__TRY(amp__algo_launch1(view, ki, amp__algo_tiles(view, tiles + 1, (size_t)small * 16, 1024),
                               small, a0, AMP_NARGS(a0)));
  } else {
    AMP__TRY(amp__algo_kernel_prefix("compact", prefix, opts, "amp_compact_count", &kc));
    amp_arg a1[] = {amp_arg_view(src), amp_arg_view(state)};
    AMP__TRY(amp__algo_launch1(view, kc, tiles, (size_t)tile, a1, AMP_NARGS(a1)));
    AMP__TRY(amp_scan(view, state, state, AMP_SCAN_EXCLUSIVE));
  }
  amp_arg a2[] = {amp_arg_view(src), amp_arg_view(dst), amp_arg_view(state), amp_arg_view(total),
                  amp_arg_int(one)};
  AMP__TRY(amp__algo_launch1(view, kw, tiles, (size_t)tile, a2, AMP_NARGS(a2)));
  AMP__TRY(amp_copy_from_view(total, &got, sizeof got));
  *count = got;
fail:
  amp_array_view_release(state);
  amp_array_view_release(total);
  amp_kernel_release(kc);
  amp_kernel_release(kw);
  amp_kernel_release(ki);
  free(prefix);
  return status;
}

amp_status amp_copy_if(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                       const char *predicate_source, size_t *count) {
  amp_status status = AMP_SUCCESS;
  if (!predicate_source)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_copy_if: predicate_source is NULL");
  AMP__TRY(compact(view, src, dst, predicate_source, count, "amp_copy_if"));
fail:
  return status;
}

amp_status amp_unique(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                      size_t *count) {
  return compact(view, src, dst, NULL, count, "amp_unique");
}
