/* ampcl kernel prelude, part 4 of 4: checked view access, for debug mode.
 *
 * C++ AMP's reference (REF) accelerator existed to catch kernel bugs. ampcl's debug mode does the
 * same for the commonest one, an index outside a view. When AMP_DEBUG is set in the environment
 * (to anything but 0), the runtime builds every program with -DAMP_DEBUG=1, and then:
 *
 *   - AMP_VIEW(T, v) and AMP_CONST_VIEW(T, v) declare a third parameter, v_debug, which the
 *     runtime points at a record for the launch;
 *   - amp_at() and AMP_AT_INDEXN() check every index against the view's extent (and the number of
 *     indexes against its rank). A bad access is recorded (the first one in full: view, index,
 *     source line, work item; the others counted) and redirected to a dummy element, so it reads
 *     garbage and writes nowhere that matters instead of corrupting memory;
 *   - the launch waits for the kernel, reads the record and fails with AMP_ERROR_OUT_OF_RANGE,
 *     naming the view, the index, the line and the work item.
 *
 * Only accesses through amp_at() and AMP_AT_INDEXN() are checked; a kernel that does its own
 * arithmetic on v_data is not. A helper function that takes a view as AMP_VIEW(T, v) must be
 * called with AMP_VIEW_ARG(v), which passes whatever the view's parameters are in either mode.
 * Kernels can test `#ifdef AMP_DEBUG` themselves.
 *
 * Robust mode (AMP_ROBUST=1 in the environment, without AMP_DEBUG; docs/CHECKING.md) builds
 * programs with -DAMP_ROBUST=1: the same third parameter and checks, but a bad access is neither
 * recorded nor reported. It reads 0 and its write is dropped, as out-of-range accesses behave in
 * C++ AMP on Direct3D: it is sent to a slot of its own work item (record int 16 is the number of
 * slots, int 17 their size in bytes), which is zeroed first. */
#ifndef AMPCL_DEBUG_H
#define AMPCL_DEBUG_H

/* The record, in ints (runtime/exec/launch_debug.c reads the same layout):
 *   [0] [1] bad accesses, low and high 32 bits     [2] set by the first bad access
 *   [3] the view's argument position (shape.s6)    [4] how many indexes were given
 *   [5..7] the indexes                             [8] the source line
 *   [9] the launch's rank                          [10..12] global id (AMP order)
 *                                                  [13..15] local id (AMP order)
 *   [16] robust mode: slots   [17] their bytes     [18] [19] the views' positions (shape.s6)
 *                                                  with bad accesses, one bit each below 64
 *   [20..31] debug mode: the first accesses that found an element holding discarded data's
 *            poison (runtime/data/poison.c), one per source line, 4 lines at most: each 3 ints,
 *            the line (0: free), the view's position (shape.s6), the element's offset
 * and from int 32 (byte 128) on, the dummy element (robust mode: the slots). */
#define AMP__DEBUG_DUMMY 32

#if defined(AMP_DEBUG) || defined(AMP_ROBUST)
#undef AMP_VIEW
#undef AMP_CONST_VIEW
#undef AMP_VIEW_ARG
#undef AMP__AT1
#undef AMP__AT2
#undef AMP__AT3
#define AMP_VIEW(T, v) __global T *v##_data, const int8 v##_shape, __global int *v##_debug
#define AMP_CONST_VIEW(T, v)                                                                       \
  __global const T *v##_data, const int8 v##_shape, __global int *v##_debug
#define AMP_VIEW_ARG(v) v##_data, v##_shape, v##_debug

#if defined(AMP_DEBUG)
/* An access at `line` to element `off` of the view at position `view`: where the element holds the
 * poison debug mode fills discarded data with (the kernel cannot tell a read from a write, so
 * both are noted), its line takes one of the record's 4 slots unless it has one. After the kernel
 * the runtime names the lines whose element still holds the poison: the reads before a write. */
