/* ampcl/algorithms.h: parallel algorithms on array views: reduce, scan (prefix sums), transpose,
 * histogram, radix sort, stream compaction (copy_if, unique) and a 2-D stencil (Gaussian blur),
 * each a few builtin kernels (kernels_cl/algorithms/reduce.cl, scan.cl, transpose.cl, histogram.cl,
 * sort.cl, stencil.cl) launched like the caller's own.
 *
 * Every call is a command on views like a kernel launch: inputs are copied in lazily where they
 * are not already valid on the accelerator view's device, and outputs count as written there
 * afterwards (read them with amp_array_view_synchronize, amp_array_view_data, or use them in the
 * next kernel with no copy). Inputs and outputs keep their own AMP rules: an output must be
 * read-write (AMP_ERROR_ACCESS_DENIED), element types must match (AMP_ERROR_INVALID_ARGUMENT),
 * extents must fit (AMP_ERROR_EXTENT_MISMATCH), double needs an fp64 device
 * (AMP_ERROR_UNSUPPORTED_FEATURE). A failed call leaves every view's contents as they were.
 *
 * Element types: AMP_INT32, AMP_UINT32, AMP_FLOAT, AMP_DOUBLE, except where a call says less
 * (histogram: int and uint; stencil: float), or more (sort: also uint64, int64; AMP_INT64 and
 * AMP_UINT64 views are refused by the other calls). Views may be sections
 * (rank-1 views are contiguous; rank-2 rows may have any stride). Every call returns when its work
 * is done (its temporaries are freed then), except amp_transpose_view and amp_stencil_2d, which
 * return once enqueued. NULL or released handles give AMP_ERROR_INVALID_HANDLE. Full description,
 * tile shapes and performance: docs/ALGORITHMS.md. */
#ifndef AMPCL_ALGORITHMS_H
#define AMPCL_ALGORITHMS_H

#include "accelerator.h"
#include "array_view.h"
#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum amp_reduce_op {
  AMP_REDUCE_SUM = 0,
  AMP_REDUCE_MIN = 1,
  AMP_REDUCE_MAX = 2
} amp_reduce_op;

/* *result (an int32_t, uint32_t, float or double, as the view's element type; must not be NULL)
 * = the sum, minimum or maximum of the rank-1 view's elements, computed on the accelerator view's
 * device (two kernel launches; the result is read back, so the call blocks). Integer sums wrap
 * around; float and double sums are added in a tree order, not left to right, that depends on the
 * device (the same on every run there; amp_reduce_ex's AMP_ALGO_FIXED_ORDER fixes it for every
 * device). On failure *result is unchanged. */
AMP_API amp_status amp_reduce(amp_accelerator_view *view, amp_array_view *src, amp_reduce_op op,
                              void *result);

/* Flags of amp_reduce_ex and amp_scan_ex. AMP_ALGO_FIXED_ORDER: combine the elements in one fixed
 * order, the same whatever the device, its tile shapes and thread count, so that a float or double
 * result has the same bits on every device (and on every run; the default order gives that too,
 * on one device). The order (chunks of 1024 elements, a fixed tree in each, the chunks' values
 * reduced the same way) is written out in docs/ALGORITHMS.md, "The same bits on every device", for
 * a host to reproduce; its cost there too. AMP_ALGO_FIXED_ORDER=1 in the environment makes
 * amp_reduce, amp_reduce_custom and amp_scan take it as well. */
typedef enum amp_algo_flag { AMP_ALGO_FIXED_ORDER = 1 } amp_algo_flag;

/* amp_reduce with flags (0 or AMP_ALGO_FIXED_ORDER; other bits are AMP_ERROR_INVALID_ARGUMENT). */
AMP_API amp_status amp_reduce_ex(amp_accelerator_view *view, amp_array_view *src, amp_reduce_op op,
                                 unsigned flags, void *result);

/* The same with the caller's operator: `op_source` is OpenCL C text defining
 *     T amp_reduce_op(T a, T b)
 * where T is the element type's OpenCL name (int, uint, float, double; T is a macro), e.g.
 * "T amp_reduce_op(T a, T b) { return a * b; }". `identity` is an OpenCL C expression for its
 * identity element (op(identity, x) == x), e.g. "1". The operator must be associative and
 * commutative: elements are combined in no fixed order. The program is built (and cached) at the
 * first call with a given text; a build error gives AMP_ERROR_BUILD_FAILED with the compiler's log
 * in amp_last_error(), line numbers counting op_source's lines from 1. */
AMP_API amp_status amp_reduce_custom(amp_accelerator_view *view, amp_array_view *src,
                                     const char *op_source, const char *identity, void *result);

typedef enum amp_scan_kind { AMP_SCAN_EXCLUSIVE = 0, AMP_SCAN_INCLUSIVE = 1 } amp_scan_kind;

