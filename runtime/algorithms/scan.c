/* runtime/algorithms/scan.c: amp_scan, prefix sums (kernels_cl/algorithms/scan.cl).
 *
 * One pass for int, uint and float where the device has cl_khr_int64_base_atomics:
 * amp_scan_init zeroes the look-back state, then amp_scan_onepass scans tiles of 4096 elements in
 * the order they start, each taking the sum before it from the tiles before it (decoupled
 * look-back). It moves what a copy moves: n elements in, n out. For float the look-back adds in
 * tile order (scan.cl: SCAN_ORDERED), so that a scan gives the same bits on every run.
 *
 * Otherwise (double, no 64-bit atomics, or less than 4.5 KB of tile_static memory: the single
 * pass's smallest tile) three passes, reduce-then-scan: G tiles each own a
 * chunk of the view (a multiple of 4096 elements): amp_scan_sums writes each chunk's sum to a
 * temporary view of G elements, amp_scan_carry turns those into each chunk's starting value (one
 * tile), and amp_scan_apply scans every chunk from its start. AMP_SCAN_PASSES=3 in the
 * environment forces this path (for measuring it; 1 or unset: the default choice; another value
 * is an error naming it).
 *
 * On a CPU device (props.is_emulated; algo_cpu.c) neither: kernels_cl/algorithms/scan_cpu.cl's
 * two launches with one thread per chunk, a few chunks per core (cpu_scan below).
 *
 * With AMP_ALGO_FIXED_ORDER (amp_scan_ex, or the environment variable) none of these: fixed_order.c
 * scans in an order that is the same on every device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/algo.h"
#include "core/env_parse.h"
#include "core/knobs.h"

/* Tile shapes: the tuned ones, and their fallbacks down to 32 threads where the device allows
 * fewer threads per tile or has less tile_static memory (amp__algo_tile; docs/ALGORITHMS.md). */
/* three passes: threads per tile (scan.cl: SCAN_TILE) from the table (algo_shapes.c) */
#define SCAN_ITEMS(tile)     (16 * (tile)) /* elements per step of amp_scan_sums (scan.cl) */
#define SCAN_MAX_TILES(tile) (4 * (tile))  /* amp_scan_carry scans the G sums, 4 per thread */
/* tile_static bytes per thread of amp_scan_apply, the three passes' largest: sh[] and buf[] of
 * 2 padded 4-vectors (scan.cl: APPLY_VECS, APPLY_AT) */
#define SCAN_LOCAL(size) ((size) * (1 + 10))
/* the single pass's elements per thread (scan.cl: ONE_PER) and threads per tile (ONE_TILE) come
 * from the table (algo_shapes.c); its tile_static bytes: sh[] and buf[] per thread at `per`
 * elements a thread; seen[], for float seen_agg[] and from, tile, next, before */
#define SCAN_ONE_LOCAL(size, per) ((size) * (1 + (size_t)(per)))
#define SCAN_ONE_FIXED            (2 * 32 * 8 + 24)

/* CPU path: chunks (threads) per compute unit and at least this many elements per chunk from the
 * table (algo_shapes.c), and at most this many: Mesa's llvmpipe (rusticl) ends a work-item's loops
 * after 65535 iterations, silently; amp_scan_cpu_apply takes 8 elements an iteration, after one per
 * chunk before its own */
#define SCAN_CPU_MAX (8 * 50000)

