/* fuzz/replay.c: feeds every file of the corpus folders (or files) named on the command line to a
 * fuzz target's LLVMFuzzerTestOneInput, once each, in a buffer of exactly the file's size (so
 * AddressSanitizer sees a read past its end). Built with any compiler: this is how ctest replays
 * the corpora (fuzz.<target>) in the normal and the sanitizer builds. Fails when a folder holds no
 * file: a replay of nothing would pass whatever the code did. */
#include "fuzz.h"

#include <dirent.h>
#include <sys/stat.h>

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 0;
  }
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap) {
      uint8_t *g = realloc(buf, cap *= 2);
      if (!g) {
        free(buf);
        buf = NULL;
      }
      buf = g;
    }
  }
  fclose(f);
  if (!buf) {
    fprintf(stderr, "replay: out of memory reading %s\n", path);
    return 0;
  }
  uint8_t *exact = malloc(n ? n : 1); /* exactly n bytes: a read past them is caught */
  if (!exact) {
    free(buf);
    return 0;
  }
  memcpy(exact, buf, n);
  free(buf);
  LLVMFuzzerTestOneInput(exact, n);
  free(exact);
  return 1;
}

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  long total = 0;
  for (int a = 1; a < argc; a++) {
    struct stat st;
    if (stat(argv[a], &st) != 0) {
      fprintf(stderr, "replay: %s does not exist\n", argv[a]);
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
      if (!replay_file(argv[a]))
        return 1;
      total++;
      continue;
    }
    DIR *d = opendir(argv[a]);
    long here = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
      if (e->d_name[0] == '.')
        continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
      if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        continue;
      if (!replay_file(path))
        return 1;
      here++;
    }
    if (d)
      closedir(d);
    if (here == 0) {
      fprintf(stderr, "replay: %s holds no input\n", argv[a]);
      return 1;
    }
    total += here;
  }
  fprintf(stderr, "replay: %ld inputs, no failure\n", total);
  return total > 0 ? 0 : 1;
}
