/* runtime/algorithms/fixed_order.c: amp_reduce and amp_scan in a fixed order of combining
 * (kernels_cl/algorithms/fixed_order.cl, which defines the order), taken with
 * AMP_ALGO_FIXED_ORDER (amp_reduce_ex, amp_scan_ex) or AMP_ALGO_FIXED_ORDER=1 in the environment.
 *
 * A reduce is one launch per level of the chunk tree: n elements to ceil(n / 1024) chunk values,
 * those to ceil(n / 2^20), ..., down to one (three levels for n up to 2^30), each into a temporary
 * view on the device. A scan is the chunk values of its input (the reduce's first level with a
 * sum), their exclusive scan by the same function (a view of the values, recursively: at most
 * three levels), and one launch that scans every chunk from its carry. On GPUs one tile of up to
 * 256 threads (amp__algo_tile) takes each chunk; on CPU devices (algo_cpu.c) a few threads per
 * core each walk a run of chunks in 16-vectors, with no barrier. The order is the same on both,
 * which the tests check bit for bit against a host computation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/algo.h"
#include "core/knobs.h"

#define FIX_CHUNK 1024
/* threads per chunk on GPUs (or fewer where the device allows less), and on CPU devices threads
 * per compute unit and per tile: the table's (algo_shapes.c); and at most this many chunks per
 * thread: Mesa's llvmpipe (rusticl) ends a work-item's loops after 65535 iterations in all,
 * silently (a loop to 100000 counted 65535, and the loops after it ran once), and a chunk costs a
 * thread about 100 iterations of the reduce's vector tree, 800 of its scalar tree (a caller's
 * operator) and 250 of the scan */
#define FIX_CPU_PER_VEC    512
#define FIX_CPU_PER_SCALAR 64
#define FIX_CPU_PER_SCAN   128

amp_status amp__algo_fixed_wanted(unsigned flags, int *out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  int env = 0;
  *out = 0;
  if (flags & ~(unsigned)AMP_ALGO_FIXED_ORDER)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: flags is 0x%x; the only flag is AMP_ALGO_FIXED_ORDER (0x%x)", fn, flags,
              (unsigned)AMP_ALGO_FIXED_ORDER);
  AMP__TRY(amp__knob_int(AMP_KNOB_ALGO_FIXED_ORDER, 0, &env, fn));
  *out = env || (flags & AMP_ALGO_FIXED_ORDER);
fail:
  return status;
}

/* The shape of a launch over `chunks` chunks: *w threads per chunk (the kernels' FIX_W: 1 on CPU
 * devices), *per chunks per tile (GPUs) or thread (CPU devices), and *tiles tiles of *lt threads.
 * On a CPU device the threads go 16 to a tile, since POCL pays a few microseconds per tile. */
static amp_status shape(amp_accelerator_view *view, size_t chunks, size_t elem, int cpu,
                        int max_per, int *w, int *lt, int *per, size_t *tiles, const char *fn) {
  amp_status status = AMP_SUCCESS;
  *w = 1;
  *per = 1;
  if (cpu) {
    const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_FIXED_CPU);
    size_t cu = view->acc->props.compute_units ? view->acc->props.compute_units : 1;
    size_t threads = cu * (size_t)s->per_cu;
    size_t per_thread = chunks / threads + (chunks % threads != 0);
    *per = (int)(per_thread < (size_t)max_per ? per_thread : (size_t)max_per);
    threads = chunks / (size_t)*per + (chunks % (size_t)*per != 0);
    *lt = threads < (size_t)s->tile ? (int)threads : s->tile;
    *tiles = threads / (size_t)*lt + (threads % (size_t)*lt != 0);
  } else {
    const amp__algo_shape *s = amp__algo_shape_of(view, AMP__SHAPE_FIXED);
    AMP__TRY(
        amp__algo_tile(view, s->tile, s->least, 0, 2 * 256 * elem, "AMP_ALGO_FIXED_ORDER", fn, w));
    *lt = *w;
    *tiles = chunks;
  }
fail:
  return status;
}

