/* runtime/exec/param_type.h: a kernel parameter's type name made canonical, from the name the
 * compiler reports and the program's source (param_type.c). Pure text functions: no OpenCL call,
 * so fuzz/ drives them without a device. */
#ifndef AMPCL_RUNTIME_PARAM_TYPE_H
#define AMPCL_RUNTIME_PARAM_TYPE_H

#include <stddef.h>

/* Size in bytes of an OpenCL C built-in scalar or vector type named without spaces ("uint",
 * "float4"), or 0. */
size_t amp__builtin_type_size(const char *type);

/* The canonical name of `type` as the compiler reports it without spaces ("unsignedint*",
 * "real*"): no trailing '*', "unsigned int" as "uint", and a `typedef <type> name;` of `source`
 * (may be NULL) followed to the type it names, and a one-token macro of it (`#define name value`,
 * or the build option `-Dname=value`) to its value, a few levels deep. malloc'd; NULL when out of
 * memory. */
char *amp__canonical_type(const char *source, const char *type);

/* How many times the source defines `name`: `#define name ...` lines and `typedef ... name;`
 * statements, each counted once whether or not an #if keeps it. 1: what amp__canonical_type
 * follows it to is the only value the text can give it. */
int amp__type_definitions(const char *source, const char *name);

/* The rank of an image type (1, 2 or 3), 0 for another type. Drivers write the type without
 * spaces, some with its access qualifier in front ("read_onlyimage2d_t"). */
int amp__image_rank(const char *type);

#endif /* AMPCL_RUNTIME_PARAM_TYPE_H */
