/* tests/oclgrind/catches.c: proof that the oclgrind runs can fail. Run under oclgrind only
 * (tests/oclgrind/CMakeLists.txt): `oob` launches a kernel whose last work item writes one element
 * past its view, `race` one whose work items all write the same tile_static int before a barrier,
 * `uninit` one whose odd work items copy a tile_static int nobody wrote to its view, `discarded`
 * one that adds 1 to each element of a view whose data was discarded (global memory nobody
 * wrote: whole_writes.so must not hide it). grind.sh must report each by the rules that fail
 * every other oclgrind run (the ctest passes on its message); on a real device these kernels would
 * corrupt memory or give unspecified results, so the normal suite never runs them. */
#include "check.h"

static const char *src = "__kernel void oob(AMP_VIEW(int, v)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(v, i[0] + 1) = i[0];\n" /* the last item writes at n */
                         "}\n"
                         "__kernel void race(AMP_VIEW(int, v)) {\n"
                         "  AMP_TILED_INDEX1(idx);\n"
                         "  tile_static int t[1];\n"
                         "  t[0] = idx.local_id[0];\n" /* every item of the tile, at once */
                         "  amp_barrier_wait();\n"
                         "  amp_at(v, idx.global_id[0]) = t[0];\n"
                         "}\n"
                         "__kernel void uninit(AMP_VIEW(int, v)) {\n"
                         "  AMP_TILED_INDEX1(idx);\n"
                         "  tile_static int t[2];\n"
                         "  if (idx.local_id[0] == 0)\n"
                         "    t[0] = 1;\n" /* t[1] is never written, and odd items read it */
                         "  amp_barrier_wait();\n"
                         "  amp_at(v, idx.global_id[0]) = t[idx.local_id[0] & 1];\n"
                         "}\n"
                         "__kernel void discarded(AMP_VIEW(int, v)) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(v, i[0]) += 1;\n" /* v's data was discarded: never written */
                         "}\n";

int main(int argc, char **argv) {
  static const char *const bugs[] = {"oob", "race", "uninit", "discarded"};
  int known = 0;
  for (size_t b = 0; argc == 2 && b < sizeof bugs / sizeof bugs[0]; b++)
    known |= strcmp(argv[1], bugs[b]) == 0;
  if (!known) {
    fprintf(stderr, "usage: %s oob|race|uninit|discarded (under oclgrind only)\n", argv[0]);
    return 2;
  }
  REQUIRE_VIEW(av);
  enum { N = 64 };
  int host[N] = {0};
  amp_array_view *v = NULL;
  amp_kernel *k = test_kernel(src, NULL, argv[1]);
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, host, &v));
  amp_arg a[] = {amp_arg_view(v)};
  if (strcmp(argv[1], "discarded") == 0)
    CHECK_OK(amp_array_view_discard_data(v));
  if (strcmp(argv[1], "oob") == 0 || strcmp(argv[1], "discarded") == 0)
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, a, 1));
  else
    CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 16), k, a, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  amp_array_view_release(v);
  amp_kernel_release(k);
  return check_done();
}
