/* program_cache: the in-memory build cache is bounded and frees what it no longer needs.
 *
 * Run with AMP_PROGRAM_CACHE_MAX=4 (tests/CMakeLists.txt). Builds 40 distinct programs and keeps
 * them all alive: the cached builds (live cl_program objects, amp_cl_objects_live) never exceed
 * 4, while a kernel made first keeps its build through all of it (a build a live kernel uses is
 * never evicted) and still runs. An evicted program builds again when used. Releasing the
 * programs frees their builds; releasing the kernel frees its build: zero live programs and
 * kernels at the end. */
#include "check.h"

enum { NPROG = 40, BOUND = 4 };

static long long live(amp_cl_object_kind kind) {
  long long n = -1;
  CHECK_OK(amp_cl_objects_live(kind, &n, NULL));
  return n;
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_kernel *keep =
      test_kernel("__kernel void twice(AMP_VIEW(int, v)) { AMP_INDEX1(i); amp_at(v, i[0]) *= 2; }",
                  NULL, "twice");
  if (!keep)
    return 1;
  int data[8];
  for (int i = 0; i < 8; i++)
    data[i] = i;
  amp_array_view *v = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(8), AMP_INT32, data, &v));
  amp_arg args[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(8), keep, args, 1));

  amp_accelerator *acc = NULL;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  amp_program *progs[NPROG] = {0};
  long long most = 0;
  for (int i = 0; i < NPROG; i++) {
    char src[128];
    snprintf(src, sizeof src, "__kernel void k%d(__global int *p) { p[0] = %d; }\n", i, i);
    CHECK_OK(amp_program_create(src, NULL, &progs[i]));
    CHECK_OK(amp_program_build(progs[i], acc));
    long long n = live(AMP_CL_PROGRAM);
    most = n > most ? n : most;
  }
  printf("most builds cached at once: %lld (bound %d)\n", most, BOUND);
  CHECK(most <= BOUND);
  CHECK(most >= 2);

  /* the kept kernel's build survived and runs; an evicted program builds again */
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(8), keep, args, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  int bad = 0;
  for (int i = 0; i < 8; i++)
    bad += data[i] != 4 * i;
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_program_build(progs[0], acc));
  CHECK(live(AMP_CL_PROGRAM) <= BOUND);

  for (int i = 0; i < NPROG; i++)
    CHECK_OK(amp_program_release(progs[i]));
  CHECK_EQ_INT(live(AMP_CL_PROGRAM), 1); /* the kept kernel's */
  CHECK_OK(amp_array_view_release(v));
  CHECK_OK(amp_accelerator_view_wait(av));
  CHECK_OK(amp_kernel_release(keep));
  CHECK_EQ_INT(live(AMP_CL_PROGRAM), 0);
  CHECK_EQ_INT(live(AMP_CL_KERNEL), 0);
  return check_done();
}
