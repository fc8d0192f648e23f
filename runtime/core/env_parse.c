/* runtime/core/env_parse.c: the parsers of the AMP_* environment variables (env_parse.h).
 *
 * Numbers are whole decimal strings: "12", not " 12", "+12", "12k" or "-1" (strtoull would take
 * "-1" as 2^64-1), and each has a range; anything else means the default, as an unset variable
 * does, except where the variable's documentation makes a bad value an error (AMP_PROFILE,
 * AMP_SCAN_PASSES, AMP_BLAS_GEMM: the caller names the value). AMP_DEFAULT_ACCELERATOR and
 * AMP_TRACE are not parsed: the first is compared whole with the device paths, the second is a
 * file name. */
#define _GNU_SOURCE /* secure_getenv (glibc); getenv where the C library lacks it */
#include "core/env_parse.h"

#include <stdlib.h>
#include <string.h>

const char *amp__env_secure(const char *name) {
#if defined(__GLIBC__)
  return secure_getenv(name);
#else
  return getenv(name);
#endif
}

int amp__env_uint(const char *v, unsigned long long lo, unsigned long long hi,
                  unsigned long long *out) {
  if (!v || !*v)
    return 0;
  unsigned long long n = 0;
  for (const char *c = v; *c; c++) {
    if (*c < '0' || *c > '9')
      return 0;
    unsigned d = (unsigned)(*c - '0');
    if (d > hi || n > (hi - d) / 10) /* n * 10 + d > hi, without overflow */
      return 0;
    n = n * 10 + d;
  }
  if (n < lo)
    return 0;
  *out = n;
  return 1;
}

static int is(const char *v, const char *word) {
  return v && strcmp(v, word) == 0;
}

static int unset(const char *v) {
  return !v || !*v;
}

int amp__env_debug(const char *v) {
  return !unset(v) && !is(v, "0");
}

int amp__env_profile(const char *v) {
  return unset(v) || is(v, "1") ? 1 : is(v, "0") ? 0 : -1;
}

size_t amp__env_trace_max(const char *v) {
  unsigned long long n;
  return amp__env_uint(v, 1, 1ull << 32, &n) ? (size_t)n : 1000000;
}

size_t amp__env_program_cache_max(const char *v) {
  unsigned long long n;
  return amp__env_uint(v, 1, (1ull << 32) - 1, &n) ? (size_t)n : 64;
}

int amp__env_staging_mode(const char *v) {
  return is(v, "0") ? 0 : is(v, "force") ? 2 : 1;
}

size_t amp__env_staging_chunk(const char *v, size_t dflt) {
  unsigned long long n;
  return amp__env_uint(v, 1, 1ull << 40, &n) ? (size_t)n : dflt;
}

int amp__env_staging_threads(const char *v, int dflt, int max) {
  unsigned long long n;
  long want = dflt;
  if (v && v[0] == '-' && amp__env_uint(v + 1, 0, ~0ull, &n))
    want = 1; /* a negative count: one thread, as before */
  else if (amp__env_uint(v, 0, ~0ull, &n))
    want = n > (unsigned long long)max ? max : (long)n;
  return want < 1 ? 1 : want > max ? max : (int)want;
}

int amp__env_staging_fail_after(const char *v) {
  unsigned long long n;
  return amp__env_uint(v, 0, 0x7fffffff, &n) ? (int)n : -1;
}

int amp__env_scan_passes(const char *v) {
  return unset(v) || is(v, "1") ? 1 : is(v, "3") ? 3 : 0;
}

int amp__env_blas_gemm(const char *v) {
  static const char *const names[] = {"auto", "clblast", "fast", "portable"};
  if (unset(v))
    return 0;
  for (int i = 0; i < 4; i++)
    if (is(v, names[i]))
      return i;
  return -1;
}

int amp__env_blas_cpu_opencl(const char *v) {
  return is(v, "opencl");
}
