/* tests/check.h: the tests' tiny harness.
 *
 * CHECK(cond) and CHECK_OK(call) print the failing expression with both sides and ampcl's reason,
 * count the failure, and go on; CHECK_STATUS(call, expected) checks a specific error. A test ends
 * with `return check_done();`, which prints "N passed, M failed" and returns 0 or 1. A test that
 * cannot run here (say, it needs two devices) returns SKIP (77), which ctest reports as skipped. */
#ifndef AMPCL_TESTS_CHECK_H
#define AMPCL_TESTS_CHECK_H

#include <ampcl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SKIP 77

static int check_passed_, check_failed_;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (cond) {                                                                                    \
      check_passed_++;                                                                             \
    } else {                                                                                       \
      check_failed_++;                                                                             \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);                     \
    }                                                                                              \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
  do {                                                                                             \
    long long a_ = (long long)(a), b_ = (long long)(b);                                            \
    if (a_ == b_) {                                                                                \
      check_passed_++;                                                                             \
    } else {                                                                                       \
      check_failed_++;                                                                             \
      fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, #b, a_,    \
              b_);                                                                                 \
    }                                                                                              \
  } while (0)

#define CHECK_STATUS(call, expected)                                                               \
  do {                                                                                             \
    amp_status got_ = (call);                                                                      \
    if (got_ == (expected)) {                                                                      \
      check_passed_++;                                                                             \
    } else {                                                                                       \
      check_failed_++;                                                                             \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s\n  reason: %s\n", __FILE__, __LINE__,    \
              #call, amp_status_name(got_), amp_status_name(expected), amp_last_error());          \
    }                                                                                              \
  } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, AMP_SUCCESS)

/* The message of the last failure mentions `needle`. */
#define CHECK_MSG(needle)                                                                          \
  do {                                                                                             \
    if (strstr(amp_last_error(), (needle))) {                                                      \
      check_passed_++;                                                                             \
    } else {                                                                                       \
      check_failed_++;                                                                             \
      fprintf(stderr, "%s:%d: last error does not mention \"%s\":\n  %s\n", __FILE__, __LINE__,    \
              (needle), amp_last_error());                                                         \
    }                                                                                              \
  } while (0)

/* `call` is refused with `expected`, and its message mentions `needle`. */
#define CHECK_REFUSED(call, expected, needle)                                                      \
  do {                                                                                             \
    CHECK_STATUS(call, expected);                                                                  \
    CHECK_MSG(needle);                                                                             \
  } while (0)

/* `cond` holds for every int i in [0, n) (CHECK_EVERY2: every i in [0, n) and j in [0, m)): one
 * check, whose failure says for how many it did not (a test over a whole array then fails once,
 * not once an element). */
static inline void test_every_(int bad, int n, const char *cond, const char *over, const char *file,
                               int line) {
  if (!bad) {
    check_passed_++;
  } else {
    check_failed_++;
    fprintf(stderr, "%s:%d: %s failed for %d of %d (%s)\n", file, line, cond, bad, n, over);
  }
}
#define CHECK_EVERY(i, n, cond)                                                                    \
  do {                                                                                             \
    int bad_ = 0, n_ = (n);                                                                        \
    for (int i = 0; i < n_; i++)                                                                   \
      bad_ += !(cond);                                                                             \
    test_every_(bad_, n_, #cond, #i, __FILE__, __LINE__);                                          \
  } while (0)
#define CHECK_EVERY2(i, n, j, m, cond)                                                             \
  do {                                                                                             \
    int bad_ = 0, n_ = (n), m_ = (m), all_ = n_ * m_;                                              \
    for (int i = 0; i < n_; i++)                                                                   \
      for (int j = 0; j < m_; j++)                                                                 \
        bad_ += !(cond);                                                                           \
    test_every_(bad_, all_, #cond, #i ", " #j, __FILE__, __LINE__);                                \
  } while (0)

/* Stops the test at once when a precondition fails (the rest would only cascade). */
#define REQUIRE_OK(call)                                                                           \
  do {                                                                                             \
    amp_status got_ = (call);                                                                      \
    if (got_ != AMP_SUCCESS) {                                                                     \
      fprintf(stderr, "%s:%d: %s failed: %s\n  reason: %s\n", __FILE__, __LINE__, #call,           \
              amp_status_name(got_), amp_last_error());                                            \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

static inline int check_done(void) {
  printf("%d passed, %d failed\n", check_passed_, check_failed_);
  return check_failed_ ? 1 : 0;
}

/* Kernel `name` of a program built from `src` with `options` (may be NULL), or NULL; a failure
 * is a failed check, with the reason printed. The kernel holds its program, so the program
 * reference is dropped here. test_kernel_of does the same for a program p that another call
 * made (`made`: that call's status), e.g. a builtin one. */
static inline amp_kernel *test_kernel_of(amp_status made, amp_program *p, const char *name) {
  amp_kernel *k = NULL;
  CHECK_OK(made);
  if (p)
    CHECK_OK(amp_kernel_create(p, name, &k));
  amp_program_release(p);
  return k;
}
static inline amp_kernel *test_kernel(const char *src, const char *options, const char *name) {
  amp_program *p = NULL;
  amp_status made = amp_program_create(src, options, &p);
  return test_kernel_of(made, p, name);
}

/* A kernel a test keeps in a variable of its own, by its name in the test's program source. */
typedef struct {
  amp_kernel **kernel;
  const char *name;
} test_named_kernel;

/* Makes every kernel of `table` (n entries) as test_kernel does, each from its own program built
 * from `src` with `options`; 1 when all were made (a failure is a failed check). */
static inline int test_kernels(const char *src, const char *options, const test_named_kernel *table,
                               size_t n) {
  int all = 1;
  for (size_t i = 0; i < n; i++) {
    *table[i].kernel = test_kernel(src, options, table[i].name);
    all &= *table[i].kernel != NULL;
  }
  return all;
}
static inline void test_kernels_release(const test_named_kernel *table, size_t n) {
  for (size_t i = 0; i < n; i++)
    amp_kernel_release(*table[i].kernel);
}

/* A view of `data` whose old contents are discarded: for an output that a kernel writes before
 * anything reads it, so that it is never copied in. */
static inline amp_array_view *test_discarded_view(amp_extent extent, amp_elem_type type,
                                                  void *data) {
  amp_array_view *v = NULL;
  CHECK_OK(amp_array_view_create(extent, type, data, &v));
  CHECK_OK(amp_array_view_discard_data(v));
  return v;
}

/* Releases array views in the order given (a section before its parent, say), each release a
 * checked call: for the end of a test that made many. */
static inline void test_release_views(amp_array_view *const *views, size_t n) {
  for (size_t i = 0; i < n; i++)
    CHECK_OK(amp_array_view_release(views[i]));
}
#define CHECK_RELEASE_VIEWS(...)                                                                   \
  test_release_views((amp_array_view *const[]){__VA_ARGS__},                                       \
                     sizeof((amp_array_view *const[]){__VA_ARGS__}) / sizeof(amp_array_view *))

/* Copy commands in either direction, summed over all accelerators, since the last
 * amp_transfer_stats_reset (UINT64_MAX, with the reason printed, if the counters cannot be read).
 */
static inline uint64_t test_transfers(void) {
  amp_transfer_stats st;
  if (amp_transfer_stats_get(NULL, &st) != AMP_SUCCESS) {
    fprintf(stderr, "amp_transfer_stats_get: %s\n", amp_last_error());
    return UINT64_MAX;
  }
  return st.to_device_count + st.to_host_count + st.device_copy_count;
}

/* After a refused call: nothing was copied since the last amp_transfer_stats_reset, and the host
 * array `h` still equals `orig` (two arrays of the same size). */
#define CHECK_UNMOVED(h, orig)                                                                     \
  do {                                                                                             \
    CHECK_EQ_INT(test_transfers(), 0);                                                             \
    CHECK(memcmp((h), (orig), sizeof(h)) == 0);                                                    \
  } while (0)

/* The default accelerator's default view, or NULL with the reason printed. Tests fail without one
 * (return 1), never skip: POCL is always installed, so a missing default view is a bug. */
static inline amp_accelerator_view *test_view(void) {
  amp_accelerator_view *v = NULL;
  if (amp_default_view(&v) != AMP_SUCCESS) {
    fprintf(stderr, "no default view: %s\n", amp_last_error());
    return NULL;
  }
  return v;
}

/* Declares `av`, the default view; a test without one ends at once, failed. */
#define REQUIRE_VIEW(av)                                                                           \
  amp_accelerator_view *av = test_view();                                                          \
  if (!(av))                                                                                       \
  return 1

/* One part of a test made of parts: a function of the view it runs on. */
typedef void test_part(amp_accelerator_view *av);

/* The whole main of a test made of `parts` (np), run in order on the default view, that share the
 * kernels of `kernels` (nk), made from `src` first: a kernel not made ends the test, failed. */
static inline int test_main_parts(const char *src, const test_named_kernel *kernels, size_t nk,
                                  test_part *const *parts, size_t np) {
  amp_accelerator_view *av = test_view();
  if (!av || !test_kernels(src, NULL, kernels, nk))
    return 1;
  for (size_t i = 0; i < np; i++)
    parts[i](av);
  test_kernels_release(kernels, nk);
  return check_done();
}
#define TEST_MAIN_PARTS(src, kernels, parts)                                                       \
  test_main_parts((src), (kernels), sizeof(kernels) / sizeof *(kernels), (parts),                  \
                  sizeof(parts) / sizeof *(parts))

/* The start of the main of a test that CI also runs on another device (AMP_TEST_DEVICE,
 * test_use_device_from_env below): returns its SKIP where there is no such device, then declares
 * `av` as REQUIRE_VIEW does. */
#define REQUIRE_TEST_DEVICE_VIEW(av)                                                               \
  do {                                                                                             \
    int device_rc_ = test_use_device_from_env();                                                   \
    if (device_rc_)                                                                                \
      return device_rc_;                                                                           \
  } while (0);                                                                                     \
  REQUIRE_VIEW(av)

/* Well-mixed 32- and 64-bit values from an index, for test data that looks random and is the same
 * every run (the finalisers of MurmurHash3-style mixers). */
static inline uint32_t test_hash32(uint32_t i) {
  i ^= i >> 16;
  i *= 0x7feb352du;
  i ^= i >> 15;
  i *= 0x846ca68bu;
  return i ^ (i >> 16);
}
static inline uint64_t test_hash64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

/* How many elements of C (m x n, float) differ from the float product A B (A m x k, B k x n, all
 * row-major, summed in order): for GEMMs whose small-integer products are exact. */
static inline int test_wrong_products(const float *c, const float *a, const float *b, int m, int n,
                                      int k) {
  int bad = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      bad += c[i * n + j] != s;
    }
  return bad;
}

/* The properties of the accelerator of `av` into *p. */
static inline amp_status test_props(amp_accelerator_view *av, amp_accelerator_properties *p) {
  amp_accelerator *a = NULL;
  amp_status st = amp_accelerator_view_get_accelerator(av, &a);
  return st != AMP_SUCCESS ? st : amp_accelerator_get_properties(a, p);
}

/* ---- Devices by position, not by name: tests hold on every OpenCL implementation, so none
 * names a vendor's device path. tests/CMakeLists.txt's two-device runs ask POCL for two devices
 * (POCL_DEVICES, which other implementations ignore) and pick the second with AMP_TEST_DEVICE. */

/* The device path of the k-th OpenCL accelerator (ampcl's order, the host "cpu" left out), or
 * NULL when there are fewer than k + 1. */
static inline const char *test_device_path(size_t k) {
  size_t count = 0, seen = 0;
  if (amp_accelerator_count(&count) != AMP_SUCCESS)
    return NULL;
  for (size_t i = 0; i < count; i++) {
    amp_accelerator *acc = NULL;
    amp_accelerator_properties p;
    if (amp_accelerator_get(i, &acc) != AMP_SUCCESS ||
        amp_accelerator_get_properties(acc, &p) != AMP_SUCCESS || p.is_host)
      continue;
    if (seen++ == k)
      return p.device_path;
  }
  return NULL;
}

/* AMP_TEST_DEVICE=k in the environment: makes the k-th OpenCL device the default, as a user
 * does, through AMP_DEFAULT_ACCELERATOR (read at the default's first use, which has not happened
 * yet when a test's main calls this first). Returns SKIP, saying why, when there is no k-th
 * device; 0 otherwise, also when AMP_TEST_DEVICE is not set. */
static inline int test_use_device_from_env(void) {
  const char *k = getenv("AMP_TEST_DEVICE");
  if (!k || !*k)
    return 0;
  const char *path = test_device_path((size_t)strtoul(k, NULL, 10));
  if (!path) {
    fprintf(stderr,
            "skip: AMP_TEST_DEVICE=%s, but this implementation exposes fewer devices "
            "(POCL makes two with POCL_DEVICES=\"pthread pthread\")\n",
            k);
    return SKIP;
  }
  printf("AMP_TEST_DEVICE=%s: AMP_DEFAULT_ACCELERATOR=%s\n", k, path);
  setenv("AMP_DEFAULT_ACCELERATOR", path, 1);
  return 0;
}

/* How much of its sweep a heavy test runs (tests/README.md, "Where each configuration runs"):
 *   test_small()  the smallest cases, which still cover each kernel's edge and interior tiles:
 *                 with AMP_TEST_SMALL set (not "0"), as oclgrind's runs and the sanitizer build set
 *                 it (tests/CMakeLists.txt), and in debug mode (AMP_DEBUG) on a CPU device, where
 *                 every kernel is compiled again with checked access;
 *   test_full()   every size: the default on a GPU (any accelerator that is not a CPU device);
 *                 AMP_TEST_FULL=1 asks for it anywhere, AMP_TEST_FULL=0 nowhere;
 *   neither       on a CPU device such as POCL: every kernel, option set and element type, at the
 *                 sizes that cover each kernel's edge and interior tiles. */
static inline int test_env_set(const char *name) {
  const char *s = getenv(name);
  return s && *s && strcmp(s, "0") != 0;
}

/* The default accelerator is a CPU device (POCL and the like), or there is none. */
static inline int test_on_cpu_device(void) {
  amp_accelerator_view *v = NULL;
  amp_accelerator_properties p;
  if (amp_default_view(&v) != AMP_SUCCESS || test_props(v, &p) != AMP_SUCCESS)
    return 1;
  return p.is_emulated || p.is_host;
}

static inline int test_full(void) {
  const char *f = getenv("AMP_TEST_FULL");
  if (test_env_set("AMP_TEST_SMALL"))
    return 0;
  if (f && *f)
    return strcmp(f, "0") != 0;
  return !test_on_cpu_device();
}

/* Debug mode on a CPU device, where the sweeps are smallest (below). */
static inline int test_debug_small(void) {
  return test_env_set("AMP_DEBUG") && !test_full();
}

static inline int test_small(void) {
  return test_env_set("AMP_TEST_SMALL") || test_debug_small();
}

/* ---- Transfer counters and devices, for the tests that prove the data movement rules of
 * docs/MODEL.md (tests/data/ and others) with the counters of ampcl/stats.h. */

/* The counters of one accelerator (acc != NULL) or of all (acc NULL); a failure to read them is a
 * failed check (the zeros returned then must not pass for "no transfers"). */
static inline amp_transfer_stats test_stats(const amp_accelerator *acc) {
  amp_transfer_stats st;
  memset(&st, 0, sizeof st);
  CHECK_OK(amp_transfer_stats_get(acc, &st));
  return st;
}

/* Checks every counter of `acc` (NULL: all accelerators) since the last reset. */
#define CHECK_COUNTS(acc, to_dev, to_host, dev_copy)                                               \
  do {                                                                                             \
    amp_transfer_stats st_ = test_stats(acc);                                                      \
    CHECK_EQ_INT(st_.to_device_count, (to_dev));                                                   \
    CHECK_EQ_INT(st_.to_host_count, (to_host));                                                    \
    CHECK_EQ_INT(st_.device_copy_count, (dev_copy));                                               \
  } while (0)

/* Up to `max` accelerators that can run kernels (the host "cpu" left out); returns how many. */
static inline size_t test_devices(amp_accelerator **out, size_t max) {
  size_t n = 0, found = 0;
  if (amp_accelerator_count(&n) != AMP_SUCCESS)
    return 0;
  for (size_t i = 0; i < n && found < max; i++) {
    amp_accelerator *a = NULL;
    amp_accelerator_properties p;
    if (amp_accelerator_get(i, &a) != AMP_SUCCESS ||
        amp_accelerator_get_properties(a, &p) != AMP_SUCCESS || p.is_host)
      continue;
    out[found++] = a;
  }
  return found;
}

/* The accelerator of an accelerator view (NULL on failure). */
static inline amp_accelerator *test_acc_of(amp_accelerator_view *av) {
  amp_accelerator *a = NULL;
  if (amp_accelerator_view_get_accelerator(av, &a) != AMP_SUCCESS)
    return NULL;
  return a;
}

/* What `av`'s device and kernel `k` allow for a tile of `rank` dimensions (AMP order), asking
 * ampcl (max_tile_size, max_tile_extent, amp_kernel_limits), as a portable program does: 0 it
 * runs; 1 it is above the kernel's reported limit, which ampcl tries (the driver may refuse it
 * with AMP_ERROR_LIMIT_EXCEEDED); 2 it is above the device's limit (ampcl refuses it). */
enum { TEST_TILE_RUNS, TEST_TILE_TRIED, TEST_TILE_ABOVE_DEVICE };
static inline int test_tile_allowed(amp_accelerator_view *av, amp_kernel *k, int rank,
                                    const int *tile) {
  amp_accelerator_properties p;
  amp_kernel_limits_info li;
  amp_accelerator *a = test_acc_of(av);
  if (!a || amp_accelerator_get_properties(a, &p) != AMP_SUCCESS)
    return TEST_TILE_RUNS; /* the launch's own status then says */
  size_t threads = 1;
  for (int d = 0; d < rank; d++) {
    threads *= (size_t)tile[d];
    if ((size_t)tile[d] > p.max_tile_extent[3 - rank + d])
      return TEST_TILE_ABOVE_DEVICE;
  }
  if (threads > p.max_tile_size)
    return TEST_TILE_ABOVE_DEVICE;
  if (k && amp_kernel_limits(k, a, &li) == AMP_SUCCESS && threads > li.max_tile_threads)
    return TEST_TILE_TRIED;
  return TEST_TILE_RUNS;
}

/* Whether ampcl gives device times (amp_future_elapsed_ns) on `acc`, asked as a program asks: an
 * empty kernel on a profiling view of its own, timed. 1 yes; 0 where ampcl answers that the
 * device's timestamps measure nothing (AMP_ERROR_UNSUPPORTED_FEATURE: Mesa's rusticl, or a device
 * seen without them), printed with its reason; a failure to set the question up counts as a
 * failed check and answers 1, so the caller's own checks then say what broke. */
static inline int test_device_times(amp_accelerator *acc) {
  amp_accelerator_view *v = NULL;
  amp_program *prog = NULL;
  amp_kernel *k = NULL;
  amp_future *f = NULL;
  uint64_t ns = 0;
  int usable = 1;
  amp_status st = amp_accelerator_create_view_profiling(acc, AMP_QUEUING_MODE_AUTOMATIC, true, &v);
  if (st == AMP_SUCCESS)
    st = amp_program_create("__kernel void amp_test_nop(void) {}", "", &prog);
  if (st == AMP_SUCCESS)
    st = amp_kernel_create(prog, "amp_test_nop", &k);
  if (st == AMP_SUCCESS) {
    amp_launch l = {.domain = amp_extent1(1), .kernel = k};
    st = amp_parallel_for_each_ex(v, &l, &f);
  }
  if (st == AMP_SUCCESS) {
    st = amp_future_elapsed_ns(f, &ns);
    if (st == AMP_ERROR_UNSUPPORTED_FEATURE && strstr(amp_last_error(), "measure nothing")) {
      printf("device times: none on this device (%s)\n", amp_last_error());
      usable = 0;
      st = AMP_SUCCESS;
    }
  }
  if (st != AMP_SUCCESS) {
    check_failed_++;
    fprintf(stderr, "test_device_times: %s: %s\n", amp_status_name(st), amp_last_error());
  }
  amp_future_release(f);
  amp_kernel_release(k);
  amp_program_release(prog);
  amp_accelerator_view_release(v);
  return usable;
}

/* The device time of the finished future `f`, whose accelerator gives device times or not as
 * test_device_times answered (`times`): positive where it does; where it does not, refused with
 * AMP_ERROR_UNSUPPORTED_FEATURE, saying that the device's timestamps measure nothing. */
static inline void test_check_elapsed(amp_future *f, int times) {
  uint64_t ns = 0;
  if (times) {
    CHECK_OK(amp_future_elapsed_ns(f, &ns));
    CHECK(ns > 0);
  } else {
    CHECK_REFUSED(amp_future_elapsed_ns(f, &ns), AMP_ERROR_UNSUPPORTED_FEATURE, "measure nothing");
  }
}

/* Launches `k` over `domain` on `av` with the given arguments; the status of the launch. */
#define TEST_RUN(av, domain, k, ...)                                                               \
  amp_parallel_for_each((av), (domain), (k), (const amp_arg[]){__VA_ARGS__},                       \
                        sizeof((const amp_arg[]){__VA_ARGS__}) / sizeof(amp_arg))

#endif /* AMPCL_TESTS_CHECK_H */
