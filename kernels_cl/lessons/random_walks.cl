/* random_walks.cl: random numbers in a kernel, the prelude's Philox-4x32-10
 * (kernels_cl/prelude/ampcl_random.h). A lesson beside the matmul course; tests/lessons/
 * prelude_lessons.c checks it.
 *
 * What it computes: walker w takes `steps` steps of +1 or -1, each way with probability 1/2,
 * starting from 0, and ends[w] is where it ends. After n steps a walker is on average at 0, and
 * the mean of its square is n: the spread grows as sqrt(n).
 *
 * The idea: a counter-based generator has no state to keep between launches or to share between
 * threads. amp_random_make(seed, w) is walker w's stream: block k of it is a function of (k, w,
 * seed) alone, 128 random bits. So no two walkers share numbers, a run with the same seed draws
 * the same numbers on any device, and the host can follow any one walker with the same functions
 * (include/ampcl/random.h) to check it, which the test does for every walker.
 *
 * One random word gives 32 steps, one per bit (a set bit is +1): popcount counts the +1s, so
 * 32 steps cost one add. The last word of a walk whose length is not a multiple of 32 keeps its
 * low bits only.
 *
 * Launch: an untiled launch over the walkers,
 *     amp_arg args[] = {amp_arg_view(ends), amp_arg_uint(seed), amp_arg_int(steps)};
 *     amp_parallel_for_each(av, amp_extent1(walkers), k, args, AMP_NARGS(args));
 */
__kernel void random_walks(AMP_VIEW(int, ends), uint seed, int steps) {
  AMP_INDEX1(idx);
  amp_random r = amp_random_make(seed, (ulong)idx[0]);
  int position = 0;
  for (int done = 0; done < steps; done += 32) {
    uint bits = amp_random_uint(&r);
    const int n = min(32, steps - done);
    if (n < 32)
      bits &= (1u << n) - 1u;
    position += 2 * (int)popcount(bits) - n; /* +1 per set bit, -1 per clear one */
  }
  amp_at(ends, idx[0]) = position;
}
