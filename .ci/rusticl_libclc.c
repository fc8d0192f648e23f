/* Preloaded into the processes of the rusticl pass (.ci/rusticl.sh writes the env.sh that does
 * it): Mesa's rusticl (22.3, Debian 12) opens libclc's SPIR-V library at a path compiled into
 * it, /usr/lib/clc/spirv64-mesa3d-.spv, with no environment variable to move it. Instead of
 * installing Debian's libclc-15 into /usr/lib/clc, the pass unpacks that package into the clone
 * and this shim turns an open() of a file under /usr/lib/clc/ into an open() of the same name
 * under $AMP_RUSTICL_CLC_DIR. Every other path, and every path when the variable is unset, is
 * passed through untouched. It is CI tooling, not part of the library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char clc_prefix[] = "/usr/lib/clc/";

/* The moved path in buf, or the path itself when it is not under /usr/lib/clc/. */
static const char *moved(const char *path, char *buf, size_t size) {
  const char *dir = getenv("AMP_RUSTICL_CLC_DIR");
  if (!path || !dir || strncmp(path, clc_prefix, sizeof clc_prefix - 1) != 0)
    return path;
  int n = snprintf(buf, size, "%s/%s", dir, path + sizeof clc_prefix - 1);
  return n > 0 && (size_t)n < size ? buf : path;
}

static mode_t mode_arg(int flags, va_list ap) {
  return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE ? va_arg(ap, mode_t) : 0;
}

#define SHIM_OPEN(name)                                                                            \
  int name(const char *path, int flags, ...) {                                                     \
    static int (*real)(const char *, int, ...);                                                    \
    if (!real)                                                                                     \
      real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name);                             \
    va_list ap;                                                                                    \
    va_start(ap, flags);                                                                           \
    mode_t mode = mode_arg(flags, ap);                                                             \
    va_end(ap);                                                                                    \
    char buf[4096];                                                                                \
    return real(moved(path, buf, sizeof buf), flags, mode);                                        \
  }

#define SHIM_OPENAT(name)                                                                          \
  int name(int dirfd, const char *path, int flags, ...) {                                          \
    static int (*real)(int, const char *, int, ...);                                               \
    if (!real)                                                                                     \
      real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, #name);                        \
    va_list ap;                                                                                    \
    va_start(ap, flags);                                                                           \
    mode_t mode = mode_arg(flags, ap);                                                             \
    va_end(ap);                                                                                    \
    char buf[4096];                                                                                \
    return real(dirfd, moved(path, buf, sizeof buf), flags, mode);                                 \
  }

SHIM_OPEN(open)
SHIM_OPEN(open64)
SHIM_OPENAT(openat)
SHIM_OPENAT(openat64)
