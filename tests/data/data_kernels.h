/* tests/data/data_kernels.h: kernels that several of the data movement tests run, as OpenCL C
 * source for a test to join into its own program source. */
#ifndef AMPCL_TESTS_DATA_KERNELS_H
#define AMPCL_TESTS_DATA_KERNELS_H

/* add1: every element of a rank-1 int view plus 1. */
#define KERNEL_ADD1                                                                                \
  "__kernel void add1(AMP_VIEW(int, v)) {\n"                                                       \
  "  AMP_INDEX1(i);\n"                                                                             \
  "  amp_at(v, i[0]) += 1;\n"                                                                      \
  "}\n"

/* add1_2: the same at rank 2. */
#define KERNEL_ADD1_2                                                                              \
  "__kernel void add1_2(AMP_VIEW(int, v)) {\n"                                                     \
  "  AMP_INDEX2(i);\n"                                                                             \
  "  amp_at(v, i[0], i[1]) += 1;\n"                                                                \
  "}\n"

/* fill: v[i] = base + i, of rank 1. */
#define KERNEL_FILL                                                                                \
  "__kernel void fill(AMP_VIEW(int, v), int base) {\n"                                             \
  "  AMP_INDEX1(i);\n"                                                                             \
  "  amp_at(v, i[0]) = base + i[0];\n"                                                             \
  "}\n"

/* twice: out = 2 in, of rank 1, reading a read-only view. */
#define KERNEL_TWICE                                                                               \
  "__kernel void twice(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out)) {\n"                           \
  "  AMP_INDEX1(i);\n"                                                                             \
  "  amp_at(out, i[0]) = 2 * amp_at(in, i[0]);\n"                                                  \
  "}\n"

#endif /* AMPCL_TESTS_DATA_KERNELS_H */
