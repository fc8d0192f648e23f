/* A program outside the ampcl tree, built against the installed package (tests/consumer/run.cmake):
 * it finds ampcl through find_package or pkg-config, and lists the accelerators. */
#include <ampcl.h>
#include <stdio.h>

int main(void) {
  size_t n = 0;
  amp_status st = amp_accelerator_count(&n);
  printf("consumer: %s, %zu accelerators\n", amp_status_name(st), n);
  return st == AMP_SUCCESS && n >= 2 ? 0 : 1;
}
