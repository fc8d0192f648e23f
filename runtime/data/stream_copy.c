/* runtime/data/stream_copy.c: a copy whose stores bypass the caches, for the staged copy-back.
 *
 * A staged read empties each pinned chunk into the caller's memory, which is large, not in the
 * caches, and not read again soon. An ordinary store first reads the destination's cache line
 * (read for ownership), so each byte copied touches memory three times: the chunk read, the line
 * read, the line written. A non-temporal store writes whole lines without reading them: two
 * touches. On a core of an AMD EPYC host, copying 16 MiB chunks into a 1 GiB buffer ran at 20.5
 * GB/s this way against memcpy's 14.8 (lab/NOTEBOOK.md, 2026-12-07); AMP_STAGING_STREAM=0 keeps
 * memcpy for a comparison. Copies in are not streamed: their chunk should stay in the caches for
 * the DMA engine that reads it next. */
#include "data/stream_copy.h"

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

void amp__stream_copy(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  size_t head = (size_t)(-(uintptr_t)d & 15); /* to dst's first 16-byte boundary */
  if (n < 256 || head >= n) {
    memcpy(d, s, n);
    return;
  }
  memcpy(d, s, head);
  d += head;
  s += head;
  n -= head;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 32));
    __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 48));
    _mm_stream_si128((__m128i *)(void *)(d + i), a);
    _mm_stream_si128((__m128i *)(void *)(d + i + 16), b);
    _mm_stream_si128((__m128i *)(void *)(d + i + 32), c);
    _mm_stream_si128((__m128i *)(void *)(d + i + 48), e);
  }
  _mm_sfence(); /* streaming stores are weakly ordered: make them visible before returning */
  memcpy(d + i, s + i, n - i);
}

#else

void amp__stream_copy(void *dst, const void *src, size_t n) {
  memcpy(dst, src, n);
}

#endif