static void amp__note_poison(__global int *rec, __global const char *e, size_t size, int view,
                             long off, int line) {
  int poisoned = 1;
  if (size == 4)
    poisoned = (*(__global const uint *)e & 0x7FBFFFFFu) == 0x7FA5A5A5u;
  else if (size == 8)
    poisoned = (*(__global const ulong *)e & 0x7FF7FFFFFFFFFFFFul) == 0x7FF4A5A5A5A5A5A5ul;
  else
    for (size_t b = 0; b < size && poisoned; b++)
      poisoned = (uchar)e[b] == 0xA5;
  if (!poisoned || off > 0x7fffffffL)
    return;
  for (int s = 20; s < 32; s += 3) {
    int had = rec[s];
    if (had == 0)
      had = atomic_cmpxchg(&rec[s], 0, line);
    if (had == 0) {
      rec[s + 1] = view;
      rec[s + 2] = (int)off;
      return;
    }
    if (had == line)
      return;
  }
}
#endif

/* The element's address when (i, j, k)'s first n are inside the view, else the dummy's after
 * recording the access (robust mode: its work item's slot, zeroed, unrecorded). */
static __global char *amp__checked_at(__global char *data, __global int *rec, size_t size,
                                      int8 shape, int n, int i, int j, int k, int line) {
  const int rank = shape.s7;
  if (n == rank && i >= 0 && i < shape.s0 && (n < 2 || (j >= 0 && j < shape.s1)) &&
      (n < 3 || (k >= 0 && k < shape.s2))) {
    long off = shape.s3;
    if (n == 1)
      off += i;
    else if (n == 2)
      off += (long)i * shape.s4 + j;
    else
      off += (long)i * shape.s4 + (long)j * shape.s5 + k;
#if defined(AMP_DEBUG)
    amp__note_poison(rec, data + off * (long)size, size, shape.s6, off, line);
#endif
    return data + off * (long)size;
  }
#if defined(AMP_ROBUST) && !defined(AMP_DEBUG)
  (void)line;
  const size_t linear =
      get_global_id(0) +
      get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
  __global char *slot =
      (__global char *)(rec + AMP__DEBUG_DUMMY) + (linear % (size_t)rec[16]) * (size_t)rec[17];
  for (size_t b = 0; b < size; b++)
    slot[b] = 0;
  return slot;
#else
  if (shape.s6 >= 0 && shape.s6 < 64)
    atomic_or(&rec[18 + shape.s6 / 32], 1 << (shape.s6 % 32));
  if (atomic_inc((volatile __global uint *)&rec[0]) == 0xffffffffu)
    atomic_inc(&rec[1]);
  if (atomic_cmpxchg(&rec[2], 0, 1) == 0) {
    const int dims = (int)get_work_dim();
    rec[3] = shape.s6;
    rec[4] = n;
    rec[5] = i;
    rec[6] = j;
    rec[7] = k;
    rec[8] = line;
    rec[9] = dims;
    for (int d = 0; d < dims && d < 3; d++) {
      rec[10 + d] = (int)get_global_id(dims - 1 - d);
      rec[13 + d] = (int)get_local_id(dims - 1 - d);
    }
  }
  return (__global char *)(rec + AMP__DEBUG_DUMMY);
#endif
}

#define AMP__CHECKED(v, n, i, j, k)                                                                \
  (*(__typeof__(v##_data))amp__checked_at((__global char *)(v##_data), v##_debug,                  \
                                          sizeof(*(v##_data)), v##_shape, n, i, j, k, __LINE__))
#define AMP__AT1(v, i)       AMP__CHECKED(v, 1, (i), 0, 0)
#define AMP__AT2(v, i, j)    AMP__CHECKED(v, 2, (i), (j), 0)
#define AMP__AT3(v, i, j, k) AMP__CHECKED(v, 3, (i), (j), (k))
#endif /* AMP_DEBUG || AMP_ROBUST */

#endif /* AMPCL_DEBUG_H */
