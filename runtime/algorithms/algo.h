/* runtime/algorithms/algo.h: what the algorithm files (algo_*.c) share: checking their views,
 * building their builtin kernels per element type, and launching them through parallel_for_each, so
 * they join the data model exactly as the caller's own kernels do. */
#ifndef AMPCL_RUNTIME_ALGO_H
#define AMPCL_RUNTIME_ALGO_H

#include "algorithms/algo_shapes.h"
#include "ampcl/algorithms.h"
#include "ampcl/array.h"
#include "ampcl/kernel.h"
#include "core/knobs.h"
#include "data/source.h"

/* The OpenCL C name of a view's element type and of its 4-vector ("float", "float4", "ulong"),
 * or NULL for a struct type. */
const char *amp__algo_type_name(amp_elem_kind kind, int vec4);

/* A knob that takes one of two values, a or b: *out = a_means or b_means where it is set to one of
 * them, left as it is where the knob is unset or empty; any other value fails with
 * AMP_ERROR_INVALID_ARGUMENT, "fn: NAME=VALUE: expected a or b". */
amp_status amp__algo_knob_either(amp__knob knob, const char *a, int a_means, const char *b,
                                 int b_means, int *out, const char *fn);

/* The element types amp__algo_check_view accepts. */
enum {
  AMP__ALGO_NUMBERS = 0,   /* int, uint, float, double */
  AMP__ALGO_INT32 = 1,     /* int and uint */
  AMP__ALGO_WITH_INT64 = 2 /* the numbers and long, ulong */
};

/* Checks that v is a live view of rank `rank` whose element type is one that `kinds` names;
 * `name` names it in messages. With `write`, the view must be read-write. Also checks fp64 support
 * on the view's device for double. */
amp_status amp__algo_check_view(amp_accelerator_view *view, const amp_array_view *v, int rank,
                                int kinds, int write, const char *name, const char *fn);

/* The checks of an index view and the 32-bit values that go with it (amp_histogram_weighted's src
 * and weights, amp_reduce_by_key's keys and values): both live rank-1 views, the index int or uint,
 * the values int, uint or float (double is refused: they combine with 32-bit atomics, `why`),
 * of equal extents. */
amp_status amp__algo_check_indexed(amp_accelerator_view *view, const amp_array_view *index,
                                   const char *index_name, const amp_array_view *values,
                                   const char *values_name, const char *why, const char *fn);

/* The kernel `kname` of the builtin kernel file `file` (kernels_cl/<file>.cl) built for element
 * type `kind` (-DT=... -DT4=...). With `prefix` != NULL, the program is prefix + the file's text
 * instead (the user's operator of amp_reduce_custom), built from source. The caller releases it. */
amp_status amp__algo_kernel(const char *file, const char *prefix, amp_elem_kind kind,
                            const char *kname, amp_kernel **out);

/* The same with the build options given whole and, with `prefix` != NULL, the caller's text in
 * front of the file's (amp_copy_if's predicate). */
amp_status amp__algo_kernel_prefix(const char *file, const char *prefix, const char *options,
                                   const char *kname, amp_kernel **out);

/* The same with the build options given whole (e.g. "-DK=uint -DHAS_VALUES=0"). */
amp_status amp__algo_kernel_opts(const char *file, const char *options, const char *kname,
                                 amp_kernel **out);

/* A 1-D tiled launch of `tiles` tiles of `tile` threads. */
amp_status amp__algo_launch1(amp_accelerator_view *view, amp_kernel *k, size_t tiles, int tile,
                             const amp_arg *args, size_t nargs);

/* How many tiles of 256 threads a grid-stride kernel over n elements should use on the view's
 * device: enough to fill it several times over, never more than needed, at most `cap`. */
size_t amp__algo_tiles(const amp_accelerator_view *view, size_t n, size_t per_tile, size_t cap);

/* The threads per tile an algorithm's kernels are built for and launched with on this view
 * (*tile): `tuned` (the tuned shape), or else the largest power of two below it down to `least`,
 * that
 *   - the device allows (props.max_tile_size),
 *   - is at most AMP_ALGO_TILE where that is set (32 .. 1024, a power of two: the algorithms'
 *     smaller shapes forced on any device, for tests), and
 *   - whose tile_static memory, local_per_thread * tile + local_fixed bytes, fits the device's
 *     props.local_memory.
 * None fitting is AMP_ERROR_LIMIT_EXCEEDED naming the limit. In debug mode a shape below the
 * tuned one is said on stderr with why; `what` names the kernels in that line (e.g. "amp_scan's
 * single pass"). The shapes and their fallbacks: docs/ALGORITHMS.md, "Tile shapes". */
#define AMP__ALGO_LEAST_TILE 32
/* Whether a tile of `least` threads of that tile_static memory fits the view's device at all, and
 * AMP_ALGO_TILE (for choosing another path before amp__algo_tile would fail). */
int amp__algo_tile_fits(const amp_accelerator_view *view, int least, size_t local_per_thread,
                        size_t local_fixed);
amp_status amp__algo_tile(const amp_accelerator_view *view, int tuned, int least,
                          size_t local_per_thread, size_t local_fixed, const char *what,
                          const char *fn, int *tile);

