/* runtime/exec/math_accuracy.c: where a device's native_* functions are not accurate enough to
 * stand for AMP's fast_math.
 *
 * OpenCL promises nothing about native_* accuracy. ampcl states a bound for fast_math_*
 * (docs/KERNELS.md, "How accurate the math is": 2^-16 relative, or absolute below 1) and the test
 * kernel_math_accuracy holds every device to it. The prelude maps fast_math_X to native_X unless
 * the build defines fast_math_X; for the implementations below, whose native_X was measured
 * outside the bound, the build maps it to the full-precision built-in instead. A new
 * implementation that misses the bound fails that test until it gets an entry here.
 *
 * The table is matched on the platform name and the kind of device, not on a driver version: a
 * later driver that is accurate loses only speed, never correctness. */
#include "exec/math_accuracy.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  const char *platform;  /* CL_PLATFORM_NAME, as reported */
  int cpu;               /* 1: CPU devices only */
  const char *functions; /* fast_math_ functions whose native_ misses the bound, space-separated */
} inexact_native;

/* Measured with `test_kernel_math_accuracy report` (lab/NOTEBOOK.md, 2026-11-27): Intel's CPU
 * runtime 2026.2 computes native_exp, _log, _rsqrt, _recip, _divide, _sin, _cos and _powr to
 * about 12 bits (up to 3e-4 relative, 4,200 ulp); its native_sqrt and native_tan are exact to a
 * few ulp and stay. */
static const inexact_native table[] = {
    {"Intel(R) OpenCL", 1, "exp exp2 exp10 log log2 log10 rsqrt recip divide sin cos powr"},
};

/* The precise form of fast_math_`name`, as the right-hand side of a -D option. */
static void precise_form(const char *name, size_t len, char *out, size_t cap) {
  if (len == 5 && strncmp(name, "recip", 5) == 0)
    snprintf(out, cap, "(x)=(1.0f/(x))");
  else if (len == 6 && strncmp(name, "divide", 6) == 0)
    snprintf(out, cap, "(x,y)=((x)/(y))");
  else
    snprintf(out, cap, "=%.*s", (int)len, name);
}

size_t amp__fast_math_options(const amp_accelerator *acc, char *out, size_t cap) {
  size_t used = 0;
  if (cap)
    out[0] = '\0';
  for (size_t t = 0; t < sizeof table / sizeof table[0]; t++) {
    const inexact_native *e = &table[t];
    if (strcmp(acc->props.platform_name, e->platform) != 0 || (e->cpu && !acc->props.is_emulated))
      continue;
    for (const char *f = e->functions; *f;) {
      size_t len = strcspn(f, " ");
      char rhs[32];
      precise_form(f, len, rhs, sizeof rhs);
      int n = snprintf(used < cap ? out + used : NULL, used < cap ? cap - used : 0,
                       " -Dfast_math_%.*s%s", (int)len, f, rhs);
      used += n > 0 ? (size_t)n : 0;
      f += len + (f[len] == ' ');
    }
  }
  return used;
}
