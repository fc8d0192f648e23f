/* retire: unit tests of runtime/data/retire.c, where the device buffers of transient temporaries
 * (amp_blas_gemm's scratch) wait for their next user instead of being released while commands may
 * still run.
 *
 * Proves, with a user event standing for the commands that use a buffer: a buffer is not handed out
 * while its commands run, and is once they have ended (also when one failed); only a buffer of the
 * same size on the same accelerator is; a buffer with no commands is free at once; the ninth
 * buffer kept releases the oldest, so the process keeps at most 8 (amp_cl_objects_live's
 * process count), and so does going over 512 MiB; the buffers taken count as the user's again. */
#include "data/retire.h"
#include "check.h"
#include "core/accelerator_impl.h"
#include "core/clobjects.h"

/* A precondition, evaluated once: on failure the rest would only cascade. */
#define REQUIRE(cond)                                                                              \
  do {                                                                                             \
    const int ok_ = (cond);                                                                        \
    CHECK(ok_);                                                                                    \
    if (!ok_)                                                                                      \
      return check_done();                                                                         \
  } while (0)

static long long kept(void) {
  long long user = -1, process = -1;
  CHECK_OK(amp_cl_objects_live(AMP_CL_MEM, &user, &process));
  return process;
}

/* A new buffer of `bytes`, counted as the user's the way source.c counts the ones it makes. */
static cl_mem make(cl_context ctx, size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  CHECK(err == CL_SUCCESS && m);
  amp__clobj(AMP_CL_MEM, 1);
  return m;
}

int main(void) {
  amp_accelerator_view *av;
  REQUIRE_OK(amp_default_view(&av));
  amp_accelerator *acc;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  cl_context ctx;
  REQUIRE_OK(amp__context(acc, &ctx));
  const size_t at = acc->index, other = at + 1;
  const long long k0 = kept();

  /* in use: not handed out; ended: handed out once, to the same size and accelerator only */
  cl_int err = CL_SUCCESS;
  cl_event use = clCreateUserEvent(ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem a = make(ctx, 4096);
  amp__evlist uses = {0};
  REQUIRE(amp__evlist_push(&uses, use) == 0);
  amp__retire(at, a, 4096, &uses);
  CHECK(uses.n == 0 && uses.ev == NULL);
  CHECK(kept() == k0 + 1);
  CHECK(amp__retire_take(at, 4096) == NULL); /* its command has not ended */
  REQUIRE(clSetUserEventStatus(use, CL_COMPLETE) == CL_SUCCESS);
  CHECK(amp__retire_take(at, 4095) == NULL);
  CHECK(amp__retire_take(other, 4096) == NULL);
  cl_mem got = amp__retire_take(at, 4096);
  CHECK(got == a);
  CHECK(kept() == k0);
  CHECK(amp__retire_take(at, 4096) == NULL); /* handed out once */

  /* a command that failed has ended too; a buffer with no commands is free at once */
  cl_event bad = clCreateUserEvent(ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(amp__evlist_push(&uses, bad) == 0);
  amp__retire(at, got, 4096, &uses);
  REQUIRE(clSetUserEventStatus(bad, -1) == CL_SUCCESS);
  CHECK(amp__retire_take(at, 4096) == got);
  amp__retire(at, got, 4096, &uses); /* uses is empty */
  CHECK(amp__retire_take(at, 4096) == got);

  /* at most 8 kept: the ninth releases the oldest (waiting for its command, ended here) */
  for (int i = 0; i < 9; i++)
    amp__retire(at, i == 0 ? got : make(ctx, 1024 * (size_t)(i + 1)), 1024 * (size_t)(i + 1),
                &uses);
  CHECK(kept() == k0 + 8);
  CHECK(amp__retire_take(at, 1024) == NULL); /* the oldest (1024 bytes) went */
  for (int i = 1; i < 9; i++) {
    cl_mem m = amp__retire_take(at, 1024 * (size_t)(i + 1));
    CHECK(m != NULL);
    if (m) {
      clReleaseMemObject(m);
      amp__clobj(AMP_CL_MEM, -1);
    }
  }
  CHECK(kept() == k0);

  /* at most 512 MiB kept: a second buffer of 300 MiB releases the first (the sizes are what the
   * caller says; the buffers here are small) */
  const size_t big = (size_t)300 << 20;
  amp__retire(at, make(ctx, 4096), big, &uses);
  cl_mem second = make(ctx, 4096);
  amp__retire(at, second, big, &uses);
  CHECK(kept() == k0 + 1);
  CHECK(amp__retire_take(at, big) == second);
  CHECK(amp__retire_take(at, big) == NULL);
  if (second) {
    clReleaseMemObject(second);
    amp__clobj(AMP_CL_MEM, -1);
  }
  /* one buffer over the bound alone is released at once */
  amp__retire(at, make(ctx, 4096), (size_t)600 << 20, &uses);
  CHECK(kept() == k0);
  long long user = -1;
  CHECK_OK(amp_cl_objects_live(AMP_CL_MEM, &user, NULL));
  CHECK(user == 0);
  clReleaseEvent(use);
  clReleaseEvent(bad);
  return check_done();
}
