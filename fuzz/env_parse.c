/* fuzz/env_parse.c: every AMP_* variable's parser (runtime/core/env_parse.c) on arbitrary text,
 * with what each promises: a value in its documented range, a default for anything else, and
 * numbers that are exactly the digits given. */
#include "core/env_parse.h"
#include "fuzz.h"

#include <limits.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *v = fuzz_string(data, size);
  if (!v)
    return 0;
  int d = amp__env_debug(v);
  FUZZ_ASSERT(d == (*v && strcmp(v, "0") != 0));
  int p = amp__env_profile(v);
  FUZZ_ASSERT(p == -1 || p == 0 || p == 1);
  size_t t = amp__env_trace_max(v);
  FUZZ_ASSERT(t >= 1 && t <= (size_t)1 << 32);
  size_t c = amp__env_program_cache_max(v);
  FUZZ_ASSERT(c >= 1 && c < (size_t)1 << 32);
  int m = amp__env_staging_mode(v);
  FUZZ_ASSERT(m == 0 || m == 1 || m == 2);
  size_t ch = amp__env_staging_chunk(v, 12345);
  FUZZ_ASSERT(ch == 12345 || (ch >= 1 && ch <= (size_t)1 << 40));
  int th = amp__env_staging_threads(v, 7, 32);
  FUZZ_ASSERT(th >= 1 && th <= 32);
  FUZZ_ASSERT(amp__env_staging_threads(v, -5, 32) >= 1);
  int f = amp__env_staging_fail_after(v);
  FUZZ_ASSERT(f >= -1);
  int s = amp__env_scan_passes(v);
  FUZZ_ASSERT(s == 0 || s == 1 || s == 3);
  int g = amp__env_blas_gemm(v);
  FUZZ_ASSERT(g >= -1 && g <= 3);
  (void)amp__env_blas_cpu_opencl(v);
  /* the number parser: accepted means digits only, and the value they spell, within the range */
  unsigned long long n = 0, lo = size ? data[0] : 0, hi = size > 1 ? data[1] * 1000ull : 0;
  if (amp__env_uint(v, lo, hi, &n)) {
    FUZZ_ASSERT(n >= lo && n <= hi);
    FUZZ_ASSERT(strspn(v, "0123456789") == strlen(v) && *v);
    FUZZ_ASSERT(strtoull(v, NULL, 10) == n);
  }
  if (amp__env_uint(v, 0, ULLONG_MAX, &n))
    FUZZ_ASSERT(strtoull(v, NULL, 10) == n);
  free(v);
  return 0;
}
