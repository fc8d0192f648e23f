/* runtime/algorithms/reduce_by_key.c: amp_reduce_by_key, the segmented reduction
 * (kernels_cl/algorithms/reduce_by_key.cl): the segments' heads, an inclusive amp_scan of them
 * into segment numbers, the number of segments read back and checked against the outputs' room,
 * then each segment's key and identity, then the values combined a run of RBK_PER at a time with
 * one atomic per run and segment. Nothing the caller passed is written before the room is known
 * to suffice. */
#include <stdio.h>

#include "algorithms/algo.h"

/* The operator's identity for values of kind k, as OpenCL C text. */
static const char *identity(amp_reduce_op op, amp_elem_kind k) {
  if (op == AMP_REDUCE_SUM)
    return "0";
  if (k == AMP_ELEM_FLOAT)
    return op == AMP_REDUCE_MIN ? "INFINITY" : "-INFINITY";
  if (k == AMP_ELEM_INT32)
    return op == AMP_REDUCE_MIN ? "INT_MAX" : "INT_MIN";
  return op == AMP_REDUCE_MIN ? "UINT_MAX" : "0u";
}

/* The argument checks, in the order the header gives them. */
static amp_status check_args(amp_accelerator_view *view, amp_array_view *keys,
                             amp_array_view *values, amp_reduce_op op, amp_array_view *out_keys,
                             amp_array_view *out_values, size_t *count, const char *fn) {
  amp_status status = AMP_SUCCESS;
  if (op != AMP_REDUCE_SUM && op != AMP_REDUCE_MIN && op != AMP_REDUCE_MAX)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: op is %d, which is not AMP_REDUCE_SUM, AMP_REDUCE_MIN or AMP_REDUCE_MAX", fn,
              (int)op);
  if (!count)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: count is NULL", fn);
  AMP__TRY(amp__algo_check_indexed(view, keys, "keys", values, "values",
                                   "the segments combine with 32-bit atomics", fn));
  AMP__TRY(amp__algo_check_view(view, out_keys, 1, AMP__ALGO_INT32, 1, "out_keys", fn));
  AMP__TRY(amp__algo_check_view(view, out_values, 1, AMP__ALGO_NUMBERS, 1, "out_values", fn));
  if (out_keys->type.kind != keys->type.kind || out_values->type.kind != values->type.kind)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: out_keys and out_values must have the element types of keys and values", fn);
fail:
  return status;
}

/* *segments = the number of runs of equal keys; seg (n uints) their numbers from 1. */
static amp_status number_segments(amp_accelerator_view *view, amp_array_view *keys,
                                  amp_array_view *seg, const char *opts, size_t *segments) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *kh = NULL;
  int n = keys->extent.dim[0];
  AMP__TRY(amp__algo_kernel_opts("reduce_by_key", opts, "amp_rbk_heads", &kh));
  amp_arg a[] = {amp_arg_view(keys), amp_arg_view(seg)};
  AMP__TRY(amp_parallel_for_each(view, amp_extent1(n), kh, a, AMP_NARGS(a)));
  AMP__TRY(amp_scan(view, seg, seg, AMP_SCAN_INCLUSIVE));
  cl_uint last = 0;
  AMP__TRY(amp_array_view_get(seg, amp_index1(n - 1), &last));
  *segments = last;
fail:
  amp_kernel_release(kh);
  return status;
}

amp_status amp_reduce_by_key(amp_accelerator_view *view, amp_array_view *keys,
                             amp_array_view *values, amp_reduce_op op, amp_array_view *out_keys,
                             amp_array_view *out_values, size_t *count) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_reduce_by_key";
  amp_kernel *kk = NULL, *kv = NULL;
  amp_array_view *seg = NULL;
  AMP__TRY(check_args(view, keys, values, op, out_keys, out_values, count, fn));
  *count = 0;
  int n = keys->extent.dim[0];
  /* the tuned tile (smaller where the device allows less) and the elements a thread walks */
  const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_REDUCE_BY_KEY);
  int tile = s->tile, per = s->per;
  AMP__TRY(amp__algo_tile(view, s->tile, s->least, 0, 0, fn, fn, &tile));
  amp_elem_kind vk = values->type.kind;
  char opts[160];
  snprintf(opts, sizeof opts, "-DK=%s -DT=%s -DRBK_OP=%d -DRBK_ID=%s -DRBK_PER=%d%s",
           amp__algo_type_name(keys->type.kind, 0), amp__algo_type_name(vk, 0), (int)op,
           identity(op, vk), per, vk == AMP_ELEM_FLOAT ? " -DRBK_FLOAT=1" : "");
  AMP__TRY(amp__array_view_create_empty(amp_extent1(n), AMP_UINT32, fn, &seg));
  size_t segments = 0;
  AMP__TRY(number_segments(view, keys, seg, opts, &segments));
  if (segments > (size_t)out_keys->extent.dim[0] || segments > (size_t)out_values->extent.dim[0])
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH,
              "%s: keys has %zu runs of equal keys, but out_keys holds %d and out_values %d "
              "elements; nothing was written",
              fn, segments, out_keys->extent.dim[0], out_values->extent.dim[0]);
  AMP__TRY(amp__algo_kernel_opts("reduce_by_key", opts, "amp_rbk_keys", &kk));
  AMP__TRY(amp__algo_kernel_opts("reduce_by_key", opts, "amp_rbk_values", &kv));
  amp_arg ak[] = {amp_arg_view(keys), amp_arg_view(seg), amp_arg_view(out_keys),
                  amp_arg_view(out_values)};
  AMP__TRY(amp_parallel_for_each(view, amp_extent1(n), kk, ak, AMP_NARGS(ak)));
  size_t threads = (size_t)n / (size_t)per + ((size_t)n % per != 0);
  size_t tiles = threads / (size_t)tile + (threads % (size_t)tile != 0);
  amp_arg av[] = {amp_arg_view(values), amp_arg_view(seg), amp_arg_view(out_values)};
  AMP__TRY(amp__algo_launch1(view, kv, tiles, tile, av, AMP_NARGS(av)));
  AMP__TRY(amp_array_view_wait(out_values));
  *count = segments;
fail:
  amp_array_view_release(seg);
  amp_kernel_release(kk);
  amp_kernel_release(kv);
  return status;
}
