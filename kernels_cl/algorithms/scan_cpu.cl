/* scan_cpu.cl: amp_scan on CPU devices (runtime/algorithms/scan.c takes this file when the
 * accelerator is a CPU device, props.is_emulated; GPUs keep scan.cl). Built with -DT=<int, uint,
 * float or double> and -DT8=<its 8-vector>.
 *
 * Reduce-then-scan in two launches over G chunks of `chunk` elements (a multiple of 8; the last may be shorter),
 * one thread per chunk, tiles of one thread, no barrier and no tile_static memory: a CPU runtime
 * runs each thread as one loop over a long contiguous run, with its SIMD from the vector types.
 *
 *   amp_scan_cpu_sums   thread g adds up chunk g (two 8-vector accumulators) into sums[g].
 *                       Domain: amp_extent1(G).
 *   amp_scan_cpu_apply  thread g adds up sums[0..g) (G is a few per core: cheaper than another
 *                       launch) and scans chunk g from there, 8 elements a step: the step's own
 *                       prefix sums in the vector (two shifted adds in each half, then the
 *                       first half's total into the second), plus the running carry,
 *                       then the carry becomes the step's last sum. Domain: amp_extent1(G).
 *
 * Memory traffic: the input is read twice and the output written once. src and dst may be the
 * same view (in place): each element is read before it is written, by the same thread. */
#ifndef T /* the runtime always passes T and T8; these defaults let the file build alone */
#define T float
#endif
#ifndef T8
#define T8 float8
#endif

__kernel void amp_scan_cpu_sums(AMP_CONST_VIEW(T, src), AMP_VIEW(T, sums), const int chunk) {
  const long g = (long)get_global_id(0), n = amp_extent(src, 0);
  const long begin = g * (long)chunk, end = min(n, begin + (long)chunk);
  __global const T *p = &amp_at(src, 0);
  T8 a0 = (T8)(0), a1 = (T8)(0);
  long i = begin;
  for (; i + 16 <= end; i += 16) {
    a0 += vload8(0, p + i);
    a1 += vload8(0, p + i + 8);
  }
  a0 += a1;
  T s = ((a0.s0 + a0.s1) + (a0.s2 + a0.s3)) + ((a0.s4 + a0.s5) + (a0.s6 + a0.s7));
  for (; i < end; i++)
    s += p[i];
  if (g < amp_extent(sums, 0))
    amp_at(sums, (int)g) = s;
}

__kernel void amp_scan_cpu_apply(AMP_CONST_VIEW(T, src), AMP_VIEW(T, dst), AMP_CONST_VIEW(T, sums),
                                 const int chunk, const int inclusive) {
  const long g = (long)get_global_id(0), n = amp_extent(src, 0);
  if (g >= amp_extent(sums, 0))
    return;
  const long begin = g * (long)chunk, end = min(n, begin + (long)chunk);
  __global const T *p = &amp_at(src, 0);
  __global T *q = &amp_at(dst, 0);
  T carry = 0;
  for (int k = 0; k < (int)g; k++) /* the chunks before this one (G is a few per core) */
    carry += amp_at(sums, k);
  long i = begin;
  const T8 z = (T8)(0);
  for (; i + 8 <= end; i += 8) {
    const T8 v = vload8(0, p + i);
    /* each 4-element half scanned with shifts inside it (cheap on AVX2: no lane crossing), then
     * the first half's total added to the second */
    T8 s = v + (T8)(z.s0, v.s012, z.s0, v.s456);
    s += (T8)(z.s01, s.s01, z.s01, s.s45);
    s += (T8)(z.s0123, s.s3333); /* s: the step's inclusive sums */
    const T8 c = (T8)(carry);
    if (inclusive)
      vstore8(s + c, 0, q + i);
    else
      vstore8((T8)(z.s0, s.s0123, s.s456) + c, 0, q + i);
    carry += s.s7;
  }
  for (; i < end; i++) {
    const T x = p[i];
    q[i] = inclusive ? carry + x : carry;
    carry += x;
  }
}
