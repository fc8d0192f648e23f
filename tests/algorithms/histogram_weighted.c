/* algo_histogram_weighted: amp_histogram_weighted against the host's sums, for int, uint and float
 * weights (floats that are multiples of 1/4 below 2^10, so every order of adding gives the host's
 * bits), values outside the bins, bin counts that fit tile_static memory and one that does not
 * (the global path), sizes 1 to 200,003; one k-means update step (new centres from the points'
 * clusters: the coordinates' sums and the counts); and bad input, after which the bins' host
 * memory is as it was. */
#include "algorithms/algo_check.h"

#include <stdint.h>

/* Weight i of kind t: small integers, or quarters for float. */
static void weight_of(int i, amp_elem_type t, void *w) {
  int v = (int)((uint32_t)i * 40503u % 17u) - 5;
  if (t.kind == AMP_ELEM_FLOAT)
    *(float *)w = (float)v * 0.25f;
  else if (t.kind == AMP_ELEM_UINT32)
    *(uint32_t *)w = (uint32_t)(v + 5);
  else
    *(int32_t *)w = v;
}

static void check_case(amp_accelerator_view *av, int n, int nb, amp_elem_type t) {
  int32_t *x = malloc((size_t)n * sizeof *x);
  uint32_t *w = malloc((size_t)n * 4), *bins = malloc((size_t)nb * 4);
  double *want = calloc((size_t)nb, sizeof *want);
  for (int i = 0; i < n; i++) {
    x[i] = (int32_t)((uint32_t)i * 2654435761u % (uint32_t)(nb + 20)) - 10;
    weight_of(i, t, &w[i]);
    double wv = t.kind == AMP_ELEM_FLOAT    ? ((float *)w)[i]
                : t.kind == AMP_ELEM_UINT32 ? (double)w[i]
                                            : (double)((int32_t *)w)[i];
    if ((uint32_t)x[i] < (uint32_t)nb)
      want[x[i]] += wv;
  }
  for (int b = 0; b < nb; b++)
    bins[b] = 0xdeadbeefu; /* overwritten, not added to */
  amp_array_view *s = NULL, *wv = NULL, *bv = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), AMP_INT32, x, &s));
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), t, w, &wv));
  CHECK_OK(amp_array_view_create(amp_extent1(nb), t, bins, &bv));
  CHECK_OK(amp_histogram_weighted(av, s, wv, bv));
  CHECK_OK(amp_array_view_synchronize(bv));
  int bad = 0;
  for (int b = 0; b < nb; b++) {
    double got = t.kind == AMP_ELEM_FLOAT    ? ((float *)bins)[b]
                 : t.kind == AMP_ELEM_UINT32 ? (double)bins[b]
                                             : (double)((int32_t *)bins)[b];
    if (got != want[b] && !bad++)
      fprintf(stderr, "weighted histogram n %d bins %d kind %d: bin %d is %g, want %g\n", n, nb,
              (int)t.kind, b, got, want[b]);
  }
  CHECK_EQ_INT(bad, 0);
  RELEASE_VIEWS(s, wv, bv);
  FREE_ALL(x, w, bins, want);
}

/* One k-means update of K centres in 2-D: each point's cluster is given; the new centre is the
 * mean of its points, from three weighted histograms (x sums, y sums, counts). */
