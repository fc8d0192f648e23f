/* runtime/algorithms/sort.c: amp_sort and amp_sort_by_key. On GPUs (and for n < 2^30) 32-bit keys
 * with 32-bit values (or none) take the one-pass-per-digit sort of onesweep.c; everything else
 * takes the safe path below, which no tile ever waits on another in: a least-significant-digit
 * radix sort (kernels_cl/algorithms/sort.cl): 8 passes of 4-bit digits for 32-bit keys, 16 for
 * 64-bit keys, each a count per (digit, tile), an exclusive amp_scan of the counts (the output slot
 * of every digit of every tile), and a stable scatter. Passes alternate between the caller's views
 * and temporaries of the same size; their number is even, so after the last pass the result is
 * back in the caller's views. */
#include <stdio.h>
#include <string.h>

#include "algorithms/algo.h"

/* the tuned tile (algo_shapes.c); 128, 64, 32 where the device allows less or has less
 * tile_static memory */
#define SORT_BITS   4
#define SORT_DIGITS 16

/* sort.cl's KEY_KIND of an element kind (its map to ordered unsigned bits), or -1. */
static int key_kind(amp_elem_kind k) {
  switch (k) {
  case AMP_ELEM_UINT32:
    return 0;
  case AMP_ELEM_INT32:
    return 1;
  case AMP_ELEM_FLOAT:
    return 2;
  case AMP_ELEM_UINT64:
    return 3;
  case AMP_ELEM_INT64:
    return 4;
  case AMP_ELEM_DOUBLE:
    return 5;
  default:
    return -1;
  }
}

#define SORT_TYPES "AMP_UINT32, AMP_INT32, AMP_FLOAT, AMP_UINT64, AMP_INT64 or AMP_DOUBLE"

static amp_status sort(amp_accelerator_view *view, amp_array_view *keys, amp_array_view *values,
                       const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *kc = NULL, *ks = NULL;
  amp__algo_sort_views v = {0};
  AMP__TRY(amp__algo_check_view(view, keys, 1, AMP__ALGO_WITH_INT64, 1, "keys", fn));
  int kk = key_kind(keys->type.kind);
  if (kk < 0)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: keys must be " SORT_TYPES, fn);
  if (values) {
    AMP__TRY(amp__algo_check_view(view, values, 1, AMP__ALGO_WITH_INT64, 1, "values", fn));
    if (key_kind(values->type.kind) < 0)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: values must be " SORT_TYPES, fn);
    if (values->extent.dim[0] != keys->extent.dim[0])
      AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH,
                "%s: keys has %d elements and values %d; they must be "
                "equal",
                fn, keys->extent.dim[0], values->extent.dim[0]);
    if (values->src == keys->src)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: keys and values are views of the same data", fn);
  }
  char opts[160];
  const char *K = amp__algo_type_name(keys->type.kind, 0),
             *K4 = amp__algo_type_name(keys->type.kind, 1);
  /* 64-bit keys take 16 passes; with 64-bit values too, sort.cl's rank table is ushort */
  int key_bits = keys->type.kind == AMP_ELEM_UINT64 || keys->type.kind == AMP_ELEM_INT64 ||
                         keys->type.kind == AMP_ELEM_DOUBLE
                     ? 64
                     : 32;
  int wide_values = values && values->type.size == 8;
  snprintf(opts, sizeof opts, "-DK=%s -DK4=%s -DKEY_KIND=%d -DHAS_VALUES=%d -DV=%s -DSORT_WIDE=%d",
           K, K4, kk, values != NULL, values ? amp__algo_type_name(values->type.kind, 0) : "uint",
           key_bits == 64 && wide_values);
  if (keys->extent.dim[0] == 1)
    goto fail; /* sorted */
  /* the onesweep sort (onesweep.cl) is written for 32-bit keys and values: 64-bit ones always take
   * the passes below */
  int onesweep = 0;
  AMP__TRY(amp__sort_onesweep_wanted(view, (size_t)keys->extent.dim[0],
                                     values ? values->type.size : 0, &onesweep, fn));
  if (onesweep && key_bits == 32 && !wide_values)
    return amp__sort_onesweep(view, keys, values, opts, fn);
  /* amp_sort_scatter's tile_static memory per thread: its 16 ranks (ushort with 64-bit keys and
   * values), its scan entry, and 4 keys and values; 2 x 16 words besides */
  const amp__algo_shape *shape = amp__algo_shape_of(view, AMP__SHAPE_SORT);
  int tile = shape->tile;
  AMP__TRY(amp__algo_tile(view, shape->tile, shape->least,
                          16 * (key_bits == 64 && wide_values ? 2 : 4) + 4 +
                              4 * (keys->type.size + (values ? values->type.size : 0)),
                          128, fn, fn, &tile));
  size_t len = strlen(opts);
  snprintf(opts + len, sizeof opts - len, " -DSORT_TILE=%d", tile);
  AMP__TRY(amp__algo_kernel_opts("sort", opts, "amp_sort_count", &kc));
  AMP__TRY(amp__algo_kernel_opts("sort", opts, "amp_sort_scatter", &ks));

  size_t n = (size_t)keys->extent.dim[0], keys_per_tile = 4 * (size_t)tile;
  size_t tiles = n / keys_per_tile + (n % keys_per_tile != 0);
  if (tiles * SORT_DIGITS > (size_t)INT32_MAX)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%s: %zu keys are too many", fn, n);
  AMP__TRY(amp__algo_sort_views_begin(&v, keys, values, fn));
  AMP__TRY(amp__array_view_create_empty(amp_extent1((int)(tiles * SORT_DIGITS)), AMP_UINT32, fn,
                                        &v.counts));
  for (int shift = 0; shift < key_bits; shift += SORT_BITS) {
    amp_arg c[] = {amp_arg_view(v.from), amp_arg_view(v.counts), amp_arg_int(shift)};
    AMP__TRY(amp__algo_launch1(view, kc, tiles, tile, c, AMP_NARGS(c)));
    AMP__TRY(amp_scan(view, v.counts, v.counts, AMP_SCAN_EXCLUSIVE));
    amp_arg rest[] = {amp_arg_view(v.counts), amp_arg_int(shift)};
    AMP__TRY(amp__algo_sort_pass(view, ks, tiles, tile, &v, rest, AMP_NARGS(rest)));
  }
fail:
  amp__algo_sort_views_end(&v); /* waits for the passes */
  amp_kernel_release(kc);
  amp_kernel_release(ks);
  return status;
}

amp_status amp_sort(amp_accelerator_view *view, amp_array_view *keys) {
  return sort(view, keys, NULL, "amp_sort");
}

amp_status amp_sort_by_key(amp_accelerator_view *view, amp_array_view *keys,
                           amp_array_view *values) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(values, AMP__MAGIC_ARRAY_VIEW, "array view", "amp_sort_by_key"));
  AMP__TRY(sort(view, keys, values, "amp_sort_by_key"));
fail:
  return status;
}
