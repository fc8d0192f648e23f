/* runtime/data/poison.c: debug mode's poison for discarded data (source.h).
 *
 * discard_data says the kernel writes every element before reading it, so nothing is copied in
 * for it and its bytes on the device are whatever was there. A kernel that reads such an element
 * first (tmp[i] += ...) or never writes it computes with garbage, silently. In debug mode the
 * launch asks acquire to fill those bytes with a pattern instead: a signalling NaN with a payload
 * of 0xA5 bits for 4- and 8-byte elements (arithmetic on it gives a quiet NaN with the same
 * payload), 0xA5 bytes otherwise (exec/launch.c calls this after acquire). After the kernel,
 * exec/debug_poison.c reads the written views' poisoned parts back and reports any element still
 * holding the pattern. */
#include <string.h>

#include "data/source.h"
#include "data/source_steps.h"

static const uint32_t poison32 = 0x7FA5A5A5u;           /* float: a signalling NaN */
static const uint64_t poison64 = 0x7FF4A5A5A5A5A5A5ull; /* double: a signalling NaN */

int amp__is_poison(const unsigned char *e, size_t size) {
  if (size == 4) {
    uint32_t b;
    memcpy(&b, e, 4);
    return (b & 0x7FBFFFFFu) == poison32; /* the quiet bit and the sign may change */
  }
  if (size == 8) {
    uint64_t b;
    memcpy(&b, e, 8);
    return (b & 0x7FF7FFFFFFFFFFFFull) == poison64;
  }
  for (size_t i = 0; i < size; i++)
    if (e[i] != 0xA5)
      return 0;
  return size > 0;
}

void amp__poison_fill_host(unsigned char *to, size_t bytes, size_t size) {
  for (size_t o = 0; o + size <= bytes; o += size) {
    if (size == 4)
      memcpy(to + o, &poison32, 4);
    else if (size == 8)
      memcpy(to + o, &poison64, 8);
    else
      memset(to + o, 0xA5, size);
  }
}

/* Fills [lo, hi) of buf with the pattern for elements of `size` bytes, after the location's
 * commands, as its last write. */
static amp_status fill(amp_accelerator_view *q, amp__location *L, size_t lo, size_t hi, size_t size,
                       amp__evlist *wait) {
  amp_status status = AMP_SUCCESS;
  unsigned char bytes = 0xA5;
  const void *pattern = &bytes;
  size_t psize = 1;
  if (size == 4 && lo % 4 == 0 && hi % 4 == 0) {
    pattern = &poison32;
    psize = 4;
  } else if (size == 8 && lo % 8 == 0 && hi % 8 == 0) {
    pattern = &poison64;
    psize = 8;
  }
  amp__evlist deps = {0};
  if (amp__location_deps(&deps, L, 1)) {
    amp__evlist_free(&deps);
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  amp__flush_producers(deps.ev, deps.n, q->queue); /* another queue's producers, as every enqueue */
  cl_event ev = NULL;
  cl_int err = clEnqueueFillBuffer(q->queue, L->buf, pattern, psize, lo, hi - lo, (cl_uint)deps.n,
                                   deps.n ? deps.ev : NULL, &ev);
  amp__evlist_free(&deps);
  AMP__CL(err, "clEnqueueFillBuffer (debug mode's poison for discarded data)");
  amp__location_record_write(L, ev);
  int oom = amp__evlist_push(wait, ev);
  clReleaseEvent(ev);
  if (oom) {
    clWaitForEvents(1, &L->last_write);
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  }
fail:
  return status;
}

amp_status amp__use_poison(amp_accelerator_view *q, amp__use *u, amp__evlist *wait) {
  amp_status status = AMP_SUCCESS;
  amp__source *s = u->view->src;
  amp__location *L = &s->loc[q->acc->index];
  /* After copy_in, what this location still lacks is valid nowhere: nobody holds it. */
  if (amp__rangeset_missing_all(&L->valid, &u->ranges, &u->poisoned))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory tracking ranges");
  for (size_t i = 0; i < u->poisoned.n; i++)
    AMP__TRY(fill(q, L, u->poisoned.r[i].lo, u->poisoned.r[i].hi, u->view->type.size, wait));
fail:
  return status;
}
