/* tests/samples/sample_drivers.h: the host side of the classic C++ AMP samples
 * (kernels_cl/samples/): the passes a whole reduction or scan takes, shared by the tests in this
 * folder and amp-bench's samples rows. Every call works on int elements, returns the first failed
 * call's status (amp_last_error() says why) and frees what it made. */
#ifndef AMPCL_TESTS_SAMPLE_DRIVERS_H
#define AMPCL_TESTS_SAMPLE_DRIVERS_H

#include <ampcl.h>
#include <stdint.h>

/* The reduction samples, in the order of kernels_cl/samples/sample_reduction.cl. */
typedef enum sample_reduce_kind {
  SAMPLE_REDUCE_ATOMIC,
  SAMPLE_REDUCE_INTERLEAVED,
  SAMPLE_REDUCE_SEQUENTIAL,
  SAMPLE_REDUCE_UNROLLED,
  SAMPLE_REDUCE_CASCADED,
  SAMPLE_REDUCE_KINDS
} sample_reduce_kind;

/* The scan samples of kernels_cl/samples/sample_scan.cl, each with its multi-tile carry. */
typedef enum sample_scan_kind {
  SAMPLE_SCAN_HILLIS_STEELE, /* inclusive */
  SAMPLE_SCAN_BLELLOCH,      /* exclusive */
  SAMPLE_SCAN_KINDS
} sample_scan_kind;

/* Kernels of one build of the samples (-DT=int -DTILE=tile). */
typedef struct sample_kernels {
  int tile;
  amp_kernel *reduce[SAMPLE_REDUCE_KINDS];
  amp_kernel *scan[SAMPLE_SCAN_KINDS];
  amp_kernel *carry;
} sample_kernels;

/* data[0..n) = pseudo-random ints in [-range/2, range/2), from seed (the same on every host). */
void sample_fill(int32_t *data, int n, uint32_t seed, int range);

/* The kernels' names, for messages and amp-bench's rows. */
extern const char *const sample_reduce_names[SAMPLE_REDUCE_KINDS];
extern const char *const sample_scan_names[SAMPLE_SCAN_KINDS];

/* Creates the reduction and scan kernels for int at tile `tile` (built at their first launch). */
amp_status sample_kernels_create(int tile, sample_kernels *out);
void sample_kernels_release(sample_kernels *k);

/* *sum = the sum of the n ints `in` holds (a view or an array of extent n), by the kind's
 * kernel: one launch for the atomic one, else passes over per-tile partial sums (in device arrays)
 * until one is left. The cascaded kind launches at most cascade_tiles tiles a pass. */
amp_status sample_reduce(amp_accelerator_view *av, const sample_kernels *k, sample_reduce_kind kind,
                         amp_arg in, int n, int cascade_tiles, int32_t *sum);

/* out = the scan of in (each a view or an array of extent n) by the kind's kernel, inclusive for
 * Hillis-Steele, exclusive for Blelloch: the tile scans, a scan of the tiles' totals (the same
 * again while they are more than one tile) and the carry added to each tile. */
amp_status sample_scan(amp_accelerator_view *av, const sample_kernels *k, sample_scan_kind kind,
                       amp_arg in, amp_arg out, int n);

#endif /* AMPCL_TESTS_SAMPLE_DRIVERS_H */
