/* tests/core/cache_dir.c: the drivers' kernel caches land in a private per-user directory
 * (runtime/core/cache_dir.c, docs/SECURITY.md), one scenario per process (tests/core/CMakeLists.txt
 * gives each its environment; a variable set empty there is unset here, before any ampcl call).
 *
 *   test_cache_dir SCENARIO SCRATCH [quick]   (SCRATCH: a folder of its own, emptied first)
 *
 * `quick` (the sanitizer build) runs no kernel: compiling one from an empty cache under the
 * sanitizers costs most of a minute, and the choice of directory is host code either way.
 *
 *   tmp       no HOME, no XDG_CACHE_HOME: SCRATCH/ampcl-<uid> is made with mode 0700 and POCL's and
 *             NVIDIA's caches point below it; a kernel runs, and on POCL its cache fills there
 *   existing  the same directory already made by this user, 0700: accepted
 *   xdg       XDG_CACHE_HOME wins over HOME; NVIDIA's cache stays in its default under HOME
 *   home      a relative XDG_CACHE_HOME is ignored: HOME/.cache
 *   chosen    POCL_CACHE_DIR and CUDA_CACHE_PATH set by the user: unchanged, nothing made
 *   mode      SCRATCH/ampcl-<uid> made 0755 beforehand: refused, the caches off, a kernel still
 * runs symlink   SCRATCH/ampcl-<uid> a link to a private directory of ours: refused file
 * SCRATCH/ampcl-<uid> a plain file: refused owner     SCRATCH/ampcl-<uid> owned by another user
 * (needs root to make: skipped otherwise) */
#define _GNU_SOURCE /* nftw's FTW_DEPTH|FTW_PHYS, setenv */
#include "core/cache_dir.h"
#include "check.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const vars[] = {"HOME",
                                   "XDG_CACHE_HOME",
                                   "TMPDIR",
                                   "POCL_CACHE_DIR",
                                   "CUDA_CACHE_PATH",
                                   "POCL_KERNEL_CACHE",
                                   "CUDA_CACHE_DISABLE"};

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static const char *env_or_empty(const char *name) {
  const char *v = getenv(name);
  return v ? v : "";
}

/* The environment variable equals `want` ("" for unset). */
#define CHECK_ENV(name, want)                                                                      \
  do {                                                                                             \
    if (strcmp(env_or_empty(name), (want)) == 0) {                                                 \
      check_passed_++;                                                                             \
    } else {                                                                                       \
      check_failed_++;                                                                             \
      fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, (name),        \
              env_or_empty(name), (want));                                                         \
    }                                                                                              \
  } while (0)

static int kernels = 1; /* run one (not with `quick`) */

/* A tiny kernel runs on the default accelerator and gives the right answer. */
static void run_kernel(void) {
  static const char *src = "__kernel void twice(AMP_VIEW(int, v)) {\n"
                           "  AMP_INDEX1(i);\n"
                           "  amp_at(v, i[0]) *= 2;\n"
                           "}\n";
  amp_program *p = NULL;
  amp_kernel *k = NULL;
  amp_array_view *v = NULL;
  int h[4] = {1, 2, 3, 4};
  amp_accelerator_view *view = NULL;
  if (amp_default_view(&view) != AMP_SUCCESS) {
    CHECK(!"a default view");
    return;
  }
  CHECK_OK(amp_program_create(src, "", &p));
  CHECK_OK(amp_kernel_create(p, "twice", &k));
  CHECK_OK(amp_array_view_create(amp_extent1(4), AMP_INT32, h, &v));
  amp_arg args[] = {amp_arg_view(v)};
  CHECK_OK(amp_parallel_for_each(view, amp_extent1(4), k, args, 1));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK(h[0] == 2 && h[1] == 4 && h[2] == 6 && h[3] == 8);
  amp_array_view_release(v);
  amp_kernel_release(k);
  amp_program_release(p);
}

static int on_pocl(void) {
  amp_accelerator *acc = NULL;
  amp_accelerator_properties props;
  return amp_accelerator_get_default(&acc) == AMP_SUCCESS &&
         amp_accelerator_get_properties(acc, &props) == AMP_SUCCESS &&
         strstr(props.device_path, "portable-computing-language") != NULL;
}

static int nonempty_dir(const char *path) {
  DIR *d = opendir(path);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    n += e->d_name[0] != '.';
  if (d)
    closedir(d);
  return n > 0;
}

/* ampcl enumerates (and so chooses) now. */
static void enumerate(void) {
  size_t n = 0;
  CHECK_OK(amp_accelerator_count(&n));
}

static void expect_private(const char *dir) {
  struct stat st;
  CHECK(lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
        (st.st_mode & 0777) == 0700);
}

/* Refused for `why`: the caches off, POCL's files in a fresh private directory beside `dir`. */
static void expect_refused(const char *dir, const char *why, int run) {
  enumerate();
  const char *r = amp__cache_dir_refusal();
  CHECK(strstr(r, dir) != NULL);
  CHECK(strstr(r, why) != NULL);
  if (!strstr(r, why))
    fprintf(stderr, "  the refusal: \"%s\"\n", r);
  CHECK_ENV("POCL_KERNEL_CACHE", "0");
  CHECK_ENV("CUDA_CACHE_DISABLE", "1");
  CHECK_ENV("CUDA_CACHE_PATH", "");
  CHECK(amp__cache_dir_base()[0] == '\0');
  const char *scratch = amp__cache_dir_scratch();
  CHECK_ENV("POCL_CACHE_DIR", scratch);
  CHECK(strncmp(scratch, dir, strlen(dir)) == 0 && scratch[strlen(dir)] == '-');
  expect_private(scratch);
  if (run && kernels) { /* with the caches off, kernels are compiled and run all the same */
    run_kernel();
    if (on_pocl())
      CHECK(nonempty_dir(scratch)); /* POCL's compiler files went there, not to /tmp/pocl */
  }
}