/* Prefix sums of the rank-1 view src into dst (rank 1, the same extent and element type; may be
 * src itself or a view of the same data: in place). Inclusive: dst[i] = src[0] + ... + src[i];
 * exclusive: dst[i] = src[0] + ... + src[i-1], dst[0] = 0. Integer sums wrap around. Whatever of
 * dst is not yet valid on the device is copied in first, like any written view (call
 * amp_array_view_discard_data(dst) before to skip that). */
AMP_API amp_status amp_scan(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                            amp_scan_kind kind);

/* amp_scan with flags (0 or AMP_ALGO_FIXED_ORDER, for float and double sums with the same bits on
 * every device; other bits are AMP_ERROR_INVALID_ARGUMENT). */
AMP_API amp_status amp_scan_ex(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                               amp_scan_kind kind, unsigned flags);

/* dst(j, i) = src(i, j): src is a rank-2 view of R x C, dst a rank-2 view of C x R of the same
 * element type, on other data than src (AMP_ERROR_INVALID_ARGUMENT if they share a source).
 * Asynchronous like a kernel launch: returns once enqueued. */
AMP_API amp_status amp_transpose_view(amp_accelerator_view *view, amp_array_view *src,
                                      amp_array_view *dst);

/* bins[v] = the number of elements of the rank-1 view src (AMP_INT32 or AMP_UINT32) equal to v,
 * for 0 <= v < B, where bins is a rank-1 AMP_UINT32 view of B elements; values outside [0, B)
 * are not counted. bins is overwritten (not added to). */
AMP_API amp_status amp_histogram(amp_accelerator_view *view, amp_array_view *src,
                                 amp_array_view *bins);

/* The weighted histogram: bins[v] = the sum of weights[i] over the elements i of src (rank 1,
 * AMP_INT32 or AMP_UINT32) equal to v, for 0 <= v < B, where bins is a rank-1 view of B elements
 * of the weights' type; values outside [0, B) add nothing. weights: rank 1, src's extent,
 * AMP_INT32, AMP_UINT32 or AMP_FLOAT (not AMP_DOUBLE: the bins add with 32-bit atomics). bins is
 * overwritten. Float sums are added in an order that varies between runs, so their last bits may
 * too; integer sums wrap around and are exact. k-means' new centres are this with the points'
 * cluster numbers as src and a coordinate as the weights (docs/ALGORITHMS.md). */
AMP_API amp_status amp_histogram_weighted(amp_accelerator_view *view, amp_array_view *src,
                                          amp_array_view *weights, amp_array_view *bins);

/* The segmented reduction: each run of equal consecutive keys (rank 1, AMP_INT32 or AMP_UINT32) is
 * one segment, and out_keys[s], out_values[s] are segment s's key and the sum, minimum or maximum
 * (op) of its values (rank 1, keys' extent, AMP_INT32, AMP_UINT32 or AMP_FLOAT), for s <
 * *count, the number of segments. out_keys and out_values have the element types of keys and
 * values and at least *count elements (AMP_ERROR_EXTENT_MISMATCH naming both counts, with nothing
 * written, when not); their elements from *count on are left as they were. Keys need not be
 * sorted: equal keys apart are separate segments (sort by key first, amp_sort_by_key, to reduce
 * each key once). Float values combine in an order that varies between runs. Temporaries: n
 * uints. */
AMP_API amp_status amp_reduce_by_key(amp_accelerator_view *view, amp_array_view *keys,
                                     amp_array_view *values, amp_reduce_op op,
                                     amp_array_view *out_keys, amp_array_view *out_values,
                                     size_t *count);

/* Sorts the rank-1 view `keys` (AMP_UINT32, AMP_INT32, AMP_FLOAT, AMP_UINT64, AMP_INT64 or
 * AMP_DOUBLE) in place into ascending order: a stable least-significant-digit radix sort; on GPUs,
 * for 32-bit keys (with 32-bit values or none), one pass per 8-bit digit with decoupled look-back
 * (4 passes and a histogram), elsewhere passes of 4-bit digits (8 for 32-bit keys, 16 for 64-bit
 * ones). Float and double keys are ordered by their bits as numbers are: -inf < ... < -0.0 < +0.0
 * < ... < +inf, NaNs with a clear sign bit after +inf (and with a set one before -inf). Double
 * keys need an fp64 device. Temporaries of n keys (and n values) and, for the one-pass sort,
 * n / 4 + 1028 status words (n / 3 + 1028 with values; else 16 * ceil(n / 1024) counts) live on
 * the device during the call. */
AMP_API amp_status amp_sort(amp_accelerator_view *view, amp_array_view *keys);

/* The same, moving `values` (a rank-1 view of any of the six key types, whatever the keys', with
 * the extent of keys, on other data than keys) with their keys: after the call values[i] is the
 * value that came with keys[i]; equal keys keep their values' order (stable). */
