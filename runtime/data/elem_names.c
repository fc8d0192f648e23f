/* runtime/data/elem_names.c: the names of each element kind (elem_names.h). */
#include "data/elem_names.h"

static const amp__elem_names names[] = {
    [AMP_ELEM_INT32] = {"int32", "AMP_INT32", "int", "int4"},
    [AMP_ELEM_UINT32] = {"uint32", "AMP_UINT32", "uint", "uint4"},
    [AMP_ELEM_FLOAT] = {"float", "AMP_FLOAT", "float", "float4"},
    [AMP_ELEM_DOUBLE] = {"double", "AMP_DOUBLE", "double", "double4"},
    [AMP_ELEM_STRUCT] = {"struct", "AMP_STRUCT(T)", NULL, NULL},
    [AMP_ELEM_INT64] = {"int64", "AMP_INT64", "long", "long4"},
    [AMP_ELEM_UINT64] = {"uint64", "AMP_UINT64", "ulong", "ulong4"},
};

const amp__elem_names *amp__elem_names_of(amp_elem_kind k) {
  static const amp__elem_names unknown = {"?", "?", NULL, NULL};
  return k >= AMP_ELEM_INT32 && k <= AMP_ELEM_UINT64 ? &names[k] : &unknown;
}
