/* map_read: amp_array_view_map_read and amp_array_view_unmap (runtime/data/array_view_map.c).
 *
 *  - data a kernel wrote on POCL's CPU device is read in place: the right values, and no copy to
 *    the host (the device shares the host's memory), while the caller's host memory keeps its old
 *    contents;
 *  - while mapped, kernels may read the data, and everything that would write it is refused with
 *    AMP_ERROR_ACCESS_DENIED, naming the map, with the data unchanged; after unmap it works again;
 *  - data the host holds maps to the host memory itself; data on no single location is gathered;
 *  - bad input: a second map, unmap when not mapped, a section that is not contiguous, NULL;
 *  - releasing the last view while mapped unmaps (amp_cl_objects_live: no buffer left behind). */
#include "check.h"

static const char *src = "__kernel void fill(AMP_VIEW(int, v), int x) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(v, i[0]) = x + i[0];\n"
                         "}\n"
                         "__kernel void copy(AMP_CONST_VIEW(int, a), AMP_VIEW(int, b)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(b, i[0]) = amp_at(a, i[0]);\n"
                         "}\n";

enum { N = 1000 };

static int count_bad(const int *p, int base) {
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += p[i] != base + i;
  return bad;
}

int main(void) {
  amp_accelerator_view *av = test_view();
  amp_kernel *fill = test_kernel(src, NULL, "fill"), *copy = test_kernel(src, NULL, "copy");
  if (!av || !fill || !copy)
    return 1;
  amp_accelerator *acc = NULL;
  amp_accelerator_properties props;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  CHECK_OK(amp_accelerator_get_properties(acc, &props));

  static int host[N], other[N];
  for (int i = 0; i < N; i++)
    host[i] = -1;
  amp_array_view *v = NULL, *w = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, host, &v));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, other, &w));
  amp_arg fa[] = {amp_arg_view(v), amp_arg_int(100)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), fill, fa, 2));

  /* in place: right values, nothing copied to the host on a shared-memory device */
  CHECK_OK(amp_transfer_stats_reset());
  const int *p = NULL;
  CHECK_OK(amp_array_view_map_read(v, (const void **)&p));
  CHECK(p != NULL && p != host);
  if (p)
    CHECK_EQ_INT(count_bad(p, 100), 0);
  amp_transfer_stats st = test_stats(NULL);
  if (props.supports_cpu_shared_memory)
    CHECK_EQ_INT(st.to_host_count, 0);
  CHECK_EQ_INT(host[0], -1); /* the caller's memory was not written */

  /* while mapped: reading is fine, writing is refused and changes nothing */
  amp_arg ca[] = {amp_arg_view(v), amp_arg_view(w)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), copy, ca, 2));
  CHECK_OK(amp_array_view_synchronize(w));
  CHECK_EQ_INT(count_bad(other, 100), 0);
  amp_arg fb[] = {amp_arg_view(v), amp_arg_int(7)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), fill, fb, 2), AMP_ERROR_ACCESS_DENIED);
  CHECK_MSG("amp_array_view_unmap");
  CHECK_STATUS(amp_array_view_discard_data(v), AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_array_view_synchronize_access(v, AMP_ACCESS_READ_WRITE),
               AMP_ERROR_ACCESS_DENIED);
  CHECK_STATUS(amp_array_view_synchronize_access(v, AMP_ACCESS_WRITE), AMP_ERROR_ACCESS_DENIED);
  amp_array_view *sec = NULL;
  CHECK_OK(amp_array_view_section(v, amp_index1(10), amp_extent1(20), &sec));
  CHECK_STATUS(amp_array_view_map_read(sec, (const void **)&p), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("mapped already");
  if (p)
    CHECK_EQ_INT(count_bad(p, 100), 0); /* still the data a kernel wrote */
  CHECK_OK(amp_array_view_unmap(sec));  /* through another view of the same data */
  CHECK_STATUS(amp_array_view_unmap(v), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("not mapped");

  /* after unmap: writes work again, and the next map sees them */
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), fill, fb, 2));
  CHECK_OK(amp_array_view_map_read(v, (const void **)&p));
  if (p)
    CHECK_EQ_INT(count_bad(p, 7), 0);
  CHECK_OK(amp_array_view_unmap(v));

  /* held by the host: the host memory itself */
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_OK(amp_array_view_map_read(v, (const void **)&p));
  CHECK(p == host);
  CHECK_OK(amp_array_view_unmap(v));
  /* a section of it maps to its own first element */
  CHECK_OK(amp_array_view_map_read(sec, (const void **)&p));
  CHECK(p == host + 10);
  CHECK_OK(amp_array_view_unmap(sec));

  /* bad input */
  enum { R = 8, C = 8 };
  static int grid[R * C];
  amp_array_view *g = NULL, *col = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(R, C), AMP_INT32, grid, &g));
  CHECK_OK(amp_array_view_section(g, amp_index2(0, 2), amp_extent2(R, 3), &col));
  CHECK_STATUS(amp_array_view_map_read(col, (const void **)&p), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("contiguous");
  CHECK_STATUS(amp_array_view_map_read(v, NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_array_view_map_read(NULL, (const void **)&p), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_array_view_unmap(NULL), AMP_ERROR_INVALID_HANDLE);

  /* released while mapped: unmapped and freed */
  long long mem_before = -1, mem_after = -1;
  CHECK_OK(amp_cl_objects_live(AMP_CL_MEM, &mem_before, NULL));
  amp_array_view *e = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, other, &e));
  amp_arg fe[] = {amp_arg_view(e), amp_arg_int(3)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), fill, fe, 2));
  CHECK_OK(amp_array_view_map_read(e, (const void **)&p));
  CHECK_OK(amp_array_view_release(e)); /* its last release also brings the data home */
  CHECK_EQ_INT(count_bad(other, 3), 0);
  CHECK_OK(amp_cl_objects_live(AMP_CL_MEM, &mem_after, NULL));
  CHECK_EQ_INT(mem_after, mem_before);

  amp_array_view_release(col);
  amp_array_view_release(g);
  amp_array_view_release(sec);
  amp_array_view_release(w);
  amp_array_view_release(v);
  amp_kernel_release(fill);
  amp_kernel_release(copy);
  return check_done();
}
