/* reduce_by_key.cl: amp_reduce_by_key, the segmented reduction (runtime/algorithms/reduce_by_key.c).
 * Each run of equal consecutive keys is one segment; out_keys[s] is segment s's key and
 * out_values[s] the sum, minimum or maximum of its values.
 *
 *   amp_rbk_heads   heads[i] = 1 where a segment starts (i = 0 or keys[i] != keys[i - 1]), else 0;
 *                   the runtime scans heads inclusively (amp_scan) into seg: seg[i] - 1 is the
 *                   segment of element i, seg[n - 1] the number of segments.
 *   amp_rbk_keys    at each segment's first element: its key, and its value set to the identity.
 *   amp_rbk_values  each thread walks RBK_PER consecutive elements, combining the values of one
 *                   segment in a register, and adds each segment's part to out_values with one
 *                   atomic operation: n / RBK_PER + (segments) atomics in all, few on one word.
 *                   Float values combine through compare-and-swap on their bits, so a float sum's
 *                   order (and its last bits) varies from run to run; integers are exact.
 *
 * Built with -DK=<int or uint> (keys), -DT=<int, uint or float> (values), -DRBK_OP=<0 sum, 1 min,
 * 2 max>, -DRBK_ID=<the operator's identity for T>, -DRBK_PER=<elements a thread>, and
 * -DRBK_FLOAT=1 for float values. The
 * launches are untiled (heads, keys) and 1-D tiles of the runtime's choice (values). */
#ifndef K
#define K int
#endif
#ifndef T
#define T int
#endif
#ifndef RBK_OP
#define RBK_OP 0
#endif
#ifndef RBK_ID
#define RBK_ID 0
#endif
#ifndef RBK_PER
#define RBK_PER 16
#endif

/* fmin and fmax for float: OpenCL leaves min and max undefined at infinities, the identities */
#if RBK_OP == 0
#define RBK_COMBINE(a, b) ((a) + (b))
#elif RBK_OP == 1 && defined(RBK_FLOAT)
#define RBK_COMBINE(a, b) fmin((a), (b))
#elif RBK_OP == 1
#define RBK_COMBINE(a, b) min((a), (b))
#elif defined(RBK_FLOAT)
#define RBK_COMBINE(a, b) fmax((a), (b))
#else
#define RBK_COMBINE(a, b) max((a), (b))
#endif

__kernel void amp_rbk_heads(AMP_CONST_VIEW(K, keys), AMP_VIEW(uint, heads)) {
  AMP_INDEX1(idx);
  const int i = idx[0];
  if (i < amp_extent(keys, 0))
    amp_at(heads, i) = i == 0 || amp_at(keys, i) != amp_at(keys, i - 1) ? 1u : 0u;
}

__kernel void amp_rbk_keys(AMP_CONST_VIEW(K, keys), AMP_CONST_VIEW(uint, seg),
                           AMP_VIEW(K, out_keys), AMP_VIEW(T, out_values)) {
  AMP_INDEX1(idx);
  const int i = idx[0];
  if (i < amp_extent(keys, 0) && (i == 0 || amp_at(seg, i) != amp_at(seg, i - 1))) {
    const int s = (int)amp_at(seg, i) - 1;
    amp_at(out_keys, s) = amp_at(keys, i);
    amp_at(out_values, s) = (T)(RBK_ID);
  }
}

/* *p = RBK_COMBINE(*p, v), atomically. */
static void rbk_atomic(volatile __global T *p, T v) {
#if defined(RBK_FLOAT)
  union {
    float f;
    uint u;
  } old, next;
  old.f = *p;
  for (;;) {
    next.f = RBK_COMBINE(old.f, v);
    if (next.u == old.u)
      return;
    const uint seen = atomic_cmpxchg((volatile __global uint *)p, old.u, next.u);
    if (seen == old.u)
      return;
    old.u = seen;
  }
#elif RBK_OP == 0
  atomic_add(p, v);
#elif RBK_OP == 1
  atomic_min(p, v);
#else
  atomic_max(p, v);
#endif
}

__kernel void amp_rbk_values(AMP_CONST_VIEW(T, values), AMP_CONST_VIEW(uint, seg),
                             AMP_VIEW(T, out_values)) {
  const long n = amp_extent(values, 0);
  const long first = (long)get_global_id(0) * RBK_PER;
  if (first >= n)
    return;
  const long end = first + RBK_PER < n ? first + RBK_PER : n;
  uint cur = amp_at(seg, (int)first);
  T acc = (T)(RBK_ID);
  for (long j = first; j < end; j++) {
    const uint s = amp_at(seg, (int)j);
    if (s != cur) {
      rbk_atomic(&amp_at(out_values, (int)cur - 1), acc);
      cur = s;
      acc = (T)(RBK_ID);
    }
    acc = RBK_COMBINE(acc, amp_at(values, (int)j));
  }
  rbk_atomic(&amp_at(out_values, (int)cur - 1), acc);
}
