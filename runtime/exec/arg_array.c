/* runtime/exec/arg_array.c: an array as a kernel argument (AMP_ARG_ARRAY): amp_arg_array and its
 * row of hooks (arg_kinds.h).
 *
 * An array passed for an AMP_VIEW / AMP_CONST_VIEW parameter stands for its whole view (the one
 * the array keeps, data/array_impl.h), so it is checked, copied, set and recorded in debug mode
 * exactly as that view would be: its row checks the array handle, then hands every other hook to
 * the view's row, whose hooks read the view through amp__arg_view (arg_view.c). */
#include <stdio.h>
#include <string.h>

#include "data/array_impl.h"
#include "exec/arg_kinds.h"
#include "exec/arg_mismatch.h"

amp_arg amp_arg_array(amp_array *array) {
  amp_arg a = {AMP_ARG_ARRAY, {.array = array}};
  return a;
}

/* "an array of float": the view's words with "array" for "view". */
static void array_describe(const amp_arg *a, char *buf, size_t cap) {
  char vdesc[96];
  amp__kind_view.describe(a, vdesc, sizeof vdesc);
  const char *of = strstr(vdesc, "view of ");
  snprintf(buf, cap, "an array of %s", of ? of + strlen("view of ") : vdesc);
}

static amp_status array_check_own(const amp_arg *a, size_t i, const char *kname) {
  amp_status status = amp__check_handle(a->u.array, AMP__MAGIC_ARRAY, "array", kname);
  if (status != AMP_SUCCESS) {
    char which[96];
    snprintf(which, sizeof which, "; argument %zu (counting from 0) is not a live array", i);
    amp__append_error(which); /* the reason above names the kernel and the array */
    return status;
  }
  return amp__kind_view.check_own(a, i, kname);
}

static amp_status array_check(const amp__arg_check *c, size_t i) {
  return amp__kind_view.check(c, i);
}

static int array_fp64(const amp_arg *a) {
  return amp__kind_view.fp64(a);
}

static int array_writes(const amp__launch_table *t, size_t i) {
  return amp__kind_view.writes(t, i);
}

static amp_array_view *array_view_of(const amp_arg *a) {
  return amp__arg_view(a);
}

static amp_status array_set_shape(const amp__launch_table *t, size_t i, cl_kernel k) {
  return amp__kind_view.set(t, i, k);
}

static amp_status array_set_buffer(const amp__launch_table *t, size_t i, cl_kernel k) {
  return amp__kind_view.set_data(t, i, k);
}

const amp__arg_kind amp__kind_array = {
    .kind = AMP_ARG_ARRAY,
    .params = 2,
    .debug_record = 1,
    .name_suffix = "_data",
    .describe = array_describe,
    .check_own = array_check_own,
    .check = array_check,
    .fp64 = array_fp64,
    .writes = array_writes,
    .view = array_view_of,
    .set = array_set_shape,
    .set_data = array_set_buffer,
};
