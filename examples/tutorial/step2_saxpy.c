/* Step 2 of docs/TUTORIAL.md: a kernel of one's own. y = a * x + y on the default accelerator,
 * checked against the same loop on the host. The kernel is step2_saxpy.cl, embedded into this
 * program at build time as the string step2_saxpy_cl, with its typed launcher saxpy_launch
 * (ampcl_embed_cl in CMakeLists.txt). */
#include "step2_saxpy_cl.h"     /* step2_saxpy_cl: the kernel's text */
#include "step2_saxpy_launch.h" /* saxpy_kernel, saxpy_launch: one C function per kernel */
#include "tutorial.h"

#include <math.h>

#define N 1000000

int main(void) {
  static float x[N], y[N], expect[N];
  const float a = 2.5f;
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 100) / 10.0f;
    y[i] = (float)(i % 7);
    expect[i] = a * x[i] + y[i];
  }

  /* Build the kernel (once per process and device; the first launch does it). */
  amp_program *program;
  amp_kernel *saxpy;
  TRY(amp_program_create(step2_saxpy_cl, NULL, &program));
  TRY(saxpy_kernel(program, &saxpy));

  /* Views over the host arrays: nothing moves yet. x is read-only, y is read and written. */
  amp_array_view *vx, *vy;
  TRY(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx));
  TRY(amp_array_view_create(amp_extent1(N), AMP_FLOAT, y, &vy));

  /* The launch over N elements: where (NULL, the default accelerator's view), over what, which
   * kernel, then one argument per kernel parameter, in their order: a, x, y. A missing or extra
   * argument, or a view where the float goes, is a compile error in this file. */
  TRY(saxpy_launch(NULL, amp_extent1(N), saxpy, a, vx, vy));

  /* y's new contents are on the device until we ask for them. */
  TRY(amp_array_view_synchronize(vy));
  int wrong = 0;
  for (int i = 0; i < N; i++) /* the device may fuse a * x + y into one rounding: allow for it */
    wrong += fabsf(y[i] - expect[i]) > 1e-6f * fabsf(expect[i]);
  printf("saxpy on %d elements: %d wrong\n", N, wrong);

  TRY(amp_array_view_release(vx));
  TRY(amp_array_view_release(vy));
  TRY(amp_kernel_release(saxpy));
  TRY(amp_program_release(program));
  return wrong == 0 ? 0 : 1;
}
