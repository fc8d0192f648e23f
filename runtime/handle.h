/* runtime/handle.h: checked opaque handles.
 *
 * Every handle struct starts with a `uint32_t magic` that names its kind. Public entry points
 * check it first, so a NULL handle, a handle of the wrong kind, or a released one comes back as
 * AMP_ERROR_INVALID_HANDLE with a message instead of a crash inside the driver.
 *
 * Released handles are not freed at once: their magic becomes AMP__MAGIC_DEAD and the memory is
 * kept in a quarantine of the last AMP__QUARANTINE releases (as AddressSanitizer does), so a
 * second release or a use after release is reported reliably within that window. */
#ifndef AMPCL_RUNTIME_HANDLE_H
#define AMPCL_RUNTIME_HANDLE_H

#include <stdint.h>

#include "error.h"

#define AMP__MAGIC_ACCELERATOR 0x41434331u /* "ACC1" */
#define AMP__MAGIC_VIEW        0x41565731u /* "AVW1": accelerator view */
#define AMP__MAGIC_FUTURE      0x46555431u /* "FUT1" */
#define AMP__MAGIC_ARRAY_VIEW  0x41525631u /* "ARV1" */
#define AMP__MAGIC_PROGRAM     0x50524731u /* "PRG1" */
#define AMP__MAGIC_KERNEL      0x4b524e31u /* "KRN1" */
#define AMP__MAGIC_DEAD        0xdeadbeefu

#define AMP__QUARANTINE 4096

/* AMP_SUCCESS when h is a live handle of kind `magic`; otherwise records why ("<fn>: <what> is
 * NULL / was already released / is not a <what>") and returns AMP_ERROR_INVALID_HANDLE. */
amp_status amp__check_handle(const void *h, uint32_t magic, const char *what, const char *fn);

/* Marks the handle dead and hands its memory (allocated with malloc) to the quarantine, which
 * frees the oldest entry once it is full. */
void amp__handle_retire(void *h);

#define AMP__CHECK(h, magic, what) AMP__TRY(amp__check_handle((h), (magic), (what), __func__))

#endif /* AMPCL_RUNTIME_HANDLE_H */