int main(int argc, char **argv) {
  if (argc != 3 && !(argc == 4 && strcmp(argv[3], "quick") == 0)) {
    fprintf(stderr, "usage: test_cache_dir SCENARIO SCRATCH [quick]\n");
    return 1;
  }
  const char *what = argv[1], *scratch = argv[2];
  kernels = argc == 3;
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
    if (getenv(vars[i]) && !*getenv(vars[i]))
      unsetenv(vars[i]);
  nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  if (mkdir(scratch, 0700) != 0) {
    fprintf(stderr, "cannot make %s: %s\n", scratch, strerror(errno));
    return 1;
  }
  setenv("TMPDIR", scratch, 1);
  char dir[4096], path[4200];
  snprintf(dir, sizeof dir, "%s/ampcl-%lu", scratch, (unsigned long)geteuid());

  if (strcmp(what, "tmp") == 0 || strcmp(what, "existing") == 0) {
    if (getenv("HOME") || getenv("XDG_CACHE_HOME") || getenv("POCL_CACHE_DIR")) {
      fprintf(stderr, "run with HOME, XDG_CACHE_HOME and POCL_CACHE_DIR unset\n");
      return 1;
    }
    if (strcmp(what, "existing") == 0)
      CHECK(mkdir(dir, 0700) == 0);
    enumerate();
    CHECK_EQ_INT(strcmp(amp__cache_dir_refusal(), ""), 0);
    CHECK_EQ_INT(strcmp(amp__cache_dir_base(), dir), 0);
    expect_private(dir);
    snprintf(path, sizeof path, "%s/pocl/kcache", dir);
    CHECK_ENV("POCL_CACHE_DIR", path);
    snprintf(path, sizeof path, "%s/nvidia/ComputeCache", dir);
    CHECK_ENV("CUDA_CACHE_PATH", path);
    CHECK_ENV("POCL_KERNEL_CACHE", "");
    if (strcmp(what, "tmp") == 0 && kernels) {
      run_kernel();
      snprintf(path, sizeof path, "%s/pocl/kcache", dir);
      if (on_pocl())
        CHECK(nonempty_dir(path)); /* POCL took the directory: its cache is there */
    }
  } else if (strcmp(what, "xdg") == 0) {
    snprintf(path, sizeof path, "%s/xdg", scratch);
    setenv("XDG_CACHE_HOME", path, 1);
    snprintf(path, sizeof path, "%s/home", scratch);
    setenv("HOME", path, 1);
    enumerate();
    snprintf(path, sizeof path, "%s/xdg/pocl/kcache", scratch);
    CHECK_ENV("POCL_CACHE_DIR", path);
    CHECK_ENV("CUDA_CACHE_PATH", ""); /* NVIDIA's default, ~/.nv/ComputeCache, is per-user */
    CHECK(access(dir, F_OK) != 0);    /* no directory in TMPDIR */
  } else if (strcmp(what, "home") == 0) {
    setenv("XDG_CACHE_HOME", "relative/cache", 1);
    snprintf(path, sizeof path, "%s/home", scratch);
    setenv("HOME", path, 1);
    enumerate();
    snprintf(path, sizeof path, "%s/home/.cache/pocl/kcache", scratch);
    CHECK_ENV("POCL_CACHE_DIR", path);
    CHECK_ENV("CUDA_CACHE_PATH", "");
  } else if (strcmp(what, "chosen") == 0) {
    char pocl[4200], cuda[4200];
    snprintf(pocl, sizeof pocl, "%s/mine", scratch);
    snprintf(cuda, sizeof cuda, "%s/cuda", scratch);
    setenv("POCL_CACHE_DIR", pocl, 1);
    setenv("CUDA_CACHE_PATH", cuda, 1);
    unsetenv("HOME");
    enumerate();
    CHECK_ENV("POCL_CACHE_DIR", pocl);
    CHECK_ENV("CUDA_CACHE_PATH", cuda);
    CHECK_ENV("POCL_KERNEL_CACHE", "");
    CHECK(access(dir, F_OK) != 0);
  } else if (strcmp(what, "mode") == 0) {
    CHECK(mkdir(dir, 0700) == 0 && chmod(dir, 0755) == 0);
    expect_refused(dir, "has mode 0755", 1);
  } else if (strcmp(what, "symlink") == 0) {
    snprintf(path, sizeof path, "%s/elsewhere", scratch);
    CHECK(mkdir(path, 0700) == 0 && symlink(path, dir) == 0);
    expect_refused(dir, "is a symbolic link", 0);
  } else if (strcmp(what, "file") == 0) {
    FILE *f = fopen(dir, "w");
    CHECK(f != NULL);
    if (f)
      fclose(f);
    expect_refused(dir, "is not a directory", 0);
  } else if (strcmp(what, "owner") == 0) {
    if (geteuid() != 0) {
      printf("skipped: making a directory of another user needs root\n");
      return SKIP;
    }
    CHECK(mkdir(dir, 0700) == 0 && chown(dir, 65534, 65534) == 0);
    expect_refused(dir, "is owned by uid 65534", 0);
  } else {
    fprintf(stderr, "unknown scenario %s\n", what);
    return 1;
  }
  return check_done();
}
