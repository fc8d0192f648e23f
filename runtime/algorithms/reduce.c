/* runtime/algorithms/reduce.c: amp_reduce and amp_reduce_custom (kernels_cl/algorithms/reduce.cl).
 *
 * Two launches of amp_reduce_tiles: G tiles fold the view into G partials (a temporary view
 * that lives on the device only), then one tile folds those into a one-element view, which is
 * copied back into *result. The builtin operators are texts like a caller's, so both take the
 * same path.
 *
 * On a CPU device (props.is_emulated; algo_cpu.c) the same two launches use amp_reduce_cpu
 * (kernels_cl/algorithms/reduce_cpu.cl) instead: a few threads per core, each folding one long
 * contiguous run of the view with 16-vector loads, then one thread folding their partials. The
 * builtin operators also give it their vector form (AMP_REDUCE_VOP).
 *
 * With AMP_ALGO_FIXED_ORDER (amp_reduce_ex, or the environment variable) fixed_order.c instead,
 * the same operator text in front of kernels_cl/algorithms/fixed_order.cl. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/algo.h"

/* The shapes (algo_shapes.c): the GPU kernels' tile, its fallbacks down to 32 threads where the
 * device allows less (amp__algo_tile), and elements per thread; the CPU path's threads per compute
 * unit (a few, so a late core is shared) and the least elements per thread. */
/* CPU path: at most this many per thread: Mesa's llvmpipe (rusticl) ends a work-item's loops after
 * 65535 iterations, silently (a sum of 2^26 ones came out 67107872), and a thread of
 * amp_reduce_cpu takes 32 elements an iteration */
#define RED_CPU_MAX (32 * 60000)

/* The operator text and identity of a builtin reduction for element kind k. */
static void builtin_op(amp_reduce_op op, amp_elem_kind k, const char **src, const char **id,
                       const char **vop) {
  int fp = k == AMP_ELEM_FLOAT || k == AMP_ELEM_DOUBLE;
  switch (op) {
  case AMP_REDUCE_SUM:
    *src = "inline T amp_reduce_op(T a, T b) { return a + b; }";
    *vop = "((a) + (b))";
    *id = "0";
    break;
  case AMP_REDUCE_MIN:
    *src = fp ? "inline T amp_reduce_op(T a, T b) { return fmin(a, b); }"
              : "inline T amp_reduce_op(T a, T b) { return min(a, b); }";
    *vop = fp ? "fmin(a, b)" : "min(a, b)";
    *id = fp ? "INFINITY" : k == AMP_ELEM_INT32 ? "INT_MAX" : "UINT_MAX";
    break;
  default:
    *src = fp ? "inline T amp_reduce_op(T a, T b) { return fmax(a, b); }"
              : "inline T amp_reduce_op(T a, T b) { return max(a, b); }";
    *vop = fp ? "fmax(a, b)" : "max(a, b)";
    *id = fp ? "-INFINITY" : k == AMP_ELEM_INT32 ? "INT_MIN" : "0u";
    break;
  }
}

/* The CPU path: G threads over the view, then one over their G partials. */
static amp_status reduce_cpu(amp_accelerator_view *view, amp_array_view *src, const char *prefix,
                             void *result, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *k = NULL;
  amp_array_view *partial = NULL, *one = NULL;
  char opts[96];
  snprintf(opts, sizeof opts, "-DT=%s -DT16=%s16", amp__algo_type_name(src->type.kind, 0),
           amp__algo_type_name(src->type.kind, 0));
  AMP__TRY(amp__algo_kernel_prefix("reduce_cpu", prefix, opts, "amp_reduce_cpu", &k));
  size_t n = amp_extent_size(src->extent); /* < 2^31: a rank-1 extent */
  size_t chunk = amp__algo_cpu_chunk(view, AMP__SHAPE_REDUCE_CPU, n, RED_CPU_MAX, 32);
  if (chunk == 0)
    chunk = 32;
  size_t g = n / chunk + (n % chunk != 0);
  if (g == 0) /* no elements: one thread writes the identity */
    g = 1;
  AMP__TRY(amp__array_view_create_empty(amp_extent1((int)g), src->type, fn, &partial));
  AMP__TRY(amp__array_view_create_empty(amp_extent1(1), src->type, fn, &one));
  amp_arg first[] = {amp_arg_view(src), amp_arg_view(partial), amp_arg_int((int)chunk)};
  AMP__TRY(amp__algo_launch1(view, k, g, 1, first, AMP_NARGS(first)));
  amp_arg second[] = {amp_arg_view(partial), amp_arg_view(one), amp_arg_int((int)g)};
  AMP__TRY(amp__algo_launch1(view, k, 1, 1, second, AMP_NARGS(second)));
  AMP__TRY(amp_copy_from_view(one, result, src->type.size));
fail:
  amp_array_view_release(partial);
  amp_array_view_release(one);
  amp_kernel_release(k);
  return status;
}

