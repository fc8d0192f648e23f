/* runtime/core/cache_dir.c: the drivers' kernel caches in a private per-user directory.
 *
 * POCL runs whatever compiled kernel library it finds in its cache. Without HOME it keeps that
 * cache in /tmp/pocl/kcache, shared by every user of the machine: another local user who makes
 * that directory first can put their code in any ampcl program's kernels. So before the first
 * OpenCL call ampcl chooses the cache directory itself, for each driver whose variable the user
 * has not set:
 *
 *   1. $XDG_CACHE_HOME when it is an absolute path, else $HOME/.cache when HOME is one (the
 *      user's own; POCL's cache stays where POCL keeps it by default, pocl/kcache below it);
 *   2. else $TMPDIR (absolute) or /tmp, in a directory ampcl-<uid> it creates with mode 0700, or
 *      finds already made by this user with no access for others. One that is a symbolic link,
 *      not a directory, owned by another user or open to others is refused: the drivers' caches
 *      are then turned off (POCL_KERNEL_CACHE=0, CUDA_CACHE_DISABLE=1), kernels are compiled
 *      every run, and a warning names the directory and what is wrong with it. Nothing fails.
 *      POCL writes its compiler's files even with its cache off (/tmp/pocl/uncached without a
 *      cache directory: shared again), so then POCL_CACHE_DIR names a fresh directory made by
 *      mkdtemp (unique, 0700) beside the refused one, removed at exit.
 *
 * Drivers and their variables: POCL, POCL_CACHE_DIR (base/pocl/kcache); NVIDIA, CUDA_CACHE_PATH
 * (base/nvidia/ComputeCache), set only without an absolute HOME, since NVIDIA's own default,
 * ~/.nv/ComputeCache, is per-user already. Intel's CPU runtime keeps no kernel cache on disk.
 * ampcl itself keeps none either (runtime/exec/program_cache.c caches builds in memory).
 *
 * Every variable is read with secure_getenv: in a setuid or setgid program the caller's values
 * are ignored, and so ampcl's choice (for uid, the effective one) replaces them.
 *
 * setenv: the drivers read these variables when they are loaded, so the only way to choose for
 * them is the process environment. setenv is not safe while another thread reads the environment,
 * so it happens once, inside the enumeration's pthread_once, before any driver is loaded: ampcl's
 * own threads do not exist yet, and the variables are set before anything in ampcl reads them. A
 * program that reads the environment from threads of its own while making its first ampcl call,
 * or that calls OpenCL before ampcl, should set POCL_CACHE_DIR (and CUDA_CACHE_PATH) itself; then
 * ampcl changes nothing. */
#define _GNU_SOURCE /* setenv on every C library */
#include "core/cache_dir.h"
#include "core/env_parse.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[4096];
static char refusal[4600];
static char scratch[4200]; /* the refusal's private directory for POCL's files, or "" */

const char *amp__cache_dir_base(void) {
  return base;
}

const char *amp__cache_dir_refusal(void) {
  return refusal;
}

const char *amp__cache_dir_scratch(void) {
  return scratch;
}

/* The user chose this variable: set and not empty. */
static int chosen(const char *var) {
  const char *v = amp__env_secure(var);
  return v && *v;
}

static const char *absolute(const char *path) {
  return path && path[0] == '/' ? path : NULL;
}

/* Makes `dir` (mode 0700) or checks the one there: 1 when it is this user's and private, else 0
 * with the reason in `refusal`. */
