/* amp-info --kernel: each kernel of an OpenCL C file, and its tile limits on every accelerator
 * that runs kernels (amp_kernel_limits). Kernel names are found in the source as the identifier
 * before the parameter list of each "kernel" / "__kernel" function. */
#include "kernel_limits.h"

#include <ampcl.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies into name (size cap) the next kernel function name at or after *pos, or returns 0. */
static int next_kernel_name(const char *src, size_t *pos, char *name, size_t cap) {
  const char *p = src + *pos;
  while ((p = strstr(p, "kernel")) != NULL) {
    int starts = p == src || !(isalnum((unsigned char)p[-1]) || p[-1] == '_') ||
                 (p >= src + 2 && p[-1] == '_' && p[-2] == '_');
    const char *after = p + 6;
    p = after;
    if (!starts || isalnum((unsigned char)*after) || *after == '_')
      continue;
    /* return type and name, with __attribute__((...)) anywhere in between */
    const char *q = after, *b = NULL, *e = NULL;
    for (;;) {
      while (isspace((unsigned char)*q))
        q++;
      if (isalpha((unsigned char)*q) || *q == '_') {
        const char *id = q;
        while (isalnum((unsigned char)*q) || *q == '_')
          q++;
        if ((size_t)(q - id) == 13 && strncmp(id, "__attribute__", 13) == 0) {
          int depth = 0;
          while (isspace((unsigned char)*q))
            q++;
          do {
            depth += *q == '(';
            depth -= *q == ')';
          } while (*q && (q++, depth > 0));
        } else {
          b = id;
          e = q;
        }
      } else {
        break;
      }
    }
    if (*q != '(' || !b)
      continue;
    size_t len = (size_t)(e - b);
    if (len == 0 || len >= cap)
      continue;
    memcpy(name, b, len);
    name[len] = '\0';
    *pos = (size_t)(p - src);
    return 1;
  }
  return 0;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (cap - len < 2) {
      char *bigger = realloc(buf, cap * 2);
      if (!bigger) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf)
    buf[len] = '\0';
  return buf;
}

int amp_info_kernel_limits(const char *path, const char *options) {
  char *src = read_file(path);
  if (!src) {
    fprintf(stderr, "amp-info: cannot read %s\n", path);
    return 1;
  }
  amp_program *prog = NULL;
  amp_status st = amp_program_create(src, options, &prog);
  size_t n = 0;
  if (st == AMP_SUCCESS)
    st = amp_accelerator_count(&n);
  int rc = st == AMP_SUCCESS ? 0 : 1;
  if (st != AMP_SUCCESS)
    fprintf(stderr, "amp-info: %s: %s\n  %s\n", path, amp_status_name(st), amp_last_error());
  for (size_t i = 0; st == AMP_SUCCESS && i < n; i++) {
    amp_accelerator *acc = NULL;
    amp_accelerator_properties p;
    if (amp_accelerator_get(i, &acc) != AMP_SUCCESS ||
        amp_accelerator_get_properties(acc, &p) != AMP_SUCCESS || p.is_host)
      continue;
    printf("%s (%s): kernels of %s\n", p.device_path, p.name, path);
    char name[256];
    size_t pos = 0;
    while (next_kernel_name(src, &pos, name, sizeof name)) {
      amp_kernel *k = NULL;
      amp_kernel_limits_info li;
      amp_status ks = amp_kernel_create(prog, name, &k);
      if (ks == AMP_SUCCESS)
        ks = amp_kernel_limits(k, acc, &li);
      amp_kernel_release(k);
      if (ks != AMP_SUCCESS) {
        printf("  %-24s %s: %s\n", name, amp_status_name(ks), amp_last_error());
        rc = 1;
        continue;
      }
      printf("  %-24s max tile %zu threads (device %zu), multiple of %zu, private %llu B/thread, "
             "tile_static %llu of %llu B",
             name, li.max_tile_threads, li.device_max_tile_threads, li.preferred_multiple,
             (unsigned long long)li.private_bytes, (unsigned long long)li.static_local_bytes,
             (unsigned long long)li.device_local_bytes);
      if (li.required_rank == 1)
        printf(", required tile (%d)", li.required_tile[0]);
      else if (li.required_rank == 2)
        printf(", required tile (%d,%d)", li.required_tile[0], li.required_tile[1]);
      else if (li.required_rank == 3)
        printf(", required tile (%d,%d,%d)", li.required_tile[0], li.required_tile[1],
               li.required_tile[2]);
      printf("\n");
    }
    printf("\n");
  }
  amp_program_release(prog);
  free(src);
  return rc;
}
