/* runtime/exec/param_type.c: a kernel parameter's type, canonical (param_type.h).
 *
 * The compiler reports each parameter's type as written (without spaces here: "float*",
 * "unsignedint", "real*" for a typedef, "structpair*"). To compare it with an argument, names are
 * made canonical: "unsigned int" is "uint", and a `typedef <type> name;` in the program's source
 * is followed to the type it names, and a macro of one token (`#define DATA_TYPE float`, or
 * `-DDATA_TYPE=float` in the build options given as source) to its value. A name that stays unknown
 * is a struct (or a typedef of one); the argument kinds decide what that allows (arg_view.c,
 * arg_value.c). The source is the user's text, so nothing here assumes it is well formed
 * (fuzz/param_type). */
#include "exec/param_type.h"

#include <stdlib.h>
#include <string.h>

size_t amp__builtin_type_size(const char *t) {
  static const struct {
    const char *name;
    size_t size;
  } base[] = {{"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"half", 2},  {"int", 4},
              {"uint", 4}, {"float", 4}, {"long", 8},  {"ulong", 8},  {"double", 8}};
  for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
    size_t n = strlen(base[i].name);
    if (strncmp(t, base[i].name, n) != 0)
      continue;
    const char *w = t + n;
    if (!*w)
      return base[i].size;
    /* at most two digits: atoi of a longer run of digits could overflow */
    int lanes = strlen(w) <= 2 && strspn(w, "0123456789") == strlen(w) ? atoi(w) : 0;
    if (lanes == 2 || lanes == 3 || lanes == 4 || lanes == 8 || lanes == 16)
      return base[i].size * (size_t)(lanes == 3 ? 4 : lanes);
  }
  return 0;
}

/* "unsignedint" -> "uint" and the like, in place. */
static void canonical_unsigned(char *t) {
  if (strncmp(t, "unsigned", 8) == 0 && t[8]) {
    t[0] = 'u';
    memmove(t + 1, t + 8, strlen(t + 8) + 1);
  }
}

