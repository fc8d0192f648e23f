/* tests/samples/sample_drivers.c: the passes of the reduction and scan samples (sample_drivers.h).
 */
#include "sample_drivers.h"

#include <stdio.h>

const char *const sample_reduce_names[SAMPLE_REDUCE_KINDS] = {"reduce_atomic", "reduce_interleaved",
                                                              "reduce_sequential",
                                                              "reduce_unrolled", "reduce_cascaded"};
const char *const sample_scan_names[SAMPLE_SCAN_KINDS] = {"scan_hillis_steele", "scan_blelloch"};

void sample_fill(int32_t *data, int n, uint32_t seed, int range) {
  uint32_t x = seed;
  for (int i = 0; i < n; i++) {
    x = x * 1664525u + 1013904223u;
    data[i] = (int32_t)((x >> 8) % (uint32_t)range) - range / 2;
  }
}

static amp_status kernel_of(const char *file, const char *options, const char *name,
                            amp_kernel **out) {
  amp_program *p = NULL;
  amp_status s = amp_program_create_builtin(file, options, &p);
  if (s == AMP_SUCCESS)
    s = amp_kernel_create(p, name, out);
  amp_program_release(p);
  return s;
}

amp_status sample_kernels_create(int tile, sample_kernels *out) {
  char options[64];
  amp_status s = AMP_SUCCESS;
  *out = (sample_kernels){tile, {NULL}, {NULL}, NULL};
  snprintf(options, sizeof options, "-DT=int -DTILE=%d", tile);
  for (int r = 0; r < SAMPLE_REDUCE_KINDS && s == AMP_SUCCESS; r++)
    s = kernel_of("sample_reduction", options, sample_reduce_names[r], &out->reduce[r]);
  for (int c = 0; c < SAMPLE_SCAN_KINDS && s == AMP_SUCCESS; c++)
    s = kernel_of("sample_scan", options, sample_scan_names[c], &out->scan[c]);
  if (s == AMP_SUCCESS)
    s = kernel_of("sample_scan", options, "scan_add_carry", &out->carry);
  if (s != AMP_SUCCESS)
    sample_kernels_release(out);
  return s;
}

void sample_kernels_release(sample_kernels *k) {
  for (int r = 0; r < SAMPLE_REDUCE_KINDS; r++)
    amp_kernel_release(k->reduce[r]);
  for (int c = 0; c < SAMPLE_SCAN_KINDS; c++)
    amp_kernel_release(k->scan[c]);
  amp_kernel_release(k->carry);
  *k = (sample_kernels){0, {NULL}, {NULL}, NULL};
}

/* The atomic sample: partial[0] = 0, then one add per element. */
static amp_status reduce_atomic(amp_accelerator_view *av, amp_kernel *k, amp_arg in, int n,
                                int32_t *sum) {
  int32_t zero = 0;
  amp_array *total = NULL;
  amp_status s = amp_array_create_from(av, amp_extent1(1), AMP_INT32, &zero, &total);
  if (s == AMP_SUCCESS) {
    amp_arg args[] = {in, amp_arg_array(total)};
    s = amp_parallel_for_each(av, amp_extent1(n), k, args, AMP_NARGS(args));
  }
  if (s == AMP_SUCCESS)
    s = amp_copy_from_array(total, sum, sizeof *sum);
  amp_array_release(total);
  return s;
}

static int div_up(int a, int b) {
  return (a + b - 1) / b;
}

amp_status sample_reduce(amp_accelerator_view *av, const sample_kernels *k, sample_reduce_kind kind,
                         amp_arg in, int n, int cascade_tiles, int32_t *sum) {
  if (kind == SAMPLE_REDUCE_ATOMIC)
    return reduce_atomic(av, k->reduce[kind], in, n, sum);
  const int per = kind == SAMPLE_REDUCE_UNROLLED ? 2 * k->tile : k->tile;
  amp_status s = AMP_SUCCESS;
  amp_array *prev = NULL;
  amp_arg cur = in;
  int count = n;
  do { /* once at least, so that the sum is in a partial array */
    int tiles = div_up(count, per);
    if (kind == SAMPLE_REDUCE_CASCADED && tiles > cascade_tiles)
      tiles = cascade_tiles;
    amp_array *partial = NULL;
    s = amp_array_create(av, amp_extent1(tiles), AMP_INT32, &partial);
    if (s == AMP_SUCCESS) {
      amp_arg args[] = {cur, amp_arg_array(partial)};
      amp_tiled_extent dom = amp_tile1(amp_extent1(tiles * k->tile), k->tile);
      s = amp_parallel_for_each_tiled(av, dom, k->reduce[kind], args, AMP_NARGS(args));
    }
    amp_array_release(prev);
    prev = partial;
    cur = amp_arg_array(partial);
    count = tiles;
  } while (s == AMP_SUCCESS && count > 1);
  if (s == AMP_SUCCESS)
    s = amp_copy_from_array(prev, sum, sizeof *sum);
  amp_array_release(prev);
  return s;
}

amp_status sample_scan(amp_accelerator_view *av, const sample_kernels *k, sample_scan_kind kind,
                       amp_arg in, amp_arg out, int n) {
  const int per = kind == SAMPLE_SCAN_BLELLOCH ? 2 * k->tile : k->tile;
  const int tiles = div_up(n, per);
  amp_array *sums = NULL, *carries = NULL;
  amp_status s = amp_array_create(av, amp_extent1(tiles), AMP_INT32, &sums);
  if (s == AMP_SUCCESS) {
    amp_arg args[] = {in, out, amp_arg_array(sums)};
    amp_tiled_extent dom = amp_tile1(amp_extent1(tiles * k->tile), k->tile);
    s = amp_parallel_for_each_tiled(av, dom, k->scan[kind], args, AMP_NARGS(args));
  }
  if (s == AMP_SUCCESS && tiles > 1) {
    s = amp_array_create(av, amp_extent1(tiles), AMP_INT32, &carries);
    if (s == AMP_SUCCESS)
      s = sample_scan(av, k, kind, amp_arg_array(sums), amp_arg_array(carries), tiles);
    /* Hillis-Steele's totals come back inclusive: tile t's carry is carries[t - 1] */
    amp_arg args[] = {out, amp_arg_array(carries), amp_arg_int(per),
                      amp_arg_int(kind == SAMPLE_SCAN_HILLIS_STEELE)};
    if (s == AMP_SUCCESS)
      s = amp_parallel_for_each(av, amp_extent1(n), k->carry, args, AMP_NARGS(args));
  }
  amp_array_release(carries);
  amp_array_release(sums);
  return s;
}
