/* runtime/exec/build_log.c: a build's log in the user's file and line numbers, and tidied: the
 * compiler's counts dropped, repeated diagnostics folded (build_log.h).
 *
 * ampcl builds prelude + `#line 1 "LABEL"` + the user's source, so compilers that honour the
 * directive report the user's file and lines. Where a compiler does not (NVIDIA's, driver 580;
 * program_build.c finds out with a probe), the log's ":LINE:COL:" positions are moved back here
 * by the number of lines before the user's first. The log is the compiler's text and the label
 * comes from the user's path or source: nothing here assumes either is well formed
 * (fuzz/build_log). */
#include "exec/build_log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void amp__source_label(const char *source, char *label, size_t size) {
  snprintf(label, size, "<source>");
  const char *directive = "#line 1 \"";
  if (strncmp(source, directive, strlen(directive)) != 0)
    return;
  const char *name = source + strlen(directive);
  size_t n = strcspn(name, "\"\n");
  if (name[n] == '"' && n > 0 && n < size)
    snprintf(label, size, "%.*s", (int)n, name);
}

char *amp__line_directive(const char *label) {
  static const char head[] = "\n#line 1 \"", tail[] = "\"\n";
  size_t len = strlen(label);
  char *d = malloc(sizeof head - 1 + len + sizeof tail);
  if (!d)
    return NULL;
  memcpy(d, head, sizeof head - 1);
  char *o = d + sizeof head - 1;
  for (const char *c = label; *c; c++)
    *o++ = (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) ? '_' : *c;
  memcpy(o, tail, sizeof tail);
  return d;
}

/* At c, ":LINE:COL" with digits after both colons and a line of at most 18 digits (a longer one
 * is left as written: strtol would saturate it): the line and where its digits end, else 0. */
static int position_at(const char *c, long *line, const char **end) {
  if (c[0] != ':' || !isdigit((unsigned char)c[1]) || strspn(c + 1, "0123456789") > 18)
    return 0;
  char *e;
  *line = strtol(c + 1, &e, 10);
  *end = e;
  return *e == ':' && isdigit((unsigned char)e[1]);
}

long amp__log_first_line(const char *log) {
  long line;
  const char *end;
  for (const char *c = log; c && *c; c++)
    if (position_at(c, &line, &end))
      return line;
  return -1;
}

long amp__log_user_offset(const char *text) {
  const char *user = strstr(text, "\n#line 1 \"");
  user = user ? strchr(user + 1, '\n') : NULL;
  long offset = 0;
  for (const char *c = text; user && c <= user; c++)
    offset += *c == '\n';
  /* A source that starts with its own `#line 1 "file"` (ampcl_embed_cl's strings do) has its
   * line 1 one physical line further down. */
  if (user && strncmp(user + 1, "#line 1 ", 8) == 0)
    offset++;
  return offset;
}

char *amp__log_shift(const char *log, long offset, const char *label) {
  static const char anon[] = "<kernel>:";
  size_t nanon = 0, nlabel = strlen(label);
  for (const char *c = strstr(log, anon); c; c = strstr(c + 1, anon))
    nanon++;
  /* a shifted number is never longer than the digits it replaces; each anon grows by the label */
  size_t cap = strlen(log) + nanon * nlabel + 1;
  char *out = malloc(cap);
  if (!out)
    return NULL;
  size_t o = 0;
  for (const char *c = log; *c;) {
    long line;
    const char *end;
    if (strncmp(c, anon, sizeof anon - 1) == 0) {
      memcpy(out + o, label, nlabel);
      o += nlabel;
      c += sizeof anon - 2; /* the ':' stays, for the line number that follows */
      continue;
    }
    if (offset > 0 && position_at(c, &line, &end) && line > offset) {
      o += (size_t)snprintf(out + o, cap - o, ":%ld", line - offset);
      c = end;
      continue;
    }
    out[o++] = *c++;
  }
  out[o] = '\0';
  return out;
}

/* ---- tidying a log: the compiler's counts dropped, repeated diagnostics folded ----------------
 */

static int has_text(const char *c, size_t n, const char *what) {
  size_t w = strlen(what);
  for (size_t i = 0; i + w <= n; i++)
    if (memcmp(c + i, what, w) == 0)
      return 1;
  return 0;
}

/* "1 error generated.", "3 warnings generated.", "1 warning and 2 errors generated." */
static int is_count(const char *c, size_t n) {
  static const char tail[] = " generated.";
  size_t t = sizeof tail - 1;
  return n > t && isdigit((unsigned char)c[0]) && memcmp(c + n - t, tail, t) == 0;
}

static int is_diagnostic(const char *c, size_t n) {
  return has_text(c, n, "error:") || has_text(c, n, "warning:") || has_text(c, n, "note:");
}

/* The source line and caret under a diagnostic: indented. */
static int is_context(const char *c, size_t n) {
  return n > 0 && (c[0] == ' ' || c[0] == '\t');
}

/* Whether the line c[0..n) is one of the lines of out[0..o). */
static int already_kept(const char *out, size_t o, const char *c, size_t n) {
  for (size_t i = 0; i < o;) {
    size_t m = 0;
    while (i + m < o && out[i + m] != '\n')
      m++;
    if (m == n && memcmp(out + i, c, n) == 0)
      return 1;
    i += m + 1;
  }
  return 0;
}

char *amp__log_tidy(const char *log, int diagnostics_only) {
  /* every kept line ends in '\n', so a last line without one grows by a byte */
  char *out = malloc(strlen(log) + 2);
  if (!out)
    return NULL;
  size_t o = 0;
  enum { NONE, KEEP, DROP } context = NONE; /* what becomes of the lines under a diagnostic */
  for (const char *c = log; *c;) {
    size_t n = strcspn(c, "\n");
    int keep;
    if (is_count(c, n)) {
      keep = 0;
      context = NONE;
    } else if (is_diagnostic(c, n)) {
      keep = !already_kept(out, o, c, n);
      context = keep ? KEEP : DROP;
    } else if (is_context(c, n) && context != NONE) {
      keep = context == KEEP;
    } else {
      keep = !diagnostics_only;
      context = NONE;
    }
    if (keep) {
      memcpy(out + o, c, n);
      o += n;
      out[o++] = '\n';
    }
    c += n + (c[n] == '\n');
  }
  out[o] = '\0';
  return out;
}
