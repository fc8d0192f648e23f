/* runtime/core/handle.c: handle slots that are never reused, and the handle check (handle.h says
 * why this design). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, madvise */
#include "core/handle.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>

static pthread_mutex_t h_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *_Atomic h_base; /* the reserved region; NULL until the first handle */
static size_t h_size;                 /* bytes reserved */
static _Atomic size_t h_next;         /* bytes handed out: slots below it were handles once */
static uint16_t *h_dead;              /* per chunk: slots released */
static size_t h_nchunks;              /* chunks h_dead has room for */

#define SLOTS_PER_CHUNK (AMP__HANDLE_CHUNK / AMP__HANDLE_SLOT)

/* LeakSanitizer does not look for pointers in memory it did not allocate: in sanitizer builds each
 * chunk is registered as a root when it is opened, so what live handles point to is not reported
 * as leaked, and LSan scans only the chunks in use, not the whole reservation. (Weak: absent, and
 * not called, without a sanitizer runtime.) */
void __lsan_register_root_region(const void *p, size_t size) __attribute__((weak));

/* The kinds of handle by their magic, to say what a handle of another kind than expected is. */
static const struct {
  uint32_t magic;
  const char *name;
} kinds[] = {
    {AMP__MAGIC_ACCELERATOR, "accelerator"},
    {AMP__MAGIC_VIEW, "accelerator view"},
    {AMP__MAGIC_FUTURE, "future"},
    {AMP__MAGIC_ARRAY_VIEW, "array view"},
    {AMP__MAGIC_PROGRAM, "program"},
    {AMP__MAGIC_KERNEL, "kernel"},
    {AMP__MAGIC_ARRAY, "array"},
    {AMP__MAGIC_TEXTURE, "texture"},
};

static const char *kind_name(uint32_t magic) {
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (kinds[i].magic == magic)
      return kinds[i].name;
  return NULL;
}

/* True when h is the start of a slot handed out already (so reading it is safe). Lock-free: the
 * base is set once and h_next only grows, so every call checks handles without contention. */
static int was_handed_out(const void *h) {
  uintptr_t base = (uintptr_t)atomic_load(&h_base), p = (uintptr_t)h;
  return base && p >= base && p - base < atomic_load(&h_next) && (p - base) % AMP__HANDLE_SLOT == 0;
}

amp_status amp__check_handle(const void *h, uint32_t magic, const char *what, const char *fn) {
  if (!h)
    return amp__set_error(AMP_ERROR_INVALID_HANDLE, "%s: the %s is NULL", fn, what);
  if (!was_handed_out(h))
    return amp__set_error(
        AMP_ERROR_INVALID_HANDLE,
        "%s: %p is not an ampcl handle (never created by ampcl); a %s was expected", fn, h, what);
  uint32_t m = *(const volatile uint32_t *)h;
  if (m == magic)
    return AMP_SUCCESS;
  if (m == ~magic || m == 0)
    return amp__set_error(AMP_ERROR_INVALID_HANDLE,
                          "%s: the %s was already released (use after release)", fn, what);
  const char *live = kind_name(m), *dead = kind_name(~m);
  if (live)
    return amp__set_error(AMP_ERROR_INVALID_HANDLE, "%s: the handle is not a %s (it is a live %s)",
                          fn, what, live);
  if (dead)
    return amp__set_error(AMP_ERROR_INVALID_HANDLE,
                          "%s: the handle is not a %s (it is a %s that was already released)", fn,
                          what, dead);
  return amp__set_error(AMP_ERROR_INVALID_HANDLE, "%s: the handle is not a %s", fn, what);
}

/* No thread-local state here (the reason is in amp_last_error already): the status follows from
 * whether the region is used up. */
amp_status amp__handle_alloc_status(void) {
  pthread_mutex_lock(&h_lock);
  int full = h_base && h_next + AMP__HANDLE_SLOT > h_size;
  pthread_mutex_unlock(&h_lock);
  return full ? AMP_ERROR_LIMIT_EXCEEDED : AMP_ERROR_OUT_OF_MEMORY;
}

static void *alloc_fail(amp_status st, const char *why) {
  amp__set_error(st, "creating a handle: %s", why);
  return NULL;
}

void *amp__handle_alloc(size_t size) {
  if (size > AMP__HANDLE_SLOT)
    return alloc_fail(AMP_ERROR_OUT_OF_MEMORY, "the handle struct is larger than a slot");
  pthread_mutex_lock(&h_lock);
  void *out = NULL;
  if (!h_base) {
    for (size_t sz = AMP__HANDLE_REGION; sz >= ((size_t)1 << 30) && !h_base; sz /= 2) {
      void *p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
      if (p != MAP_FAILED) {
        h_base = p;
        h_size = sz;
      }
    }
  }
  if (!h_base) {
    pthread_mutex_unlock(&h_lock);
    return alloc_fail(AMP_ERROR_OUT_OF_MEMORY, "no address space for the handle region");
  }
  if (h_next + AMP__HANDLE_SLOT > h_size) {
    pthread_mutex_unlock(&h_lock);
    return alloc_fail(AMP_ERROR_LIMIT_EXCEEDED,
                      "every handle slot of the process was used (handles are never reused)");
  }
  size_t chunk = h_next / AMP__HANDLE_CHUNK;
  if (chunk >= h_nchunks) {
    size_t n = h_nchunks ? 2 * h_nchunks : 64;
    uint16_t *d = realloc(h_dead, n * sizeof *d);
    if (!d) {
      pthread_mutex_unlock(&h_lock);
      return alloc_fail(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t i = h_nchunks; i < n; i++)
      d[i] = 0;
    h_dead = d;
    h_nchunks = n;
  }
  if (h_next % AMP__HANDLE_CHUNK == 0 && __lsan_register_root_region)
    __lsan_register_root_region(h_base + h_next, AMP__HANDLE_CHUNK);
  out = h_base + h_next;
  h_next += AMP__HANDLE_SLOT;
  pthread_mutex_unlock(&h_lock);
  return out; /* fresh anonymous memory: already zero */
}

void amp__handle_retire(void *h) {
  if (!h)
    return;
  uint32_t *m = h;
  *m = ~*m;
  pthread_mutex_lock(&h_lock);
  size_t chunk = (size_t)((unsigned char *)h - h_base) / AMP__HANDLE_CHUNK;
  if (++h_dead[chunk] == SLOTS_PER_CHUNK) /* every slot handed out and released */
    madvise(h_base + chunk * AMP__HANDLE_CHUNK, AMP__HANDLE_CHUNK, MADV_DONTNEED);
  pthread_mutex_unlock(&h_lock);
}

amp_status amp__handle_ref(void *h, size_t refs_at, uint32_t magic, const char *what,
                           const char *fn) {
  amp_status status = amp__check_handle(h, magic, what, fn);
  if (status == AMP_SUCCESS)
    atomic_fetch_add((_Atomic int *)((unsigned char *)h + refs_at), 1);
  return status;
}

amp_status amp__handle_unref(void *h, size_t refs_at, uint32_t magic, const char *what,
                             const char *fn, int *last) {
  *last = 0;
  if (!h)
    return AMP_SUCCESS;
  amp_status status = amp__check_handle(h, magic, what, fn);
  if (status == AMP_SUCCESS)
    *last = atomic_fetch_sub((_Atomic int *)((unsigned char *)h + refs_at), 1) == 1;
  return status;
}

amp_status amp__check_out(const void *out, const char *fn) {
  return out ? AMP_SUCCESS : amp__set_error(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
}
