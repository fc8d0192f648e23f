/* docs_cl FILE.cl...: builds each OpenCL C file with ampcl on the default accelerator (POCL in CI)
 * and prints the build log of each one that fails. Used by docs.snippets
 * (tests/docs/snippets.cmake) for the ```opencl blocks of the docs; each file starts with a #line
 * naming the Markdown file. */
#include <ampcl.h>
#include <stdio.h>

int main(int argc, char **argv) {
  amp_accelerator *acc;
  if (amp_accelerator_get_default(&acc) != AMP_SUCCESS) {
    fprintf(stderr, "docs_cl: no default accelerator: %s\n", amp_last_error());
    return 1;
  }
  int failed = 0;
  for (int i = 1; i < argc; i++) {
    amp_program *p = NULL;
    amp_status st = amp_program_create_from_file(argv[i], NULL, &p);
    if (st == AMP_SUCCESS)
      st = amp_program_build(p, acc);
    if (st != AMP_SUCCESS) {
      fprintf(stderr, "%s\n", amp_last_error());
      failed++;
    }
    amp_program_release(p);
  }
  printf("docs_cl: %d of %d OpenCL blocks built\n", argc - 1 - failed, argc - 1);
  return failed ? 1 : 0;
}
