/* reduce_cpu.cl: amp_reduce and amp_reduce_custom on CPU devices (runtime/algorithms/reduce.c
 * takes this file when the accelerator is a CPU device, props.is_emulated; GPUs keep reduce.cl).
 *
 * Built like reduce.cl (the operator, then `#define AMP_REDUCE_IDENTITY (...)`, then this file),
 * with -DT=<element type> and -DT16=<its 16-vector>. For the builtin operators the runtime also
 * defines AMP_REDUCE_VOP(a, b), the operator on whole vectors (a + b, fmin, max, ...); for a
 * caller's operator the vectors are combined lane by lane with amp_reduce_op.
 *
 *   amp_reduce_cpu  Untiled (tiles of one thread). Thread g folds elements [g * chunk,
 *                   min(n, (g + 1) * chunk)) of src into partial[g]: 32 elements a step in two
 *                   16-vector accumulators (vload16, no alignment needed), then the last few one
 *                   by one. A CPU runtime runs each thread as one loop over a long contiguous run,
 *                   with its SIMD from the vector types and no barrier. Domain: amp_extent1(G).
 *                   Launched twice: G threads (a few per core) over the data, then one thread
 *                   over the G partials.
 *
 * Elements are combined in an order that depends on G, so a float sum may differ from a
 * sequential one by rounding. */
#ifndef T /* the runtime always passes T and T16; these defaults let the file build alone */
#define T float
#endif
#ifndef T16
#define T16 float16
#endif
#ifndef AMP_REDUCE_IDENTITY /* built alone: a sum */
#define AMP_REDUCE_IDENTITY 0
inline T amp_reduce_op(T a, T b) { return a + b; }
#define AMP_REDUCE_VOP(a, b) ((a) + (b))
#endif

#ifndef AMP_REDUCE_VOP /* a caller's operator: lane by lane */
static inline T16 amp__reduce_lanes(T16 a, T16 b) {
  T16 r;
  r.s0 = amp_reduce_op(a.s0, b.s0);
  r.s1 = amp_reduce_op(a.s1, b.s1);
  r.s2 = amp_reduce_op(a.s2, b.s2);
  r.s3 = amp_reduce_op(a.s3, b.s3);
  r.s4 = amp_reduce_op(a.s4, b.s4);
  r.s5 = amp_reduce_op(a.s5, b.s5);
  r.s6 = amp_reduce_op(a.s6, b.s6);
  r.s7 = amp_reduce_op(a.s7, b.s7);
  r.s8 = amp_reduce_op(a.s8, b.s8);
  r.s9 = amp_reduce_op(a.s9, b.s9);
  r.sa = amp_reduce_op(a.sa, b.sa);
  r.sb = amp_reduce_op(a.sb, b.sb);
  r.sc = amp_reduce_op(a.sc, b.sc);
  r.sd = amp_reduce_op(a.sd, b.sd);
  r.se = amp_reduce_op(a.se, b.se);
  r.sf = amp_reduce_op(a.sf, b.sf);
  return r;
}
#define AMP_REDUCE_VOP(a, b) amp__reduce_lanes(a, b)
#endif

__kernel void amp_reduce_cpu(AMP_CONST_VIEW(T, src), AMP_VIEW(T, partial), const int chunk) {
  const long g = (long)get_global_id(0), n = amp_extent(src, 0);
  const long begin = g * (long)chunk, end = min(n, begin + (long)chunk);
  __global const T *p = &amp_at(src, 0);
  T r = AMP_REDUCE_IDENTITY;
  long i = begin;
  if (end - begin >= 32) {
    T16 a0 = (T16)(AMP_REDUCE_IDENTITY), a1 = a0;
    for (; i + 32 <= end; i += 32) {
      a0 = AMP_REDUCE_VOP(a0, vload16(0, p + i));
      a1 = AMP_REDUCE_VOP(a1, vload16(0, p + i + 16));
    }
    a0 = AMP_REDUCE_VOP(a0, a1);
    T l[16];
    vstore16(a0, 0, l);
    for (int k = 0; k < 16; k++) /* once per thread */
      r = amp_reduce_op(r, l[k]);
  }
  for (; i < end; i++)
    r = amp_reduce_op(r, p[i]);
  if (g < amp_extent(partial, 0))
    amp_at(partial, (int)g) = r;
}
