/* fuzz/param_type.c: the kernel-signature parser of the launch checks (runtime/exec/param_type.c)
 * on arbitrary text. The input's first line is a parameter's type as a compiler reports it, the
 * rest the program's source, whose typedefs are followed. Promised: a result without a trailing
 * '*', a size only for the built-in names, no read outside either string, an end on typedef
 * circles; and the count of the first line's definitions in the rest, and the parameter list of
 * the kernel the first line names, read nothing outside it. */
#include "exec/param_type.h"
#include "exec/param_text.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_string(data, size);
  if (!text)
    return 0;
  char *nl = strchr(text, '\n');
  const char *source = NULL;
  if (nl) {
    *nl = '\0';
    source = nl + 1;
  }
  for (int pass = 0; pass < 2; pass++) {
    char *t = amp__canonical_type(pass ? source : NULL, text);
    if (!t)
      continue;
    size_t n = strlen(t);
    FUZZ_ASSERT(n == 0 || t[n - 1] != '*');
    size_t bytes = amp__builtin_type_size(t);
    FUZZ_ASSERT(bytes == 0 || bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16 ||
                bytes == 32 || bytes == 64 || bytes == 128);
    free(t);
  }
  (void)amp__builtin_type_size(text);
  if (source) { /* the typed launchers' count of a name's definitions, and a kernel's parameters
                  read from the text where the driver gives none (exec/param_text.c) */
    FUZZ_ASSERT(amp__type_definitions(source, text) >= 0);
    amp__text_param *tp = NULL;
    int n = amp__kernel_text_params(source, text, &tp);
    FUZZ_ASSERT(n >= -1 && (n > 0) == (tp != NULL));
    for (int i = 0; i < n; i++)
      FUZZ_ASSERT(!tp[i].elem || tp[i].name); /* a view's T comes with its name */
    amp__text_params_free(tp, n);
  }
  free(text);
  return 0;
}
