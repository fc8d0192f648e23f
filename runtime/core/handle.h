/* runtime/core/handle.h: checked opaque handles.
 *
 * Every handle struct starts with a `uint32_t magic` that names its kind. Public entry points
 * check it first, so a NULL handle, a pointer that never was a handle, a handle of the wrong kind
 * or a released one comes back as AMP_ERROR_INVALID_HANDLE with a message instead of a crash.
 *
 * Why this is always right (not only within a window of recent releases): handle memory comes
 * from one region of address space reserved once (mmap MAP_NORESERVE: address space, not memory;
 * a page costs memory only once written) and handed out in fixed slots by a bump pointer. A slot's
 * address is never handed out twice, so a released handle can never turn into a live handle of
 * another object. The check reads nothing outside the region: a pointer that is not the start of a
 * slot already handed out is "not an ampcl handle" without being dereferenced. A released slot's
 * magic becomes the bitwise NOT of its kind's magic, so the message names the kind and says it was
 * released.
 *
 * Memory stays bounded by the live handles: slots are grouped in chunks of AMP__HANDLE_CHUNK
 * bytes; once every slot of a chunk has been handed out and released, the chunk's pages go back
 * to the system (madvise MADV_DONTNEED). Reading them later gives zeros (the kernel's shared zero
 * page), which the check reports as "released". What remains per released chunk is page-table
 * entries only. The region holds AMP__HANDLE_REGION / AMP__HANDLE_SLOT handles over the life of
 * the process (2^30 with the defaults, fewer if the system refused the full reservation); after
 * that, creating a handle fails with AMP_ERROR_LIMIT_EXCEEDED. */
#ifndef AMPCL_RUNTIME_HANDLE_H
#define AMPCL_RUNTIME_HANDLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

#define AMP__MAGIC_ACCELERATOR 0x41434331u /* "ACC1" */
#define AMP__MAGIC_VIEW        0x41565731u /* "AVW1": accelerator view */
#define AMP__MAGIC_FUTURE      0x46555431u /* "FUT1" */
#define AMP__MAGIC_ARRAY_VIEW  0x41525631u /* "ARV1" */
#define AMP__MAGIC_PROGRAM     0x50524731u /* "PRG1" */
#define AMP__MAGIC_KERNEL      0x4b524e31u /* "KRN1" */
#define AMP__MAGIC_ARRAY       0x41525231u /* "ARR1" */
#define AMP__MAGIC_TEXTURE     0x54455831u /* "TEX1" */

#define AMP__HANDLE_SLOT   512u              /* bytes per handle: the largest handle struct */
#define AMP__HANDLE_CHUNK  (64u * 1024u)     /* bytes given back to the system at once */
#define AMP__HANDLE_REGION ((size_t)1 << 39) /* address space reserved (512 GiB) */

/* AMP_SUCCESS when h is a live handle of kind `magic`; otherwise records why ("<fn>: the <what>
 * is NULL / was already released / is not an ampcl handle / is a <kind>, not a <what>") and
 * returns AMP_ERROR_INVALID_HANDLE. */
amp_status amp__check_handle(const void *h, uint32_t magic, const char *what, const char *fn);

/* `size` zeroed bytes for a new handle (size <= AMP__HANDLE_SLOT), or NULL with the reason
 * recorded (AMP_ERROR_OUT_OF_MEMORY or AMP_ERROR_LIMIT_EXCEEDED: see amp__handle_alloc_status). */
void *amp__handle_alloc(size_t size);
/* The status of the last failed amp__handle_alloc on this thread. */
amp_status amp__handle_alloc_status(void);

/* Marks the handle released. Its slot is never handed out again; its chunk's memory goes back to
 * the system once every slot of the chunk is released. NULL does nothing. */
void amp__handle_retire(void *h);

#define AMP__CHECK(h, magic, what) AMP__TRY(amp__check_handle((h), (magic), (what), __func__))

/* Reference counts. Every counted handle struct has an `_Atomic int refs`, `refs_at` bytes from
 * its start (offsetof). amp__handle_ref checks h and adds a reference (a public _retain call);
 * amp__handle_unref checks h and drops one, setting *last to 1 when that was the last, for the
 * caller to free what the handle holds and retire it (a public _release call). Releasing NULL
 * succeeds with *last 0. */
amp_status amp__handle_ref(void *h, size_t refs_at, uint32_t magic, const char *what,
                           const char *fn);
amp_status amp__handle_unref(void *h, size_t refs_at, uint32_t magic, const char *what,
                             const char *fn, int *last);
#define AMP__RETAIN(h, T, magic, what)                                                             \
  amp__handle_ref((h), offsetof(T, refs), (magic), (what), __func__)
#define AMP__UNREF(h, T, magic, what, last)                                                        \
  AMP__TRY(amp__handle_unref((h), offsetof(T, refs), (magic), (what), __func__, (last)))

/* Defines T_retain and T_release, the public reference counting of the counted handle type T:
 * retain checks the handle and adds a reference; release checks it and drops one, and when that
 * was the last calls destroy(h), whose status it returns. Releasing NULL succeeds. */
#define AMP__DEFINE_REFCOUNT(T, magic, what, destroy)                                              \
  amp_status T##_retain(T *h) {                                                                    \
    return AMP__RETAIN(h, T, magic, what);                                                         \
  }                                                                                                \
  amp_status T##_release(T *h) {                                                                   \
    int last;                                                                                      \
    amp_status status = amp__handle_unref(h, offsetof(T, refs), magic, what, __func__, &last);     \
    return status == AMP_SUCCESS && last ? destroy(h) : status;                                    \
  }

/* Defines `amp_status fn(const T *h, OutT *out)`, a public getter: checks h and out, then
 * *out = expr (an expression of h). */
#define AMP__DEFINE_GETTER(fn, T, magic, what, OutT, expr)                                         \
  amp_status fn(const T *h, OutT *out) {                                                           \
    amp_status status = AMP__CHECK_GET(h, magic, what, out);                                       \
    if (status == AMP_SUCCESS)                                                                     \
      *out = (expr);                                                                               \
    return status;                                                                                 \
  }

/* A getter's output pointer: NULL is AMP_ERROR_INVALID_ARGUMENT, "<fn>: out is NULL". */
amp_status amp__check_out(const void *out, const char *fn);
#define AMP__CHECK_OUT(out) AMP__TRY(amp__check_out((out), __func__))
/* Both checks of a getter: the handle, then its output pointer. */
#define AMP__CHECK_GET(h, magic, what, out)                                                        \
  (amp__check_handle((h), (magic), (what), __func__) != AMP_SUCCESS                                \
       ? AMP_ERROR_INVALID_HANDLE                                                                  \
       : amp__check_out((out), __func__))

#endif /* AMPCL_RUNTIME_HANDLE_H */
