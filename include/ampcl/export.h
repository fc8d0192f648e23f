/* ampcl/export.h: symbol visibility for the public API.
 *
 * The library is built with hidden visibility; only declarations marked AMP_API are exported.
 * A static build (the default) needs no import/export decoration at all. */
#ifndef AMPCL_EXPORT_H
#define AMPCL_EXPORT_H

#if defined(AMP_SHARED_BUILD) && defined(__GNUC__)
#define AMP_API __attribute__((visibility("default")))
#else
#define AMP_API
#endif

#endif /* AMPCL_EXPORT_H */
