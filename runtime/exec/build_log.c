/* runtime/exec/build_log.c: a failed build's log in the user's file and line numbers
 * (build_log.h).
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
