/* gemm_choice: amp_blas_gemm chooses between CLBlast and ampcl's fast kernel (blas_choice.c).
 *
 * Run as `test_gemm_choice float` and `... double` with AMP_BLAS_CPU=opencl (so POCL keeps the
 * GEMM on OpenCL instead of OpenBLAS). For AMP_BLAS_GEMM=clblast, fast and auto (set in the
 * process between cases; ampcl reads it at every call) it proves, against a host triple loop:
 *   - C = A * B at 1 x 1 x 1, 37 x 53 x 29 and 130 x 70 x 257 (no tile divides them), on whole
 *     views and on sections of larger parents (the parent's rest untouched), with the engine the
 *     mode asks for (the internal run counters);
 *   - B transposed runs through CLBlast in every mode; A transposed, alpha != 1 and beta != 0
 *     through the fast kernel where the mode forces it or auto chose it (gemm_general.c), else
 *     CLBlast; all are right;
 *   - auto measures once per (accelerator, type, size class): the first GEMM of a class runs
 *     CLBlast twice and the fast kernel twice (once untimed), later ones of the class run only the
 * cached choice, and the future's device time is the chosen engine's measured time;
 *   - the GPU kernel (matmul_fast) in its three float shapes through the test hook too, and the
 *     128 x 128 one with K tiles of 32 as on compute capability 9.x;
 *   - AMP_BLAS_GEMM=portable runs matmul_fast where the vendor paths would run (compute capability
 *     90 faked): no tensor-core DGEMM, no K tiles of 32, no TF32 even when allowed;
 *   - a bad AMP_BLAS_GEMM value fails naming the value, with C untouched.
 * Skips (77) when ampcl was built without CLBlast. */
#include "blas/gemm_choice.h"
#include "blas/gemm_kernels.h"
#include "check.h"
#include "gemm_padded.h"

enum { PAD = 3 }; /* sections start at (PAD, PAD) of a parent PAD * 2 larger each way */

static int dbl;
static unsigned gemm_flags; /* gemm_case calls amp_blas_gemm_ex with these when not 0 */

/* Element i of a buffer of this run's type (float, or double with dbl). */
#define get(p, i)    gemm_elem_get(p, dbl, i)
#define put(p, i, x) gemm_elem_put(p, dbl, i, x)

/* C (m x n) = alpha op(A) op(B) + beta C on dense or section views; checks the result (and the
 * parent outside the section). Returns 0 when it ran. */
static int gemm_case(amp_accelerator_view *av, int m, int n, int k, int ta, int tb, double alpha,
                     double beta, int section, amp_future **done) {
  int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  int pad = section ? PAD : 0;
  gemm_host h;
  gemm_padded g = {NULL, NULL, NULL, NULL, NULL, NULL, section};
  int rc = 1;
  if (gemm_host_make(&h, dbl, pad, ar, ac, br, bc, m, n))
    goto out;
  for (size_t i = 0; i < h.nc; i++) {
    put(h.c, i, (double)(i % 5) - 2.0);
    h.want[i] = get(h.c, i);
  }
  gemm_host_expect(&h, dbl, pad, m, n, k, ta, tb, alpha, beta);
  amp_elem_type t = dbl ? AMP_DOUBLE : AMP_FLOAT;
  if (gemm_padded_make(&g, t, pad, section, ar, ac, br, bc, m, n, h.a, h.b, h.c))
    goto out;
  amp_array_view *va = g.va, *vb = g.vb, *vc = g.vc, *pc = g.pc;
  const amp_transpose tra = ta ? AMP_TRANS : AMP_NO_TRANS, trb = tb ? AMP_TRANS : AMP_NO_TRANS;
  amp_status st = gemm_flags
                      ? amp_blas_gemm_ex(av, gemm_flags, tra, trb, alpha, va, vb, beta, vc, done)
                      : amp_blas_gemm(av, tra, trb, alpha, va, vb, beta, vc, done);
  CHECK_OK(st);
  if (st == AMP_SUCCESS) {
    CHECK_OK(amp_array_view_synchronize(pc));
    double tol = (dbl ? 1e-12 : 2e-5) * (k + 1), worst = gemm_worst_error(h.c, dbl, h.want, h.nc);
    if (!(worst <= tol))
      fprintf(stderr, "  %d x %d x %d ta %d tb %d beta %g section %d: error %g > %g\n", m, n, k, ta,
              tb, beta, section, worst, tol);
    CHECK(worst <= tol);
    rc = 0;
  }
out:
  gemm_padded_release(&g);
  gemm_host_free(&h);
  return rc;
}

