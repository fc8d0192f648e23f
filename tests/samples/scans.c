/* sample_scans: the classic C++ AMP scan samples (kernels_cl/samples/sample_scan.cl: Hillis-Steele,
 * inclusive, and Blelloch's work-efficient scan, exclusive, each over many tiles with the carry of
 * the tiles before) against the host's running sums, at tiles of 256 and 32 threads and at sizes
 * from one element to 70,001 (three levels of tile totals at tile 32), reading a view of host
 * memory and writing one, and from an array into an array. */
#include "samples/sample_tiles.h"

static const int sizes[] = {1, 2, 31, 64, 65, 256, 511, 513, 4097, 70001};
enum { NSIZES = sizeof sizes / sizeof sizes[0], MAXN = 70001 };

static int32_t data[MAXN], out[MAXN], want[MAXN];

/* want = the host's scan of data[0..n), inclusive or exclusive. */
static void host_scan(int n, int inclusive) {
  int32_t s = 0;
  for (int i = 0; i < n; i++) {
    if (!inclusive)
      want[i] = s;
    s += data[i];
    if (inclusive)
      want[i] = s;
  }
}

static int mismatches(int n, const char *what, int tile) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (out[i] != want[i] && bad++ < 3)
      fprintf(stderr, "%s, tile %d, n %d: out[%d] = %d, the host's %d\n", what, tile, n, i, out[i],
              want[i]);
  return bad;
}

static void check_tile(amp_accelerator_view *av, const sample_kernels *k) {
  const int tile = k->tile;
  for (int z = 0; z < NSIZES && !(test_small() && sizes[z] > 4097); z++) {
    const int n = sizes[z];
    for (int c = 0; c < SAMPLE_SCAN_KINDS; c++) {
      amp_array_view *vin = NULL, *vout = NULL;
      for (int i = 0; i < n; i++)
        out[i] = -7;
      host_scan(n, c == SAMPLE_SCAN_HILLIS_STEELE);
      CHECK_OK(amp_array_view_create_const(amp_extent1(n), AMP_INT32, data, &vin));
      CHECK_OK(amp_array_view_create(amp_extent1(n), AMP_INT32, out, &vout));
      if (vin && vout) {
        CHECK_OK(sample_scan(av, k, (sample_scan_kind)c, amp_arg_view(vin), amp_arg_view(vout), n));
        CHECK_OK(amp_array_view_synchronize(vout));
        CHECK_EQ_INT(mismatches(n, sample_scan_names[c], tile), 0);
      }
      amp_array_view_release(vout);
      amp_array_view_release(vin);
    }
  }
  /* array to array */
  for (int c = 0; c < SAMPLE_SCAN_KINDS && !test_small(); c++) {
    amp_array *a = NULL, *b = NULL;
    host_scan(MAXN, c == SAMPLE_SCAN_HILLIS_STEELE);
    CHECK_OK(amp_array_create_from(av, amp_extent1(MAXN), AMP_INT32, data, &a));
    CHECK_OK(amp_array_create(av, amp_extent1(MAXN), AMP_INT32, &b));
    if (a && b) {
      CHECK_OK(sample_scan(av, k, (sample_scan_kind)c, amp_arg_array(a), amp_arg_array(b), MAXN));
      CHECK_OK(amp_copy_from_array(b, out, sizeof out));
      CHECK_EQ_INT(mismatches(MAXN, sample_scan_names[c], tile), 0);
    }
    amp_array_release(b);
    amp_array_release(a);
  }
}

int main(void) {
  REQUIRE_VIEW(av);
  sample_fill(data, MAXN, 777u, 128);
  if (sample_check_tiles(av, check_tile))
    return 1;
  return check_done();
}
