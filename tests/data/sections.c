/* sections: views without a source, and views of views (docs/MODEL.md, data movement rules
 * 1, 2 and 10).
 *
 * Proves that
 *   - rule 1: a view made from an extent alone copies nothing in at its first use; a kernel
 *     writes it, and amp_array_view_data() returns host memory holding the results;
 *   - rule 2: a kernel using a section copies in only the bytes the section covers;
 *   - rule 10: sections of rank 1, 2 and 3, projections (a row of rank 2, a plane of rank 3, a row
 *     of a section), view_as (rank 1 -> 2) and reinterpret_as (float -> int bits, uint32 -> a
 *     4-byte struct) alias the same data: a kernel indexing them with amp_at() changes exactly the
 *     elements they cover, and the parent sees it after synchronize. Two disjoint sections of one
 *     source used in one kernel (read one, write the other) work; synchronizing a section copies
 *     back exactly that section's bytes. reinterpret_as with sizes that do not divide fails. */
#include "check.h"
#include "data_kernels.h"

static const char *src = "__kernel void add1_1(AMP_VIEW(int, v)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(v, i[0]) += 1;\n"
                         "}\n"
                         "__kernel void add1_3(AMP_VIEW(int, v)) {\n"
                         "  AMP_INDEX3(i);\n"
                         "  amp_at(v, i[0], i[1], i[2]) += 1;\n"
                         "}\n"
                         "__kernel void set2(AMP_VIEW(int, v)) {\n"
                         "  AMP_INDEX2(i);\n"
                         "  amp_at(v, i[0], i[1]) = i[0] * 100 + i[1];\n"
                         "}\n"
                         "__kernel void neg_copy2(AMP_CONST_VIEW(int, from), AMP_VIEW(int, to)) {\n"
                         "  AMP_INDEX2(i);\n"
                         "  amp_at(to, i[0], i[1]) = -amp_at(from, i[0], i[1]);\n"
                         "}\n"
                         "__kernel void flip_sign_bit(AMP_VIEW(int, v)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(v, i[0]) ^= (int)0x80000000u;\n"
                         "}\n"
                         "typedef struct { ushort lo; ushort hi; } pair16;\n"
                         "__kernel void swap_halves(AMP_VIEW(pair16, p)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  pair16 x = amp_at(p, i[0]);\n"
                         "  ushort t = x.lo; x.lo = x.hi; x.hi = t;\n"
                         "  amp_at(p, i[0]) = x;\n"
                         "}\n" KERNEL_FILL KERNEL_ADD1_2;

typedef struct pair16 {
  unsigned short lo, hi;
} pair16;

static amp_kernel *k_fill, *k_add1_1, *k_add1_2, *k_add1_3, *k_set2, *k_neg_copy2, *k_flip, *k_swap;

/* Rule 1: an empty view's first use copies nothing; data() gives host memory with the results. */
static void empty_view(amp_accelerator_view *av) {
  enum { N = 1000 };
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create_empty(amp_extent1(N), AMP_INT32, &v));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent1(N), k_fill, amp_arg_view(v), amp_arg_int(7)));
  CHECK_COUNTS(NULL, 0, 0, 0);
  int *p = NULL;
  CHECK_OK(amp_array_view_data(v, (void **)&p));
  CHECK(p != NULL);
  CHECK_COUNTS(NULL, 0, 1, 0);
  CHECK_EQ_INT(test_stats(NULL).to_host_bytes, N * sizeof(int));
  int bad = 0;
  for (int i = 0; p && i < N; i++)
    bad += p[i] != 7 + i;
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(v));

  /* An empty rank-2 view seen through a section: the section's first use copies nothing either. */
  amp_array_view *e2 = NULL, *sec = NULL;
  CHECK_OK(amp_array_view_create_empty(amp_extent2(8, 8), AMP_INT32, &e2));
  CHECK_OK(amp_array_view_section(e2, amp_index2(2, 2), amp_extent2(4, 4), &sec));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent2(4, 4), k_set2, amp_arg_view(sec)));
  CHECK_COUNTS(NULL, 0, 0, 0);
  /* data() exists for rank 1 only (as in AMP): a rank-2 section is read with a copy */
  int *q = NULL, got[16];
  CHECK_STATUS(amp_array_view_data(sec, (void **)&q), AMP_ERROR_RANK_MISMATCH);
  CHECK_OK(amp_copy_from_view(sec, got, sizeof got));
  CHECK_EVERY2(i, 4, j, 4, got[i * 4 + j] == i * 100 + j);
  CHECK_EQ_INT(test_stats(NULL).to_host_bytes, 4 * 4 * sizeof(int));
  CHECK_OK(amp_array_view_release(sec));
  CHECK_OK(amp_array_view_release(e2));
}