/* AMP_SCAN_PASSES: unset or 1, the single pass where the device can; 3, always three. */
static amp_status passes_wanted(int *out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  const char *env = amp__knob_get(AMP_KNOB_SCAN_PASSES);
  *out = amp__env_scan_passes(env);
  if (!*out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: AMP_SCAN_PASSES=%s: expected 1 or 3", fn, env);
fail:
  return status;
}

static amp_status onepass(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                          amp_scan_kind kind, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *ki = NULL, *k1 = NULL;
  amp_array_view *state = NULL;
  char opts[160];
  const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_SCAN_ONE);
  int tile = s->tile;
  /* float sums depend on their order: the look-back adds in tile order (scan.cl: SCAN_ORDERED) */
  const int ordered = src->type.kind == AMP_ELEM_FLOAT;
  int agg_only = 0; /* AMP_SCAN_AGG_ONLY=1, for tests: every look-back walks back to tile 0 */
  AMP__TRY(amp__knob_int(AMP_KNOB_SCAN_AGG_ONLY, 0, &agg_only, fn));
  AMP__TRY(amp__algo_tile(view, s->tile, s->least, SCAN_ONE_LOCAL(src->type.size, s->per),
                          SCAN_ONE_FIXED, "amp_scan (one pass)", fn, &tile));
  snprintf(opts, sizeof opts,
           "-DT=%s -DT4=%s -DSCAN_ONEPASS=1 -DONE_PER=%d -DONE_TILE=%d -DSCAN_TILE=%d "
           "-DSCAN_ORDERED=%d -DSCAN_AGG_ONLY=%d",
           amp__algo_type_name(src->type.kind, 0), amp__algo_type_name(src->type.kind, 1), s->per,
           tile, tile, ordered, agg_only);
  AMP__TRY(amp__algo_kernel_opts("scan", opts, "amp_scan_init", &ki));
  AMP__TRY(amp__algo_kernel_opts("scan", opts, "amp_scan_onepass", &k1));
  size_t n = (size_t)src->extent.dim[0];       /* < 2^31, so 2 * (tiles + 1) fits an int */
  size_t step = (size_t)s->per * (size_t)tile; /* elements per tile */
  size_t tiles = n / step + (n % step != 0);
  size_t words = 2 * ((ordered ? 2 : 1) * tiles + 1); /* 64-bit: the counter, 1 or 2 per tile */
  AMP__TRY(amp__array_view_create_empty(amp_extent1((int)words), AMP_UINT32, fn, &state));
  amp_arg a0[] = {amp_arg_view(state)};
  AMP__TRY(amp__algo_launch1(view, ki, words / (size_t)tile + 1, tile, a0, AMP_NARGS(a0)));
  amp_arg a1[] = {amp_arg_view(src), amp_arg_view(dst), amp_arg_view(state),
                  amp_arg_int(kind == AMP_SCAN_INCLUSIVE)};
  AMP__TRY(amp__algo_launch1(view, k1, tiles, tile, a1, AMP_NARGS(a1)));
fail:
  amp_array_view_release(state);
  amp_kernel_release(ki);
  amp_kernel_release(k1);
  return status;
}

/* The CPU path: sums of G chunks, then each chunk scanned from the sum of those before it. */
static amp_status cpu_scan(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                           amp_scan_kind kind, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *ks = NULL, *ka = NULL;
  amp_array_view *sums = NULL;
  char opts[64];
  const char *t = amp__algo_type_name(src->type.kind, 0);
  snprintf(opts, sizeof opts, "-DT=%s -DT8=%s8", t, t);
  AMP__TRY(amp__algo_kernel_opts("scan_cpu", opts, "amp_scan_cpu_sums", &ks));
  AMP__TRY(amp__algo_kernel_opts("scan_cpu", opts, "amp_scan_cpu_apply", &ka));
  size_t n = (size_t)src->extent.dim[0]; /* >= 1 and < 2^31 */
  size_t chunk = amp__algo_cpu_chunk(view, AMP__SHAPE_SCAN_CPU, n, SCAN_CPU_MAX, 16);
  if (chunk == 0) /* no elements: nothing to scan */
    goto fail;
  size_t g = n / chunk + (n % chunk != 0);
  AMP__TRY(amp__array_view_create_empty(amp_extent1((int)g), src->type, fn, &sums));
  amp_arg a1[] = {amp_arg_view(src), amp_arg_view(sums), amp_arg_int((int)chunk)};
  AMP__TRY(amp__algo_launch1(view, ks, g, 1, a1, AMP_NARGS(a1)));
  amp_arg a2[] = {amp_arg_view(src), amp_arg_view(dst), amp_arg_view(sums), amp_arg_int((int)chunk),
                  amp_arg_int(kind == AMP_SCAN_INCLUSIVE)};
  AMP__TRY(amp__algo_launch1(view, ka, g, 1, a2, AMP_NARGS(a2)));
fail:
  amp_array_view_release(sums); /* waits for the scan */
  amp_kernel_release(ks);
  amp_kernel_release(ka);
  return status;
}

amp_status amp_scan(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                    amp_scan_kind kind) {
  return amp_scan_ex(view, src, dst, kind, 0);
}

