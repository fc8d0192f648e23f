/* runtime/exec/build_log.h: a build's log in the user's file and line numbers, tidied
 * (build_log.c). Pure text functions: no OpenCL call, so fuzz/ drives them without a device. */
#ifndef AMPCL_RUNTIME_BUILD_LOG_H
#define AMPCL_RUNTIME_BUILD_LOG_H

#include <stddef.h>

/* The label of a source string: the file its first line names when it starts with
 * `#line 1 "FILE"` (as ampcl_embed_cl's strings do), else "<source>"; at most size - 1 bytes. */
void amp__source_label(const char *source, char *label, size_t size);

/* "\n#line 1 \"LABEL\"\n" (malloc'd; NULL when out of memory): the directive between the prelude
 * and the user's source. Quotes, backslashes and control characters of the label become '_'. */
char *amp__line_directive(const char *label);

/* The first "...:LINE:COL:" line number in a build log, or -1. */
long amp__log_first_line(const char *log);

/* How many physical lines of a program's full text (prelude, directive, source) come before the
 * user's line 1: 0 when the text has no directive of ampcl's. */
long amp__log_user_offset(const char *text);

/* `log` with every ":LINE:COL:" past `offset` moved back by `offset` lines and the compiler's name
 * for the source ("<kernel>", NVIDIA's) replaced by `label` (malloc'd; NULL when out of memory). */
char *amp__log_shift(const char *log, long offset, const char *label);

/* `log` tidied (malloc'd; NULL when out of memory): the compiler's counts ("2 errors generated.")
 * dropped, and a diagnostic line ("...: error: ...", "warning:", "note:") that repeats an earlier
 * one dropped with the indented source and caret lines under it. With diagnostics_only, only the
 * diagnostics and the lines under them are kept (a build's warnings without the driver's progress
 * lines). Every line kept ends with '\n'. */
char *amp__log_tidy(const char *log, int diagnostics_only);

#endif /* AMPCL_RUNTIME_BUILD_LOG_H */