/* d[i][j] = i * 10 + j + first: every element of the grid differs from the others. */
static void number_grid(int d[10][10], int first) {
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++)
      d[i][j] = i * 10 + j + first;
}

/* Rules 2 and 10: a 3x4 section at (2,5) of a 10x10 view; exactly its elements change. */
static void section_rank2(amp_accelerator_view *av) {
  static int d[10][10];
  number_grid(d, 0);
  amp_array_view *v = NULL, *s = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(10, 10), AMP_INT32, d, &v));
  CHECK_OK(amp_array_view_section(v, amp_index2(2, 5), amp_extent2(3, 4), &s));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent2(3, 4), k_add1_2, amp_arg_view(s)));
  /* Only the section's bytes go in: three rows of four ints, 40 bytes apart, in one rectangular
   * copy; and back the same way. */
  CHECK_EQ_INT(test_stats(NULL).to_device_bytes, 3 * 4 * sizeof(int));
  CHECK_EQ_INT(test_stats(NULL).to_device_count, 1);
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EQ_INT(test_stats(NULL).to_host_bytes, 3 * 4 * sizeof(int));
  CHECK_EQ_INT(test_stats(NULL).to_host_count, 1);
  int bad = 0;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++) {
      int in = i >= 2 && i < 5 && j >= 5 && j < 9;
      bad += d[i][j] != i * 10 + j + in;
    }
  CHECK_EQ_INT(bad, 0);

  /* A projection of the section: its row 1 is row 3, columns 5..8, of the parent. */
  amp_array_view *row = NULL;
  CHECK_OK(amp_array_view_project(s, 1, &row));
  amp_extent re = {0, {0, 0, 0}};
  CHECK_OK(amp_array_view_get_extent(row, &re));
  CHECK(re.rank == 1 && re.dim[0] == 4);
  CHECK_OK(TEST_RUN(av, amp_extent1(4), k_add1_1, amp_arg_view(row)));
  CHECK_OK(amp_array_view_synchronize(v));
  bad = 0;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++) {
      int in = (i >= 2 && i < 5 && j >= 5 && j < 9) + (i == 3 && j >= 5 && j < 9);
      bad += d[i][j] != i * 10 + j + in;
    }
  CHECK_EQ_INT(bad, 0);
  CHECK_RELEASE_VIEWS(row, s, v);
}

