/* runtime/exec/param_text.c: a kernel's parameter list read from its source (param_text.h). Pure
 * text functions: no OpenCL call, so fuzz/param_type drives them; the text is the user's, so
 * nothing here assumes it is well formed. */
#include "exec/param_text.h"

#include <stdlib.h>
#include <string.h>

static int ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A copy of the source with comments, string and character literals made spaces. */
static char *blanked(const char *src) {
  char *t = strdup(src);
  if (!t)
    return NULL;
  for (char *p = t; *p;) {
    if (p[0] == '/' && p[1] == '*') {
      char *e = strstr(p + 2, "*/");
      char *end = e ? e + 2 : p + strlen(p);
      memset(p, ' ', (size_t)(end - p));
      p = end;
    } else if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n')
        *p++ = ' ';
    } else if (*p == '"' || *p == '\'') {
      char q = *p;
      *p++ = ' ';
      while (*p && *p != q && *p != '\n') {
        if (*p == '\\' && p[1])
          *p++ = ' ';
        *p++ = ' ';
      }
      if (*p == q)
        *p++ = ' ';
    } else {
      p++;
    }
  }
  return t;
}

/* s[0..n) without the spaces at either end, malloc'd. */
static char *trimmed(const char *s, size_t n) {
  while (n && strchr(" \t\r\n", *s))
    s++, n--;
  while (n && strchr(" \t\r\n", s[n - 1]))
    n--;
  char *o = malloc(n + 1);
  if (o) {
    memcpy(o, s, n);
    o[n] = '\0';
  }
  return o;
}

/* Whether the declaration before `at` (back to the last ';', '{', '}' or '#' line) has the word
 * kernel or __kernel, and `void` just before the name. */
static int is_kernel_decl(const char *text, const char *at) {
  const char *p = at;
  while (p > text && strchr(" \t\r\n", p[-1]))
    p--;
  if (p - text < 4 || strncmp(p - 4, "void", 4) != 0 || (p - 4 > text && ident(p[-5])))
    return 0;
  const char *start = p - 4;
  while (start > text && !strchr(";{}", start[-1]))
    start--;
  for (const char *k = start; (k = strstr(k, "kernel")) && k < p - 4; k += 6)
    if (!ident(k[6]) &&
        (k == text || !ident(k[-1]) ||
         (k - text >= 2 && !strncmp(k - 2, "__", 2) && (k - 2 == text || !ident(k[-3])))))
      return 1;
  return 0;
}

/* One parameter's text, p[0..n), read. */
static int read_param(const char *p, size_t n, amp__text_param *out) {
  char *t = trimmed(p, n);
  if (!t)
    return 0;
  out->elem = out->name = NULL;
  size_t k = strncmp(t, "AMP_VIEW", 8) == 0 ? 8 : strncmp(t, "AMP_CONST_VIEW", 14) == 0 ? 14 : 0;
  char *open = k ? t + k + strspn(t + k, " \t\r\n") : NULL;
  char *close = strrchr(t, ')');
  if (open && *open == '(' && close && close > open) {
    int depth = 0; /* the last comma inside the parentheses at their own depth */
    char *comma = NULL;
    for (char *c = open + 1; c < close; c++) {
      depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
      if (*c == ',' && depth == 0)
        comma = c;
    }
    if (comma) {
      out->elem = trimmed(open + 1, (size_t)(comma - open - 1));
      out->name = trimmed(comma + 1, (size_t)(close - comma - 1));
    }
  } else { /* a plain parameter: its name is its last word */
    size_t e = strlen(t);
    size_t b = e;
    while (b && ident(t[b - 1]))
      b--;
    if (b < e && b > 0)
      out->name = trimmed(t + b, e - b);
  }
  free(t);
  return 1;
}

void amp__text_params_free(amp__text_param *p, int n) {
  for (int i = 0; p && i < n; i++) {
    free(p[i].elem);
    free(p[i].name);
  }
  free(p);
}

int amp__kernel_text_params(const char *source, const char *kernel, amp__text_param **out) {
  size_t klen = strlen(kernel);
  char *text = source && klen ? blanked(source) : NULL;
  if (!text)
    return -1;
  const char *open = NULL;
  for (const char *p = text; !open && (p = strstr(p, kernel)) != NULL; p += klen) {
    if ((p > text && ident(p[-1])) || ident(p[klen]))
      continue;
    const char *q = p + klen + strspn(p + klen, " \t\r\n");
    if (*q == '(' && is_kernel_decl(text, p))
      open = q;
  }
  int n = -1;
  amp__text_param *params = NULL;
  const char *close = NULL;
  int depth = 0;
  for (const char *c = open; c && *c; c++) {
    depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
    if (depth == 0) {
      close = c;
      break;
    }
  }
  if (close) {
    size_t commas = 0;
    depth = 0;
    for (const char *c = open + 1; c < close; c++) {
      depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
      commas += *c == ',' && depth == 0;
    }
    char *inside = trimmed(open + 1, (size_t)(close - open - 1));
    int none = inside && (!*inside || strcmp(inside, "void") == 0);
    free(inside);
    n = none ? 0 : (int)commas + 1;
    if (inside && n > 0 && (params = calloc((size_t)n, sizeof *params)) != NULL) {
      const char *from = open + 1;
      int i = 0;
      depth = 0;
      for (const char *c = open + 1; c <= close && i < n; c++) {
        depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
        if ((*c == ',' && depth == 0) || c == close) {
          if (!read_param(from, (size_t)(c - from), &params[i++]))
            break;
          from = c + 1;
        }
      }
      if (i < n) {
        amp__text_params_free(params, i);
        params = NULL;
        n = -1;
      }
    } else if (!inside || n > 0) {
      n = -1;
    }
  }
  free(text);
  *out = params;
  return n;
}
