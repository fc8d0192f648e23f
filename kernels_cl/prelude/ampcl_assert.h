/* ampcl kernel prelude, part 5: amp_assert, in every mode.
 *
 * A kernel that asserts declares AMP_ASSERTS as its last parameter; the runtime passes it a record
 * for the launch (the user passes no argument for it) and, after the kernel, turns a failed
 * assert into AMP_ERROR_ASSERT_FAILED naming the condition, the source line and the first failing
 * work item:
 *
 *   __kernel void k(AMP_VIEW(float, a), int n, AMP_ASSERTS) {
 *     AMP_INDEX1(idx);
 *     amp_assert(idx[0] < n);
 *     ...
 *   }
 *
 * A failed assert does not stop its work item (OpenCL C has no way to): the kernel runs to its
 * end. Which failure is reported does not depend on timing: every source line has a slot holding
 * the smallest linear index (AMP order, row-major) of a work item that failed there (atomic_min),
 * and the runtime reports the smallest over all lines (on a tie, the smallest line). A helper
 * function that asserts takes AMP_ASSERTS too and is called with AMP_ASSERTS_ARG. */
#ifndef AMPCL_ASSERT_H
#define AMPCL_ASSERT_H

/* The record, in ints (runtime/exec/launch_assert.c reads the same layout):
 *   [0] failed asserts (saturating at 0x7fffffff)   [1] how many line slots follow
 *   [2 + line] the smallest linear index that failed at that source line, 0xffffffff if none;
 *              lines past the last slot share it. */
#define AMP_ASSERTS     __global int *amp__asserts
#define AMP_ASSERTS_ARG amp__asserts

static void amp__assert_failed(__global int *rec, int line) {
  const uint dims = get_work_dim();
  uint lin = 0;
  for (uint d = dims; d-- > 0;) /* OpenCL's last dimension is AMP's first */
    lin = lin * (uint)get_global_size(d) + (uint)get_global_id(d);
  if (atomic_inc(&rec[0]) < 0)
    atomic_xchg(&rec[0], 0x7fffffff);
  int slots = rec[1];
  int s = line < 0 ? 0 : line >= slots ? slots - 1 : line;
  atomic_min((volatile __global uint *)&rec[2 + s], lin);
}

#define amp_assert(cond)                                                                           \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      amp__assert_failed(amp__asserts, __LINE__);                                                  \
  } while (0)

#endif /* AMPCL_ASSERT_H */
