/* runtime/data/elem_names.h: the names of an element kind (amp_elem_kind), from one table, for
 * the messages and the kernel build options that spell them. */
#ifndef AMPCL_RUNTIME_ELEM_NAMES_H
#define AMPCL_RUNTIME_ELEM_NAMES_H

#include "ampcl/array_view.h"

typedef struct amp__elem_names {
  const char *word;  /* in messages: "int32", "struct" */
  const char *macro; /* as the caller wrote the type: "AMP_INT32", "AMP_STRUCT(T)" */
  const char *cl;    /* OpenCL C's type, "int"; NULL for a struct (its name is the caller's) */
  const char *cl4;   /* OpenCL C's 4-vector of it, "int4"; NULL for a struct */
} amp__elem_names;

/* The names of kind k; for a value that is no amp_elem_kind, "?" in messages and no types. */
const amp__elem_names *amp__elem_names_of(amp_elem_kind k);

#endif /* AMPCL_RUNTIME_ELEM_NAMES_H */