/* dst (ceil(n / 1024) elements) = the chunk values of src, each by the fixed tree. */
static amp_status chunk_values(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                               const char *prefix, int cpu, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *k = NULL;
  size_t chunks = (size_t)dst->extent.dim[0], tiles = 0;
  int w = 1, lt = 1, per = 1;
  int vec = !prefix || strstr(prefix, "AMP_REDUCE_VOP"); /* a builtin operator */
  char opts[96];
  AMP__TRY(shape(view, chunks, src->type.size, cpu, vec ? FIX_CPU_PER_VEC : FIX_CPU_PER_SCALAR, &w,
                 &lt, &per, &tiles, fn));
  snprintf(opts, sizeof opts, "-DT=%s -DFIX_U=%s -DFIX_W=%d",
           amp__algo_type_name(src->type.kind, 0),
           src->type.kind == AMP_ELEM_DOUBLE ? "ulong" : "uint", w);
  AMP__TRY(amp__algo_kernel_prefix("fixed_order", prefix, opts,
                                   cpu ? "amp_reduce_fixed_cpu" : "amp_reduce_fixed", &k));
  amp_arg args[] = {amp_arg_view(src), amp_arg_view(dst), amp_arg_int(per)};
  AMP__TRY(amp__algo_launch1(view, k, tiles, lt, args, AMP_NARGS(args)));
fail:
  amp_kernel_release(k);
  return status;
}

static amp_status temp(size_t n, amp_elem_type type, const char *fn, amp_array_view **out) {
  return amp__array_view_create_empty(amp_extent1((int)n), type, fn, out);
}

amp_status amp__reduce_fixed(amp_accelerator_view *view, amp_array_view *src, const char *prefix,
                             void *result, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *cur = src, *next = NULL;
  int cpu = 0;
  AMP__TRY(amp__algo_cpu_kernels(view, &cpu, fn));
  size_t n = amp_extent_size(src->extent);
  do {
    size_t chunks = n / FIX_CHUNK + (n % FIX_CHUNK != 0);
    if (chunks == 0)
      chunks = 1; /* no elements: one chunk of the identity */
    AMP__TRY(temp(chunks, src->type, fn, &next));
    AMP__TRY(chunk_values(view, cur, next, prefix, cpu, fn));
    if (cur != src)
      amp_array_view_release(cur);
    cur = next;
    next = NULL;
    n = chunks;
  } while (n > 1);
  AMP__TRY(amp_copy_from_view(cur, result, src->type.size));
fail:
  if (cur != src)
    amp_array_view_release(cur);
  amp_array_view_release(next);
  return status;
}

/* The fixed-order scan of src into dst; `carries` != NULL: the view's chunks start from them. */
static amp_status scan_chunks(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                              amp_array_view *carries, int inclusive, int cpu, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_kernel *k = NULL;
  size_t n = (size_t)src->extent.dim[0], chunks = n / FIX_CHUNK + (n % FIX_CHUNK != 0), tiles = 0;
  int w = 1, lt = 1, per = 1;
  char opts[96];
  AMP__TRY(shape(view, chunks, src->type.size, cpu, FIX_CPU_PER_SCAN, &w, &lt, &per, &tiles, fn));
  snprintf(opts, sizeof opts, "-DT=%s -DFIX_U=%s -DFIX_W=%d",
           amp__algo_type_name(src->type.kind, 0),
           src->type.kind == AMP_ELEM_DOUBLE ? "ulong" : "uint", w);
  AMP__TRY(amp__algo_kernel_opts("fixed_order", opts, cpu ? "amp_scan_fixed_cpu" : "amp_scan_fixed",
                                 &k));
  amp_arg args[] = {
      amp_arg_view(src), amp_arg_view(dst),      amp_arg_view(carries ? carries : src),
      amp_arg_int(per),  amp_arg_int(inclusive), amp_arg_int(carries != NULL)};
  AMP__TRY(amp__algo_launch1(view, k, tiles, lt, args, AMP_NARGS(args)));
fail:
  amp_kernel_release(k);
  return status;
}

static amp_status scan_fixed(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                             int inclusive, int cpu, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *sums = NULL, *carries = NULL;
  size_t n = (size_t)src->extent.dim[0], chunks = n / FIX_CHUNK + (n % FIX_CHUNK != 0);
  if (chunks > 1) {
    AMP__TRY(temp(chunks, src->type, fn, &sums));
    AMP__TRY(temp(chunks, src->type, fn, &carries));
    AMP__TRY(chunk_values(view, src, sums, NULL, cpu, fn));
    AMP__TRY(scan_fixed(view, sums, carries, 0, cpu, fn));
  }
  AMP__TRY(scan_chunks(view, src, dst, carries, inclusive, cpu, fn));
fail:
  amp_array_view_release(sums);
  amp_array_view_release(carries);
  return status;
}

amp_status amp__scan_fixed(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                           amp_scan_kind kind, const char *fn) {
  amp_status status = AMP_SUCCESS;
  int cpu = 0;
  if (src->extent.dim[0] == 0) /* nothing to scan */
    return AMP_SUCCESS;
  AMP__TRY(amp__algo_cpu_kernels(view, &cpu, fn));
  AMP__TRY(scan_fixed(view, src, dst, kind == AMP_SCAN_INCLUSIVE, cpu, fn));
fail:
  return status;
}