static const int sizes[][3] = {{1, 1, 1}, {37, 53, 29}, {130, 70, 257}};

/* The eligible GEMMs of every size, dense and as sections, under the current AMP_BLAS_GEMM. */
static void eligible_all(amp_accelerator_view *av) {
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int sec = 0; sec < 2; sec++)
      gemm_case(av, sizes[s][0], sizes[s][1], sizes[s][2], 0, 0, 1.0, 0.0, sec, NULL);
}

/* B transposed: CLBlast whatever the mode. A transposed, alpha != 1 or beta != 0: the fast
 * kernel's product and an epilogue (gemm_general.c) where `fast` (the mode forces the fast engine,
 * or auto chose it for the product's class, 64), else CLBlast; nothing is measured. */
static void general_all(amp_accelerator_view *av, int fast) {
  amp__gemm_counts c0 = amp__gemm_counts_get();
  gemm_case(av, 37, 53, 29, 1, 0, 1.0, 0.0, 0, NULL);
  gemm_case(av, 37, 53, 29, 0, 1, 1.0, 0.0, 1, NULL);
  gemm_case(av, 37, 53, 29, 0, 0, 1.0, 0.5, 1, NULL);
  gemm_case(av, 37, 53, 29, 0, 0, 2.0, 0.0, 0, NULL);
  amp__gemm_counts c1 = amp__gemm_counts_get();
  CHECK_EQ_INT(c1.fast - c0.fast, fast ? 3 : 0);
  CHECK_EQ_INT(c1.clblast - c0.clblast, fast ? 1 : 4);
  CHECK_EQ_INT(c1.measured, c0.measured);
}