static void check_kmeans_step(amp_accelerator_view *av) {
  enum { P = 5003, K = 7 };
  static int32_t cluster[P];
  static float px[P], py[P], ones[P], sx[K], sy[K], cnt[K];
  double wx[K] = {0}, wy[K] = {0}, wc[K] = {0};
  for (int i = 0; i < P; i++) {
    cluster[i] = (int32_t)((uint32_t)i * 2246822519u % K);
    px[i] = (float)(i % 97) * 0.5f;
    py[i] = (float)(i % 31) * 0.25f - 3.0f;
    ones[i] = 1.0f;
    wx[cluster[i]] += px[i];
    wy[cluster[i]] += py[i];
    wc[cluster[i]] += 1.0;
  }
  amp_array_view *c = NULL, *vx = NULL, *vy = NULL, *v1 = NULL, *bx = NULL, *by = NULL, *bc = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(P), AMP_INT32, cluster, &c));
  CHECK_OK(amp_array_view_create_const(amp_extent1(P), AMP_FLOAT, px, &vx));
  CHECK_OK(amp_array_view_create_const(amp_extent1(P), AMP_FLOAT, py, &vy));
  CHECK_OK(amp_array_view_create_const(amp_extent1(P), AMP_FLOAT, ones, &v1));
  CHECK_OK(amp_array_view_create(amp_extent1(K), AMP_FLOAT, sx, &bx));
  CHECK_OK(amp_array_view_create(amp_extent1(K), AMP_FLOAT, sy, &by));
  CHECK_OK(amp_array_view_create(amp_extent1(K), AMP_FLOAT, cnt, &bc));
  CHECK_OK(amp_histogram_weighted(av, c, vx, bx));
  CHECK_OK(amp_histogram_weighted(av, c, vy, by));
  CHECK_OK(amp_histogram_weighted(av, c, v1, bc));
  CHECK_OK(amp_array_view_synchronize(bx));
  CHECK_OK(amp_array_view_synchronize(by));
  CHECK_OK(amp_array_view_synchronize(bc));
  for (int k = 0; k < K; k++) {
    CHECK(cnt[k] == (float)wc[k]);
    CHECK(fabs(sx[k] / cnt[k] - wx[k] / wc[k]) < 1e-4);
    CHECK(fabs(sy[k] / cnt[k] - wy[k] / wc[k]) < 1e-4);
  }
  RELEASE_VIEWS(c, vx, vy, v1, bx, by, bc);
}

static void check_bad_input(amp_accelerator_view *av) {
  static int32_t x[16];
  static float w[16], bins[4] = {1, 2, 3, 4}, orig[4] = {1, 2, 3, 4};
  static double d[16];
  amp_array_view *s = NULL, *wv = NULL, *bv = NULL, *dv = NULL, *ro = NULL, *short_w = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(16), AMP_INT32, x, &s));
  CHECK_OK(amp_array_view_create(amp_extent1(16), AMP_FLOAT, w, &wv));
  CHECK_OK(amp_array_view_create(amp_extent1(4), AMP_FLOAT, bins, &bv));
  CHECK_OK(amp_array_view_create(amp_extent1(16), AMP_DOUBLE, d, &dv));
  CHECK_OK(amp_array_view_create(amp_extent1(15), AMP_FLOAT, w, &short_w));
  if (bv)
    CHECK_OK(amp_array_view_as_const(bv, &ro));
  if (!s || !wv || !bv || !dv || !short_w || !ro)
    goto done;
  amp_transfer_stats_reset();
  CHECK_STATUS(amp_histogram_weighted(av, wv, wv, bv), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("src holds elements of kind 3 (AMP_FLOAT)");
  CHECK_STATUS(amp_histogram_weighted(av, s, short_w, bv), AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("src has 16 elements but weights has 15");
  CHECK_STATUS(amp_histogram_weighted(av, s, s, bv), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("bins must have the element type of weights");
  CHECK_STATUS(amp_histogram_weighted(av, s, wv, ro), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_histogram_weighted(av, s, wv, NULL), AMP_ERROR_INVALID_HANDLE);
  amp_accelerator_properties props;
  if (test_props(av, &props) == AMP_SUCCESS && props.supports_double_precision) {
    CHECK_STATUS(amp_histogram_weighted(av, s, dv, bv), AMP_ERROR_INVALID_ARGUMENT);
    CHECK_MSG("weights holds doubles");
  }
  CHECK_UNMOVED(bins, orig);
done:;
  RELEASE_VIEWS(s, wv, bv, dv, ro, short_w);
}

int main(void) {
  REQUIRE_VIEW_PROPS(av, props);
  const int sizes[] = {1, 3, 4097, 200003};
  const int nbins[] = {1, 256, 1000};
  const amp_elem_type types[] = {AMP_INT32, AMP_UINT32, AMP_FLOAT};
  for (size_t s = 0; s < 4; s++)
    for (size_t b = 0; b < 3 && !(test_small() && sizes[s] > 5000); b++)
      for (size_t t = 0; t < 3; t++)
        check_case(av, sizes[s], nbins[b], types[t]);
  /* More bins than fit half of tile_static memory: global atomics. */
  check_case(av, 20000, (int)(props.local_memory / 4) + 1, AMP_FLOAT);
  check_kmeans_step(av);
  check_bad_input(av);
  return check_done();
}
