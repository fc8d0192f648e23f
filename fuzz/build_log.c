/* fuzz/build_log.c: the build-log mapper (runtime/exec/build_log.c) on arbitrary text: the label
 * taken from a source, the #line directive made from a label (one string literal on one line,
 * whatever the label holds), the first line number of a log, the offset of the user's lines, and
 * the log rewritten in the user's lines (never longer than the room computed for it), and the log
 * tidied (never longer than it, but for a last newline). */
#include "exec/build_log.h"
#include "fuzz.h"

static size_t count(const char *s, const char *what) {
  size_t n = 0;
  for (const char *c = strstr(s, what); c; c = strstr(c + 1, what))
    n++;
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_string(data, size);
  if (!text)
    return 0;
  /* the label: the text's first 40 bytes; the log: the whole text */
  char label[41];
  snprintf(label, sizeof label, "%s", text);

  char got[64];
  size_t cap = size ? 1 + data[0] % sizeof got : sizeof got;
  amp__source_label(text, got, cap);
  FUZZ_ASSERT(strlen(got) < cap);

  char *d = amp__line_directive(text);
  if (d) {
    size_t n = strlen(d);
    FUZZ_ASSERT(strncmp(d, "\n#line 1 \"", 10) == 0 && n >= 12 && strcmp(d + n - 2, "\"\n") == 0);
    FUZZ_ASSERT(count(d, "\"") == 2 && count(d, "\n") == 2 && !strchr(d + 10, '\\'));
    free(d);
  }

  (void)amp__log_first_line(text);
  long offset = amp__log_user_offset(text);
  FUZZ_ASSERT(offset >= 0);
  long offsets[] = {offset, 0, size ? data[size - 1] : 1};
  for (int i = 0; i < 3; i++) {
    char *s = amp__log_shift(text, offsets[i], label);
    if (!s)
      continue;
    FUZZ_ASSERT(strlen(s) <= strlen(text) + count(text, "<kernel>:") * strlen(label));
    if (offsets[i] == 0 && !strstr(text, "<kernel>:"))
      FUZZ_ASSERT(strcmp(s, text) == 0); /* nothing to move: the log as it was */
    free(s);
  }
  for (int only = 0; only < 2; only++) {
    char *t = amp__log_tidy(text, only);
    if (!t)
      continue;
    FUZZ_ASSERT(strlen(t) <= strlen(text) + 1); /* lines dropped, at most a last '\n' added */
    FUZZ_ASSERT(!*t || t[strlen(t) - 1] == '\n');
    free(t);
  }
  free(text);
  return 0;
}
