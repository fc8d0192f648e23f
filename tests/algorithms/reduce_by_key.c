/* algo_reduce_by_key: amp_reduce_by_key (the segmented reduction) against the host's, for int and
 * uint keys, int, uint and float values (floats that are multiples of 1/4, exact in any order)
 * and each operator, with runs of 1 to 300 equal keys (runs longer than a thread's 16 elements
 * and a tile), one run of everything, every element its own run, equal keys apart (separate
 * segments), outputs longer than needed (the rest left as it was), a section, and bad input,
 * which writes nothing: too little room for the segments, mismatched extents and types, double
 * values, a bad operator. */
#include "algorithms/algo_check.h"

#include <stdint.h>

enum { MAXN = 100003 };

static int32_t keys[MAXN], okeys[MAXN], wkeys[MAXN];
static uint32_t vals[MAXN], ovals[MAXN];
static double wvals[MAXN];

static double value_at(const void *p, int i, amp_elem_kind k) {
  return k == AMP_ELEM_FLOAT    ? ((const float *)p)[i]
         : k == AMP_ELEM_UINT32 ? (double)((const uint32_t *)p)[i]
                                : (double)((const int32_t *)p)[i];
}

static double combine(double a, double b, amp_reduce_op op) {
  return op == AMP_REDUCE_SUM ? a + b : op == AMP_REDUCE_MIN ? (a < b ? a : b) : (a > b ? a : b);
}

/* keys with runs of length run(i) (0: random lengths 1..300), values by kind; host segments. */
static int make_case(int n, int run, amp_elem_type vt) {
  int seg = 0, left = 0;
  int32_t key = 5;
  for (int i = 0; i < n; i++) {
    if (left == 0) {
      left = run ? run : (int)((uint32_t)(i + 7) * 2654435761u % 300u) + 1;
      key = (int32_t)((uint32_t)(seg * 7 + 3) % 11u) - 5; /* repeats apart, never twice in a row */
      if (seg && key == keys[i - 1])
        key++;
      seg++;
    }
    keys[i] = key;
    left--;
    int v = (int)((uint32_t)i * 40503u % 29u) - 9;
    if (vt.kind == AMP_ELEM_FLOAT)
      ((float *)vals)[i] = (float)v * 0.25f;
    else if (vt.kind == AMP_ELEM_UINT32)
      vals[i] = (uint32_t)(v + 9);
    else
      ((int32_t *)vals)[i] = v;
  }
  return seg;
}

static void check_case(amp_accelerator_view *av, int n, int run, amp_elem_type kt, amp_elem_type vt,
                       amp_reduce_op op) {
  int segs = make_case(n, run, vt);
  /* the host's segments */
  int m = 0;
  for (int i = 0; i < n; i++) {
    double v = value_at(vals, i, vt.kind);
    if (i == 0 || keys[i] != keys[i - 1]) {
      wkeys[m] = keys[i];
      wvals[m++] = v;
    } else {
      wvals[m - 1] = combine(wvals[m - 1], v, op);
    }
  }
  CHECK_EQ_INT(m, segs);
  const int room = m + 3; /* three more than needed: left as they were */
  for (int i = 0; i < room; i++) {
    okeys[i] = -777;
    ovals[i] = 0xabcdef01u;
  }
  amp_array_view *k = NULL, *v = NULL, *ok = NULL, *ov = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), kt, keys, &k));
  CHECK_OK(amp_array_view_create_const(amp_extent1(n), vt, vals, &v));
  CHECK_OK(amp_array_view_create(amp_extent1(room), kt, okeys, &ok));
  CHECK_OK(amp_array_view_create(amp_extent1(room), vt, ovals, &ov));
  size_t count = 0;
  CHECK_OK(amp_reduce_by_key(av, k, v, op, ok, ov, &count));
  CHECK_OK(amp_array_view_synchronize(ok));
  CHECK_OK(amp_array_view_synchronize(ov));
  CHECK_EQ_INT(count, m);
  int bad = 0;
  for (int s = 0; s < m && s < (int)count; s++)
    if ((okeys[s] != wkeys[s] || value_at(ovals, s, vt.kind) != wvals[s]) && !bad++)
      fprintf(stderr,
              "reduce_by_key n %d run %d kinds %d/%d op %d: segment %d is (%d, %g), "
              "want (%d, %g)\n",
              n, run, (int)kt.kind, (int)vt.kind, (int)op, s, okeys[s], value_at(ovals, s, vt.kind),
              wkeys[s], wvals[s]);
  for (int s = m; s < room; s++)
    bad += okeys[s] != -777 || ovals[s] != 0xabcdef01u;
  CHECK_EQ_INT(bad, 0);
  RELEASE_VIEWS(k, v, ok, ov);
}