static void section_rank1_and_3(amp_accelerator_view *av) {
  static int a[20];
  for (int i = 0; i < 20; i++)
    a[i] = i;
  amp_array_view *v = NULL, *s = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(20), AMP_INT32, a, &v));
  CHECK_OK(amp_array_view_section(v, amp_index1(7), amp_extent1(5), &s));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent1(5), k_add1_1, amp_arg_view(s)));
  CHECK_EQ_INT(test_stats(NULL).to_device_bytes, 5 * sizeof(int));
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = 0;
  for (int i = 0; i < 20; i++)
    bad += a[i] != i + (i >= 7 && i < 12);
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(s));
  CHECK_OK(amp_array_view_release(v));

  /* Rank 3: 4x5x6, section at (1,2,3) of 2x2x3; then plane 2 as a rank-2 projection. */
  static int c[4][5][6];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      for (int k = 0; k < 6; k++)
        c[i][j][k] = (i * 5 + j) * 6 + k;
  amp_array_view *v3 = NULL, *s3 = NULL, *plane = NULL;
  CHECK_OK(amp_array_view_create(amp_extent3(4, 5, 6), AMP_INT32, c, &v3));
  CHECK_OK(amp_array_view_section(v3, amp_index3(1, 2, 3), amp_extent3(2, 2, 3), &s3));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent3(2, 2, 3), k_add1_3, amp_arg_view(s3)));
  CHECK_EQ_INT(test_stats(NULL).to_device_bytes, 2 * 2 * 3 * sizeof(int));
  CHECK_OK(amp_array_view_project(v3, 2, &plane));
  amp_extent pe = {0, {0, 0, 0}};
  CHECK_OK(amp_array_view_get_extent(plane, &pe));
  CHECK(pe.rank == 2 && pe.dim[0] == 5 && pe.dim[1] == 6);
  CHECK_OK(TEST_RUN(av, amp_extent2(5, 6), k_add1_2, amp_arg_view(plane)));
  CHECK_OK(amp_array_view_synchronize(v3));
  bad = 0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      for (int k = 0; k < 6; k++) {
        int in = (i >= 1 && i < 3 && j >= 2 && j < 4 && k >= 3 && k < 6) + (i == 2);
        bad += c[i][j][k] != (i * 5 + j) * 6 + k + in;
      }
  CHECK_EQ_INT(bad, 0);
  CHECK_RELEASE_VIEWS(plane, s3, v3);
}