static int private_dir(const char *dir, uid_t uid) {
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
    snprintf(refusal, sizeof refusal, "the kernel cache directory %s cannot be created: %s", dir,
             strerror(errno));
    return 0;
  }
  struct stat st;
  const char *why = NULL;
  char what[96] = "";
  if (lstat(dir, &st) != 0)
    snprintf(what, sizeof what, "cannot be read: %s", strerror(errno));
  else if (S_ISLNK(st.st_mode))
    why = "is a symbolic link";
  else if (!S_ISDIR(st.st_mode))
    why = "is not a directory";
  else if (st.st_uid != uid)
    snprintf(what, sizeof what, "is owned by uid %lu, not by this user (uid %lu)",
             (unsigned long)st.st_uid, (unsigned long)uid);
  else if (st.st_mode & 077)
    snprintf(what, sizeof what, "has mode %04o: other users can reach it (0700 expected)",
             (unsigned)(st.st_mode & 07777));
  if (!why && !what[0])
    return 1;
  snprintf(
      refusal, sizeof refusal,
      "the kernel cache directory %s %s; ampcl refuses it and turns the drivers' kernel caches "
      "off (kernels are compiled every run): remove it, or set XDG_CACHE_HOME, HOME or "
      "POCL_CACHE_DIR",
      dir, why ? why : what);
  return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static pid_t scratch_owner; /* the process that made it: a forked child's exit leaves it alone */

static void remove_scratch(void) {
  if (getpid() == scratch_owner)
    nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* With the caches refused: POCL's files in a fresh private directory under `tmp`, removed at
 * exit. If none can be made, POCL is left to its default and the refusal says so. */
static void scratch_dir(const char *tmp) {
  int n = snprintf(scratch, sizeof scratch, "%s/ampcl-%lu-XXXXXX", tmp, (unsigned long)geteuid());
  if (n > 0 && (size_t)n < sizeof scratch && mkdtemp(scratch)) {
    setenv("POCL_CACHE_DIR", scratch, 1);
    scratch_owner = getpid();
    atexit(remove_scratch);
    return;
  }
  size_t len = strlen(refusal);
  snprintf(refusal + len, sizeof refusal - len,
           "; no private directory could be made in %s either (%s), so POCL writes its compiler's "
           "files where it chooses",
           tmp, strerror(errno));
  scratch[0] = '\0';
}

/* Sets `var` to base + tail. */
static void point(const char *var, const char *tail) {
  char path[sizeof base + 64];
  snprintf(path, sizeof path, "%s%s", base, tail);
  setenv(var, path, 1);
}

void amp__cache_dir_setup(void) {
  const char *xdg = absolute(amp__env_secure("XDG_CACHE_HOME"));
  const char *home = absolute(amp__env_secure("HOME"));
  const char *tmp = absolute(amp__env_secure("TMPDIR"));
  /* what is left to choose: POCL's unless set, NVIDIA's unless set or under HOME */
  int pocl = !chosen("POCL_CACHE_DIR");
  int nvidia = !home && !chosen("CUDA_CACHE_PATH");
  if (!pocl && !nvidia)
    return;
  int n;
  if (xdg)
    n = snprintf(base, sizeof base, "%s", xdg);
  else if (home)
    n = snprintf(base, sizeof base, "%s/.cache", home);
  else
    n = snprintf(base, sizeof base, "%s/ampcl-%lu", tmp ? tmp : "/tmp", (unsigned long)geteuid());
  if (n < 0 || (size_t)n >= sizeof base)
    snprintf(refusal, sizeof refusal,
             "the kernel cache directory's path is longer than %zu bytes; ampcl turns the drivers' "
             "kernel caches off (kernels are compiled every run)",
             sizeof base - 1);
  else if (!xdg && !home)
    private_dir(base, geteuid());
  if (refusal[0]) {
    base[0] = '\0';
    if (pocl) {
      setenv("POCL_KERNEL_CACHE", "0", 1);
      scratch_dir(tmp ? tmp : "/tmp");
    }
    if (nvidia)
      setenv("CUDA_CACHE_DISABLE", "1", 1);
    fprintf(stderr, "[ampcl] warning: %s\n", refusal);
    return;
  }
  if (pocl)
    point("POCL_CACHE_DIR", "/pocl/kcache");
  if (nvidia)
    point("CUDA_CACHE_PATH", "/nvidia/ComputeCache");
}