static void check_bad_input(amp_accelerator_view *av) {
  enum { N = 64 };
  static int32_t k[N], ok[4] = {1, 2, 3, 4}, okeep[4] = {1, 2, 3, 4};
  static float v[N];
  static double d[N];
  for (int i = 0; i < N; i++)
    k[i] = i / 8; /* 8 segments */
  amp_array_view *vk = NULL, *vv = NULL, *vd = NULL, *vok = NULL, *vov = NULL, *short_v = NULL;
  size_t count = 99;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, k, &vk));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, v, &vv));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_DOUBLE, d, &vd));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N - 1), AMP_FLOAT, v, &short_v));
  CHECK_OK(amp_array_view_create(amp_extent1(4), AMP_INT32, ok, &vok));
  CHECK_OK(amp_array_view_create(amp_extent1(4), AMP_FLOAT, v, &vov));
  if (!vk || !vv || !vd || !short_v || !vok || !vov)
    goto done;
  amp_transfer_stats_reset();
  CHECK_STATUS(amp_reduce_by_key(av, vk, vv, AMP_REDUCE_SUM, vok, vov, &count),
               AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("keys has 8 runs of equal keys, but out_keys holds 4 and out_values 4 elements");
  CHECK_EQ_INT(count, 0);
  CHECK(memcmp(ok, okeep, sizeof ok) == 0);
  CHECK_STATUS(amp_reduce_by_key(av, vk, short_v, AMP_REDUCE_SUM, vok, vov, &count),
               AMP_ERROR_EXTENT_MISMATCH);
  CHECK_MSG("keys has 64 elements but values has 63");
  CHECK_STATUS(amp_reduce_by_key(av, vk, vv, AMP_REDUCE_SUM, vok, vok, &count),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("element types of keys and values");
  CHECK_STATUS(amp_reduce_by_key(av, vk, vv, (amp_reduce_op)7, vok, vov, &count),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("op is 7");
  CHECK_STATUS(amp_reduce_by_key(av, vk, vv, AMP_REDUCE_SUM, vok, vov, NULL),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("count is NULL");
  CHECK_STATUS(amp_reduce_by_key(av, vv, vv, AMP_REDUCE_SUM, vok, vov, &count),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("keys holds elements of kind 3 (AMP_FLOAT)");
  amp_accelerator_properties props;
  int fp64 = test_props(av, &props) == AMP_SUCCESS && props.supports_double_precision;
  /* doubles: refused as values (32-bit atomics), or first as doubles where the device has none */
  CHECK_STATUS(amp_reduce_by_key(av, vk, vd, AMP_REDUCE_SUM, vok, vov, &count),
               fp64 ? AMP_ERROR_INVALID_ARGUMENT : AMP_ERROR_UNSUPPORTED_FEATURE);
  CHECK_MSG("values holds doubles");
  CHECK(memcmp(ok, okeep, sizeof ok) == 0);
done:;
  RELEASE_VIEWS(vk, vv, vd, short_v, vok, vov);
}

int main(void) {
  REQUIRE_VIEW(av);
  const amp_elem_type vtypes[] = {AMP_INT32, AMP_UINT32, AMP_FLOAT};
  const amp_reduce_op ops[] = {AMP_REDUCE_SUM, AMP_REDUCE_MIN, AMP_REDUCE_MAX};
  for (int t = 0; t < 3; t++)
    for (int o = 0; o < 3; o++) {
      check_case(av, 1, 1, AMP_INT32, vtypes[t], ops[o]);
      check_case(av, 4097, 0, AMP_INT32, vtypes[t], ops[o]);
      check_case(av, test_small() ? 5000 : MAXN, 0, AMP_UINT32, vtypes[t], ops[o]);
    }
  check_case(av, 1000, 1, AMP_INT32, AMP_FLOAT, AMP_REDUCE_SUM); /* every element its own */
  check_case(av, test_small() ? 3001 : 70001, 0x7fffffff, AMP_INT32, AMP_INT32,
             AMP_REDUCE_SUM); /* one run */
  check_case(av, 3000, 17, AMP_UINT32, AMP_UINT32, AMP_REDUCE_MAX);
  check_bad_input(av);
  return check_done();
}
