/* runtime/exec/param_text.h: a kernel's parameter list read from its source, for checks the
 * driver's argument information cannot serve (param_text.c; exec/view_elem_text.c uses it). */
#ifndef AMPCL_RUNTIME_PARAM_TEXT_H
#define AMPCL_RUNTIME_PARAM_TEXT_H

/* One parameter of a kernel as its source writes it. */
typedef struct amp__text_param {
  char *elem; /* the T of AMP_VIEW(T, v) or AMP_CONST_VIEW(T, v) as written; NULL for others */
  char *name; /* the parameter's name where the text gives one simply, else NULL */
} amp__text_param;

/* The parameters of the first definition or declaration of kernel `kernel` in `source` (comments
 * and literals skipped; macros not expanded): the count, with *out (malloc'd, free with
 * amp__text_params_free); -1 where the kernel is not found or its list cannot be read, or out of
 * memory. Pure text: no OpenCL call. */
int amp__kernel_text_params(const char *source, const char *kernel, amp__text_param **out);
void amp__text_params_free(amp__text_param *p, int n);

#endif /* AMPCL_RUNTIME_PARAM_TEXT_H */