AMP_API amp_status amp_sort_by_key(amp_accelerator_view *view, amp_array_view *keys,
                                   amp_array_view *values);

/* Stream compaction: the elements x of the rank-1 view src for which the caller's predicate holds
 * are written to dst[0], dst[1], ... in their order, and their number to *count (must not be
 * NULL). `predicate_source` is OpenCL C text defining
 *     bool amp_predicate(T x)
 * where T is the element type's OpenCL name (int, uint, float, double; T is a macro), e.g.
 * "bool amp_predicate(T x) { return x > 0.5f; }". dst is a rank-1 view of the same element type
 * with at least as many elements as src, on other data than src; dst's elements from *count on keep
 * their contents (what of dst is not valid on the device is copied in first, like any written
 * view: amp_array_view_discard_data(dst) skips that). The program is built (and cached) at the
 * first call with a given text; a build error gives AMP_ERROR_BUILD_FAILED with the compiler's log
 * in amp_last_error(). Reads the count back, so the call blocks. On failure *count is unchanged. */
AMP_API amp_status amp_copy_if(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                               const char *predicate_source, size_t *count);

/* The same keeping the first element of every run of equal elements (compared with ==, so every
 * NaN is kept): on sorted data, each distinct value once. */
AMP_API amp_status amp_unique(amp_accelerator_view *view, amp_array_view *src, amp_array_view *dst,
                              size_t *count);

/* The largest stencil radius amp_stencil_2d takes (weights of 17 x 17). */
#define AMP_STENCIL_MAX_RADIUS 8

/* dst(i, j) = the sum over -r <= a, b <= r of weights(a + r, b + r) * src(i + a, j + b), where
 * indexes outside src are clamped to its edge (the border pixels repeat). src and dst are rank-2
 * AMP_FLOAT views of the same extent (an image of H rows and W columns) on other data; weights is
 * a rank-2 AMP_FLOAT view of (2r + 1) x (2r + 1), 0 <= r <= AMP_STENCIL_MAX_RADIUS
 * (AMP_ERROR_EXTENT_MISMATCH or AMP_ERROR_LIMIT_EXCEEDED otherwise). Asynchronous like a launch:
 * returns once enqueued. */
AMP_API amp_status amp_stencil_2d(amp_accelerator_view *view, amp_array_view *src,
                                  amp_array_view *dst, amp_array_view *weights);

/* A Gaussian blur of the image src into dst (as amp_stencil_2d): weights exp(-(a^2 + b^2) /
 * (2 sigma^2)), normalised to sum 1, radius ceil(3 sigma). 0 < sigma <= AMP_STENCIL_MAX_RADIUS / 3
 * (AMP_ERROR_INVALID_ARGUMENT names the value otherwise). Returns when done (the weights are a
 * temporary view). */
AMP_API amp_status amp_gaussian_blur(amp_accelerator_view *view, amp_array_view *src,
                                     amp_array_view *dst, float sigma);

/* ---- building ahead ----------------------------------------------------------------------- */

/* The algorithms amp_algorithms_prepare builds, as bits. */
typedef enum amp_prepare_set {
  AMP_PREPARE_REDUCE = 1u << 0,    /* amp_reduce with each of its operators */
  AMP_PREPARE_SCAN = 1u << 1,      /* amp_scan (both kinds: the same kernels) */
  AMP_PREPARE_HISTOGRAM = 1u << 2, /* amp_histogram (type AMP_INT32 or AMP_UINT32) */
  AMP_PREPARE_SORT = 1u << 3,      /* amp_sort of keys alone */
  AMP_PREPARE_TRANSPOSE = 1u << 4, /* amp_transpose_view */
  AMP_PREPARE_ALL = 0x1fu          /* all of them (with AMP_PREPARE_HISTOGRAM only for int, uint) */
} amp_prepare_set;

/* Builds the kernels that the algorithms `which` (AMP_PREPARE_* bits) use on the view's device for
 * elements of `type` (AMP_INT32, AMP_UINT32, AMP_FLOAT or AMP_DOUBLE), so their first call does not
 * wait for the compiler: each runs once on a small device array (4096 elements), which builds
 * exactly the kernels its calls choose there, kept for the life of the process (a driver that
 * compiles again per launch shape, as POCL appears to, may still do so for a much larger first
 * call: docs/ALGORITHMS.md). Returns when done;
 * the time it takes is the builds'. Bits that name no algorithm, another type,
 * AMP_PREPARE_HISTOGRAM with a float type, or double on a device without it are
 * AMP_ERROR_INVALID_ARGUMENT (or AMP_ERROR_UNSUPPORTED_FEATURE), naming the value; which = 0 does
 * nothing. */
AMP_API amp_status amp_algorithms_prepare(amp_accelerator_view *view, unsigned which,
                                          amp_elem_type type);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_ALGORITHMS_H */