static int is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The type a `typedef ... name;` of the source (no braces inside) makes `name` stand for, without
 * spaces (malloc'd), or NULL when the source has none. */
static char *typedef_of(const char *source, const char *name) {
  size_t nlen = strlen(name);
  for (const char *p = strstr(source, "typedef"); p; p = strstr(p + 7, "typedef")) {
    if ((p > source && is_ident(p[-1])) || is_ident(p[7]))
      continue;
    const char *end = strchr(p, ';');
    if (!end)
      break;
    const char *brace = memchr(p, '{', (size_t)(end - p));
    if (brace)
      continue; /* typedef struct { ... } name; : a struct */
    const char *q = p + 7;
    while (q < end && (is_ident(*q) || strchr(" \t\r\n*", *q)))
      q++;
    if (q < end)
      continue; /* not a plain typedef: "typedef'd" in a comment, a function type */
    const char *last = end;
    while (last > p && !is_ident(last[-1]))
      last--;
    const char *first = last;
    while (first > p && is_ident(first[-1]))
      first--;
    /* the name must follow the keyword ("typedef;" names nothing: the keyword is not a name) */
    if (first < p + 8 || (size_t)(last - first) != nlen || strncmp(first, name, nlen) != 0)
      continue;
    size_t cap = (size_t)(first - (p + 7)) + 1;
    char *out = malloc(cap), *o = out;
    if (!out)
      return NULL;
    for (const char *c = p + 7; c < first; c++)
      if (*c != ' ' && *c != '\t' && *c != '\n' && *c != '\r')
        *o++ = *c;
    *o = '\0';
    return out;
  }
  return NULL;
}

/* The one-token value a `#define name value` line of the source, or a `-Dname=value` build option,
 * gives `name` (malloc'd), or NULL when neither is there or the value is no single identifier. */
static char *define_of(const char *source, const char *name) {
  size_t nlen = strlen(name);
  if (!nlen)
    return NULL; /* "" is found everywhere, up to the terminator */
  for (const char *p = strstr(source, name); p; p = strstr(p + 1, name)) {
    int option = p >= source + 2 && p[-2] == '-' && p[-1] == 'D' &&
                 (p == source + 2 || p[-3] == ' ' || p[-3] == '\t' || p[-3] == '\n') &&
                 p[nlen] == '=';
    if (!option && ((p > source && is_ident(p[-1])) || is_ident(p[nlen])))
      continue;
    const char *v = NULL;
    if (option) {
      v = p + nlen + 1; /* -Dname=value */
    } else {
      const char *q = p; /* # define name value, at the start of a line */
      while (q > source && (q[-1] == ' ' || q[-1] == '\t'))
        q--;
      if (q - source < 6 || strncmp(q - 6, "define", 6) != 0)
        continue;
      q -= 6;
      while (q > source && (q[-1] == ' ' || q[-1] == '\t'))
        q--;
      if (q == source || q[-1] != '#' || (q - 1 > source && q[-2] != '\n'))
        continue;
      if (p[nlen] != ' ' && p[nlen] != '\t')
        continue; /* a function-like macro, or a define of nothing */
      v = p + nlen;
      while (*v == ' ' || *v == '\t')
        v++;
    }
    size_t len = 0;
    while (is_ident(v[len]))
      len++;
    const char *after = v + len;
    if (v[-1] == '=') { /* -Dname=value: the value ends at the option's end */
      if (!len || (*after && !strchr(" \t\r\n", *after)))
        return NULL;
    } else {
      while (*after == ' ' || *after == '\t' || *after == '\r')
        after++;
      if (!len || (*after && *after != '\n'))
        return NULL; /* more than one token: not followed */
    }
    char *out = malloc(len + 1);
    if (out) {
      memcpy(out, v, len);
      out[len] = '\0';
    }
    return out;
  }
  return NULL;
}

char *amp__canonical_type(const char *source, const char *type) {
  size_t n = strlen(type);
  while (n && type[n - 1] == '*')
    n--;
  char *t = malloc(n + 1);
  if (!t)
    return NULL;
  memcpy(t, type, n);
  t[n] = '\0';
  for (int depth = 0; depth < 8 && source; depth++) {
    canonical_unsigned(t);
    if (amp__builtin_type_size(t))
      break;
    char *next = typedef_of(source, t);
    if (!next)
      next = define_of(source, t);
    if (!next)
      break;
    free(t);
    t = next;
    size_t len = strlen(t); /* `typedef float *fptr;`: the pointee, as for a pointer parameter */
    while (len && t[len - 1] == '*')
      t[--len] = '\0';
  }
  canonical_unsigned(t);
  return t;
}

/* The name is searched for, not compared: image1d_array_t and image1d_buffer_t do not match. */
int amp__image_rank(const char *type) {
  if (strstr(type, "image1d_t"))
    return 1;
  if (strstr(type, "image2d_t"))
    return 2;
  if (strstr(type, "image3d_t"))
    return 3;
  return 0;
}

/* Definitions of `name` in the source: `#define name ...` lines and `typedef ... name;`. */
int amp__type_definitions(const char *source, const char *name) {
  size_t nlen = strlen(name);
  int n = 0;
  if (!nlen)
    return 0;
  for (const char *line = source; line && *line;
       line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    const char *q = line + strspn(line, " \t");
    if (*q != '#')
      continue;
    q += 1 + strspn(q + 1, " \t");
    if (strncmp(q, "define", 6) != 0 || (q[6] != ' ' && q[6] != '\t'))
      continue;
    q += 6 + strspn(q + 6, " \t");
    n += strncmp(q, name, nlen) == 0 && !is_ident(q[nlen]);
  }
  for (const char *p = source; (p = strstr(p, name)) != NULL; p += nlen) {
    if ((p > source && is_ident(p[-1])) || is_ident(p[nlen]))
      continue;
    const char *after = p + nlen + strspn(p + nlen, " \t\r\n");
    if (*after != ';')
      continue;
    const char *start = p; /* the statement: after the last ';', '}' or '{' before it */
    while (start > source && !strchr(";{}", start[-1]))
      start--;
    int is_typedef = 0;
    for (const char *k = start; !is_typedef && (k = strstr(k, "typedef")) && k < p; k += 7)
      is_typedef = (k == source || !is_ident(k[-1])) && !is_ident(k[7]);
    n += is_typedef;
  }
  return n;
}
