/* A program outside the ampcl tree, built against the installed package
 * (tests/package/consumer/run.cmake): it finds ampcl through find_package or pkg-config, embeds its
 * kernel square.cl as a string (square_cl.h, made by ampcl_embed_cl or the installed script), runs
 * it through its typed launcher (square_launch.h, made the same two ways) and checks the result. */
#include "square_cl.h"
#include "square_launch.h"

#include <ampcl.h>
#include <stdio.h>
#include <string.h>

#define N 1000

int main(void) {
  float x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 37) - 18.0f;
    y[i] = -1.0f;
  }
  amp_program *prog = NULL;
  amp_kernel *kernel = NULL;
  amp_array_view *vx = NULL, *vy = NULL;
  amp_extent e = amp_extent1(N);
  amp_status st = amp_program_create(square_cl, "", &prog);
  if (st == AMP_SUCCESS)
    st = square_kernel(prog, &kernel);
  if (st == AMP_SUCCESS)
    st = amp_array_view_create_const(e, AMP_FLOAT, x, &vx);
  if (st == AMP_SUCCESS)
    st = amp_array_view_create(e, AMP_FLOAT, y, &vy);
  if (st == AMP_SUCCESS)
    st = square_launch(NULL, e, kernel, vx, vy); /* NULL: the default accelerator's view */
  if (st == AMP_SUCCESS)
    st = amp_array_view_synchronize(vy);
  int bad = 0;
  for (int i = 0; st == AMP_SUCCESS && i < N; i++)
    bad += y[i] != x[i] * x[i];
  /* The embedded string names its file, so a build error points at square.cl. */
  int named = strstr(square_cl, "square.cl\"") != NULL;
  printf("consumer: %s, %d wrong of %d, kernel names its file: %s\n", amp_status_name(st), bad, N,
         named ? "yes" : "no");
  if (st != AMP_SUCCESS)
    printf("%s\n", amp_last_error());
  amp_array_view_release(vx);
  amp_array_view_release(vy);
  amp_kernel_release(kernel);
  amp_program_release(prog);
  return st == AMP_SUCCESS && bad == 0 && named ? 0 : 1;
}