/* Whether a kernel that includes ampcl_warp.h takes its warp path on this view (*on), and the build
 * option that makes the kernel agree (*opts): the warp functions are native on NVIDIA GPUs of
 * compute capability AMP__ALGO_WARP_CC and later (ampcl_warp.h tests the same number) and emulated
 * on any device with AMP_WARP_EMULATE=1 (for tests); the knob `knob` (e.g.
 * AMP_ONESWEEP_WARP) set to 0 keeps the portable path (for measuring). *opts is
 * " -DAMPCL_WARP_EMULATE=1", "" or " -DAMPCL_WARP_OFF". A value of either variable other than 0
 * or 1 is an error naming it. */
#define AMP__ALGO_WARP_CC 70
amp_status amp__algo_warp_path(const amp_accelerator_view *view, amp__knob knob, int *on,
                               const char **opts, const char *fn);

/* algo_cpu.c: *out = whether reduce, scan and transpose take their CPU-device kernels on this
 * view: on a CPU device unless AMP_ALGO_CPU_KERNELS=0 (a bad value is an error naming it). */
amp_status amp__algo_cpu_kernels(const amp_accelerator_view *view, int *out, const char *fn);

/* algo_cpu.c: the elements per thread of a CPU kernel's pass over n elements with the shape of
 * `path` (algo_shapes.c): the shape's per_cu threads per compute unit (at most its `most`), each
 * at least its `per` elements and at most `most_per`, rounded up to whole steps of `step`; 0 for
 * no elements. */
size_t amp__algo_cpu_chunk(const amp_accelerator_view *view, amp__algo_path path, size_t n,
                           size_t most_per, size_t step);

/* histogram.c: the counting amp_histogram and amp_histogram_weighted share: the bins zeroed by
 * kernel `zero`, then kernel `count` over `tiles` tiles of `tile` threads with args (the caller
 * leaves out the __local copy of the bins where they do not fit tile_static memory); returns once
 * the bins are counted. Both kernels are of the builtin file `file`, built with opts. */
amp_status amp__algo_histogram_count(amp_accelerator_view *view, const char *file, const char *opts,
                                     const char *zero, const char *count, amp_array_view *bins,
                                     size_t tiles, int tile, const amp_arg *args, size_t nargs);

/* The views of a radix sort's passes: the caller's keys and values (NULL: none), temporaries of
 * their shapes (each pass reads one pair and writes the other), and the digit counts the passes
 * share (the caller makes those: their size is the sort's). */
typedef struct amp__algo_sort_views {
  amp_array_view *from, *to, *vfrom, *vto; /* what the next pass reads and writes */
  amp_array_view *tk, *tv;                 /* the temporaries */
  amp_array_view *counts;                  /* the digit counts (onesweep: and look-back state) */
} amp__algo_sort_views;

/* *v (zeroed by the caller, for amp__algo_sort_views_end after a failure) with its temporaries
 * made, the first pass reading keys and values. */
amp_status amp__algo_sort_views_begin(amp__algo_sort_views *v, amp_array_view *keys,
                                      amp_array_view *values, const char *fn);
/* Releases the temporaries and the counts; the releases wait for the passes that use them. */
void amp__algo_sort_views_end(amp__algo_sort_views *v);

/* One pass of a radix sort: kernel k over `tiles` tiles of `tile` threads, its arguments the keys
 * it reads and writes, the values too where there are values, then `rest` (at most
 * AMP__ALGO_SORT_REST); then the views swap, so that the next pass reads what this one wrote. */
#define AMP__ALGO_SORT_REST 4
amp_status amp__algo_sort_pass(amp_accelerator_view *view, amp_kernel *k, size_t tiles, int tile,
                               amp__algo_sort_views *v, const amp_arg *rest, size_t nrest);

/* onesweep.c: whether amp_sort takes the one-pass-per-digit sort for n keys on this view
 * (AMP_SORT_ONESWEEP, the device type, n < 2^30, its
 * tile_static memory with values of vs bytes), and that sort, with sort.c's build options. */
amp_status amp__sort_onesweep_wanted(const amp_accelerator_view *view, size_t n, size_t vs,
                                     int *out, const char *fn);
amp_status amp__sort_onesweep(amp_accelerator_view *view, amp_array_view *keys,
                              amp_array_view *values, const char *opts, const char *fn);

/* fixed_order.c: *out = whether a reduce or scan takes the fixed order (the caller's `flags`,
 * checked here, or AMP_ALGO_FIXED_ORDER=1 in the environment; a bad value is an error naming it),
 * and the reduce (with the operator text `prefix`, as reduce.c builds it) and the scan in that
 * order (kernels_cl/algorithms/fixed_order.cl). */
amp_status amp__algo_fixed_wanted(unsigned flags, int *out, const char *fn);
amp_status amp__reduce_fixed(amp_accelerator_view *view, amp_array_view *src, const char *prefix,
                             void *result, const char *fn);
amp_status amp__scan_fixed(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                           amp_scan_kind kind, const char *fn);

#endif /* AMPCL_RUNTIME_ALGO_H */