/* view_as (rank 1 -> 2) and reinterpret_as (float -> int, uint32 -> struct). */
static void reshapes(amp_accelerator_view *av) {
  static int lin[12];
  for (int i = 0; i < 12; i++)
    lin[i] = -1;
  amp_array_view *v = NULL, *m = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(12), AMP_INT32, lin, &v));
  CHECK_OK(amp_array_view_view_as(v, amp_extent2(3, 4), &m));
  CHECK_OK(TEST_RUN(av, amp_extent2(3, 4), k_set2, amp_arg_view(m)));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EVERY2(i, 3, j, 4, lin[i * 4 + j] == i * 100 + j);
  CHECK_OK(amp_array_view_release(m));
  CHECK_OK(amp_array_view_release(v));

  static float f[8];
  for (int i = 0; i < 8; i++)
    f[i] = 1.5f * (float)(i + 1);
  amp_array_view *vf = NULL, *vi = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(8), AMP_FLOAT, f, &vf));
  CHECK_OK(amp_array_view_reinterpret_as(vf, AMP_INT32, &vi));
  amp_extent ie = {0, {0, 0, 0}};
  CHECK_OK(amp_array_view_get_extent(vi, &ie));
  CHECK(ie.rank == 1 && ie.dim[0] == 8);
  CHECK_OK(TEST_RUN(av, amp_extent1(8), k_flip, amp_arg_view(vi)));
  CHECK_OK(amp_array_view_synchronize(vf));
  CHECK_EVERY(i, 8, f[i] == -1.5f * (float)(i + 1));
  CHECK_OK(amp_array_view_release(vi));
  CHECK_OK(amp_array_view_release(vf));

  static uint32_t u[16];
  for (int i = 0; i < 16; i++)
    u[i] = 0x00010000u * (uint32_t)(i + 1) + (uint32_t)(0x100 + i);
  amp_array_view *vu = NULL, *vp = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(16), AMP_UINT32, u, &vu));
  CHECK_OK(amp_array_view_reinterpret_as(vu, AMP_STRUCT(pair16), &vp));
  CHECK_OK(TEST_RUN(av, amp_extent1(16), k_swap, amp_arg_view(vp)));
  CHECK_OK(amp_array_view_synchronize(vu));
  CHECK_EVERY(i, 16, u[i] == 0x00010000u * (uint32_t)(0x100 + i) + (uint32_t)(i + 1));
  CHECK_OK(amp_array_view_release(vp));

  /* Sizes that do not divide: 5 floats (20 bytes) as doubles, 16 uint32 as 3-byte structs. */
  typedef struct three {
    unsigned char b[3];
  } three;
  amp_array_view *v5 = NULL, *bad_out = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(5), AMP_FLOAT, f, &v5));
  CHECK_STATUS(amp_array_view_reinterpret_as(v5, AMP_DOUBLE, &bad_out), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("divide");
  CHECK_STATUS(amp_array_view_reinterpret_as(vu, AMP_STRUCT(three), &bad_out),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK(bad_out == NULL);
  CHECK_OK(amp_array_view_release(v5));
  CHECK_OK(amp_array_view_release(vu));
}

/* Two disjoint sections of one source in one kernel, and a section's synchronize. */
static void aliasing(amp_accelerator_view *av) {
  static int d[10][10];
  number_grid(d, 1);
  amp_array_view *v = NULL, *top = NULL, *bottom = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(10, 10), AMP_INT32, d, &v));
  CHECK_OK(amp_array_view_section(v, amp_index2(0, 0), amp_extent2(5, 10), &top));
  CHECK_OK(amp_array_view_section(v, amp_index2(5, 0), amp_extent2(5, 10), &bottom));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(TEST_RUN(av, amp_extent2(5, 10), k_neg_copy2, amp_arg_view(top), amp_arg_view(bottom)));
  /* Both halves go in (the written one too: there is no write-only capture, rule 5). */
  CHECK_EQ_INT(test_stats(NULL).to_device_bytes, 100 * sizeof(int));
  CHECK_OK(amp_array_view_synchronize(v));
  /* Only the written half comes back; the read half is still valid on the host. */
  CHECK_EQ_INT(test_stats(NULL).to_host_bytes, 50 * sizeof(int));
  CHECK_EVERY2(i, 10, j, 10, d[i][j] == (i < 5 ? i * 10 + j + 1 : -((i - 5) * 10 + j + 1)));
  CHECK_OK(amp_array_view_release(top));
  CHECK_OK(amp_array_view_release(bottom));

  /* The whole view written on the device; synchronizing a 3x4 section brings back 48 bytes. */
  amp_array_view *s = NULL;
  CHECK_OK(amp_array_view_section(v, amp_index2(2, 5), amp_extent2(3, 4), &s));
  CHECK_OK(TEST_RUN(av, amp_extent2(10, 10), k_set2, amp_arg_view(v)));
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_synchronize(s));
  CHECK_EQ_INT(test_stats(NULL).to_host_bytes, 3 * 4 * sizeof(int));
  CHECK_EVERY2(i, 3, j, 4, d[2 + i][5 + j] == (2 + i) * 100 + 5 + j); /* the section's */
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EQ_INT(test_stats(NULL).to_host_bytes, (100 - 12) * sizeof(int));
  CHECK_EVERY2(i, 10, j, 10, d[i][j] == i * 100 + j);
  CHECK_OK(amp_array_view_release(s));
  CHECK_OK(amp_array_view_release(v));
}

static const test_named_kernel kernels[] = {{&k_fill, "fill"},          {&k_add1_1, "add1_1"},
                                            {&k_add1_2, "add1_2"},      {&k_add1_3, "add1_3"},
                                            {&k_set2, "set2"},          {&k_neg_copy2, "neg_copy2"},
                                            {&k_flip, "flip_sign_bit"}, {&k_swap, "swap_halves"}};

static test_part *const parts[] = {empty_view, section_rank2, section_rank1_and_3, reshapes,
                                   aliasing};

int main(void) {
  return TEST_MAIN_PARTS(src, kernels, parts);
}