int main(int argc, char **argv) {
  dbl = argc > 1 && strcmp(argv[1], "double") == 0;
  REQUIRE_GEMM_DEVICE(av, acc, props, dbl);
  amp_elem_kind kind = dbl ? AMP_ELEM_DOUBLE : AMP_ELEM_FLOAT;
  const int times = test_device_times(acc); /* whether ampcl gives device times here */

  /* A bad value: refused by name before anything moves. */
  setenv("AMP_BLAS_GEMM", "fastest", 1);
  {
    float x[1] = {2}, y[1] = {3}, z[1] = {7};
    amp_array_view *vx, *vy, *vz;
    REQUIRE_OK(amp_array_view_create(amp_extent2(1, 1), AMP_FLOAT, x, &vx));
    REQUIRE_OK(amp_array_view_create(amp_extent2(1, 1), AMP_FLOAT, y, &vy));
    REQUIRE_OK(amp_array_view_create(amp_extent2(1, 1), AMP_FLOAT, z, &vz));
    CHECK_STATUS(amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, vx, vy, 0.0, vz, NULL),
                 AMP_ERROR_INVALID_ARGUMENT);
    CHECK_MSG("\"fastest\"");
    CHECK_MSG("AMP_BLAS_GEMM");
    CHECK_OK(amp_array_view_synchronize(vz));
    CHECK(z[0] == 7.0f);
    amp_array_view_release(vx);
    amp_array_view_release(vy);
    amp_array_view_release(vz);
  }

  /* CLBlast forced: the fast kernel never runs. */
  setenv("AMP_BLAS_GEMM", "clblast", 1);
  amp__gemm_counts c0 = amp__gemm_counts_get();
  if (gemm_case(av, 1, 1, 1, 0, 0, 1.0, 0.0, 0, NULL) != 0) {
    int unsupported = strstr(amp_last_error(), "without CLBlast") != NULL;
    fprintf(stderr, "%s\n", amp_last_error());
    return unsupported ? SKIP : check_done();
  }
  eligible_all(av);
  general_all(av, 0);
  amp__gemm_counts c1 = amp__gemm_counts_get();
  CHECK_EQ_INT(c1.fast, c0.fast);
  CHECK_EQ_INT(c1.clblast - c0.clblast, 1 + 6 + 4);
  CHECK_EQ_INT(c1.measured, c0.measured);

  /* The fast kernel forced: CLBlast only for what the fast kernel cannot do. The device's kernel
   * (matmul_cpu on POCL), then matmul_fast as on a GPU with 2, 20 and 1000 compute units, which
   * picks its 128 x 128, 64 x 128 and 32 x 64 float shapes at 257 x 257. */
  setenv("AMP_BLAS_GEMM", "fast", 1);
  c0 = amp__gemm_counts_get();
  eligible_all(av);
  c1 = amp__gemm_counts_get();
  CHECK_EQ_INT(c1.fast - c0.fast, 6);
  CHECK_EQ_INT(c1.clblast, c0.clblast);
  general_all(av, 1);
  /* The GPU kernels' shapes take tiles of 128 and 256 threads (16 x 16 the largest): on a device
   * that allows fewer, the choice among them is not this device's to make (its own kernel,
   * matmul_cpu's tiles of one, did the work above). */
  const int gpu_tiles = test_tile_allowed(av, NULL, 2, (const int[]){16, 16}) == TEST_TILE_RUNS;
  if (!gpu_tiles)
    printf("the GPU kernels' plans skipped: they need tiles of 16 x 16 threads; this device "
           "allows %zu threads per tile\n",
           props.max_tile_size);
  if (gpu_tiles) {
    static const unsigned cus[] = {2, 20, 1000};
    for (size_t i = 0; i < (dbl ? 1 : 3); i++) {
      amp__gemm_test_gpu_kernel(1, cus[i]);
      c0 = amp__gemm_counts_get();
      gemm_case(av, 257, 257, 33, 0, 0, 1.0, 0.0, 0, NULL);
      gemm_case(av, 130, 70, 257, 0, 0, 1.0, 0.0, 1, NULL);
      gemm_case(av, 1, 1, 1, 0, 0, 1.0, 0.0, 1, NULL);
      c1 = amp__gemm_counts_get();
      CHECK_EQ_INT(c1.fast - c0.fast, 3);
      CHECK_EQ_INT(c1.clblast, c0.clblast);
    }
    if (dbl) {
      /* As on an H100: the tensor-core kernels are chosen (matmul_dmma_bulk, then matmul_dmma and
       * matmul_fast's cp.async ring as its fallbacks); this device cannot build them (their #error
       * below compute capability 9.0, or 8.0 for the ring), so the portable kernel does the work,
       * now and from then on. */
      const int can_build = props.compute_capability >= 90;   /* on an H100 it really runs */
      const int ring_builds = props.compute_capability >= 80; /* 76 KB: fits every such GPU */
      CHECK(!amp__gemm_dmma_fell_back(acc));
      const unsigned refused0 = amp__gemm_refused_plans(acc);
      amp__gemm_test_compute_capability(90);
      c0 = amp__gemm_counts_get();
      /* 2 units: 2 blocks of 128 x 128, one round; 4 of 64 x 128, two */
      gemm_case(av, 256, 70, 257, 0, 0, 1.0, 0.0, 1, NULL);
      CHECK(amp__gemm_dmma_fell_back(acc) == !can_build);
      /* refused here: matmul_dmma_bulk's 128 x 128 plan and matmul_dmma, and the ring where it
       * cannot build either */
      CHECK_EQ_INT(amp__gemm_refused_plans(acc), refused0 + 2 * !can_build + !ring_builds);
      CHECK(strcmp(amp__gemm_last_fast_file(), can_build ? "matmul_dmma_bulk" : "matmul_fast") ==
            0);
      gemm_case(av, 33, 29, 17, 0, 0, 1.0, 0.0, 1, NULL);
      /* 1000 compute units: 64 x 128 blocks take one round as 128 x 128 ones do, in less time,
       * so the bulk kernel runs in 64 x 128 blocks (its own plan, refused or not on its own), then
       * the same fallbacks. With 2 units above, 128 x 128 took one round and 64 x 128 two. */
      amp__gemm_test_gpu_kernel(1, 1000);
      gemm_case(av, 130, 70, 257, 0, 0, 1.0, 0.0, 1, NULL);
      CHECK(strcmp(amp__gemm_last_fast_file(), can_build ? "matmul_dmma_bulk" : "matmul_fast") ==
            0);
      CHECK((strstr(amp__gemm_last_fast_options(), "BM=64") != NULL) == can_build);
      CHECK(amp__gemm_dmma_fell_back(acc) == !can_build);
      /* the 64 x 128 plan was tried on its own (and refused where the others were) */
      CHECK_EQ_INT(amp__gemm_refused_plans(acc), refused0 + 3 * !can_build + !ring_builds);
      /* 8 units, C 700 x 700 over k = 515: 36 blocks of 128 x 128 (66 of 64 x 128), 4 whole
       * rounds and 4 blocks left, which run in 2 parts along k each (SPLIT_K) before
       * gemm_ksplit_sum adds them: right on a section, the parent's rest untouched, and where the
       * device refuses the split plan, the same fallbacks. */
      amp__gemm_test_gpu_kernel(1, 8);
      gemm_case(av, 700, 700, 515, 0, 0, 1.0, 0.0, 1, NULL);
      CHECK(strcmp(amp__gemm_last_fast_file(), can_build ? "matmul_dmma_bulk" : "matmul_fast") ==
            0);
      CHECK((strstr(amp__gemm_last_fast_options(), "SPLIT_K") != NULL) == can_build);
      CHECK(strstr(amp__gemm_last_fast_options(), "BM=64") == NULL);
      CHECK_EQ_INT(amp__gemm_refused_plans(acc), refused0 + 4 * !can_build + !ring_builds);
      /* 32 units, C 300 x 1300 over k = 1100 (69 K tiles, the last one partial): 33 blocks, one
       * whole round and one block left, in 8 parts (the most), the last one with the partial K
       * tile. */
      amp__gemm_test_gpu_kernel(1, 32);
      gemm_case(av, 300, 1300, 1100, 0, 0, 1.0, 0.0, 0, NULL);
      CHECK((strstr(amp__gemm_last_fast_options(), "SPLIT_K") != NULL) == can_build);
      c1 = amp__gemm_counts_get();
      CHECK_EQ_INT(c1.fast - c0.fast, 5);
      CHECK_EQ_INT(c1.clblast, c0.clblast);
      amp__gemm_test_compute_capability(0);
    } else {
      /* As on an H100: the 128 x 128 float shape takes K tiles of 32 in matmul_fast's cp.async ring
       * (135 KB of tile_static memory, which a GPU of compute capability 9.x lets the kernel
       * declare). A device that cannot build or launch the ring (inline PTX from NVIDIA 8.0; 135
       * KB, which 8.6, 8.9 and 12.x do not have) refuses it and falls back to K tiles of 32 through
       * registers (67.6 KB: POCL has 1 MiB, NVIDIA GPUs from 8.0 at least 99 KB); a device with
       * less memory refuses that too, at the build or at the launch's check, and the GEMM falls
       * back to K tiles of 16 on that accelerator. */
      const int real_9x = props.compute_capability >= 90 && props.compute_capability < 100;
      const int k32_fits = real_9x || props.compute_capability >= 80 || props.local_memory >= 67600;
      amp__gemm_test_gpu_kernel(1, 2);
      gemm_case(av, 130, 70, 257, 0, 0, 1.0, 0.0, 1, NULL);
      CHECK((strstr(amp__gemm_last_fast_options(), "TS_K=32") != NULL) == real_9x);
      CHECK((strstr(amp__gemm_last_fast_options(), "ASYNC_STAGES=4") != NULL) == real_9x);
      const unsigned refused0 = amp__gemm_refused_plans(acc);
      amp__gemm_test_compute_capability(90);
      c0 = amp__gemm_counts_get();
      gemm_case(av, 130, 70, 257, 0, 0, 1.0, 0.0, 1, NULL);
      gemm_case(av, 257, 257, 33, 0, 0, 1.0, 0.0, 0, NULL);
      c1 = amp__gemm_counts_get();
      CHECK_EQ_INT(c1.fast - c0.fast, 2);
      /* the ring runs on 9.x (where it was measured) and never below 8.0; in between, on GPUs this
       * test has not met, either way, as long as the counts agree with what ran */
      const int ring_ran = strstr(amp__gemm_last_fast_options(), "ASYNC_STAGES=4") != NULL;
      CHECK(!real_9x || ring_ran);
      CHECK(props.compute_capability >= 80 || !ring_ran);
      CHECK((strstr(amp__gemm_last_fast_options(), "TS_K=32") != NULL) == (ring_ran || k32_fits));
      /* refused here: the ring where it did not run, and K tiles of 32 where they do not fit */
      CHECK_EQ_INT(amp__gemm_refused_plans(acc), refused0 + !ring_ran + (!ring_ran && !k32_fits));
      amp__gemm_test_compute_capability(0);
    }

    /* portable: as on an H100 (compute capability 90 faked), yet the portable kernel runs: no
     * tensor-core DGEMM, no K tiles of 32, and no TF32 even where the caller allows it (no TF32
     * plan is even tried: none is marked refused on this device, which cannot build them). */
    setenv("AMP_BLAS_GEMM", "portable", 1);
    amp__gemm_test_gpu_kernel(1, 2);
    amp__gemm_test_compute_capability(90);
    c0 = amp__gemm_counts_get();
    gemm_case(av, 130, 70, 257, 0, 0, 1.0, 0.0, 1, NULL);
    CHECK(strcmp(amp__gemm_last_fast_file(), "matmul_fast") == 0);
    CHECK(strstr(amp__gemm_last_fast_options(), dbl ? "-DT=double" : "-DT=float") != NULL);
    CHECK(strstr(amp__gemm_last_fast_options(), "TS_K=32") == NULL);
    CHECK(strstr(amp__gemm_last_fast_options(), "ASYNC") == NULL);
    gemm_flags = AMP_GEMM_ALLOW_TF32;
    gemm_case(av, 37, 53, 29, 0, 0, 1.0, 0.0, 0, NULL);
    gemm_flags = 0;
    CHECK(strcmp(amp__gemm_last_fast_file(), "matmul_fast") == 0);
    CHECK(!amp__gemm_tf32_fell_back(acc));
    c1 = amp__gemm_counts_get();
    CHECK_EQ_INT(c1.fast - c0.fast, 2);
    CHECK_EQ_INT(c1.clblast, c0.clblast);
  }
  amp__gemm_test_compute_capability(0);
  amp__gemm_test_gpu_kernel(0, 0);

  /* auto: nothing cached yet; each class measured at its first GEMM, then reused. */
  setenv("AMP_BLAS_GEMM", "auto", 1);
  CHECK_EQ_INT(amp__gemm_cached(acc, kind, 37, 53, 29, NULL, NULL), AMP__GEMM_AUTO);
  c0 = amp__gemm_counts_get();
  amp_future *f = NULL;
  gemm_case(av, 37, 53, 29, 0, 0, 1.0, 0.0, 0, &f); /* class 64: measured */
  c1 = amp__gemm_counts_get();
  CHECK_EQ_INT(c1.measured - c0.measured, 1);
  CHECK_EQ_INT(c1.clblast - c0.clblast, 2);
  /* the fast kernel's first, untimed run builds and loads it (gemm_choice.c) */
  CHECK_EQ_INT(c1.fast - c0.fast, 2);
  uint64_t cl_ns = 0, fast_ns = 0, got_ns = 0;
  amp__gemm_mode choice = amp__gemm_cached(acc, kind, 60, 40, 50, &cl_ns, &fast_ns); /* class 64 */
  CHECK(choice == AMP__GEMM_CLBLAST || choice == AMP__GEMM_FAST);
  CHECK(choice == (fast_ns < cl_ns ? AMP__GEMM_FAST : AMP__GEMM_CLBLAST));
  CHECK_EQ_INT(amp__gemm_cached(acc, kind, 37, 53, 65, NULL, NULL), AMP__GEMM_AUTO); /* class 128 */
  if (f && times) {
    CHECK_OK(amp_future_elapsed_ns(f, &got_ns));
    CHECK_EQ_INT(got_ns, choice == AMP__GEMM_FAST ? fast_ns : cl_ns);
  } else if (f) { /* the device's timestamps measure nothing: measured on the host, no device time
                   */
    CHECK_STATUS(amp_future_elapsed_ns(f, &got_ns), AMP_ERROR_UNSUPPORTED_FEATURE);
    CHECK_MSG("measure nothing");
  }
  if (f) {
    amp_future_release(f);
    f = NULL;
  }
  /* The same class again, dense and as sections, with a future: no measurement, the choice ran. */
  c0 = amp__gemm_counts_get();
  gemm_case(av, 60, 40, 50, 0, 0, 1.0, 0.0, 1, &f);
  gemm_case(av, 33, 64, 2, 0, 0, 1.0, 0.0, 0, NULL);
  c1 = amp__gemm_counts_get();
  CHECK_EQ_INT(c1.measured, c0.measured);
  CHECK_EQ_INT(choice == AMP__GEMM_FAST ? c1.fast - c0.fast : c1.clblast - c0.clblast, 2);
  CHECK_EQ_INT(choice == AMP__GEMM_FAST ? c1.clblast - c0.clblast : c1.fast - c0.fast, 0);
  if (f)
    test_check_elapsed(f, times);
  amp_future_release(f);
  /* Every size under auto: classes 1 and 512 measured once each (class 64 is cached). */
  c0 = amp__gemm_counts_get();
  eligible_all(av);
  c1 = amp__gemm_counts_get();
  CHECK_EQ_INT(c1.measured - c0.measured, 2);
  CHECK(amp__gemm_cached(acc, kind, 1, 1, 1, NULL, NULL) != AMP__GEMM_AUTO);
  CHECK(amp__gemm_cached(acc, kind, 130, 70, 257, NULL, NULL) != AMP__GEMM_AUTO);
  general_all(av, choice == AMP__GEMM_FAST);
  unsetenv("AMP_BLAS_GEMM");
  c0 = amp__gemm_counts_get();
  eligible_all(av); /* unset is auto: all cached now */
  c1 = amp__gemm_counts_get();
  CHECK_EQ_INT(c1.measured, c0.measured);
  CHECK_EQ_INT(c1.fast - c0.fast + c1.clblast - c0.clblast, 6);
  return check_done();
}