static amp_status reduce(amp_accelerator_view *view, amp_array_view *src, const char *op_src,
                         const char *identity, const char *vop, unsigned flags, void *result,
                         const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *k = NULL;
  amp_array_view *partial = NULL, *one = NULL;
  char *prefix = NULL;
  AMP__TRY(amp__algo_check_view(view, src, 1, 0, 0, "src", fn));
  if (!result)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: result is NULL", fn);
  size_t a = strlen(op_src), b = strlen(identity);
  static const char mid[] = "\n#define AMP_REDUCE_IDENTITY (";
  static const char vmid[] = "#define AMP_REDUCE_VOP(a, b) ";
  size_t c = vop ? strlen(vop) + sizeof vmid + 1 : 0; /* a builtin's: short */
  if (a > SIZE_MAX / 2 || b > SIZE_MAX / 2 - sizeof mid - 4 - c - a ||
      !(prefix = malloc(a + b + c + sizeof mid + 4)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "%s: out of memory for the operator text", fn);
  snprintf(prefix, a + b + c + sizeof mid + 4, "%s%s%s)\n%s%s%s", op_src, mid, identity,
           vop ? vmid : "", vop ? vop : "", vop ? "\n" : "");
  int fixed = 0, cpu = 0;
  AMP__TRY(amp__algo_fixed_wanted(flags, &fixed, fn));
  if (fixed) {
    status = amp__reduce_fixed(view, src, prefix, result, fn);
    goto fail; /* frees the operator text */
  }
  AMP__TRY(amp__algo_cpu_kernels(view, &cpu, fn));
  if (cpu) {
    status = reduce_cpu(view, src, prefix, result, fn);
    goto fail; /* frees the operator text */
  }
  const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_REDUCE);
  int tile = s->tile;
  AMP__TRY(amp__algo_tile(view, s->tile, s->least, src->type.size, 0, fn, fn, &tile));
  char opts[80];
  snprintf(opts, sizeof opts, "-DT=%s -DT4=%s -DRED_TILE=%d",
           amp__algo_type_name(src->type.kind, 0), amp__algo_type_name(src->type.kind, 1), tile);
  AMP__TRY(amp__algo_kernel_prefix("reduce", prefix, opts, "amp_reduce_tiles", &k));

  size_t n = amp_extent_size(src->extent);
  size_t tiles = amp__algo_tiles(view, n, (size_t)tile * (size_t)s->per, (size_t)s->most);
  AMP__TRY(amp__array_view_create_empty(amp_extent1((int)tiles), src->type, fn, &partial));
  AMP__TRY(amp__array_view_create_empty(amp_extent1(1), src->type, fn, &one));
  amp_arg first[] = {amp_arg_view(src), amp_arg_view(partial)};
  AMP__TRY(amp__algo_launch1(view, k, tiles, tile, first, AMP_NARGS(first)));
  amp_arg second[] = {amp_arg_view(partial), amp_arg_view(one)};
  AMP__TRY(amp__algo_launch1(view, k, 1, tile, second, AMP_NARGS(second)));
  AMP__TRY(amp_copy_from_view(one, result, src->type.size));
fail:
  amp_array_view_release(partial);
  amp_array_view_release(one);
  amp_kernel_release(k);
  free(prefix);
  return status;
}

amp_status amp_reduce(amp_accelerator_view *view, amp_array_view *src, amp_reduce_op op,
                      void *result) {
  return amp_reduce_ex(view, src, op, 0, result);
}

amp_status amp_reduce_ex(amp_accelerator_view *view, amp_array_view *src, amp_reduce_op op,
                         unsigned flags, void *result) {
  amp_status status = AMP_SUCCESS;
  const char *fn = flags ? "amp_reduce_ex" : "amp_reduce", *op_src, *id, *vop;
  if (op != AMP_REDUCE_SUM && op != AMP_REDUCE_MIN && op != AMP_REDUCE_MAX)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: op is %d, which is not AMP_REDUCE_SUM, AMP_REDUCE_MIN or AMP_REDUCE_MAX", fn,
              (int)op);
  AMP__TRY(amp__algo_check_view(view, src, 1, 0, 0, "src", fn));
  builtin_op(op, src->type.kind, &op_src, &id, &vop);
  AMP__TRY(reduce(view, src, op_src, id, vop, flags, result, fn));
fail:
  return status;
}

amp_status amp_reduce_custom(amp_accelerator_view *view, amp_array_view *src, const char *op_source,
                             const char *identity, void *result) {
  amp_status status = AMP_SUCCESS;
  const char *fn = "amp_reduce_custom";
  if (!op_source || !identity)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
              op_source ? "identity" : "op_source");
  AMP__TRY(reduce(view, src, op_source, identity, NULL, 0, result, fn));
fail:
  return status;
}
