/* fuzz/fuzz.h: what every fuzz target defines (libFuzzer's entry point), and a helper. */
#ifndef AMPCL_FUZZ_H
#define AMPCL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* data[0, size) as a NUL-terminated string (malloc'd; a NUL inside ends it early). */
static inline char *fuzz_string(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (s) {
    memcpy(s, data, size);
    s[size] = '\0';
  }
  return s;
}

/* A property the code under test promises did not hold: stop, so the fuzzer keeps the input. */
#define FUZZ_ASSERT(cond)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: FUZZ_ASSERT(%s) failed\n", __FILE__, __LINE__, #cond);               \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

#endif /* AMPCL_FUZZ_H */
