/* tests/data/stream_copy.c: the staged copy-back's streaming copy (runtime/data/stream_copy.c)
 * gives memcpy's bytes for every alignment of its destination and source and every length around
 * its 16-byte stores and 64-byte steps, and writes nothing outside the destination. Host code, no
 * device. */
#include "data/stream_copy.h"
#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PAD = 80, MAXLEN = 4096 + 200 };

int main(void) {
  unsigned char *src = malloc(MAXLEN + 2 * PAD), *dst = malloc(MAXLEN + 2 * PAD);
  if (!src || !dst)
    return 1;
  for (size_t i = 0; i < MAXLEN + 2 * PAD; i++)
    src[i] = (unsigned char)(i * 131u + 7u);
  const size_t lens[] = {0,   1,   15,  16,   17,   63,   64,   255,
                         256, 257, 300, 1023, 1024, 1089, 4096, 4177};
  size_t cases = 0, bad = 0;
  for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
    for (size_t da = 0; da < 20; da++)
      for (size_t sa = 0; sa < 20; sa += 3) {
        size_t n = lens[l];
        memset(dst, 0xEE, MAXLEN + 2 * PAD);
        amp__stream_copy(dst + PAD + da, src + PAD + sa, n);
        int ok = memcmp(dst + PAD + da, src + PAD + sa, n) == 0;
        for (size_t i = 0; i < PAD + da; i++) /* before the destination */
          ok &= dst[i] == 0xEE;
        for (size_t i = PAD + da + n; i < MAXLEN + 2 * PAD; i++) /* after it */
          ok &= dst[i] == 0xEE;
        cases++;
        if (!ok && bad++ < 5)
          fprintf(stderr, "wrong: length %zu, destination offset %zu, source offset %zu\n", n, da,
                  sa);
      }
  CHECK(bad == 0);
  CHECK(cases == 16 * 20 * 7);
  free(src);
  free(dst);
  return check_done();
}
