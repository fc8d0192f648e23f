/* runtime/core/env_parse.h: what each AMP_* environment variable means, from its text.
 *
 * Every function here is pure: it takes the variable's value (NULL when unset) and returns what it
 * means, without reading the environment, so the call sites read their variable once from the
 * table of knobs (core/knobs.h) and fuzz/ drives every parser with arbitrary text. Each variable's
 * documented meaning is in env_parse.c beside its parser. amp__env_secure is the one exception: it
 * reads the environment. */
#ifndef AMPCL_RUNTIME_ENV_PARSE_H
#define AMPCL_RUNTIME_ENV_PARSE_H

#include <stddef.h>

/* The environment's value of a variable that chooses a file or a directory: none (NULL) in a
 * setuid or setgid program (secure_getenv), so its caller cannot steer where it writes. */
const char *amp__env_secure(const char *name);

/* A whole decimal number (digits only, no sign or space), in [lo, hi]: 1 and *out, else 0. */
int amp__env_uint(const char *v, unsigned long long lo, unsigned long long hi,
                  unsigned long long *out);

/* AMP_DEBUG: 1 when set to anything but "" or "0". */
int amp__env_debug(const char *v);
/* AMP_PROFILE: 1 (unset, "" or "1"), 0 ("0"), -1 for anything else (an error naming it). */
int amp__env_profile(const char *v);
/* AMP_TRACE_MAX: the most trace records, 1..2^32; 1000000 when unset or not such a number. */
size_t amp__env_trace_max(const char *v);
/* AMP_PROGRAM_CACHE_MAX: the most cached builds, 1..2^32-1; 64 when unset or not such a number. */
size_t amp__env_program_cache_max(const char *v);
/* AMP_STAGING: 0 ("0": off), 2 ("force"), 1 (unset or anything else: on). */
int amp__env_staging_mode(const char *v);
/* AMP_STAGING_CHUNK: bytes per chunk, 1..2^40; `dflt` when unset or not such a number. */
size_t amp__env_staging_chunk(const char *v, size_t dflt);
/* AMP_STAGING_THREADS: a number clamped to 1..max (a negative one is 1); `dflt` (clamped) when
 * unset or not a number. */
int amp__env_staging_threads(const char *v, int dflt, int max);
/* AMP_STAGING_FAIL_AFTER (a test hook): the chunk after which staging fails, 0..2^31-1; -1 (never)
 * when unset or not such a number. */
int amp__env_staging_fail_after(const char *v);
/* AMP_SCAN_PASSES: 1 (unset, "" or "1"), 3 ("3"), 0 for anything else (an error naming it). */
int amp__env_scan_passes(const char *v);
/* AMP_BLAS_GEMM: 0 auto (unset, "" or "auto"), 1 clblast, 2 fast, 3 portable, -1 for anything
 * else (an error naming it). */
int amp__env_blas_gemm(const char *v);
/* AMP_BLAS_CPU: 1 when it is "opencl" (GEMM on a CPU device through OpenCL, not OpenBLAS). */
int amp__env_blas_cpu_opencl(const char *v);

#endif /* AMPCL_RUNTIME_ENV_PARSE_H */