amp_status amp_scan_ex(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                       amp_scan_kind kind, unsigned flags) {
  amp_status status = AMP_SUCCESS;
  const char *fn = flags ? "amp_scan_ex" : "amp_scan";
  amp_kernel *ks = NULL, *kc = NULL, *ka = NULL;
  amp_array_view *sums = NULL;
  AMP__TRY(amp__algo_check_view(view, src, 1, 0, 0, "src", fn));
  AMP__TRY(amp__algo_check_view(view, dst, 1, 0, 1, "dst", fn));
  if (kind != AMP_SCAN_EXCLUSIVE && kind != AMP_SCAN_INCLUSIVE)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: kind is %d, which is not AMP_SCAN_EXCLUSIVE or AMP_SCAN_INCLUSIVE", fn,
              (int)kind);
  if (dst->type.kind != src->type.kind)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: dst holds another element type than src", fn);
  if (dst->extent.dim[0] != src->extent.dim[0])
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH, "%s: src has %d elements and dst %d; they must be equal",
              fn, src->extent.dim[0], dst->extent.dim[0]);
  amp_elem_kind t = src->type.kind;
  int passes = 1;
  AMP__TRY(passes_wanted(&passes, fn)); /* checked on every device */
  int fixed = 0, cpu = 0;
  AMP__TRY(amp__algo_fixed_wanted(flags, &fixed, fn));
  if (fixed)
    return amp__scan_fixed(view, src, dst, kind, fn);
  AMP__TRY(amp__algo_cpu_kernels(view, &cpu, fn));
  if (cpu)
    return cpu_scan(view, src, dst, kind, fn);
  if (t == AMP_ELEM_DOUBLE || !view->acc->has_int64_atomics)
    passes = 3; /* the single pass packs a 32-bit value and its state into one 64-bit atomic */
  const amp__algo_shape *one = amp__algo_shape_of(view, AMP__SHAPE_SCAN_ONE);
  if (!amp__algo_tile_fits(view, one->least, SCAN_ONE_LOCAL(src->type.size, one->per),
                           SCAN_ONE_FIXED))
    passes = 3; /* too little tile_static memory for its smallest tile (4.5 KB) */
  if (passes == 1)
    return onepass(view, src, dst, kind, fn);
  const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_SCAN_THREE);
  int tile = s->tile;
  AMP__TRY(amp__algo_tile(view, s->tile, s->least, SCAN_LOCAL(src->type.size), 0,
                          "amp_scan (three passes)", fn, &tile));
  char opts[64];
  snprintf(opts, sizeof opts, "-DT=%s -DT4=%s -DSCAN_TILE=%d", amp__algo_type_name(t, 0),
           amp__algo_type_name(t, 1), tile);
  AMP__TRY(amp__algo_kernel_opts("scan", opts, "amp_scan_sums", &ks));
  AMP__TRY(amp__algo_kernel_opts("scan", opts, "amp_scan_carry", &kc));
  AMP__TRY(amp__algo_kernel_opts("scan", opts, "amp_scan_apply", &ka));

  size_t n = (size_t)src->extent.dim[0];
  size_t items = SCAN_ITEMS((size_t)tile);
  size_t tiles = amp__algo_tiles(view, n, items, SCAN_MAX_TILES((size_t)tile));
  size_t steps = n / items + (n % items != 0); /* tile steps in all */
  size_t per = steps / tiles + (steps % tiles != 0);
  size_t chunk = per * items;
  if (chunk > INT32_MAX) /* only with one tile per 2^31 elements: not on a real device */
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%s: chunks of %zu elements do not fit an int", fn, chunk);
  tiles = n / chunk + (n % chunk != 0);
  AMP__TRY(amp__array_view_create_empty(amp_extent1((int)tiles), src->type, fn, &sums));
  amp_arg a1[] = {amp_arg_view(src), amp_arg_view(sums), amp_arg_int((int)chunk)};
  AMP__TRY(amp__algo_launch1(view, ks, tiles, tile, a1, AMP_NARGS(a1)));
  amp_arg a2[] = {amp_arg_view(sums)};
  AMP__TRY(amp__algo_launch1(view, kc, 1, tile, a2, AMP_NARGS(a2)));
  amp_arg a3[] = {amp_arg_view(src), amp_arg_view(dst), amp_arg_view(sums), amp_arg_int((int)chunk),
                  amp_arg_int(kind == AMP_SCAN_INCLUSIVE)};
  AMP__TRY(amp__algo_launch1(view, ka, tiles, tile, a3, AMP_NARGS(a3)));
fail:
  amp_array_view_release(sums); /* waits for the scan */
  amp_kernel_release(ks);
  amp_kernel_release(kc);
  amp_kernel_release(ka);
  return status;
}
