/* debug_overlap: with AMP_DEBUG set, a second top-level view over host memory that a live view
 * already covers is reported on stderr (AMP rule 10: the two would not be coherent), also when
 * one of the two is read-only, and views over disjoint memory, a section of the first view, or two
 * read-only views of the same memory (never written, so never incoherent) are not. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

/* Runs `body` with stderr captured into a temporary file; returns what was written. */
static char captured[4096];
static const char *capture_stderr(void (*body)(void)) {
  char path[] = "/tmp/ampcl-debug-XXXXXX";
  int fd = mkstemp(path);
  int saved = dup(STDERR_FILENO);
  fflush(stderr);
  dup2(fd, STDERR_FILENO);
  body();
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  lseek(fd, 0, SEEK_SET);
  ssize_t n = read(fd, captured, sizeof captured - 1);
  captured[n > 0 ? n : 0] = '\0';
  close(fd);
  unlink(path);
  return captured;
}

static float data[64];

static void overlapping(void) {
  amp_array_view *a, *b;
  CHECK_OK(amp_array_view_create(amp_extent1(64), AMP_FLOAT, data, &a));
  CHECK_OK(amp_array_view_create(amp_extent1(32), AMP_FLOAT, data + 16, &b)); /* overlaps a */
  CHECK_RELEASE_VIEWS(b, a);
}

static void readonly_and_writable(void) {
  amp_array_view *a, *b;
  CHECK_OK(amp_array_view_create_const(amp_extent1(64), AMP_FLOAT, data, &a));
  CHECK_OK(amp_array_view_create(amp_extent1(8), AMP_FLOAT, data + 60, &b)); /* writes into a's */
  CHECK_RELEASE_VIEWS(b, a);
}

static void two_readonly(void) {
  amp_array_view *a, *b;
  CHECK_OK(amp_array_view_create_const(amp_extent1(64), AMP_FLOAT, data, &a));
  CHECK_OK(amp_array_view_create_const(amp_extent1(64), AMP_FLOAT, data, &b));
  CHECK_RELEASE_VIEWS(b, a);
}

/* A writable view, then a read-only one over the same memory (warned); the writable one released:
 * a second read-only view is then fine, so the entry released must be the writable view's. */
static void released_writer(void) {
  amp_array_view *w, *r1, *r2;
  CHECK_OK(amp_array_view_create(amp_extent1(64), AMP_FLOAT, data, &w));
  CHECK_OK(amp_array_view_create_const(amp_extent1(64), AMP_FLOAT, data, &r1));
  CHECK_OK(amp_array_view_release(w));
  CHECK_OK(amp_array_view_create_const(amp_extent1(64), AMP_FLOAT, data, &r2));
  CHECK_RELEASE_VIEWS(r2, r1);
}

static void disjoint_and_sections(void) {
  amp_array_view *a, *b, *sec;
  CHECK_OK(amp_array_view_create(amp_extent1(32), AMP_FLOAT, data, &a));
  CHECK_OK(amp_array_view_create(amp_extent1(32), AMP_FLOAT, data + 32, &b)); /* disjoint */
  CHECK_OK(amp_array_view_section(a, amp_index1(8), amp_extent1(8), &sec));   /* same source */
  CHECK_RELEASE_VIEWS(sec, b, a);
  CHECK_OK(amp_array_view_create(amp_extent1(64), AMP_FLOAT, data, &a)); /* after release: fine */
  CHECK_OK(amp_array_view_release(a));
}

int main(void) {
  setenv("AMP_DEBUG", "1", 1);
  size_t n;
  REQUIRE_OK(amp_accelerator_count(&n));
  CHECK(strstr(capture_stderr(overlapping), "not coherent") != NULL);
  CHECK(strstr(capture_stderr(readonly_and_writable), "not coherent") != NULL);
  CHECK(strstr(capture_stderr(two_readonly), "warning") == NULL);
  /* exactly one warning: r1 against w; none for r2 once w is gone */
  const char *out = capture_stderr(released_writer), *first = strstr(out, "warning");
  CHECK(first != NULL && strstr(first + 1, "warning") == NULL);
  CHECK(strstr(capture_stderr(disjoint_and_sections), "warning") == NULL);
  return check_done();
}
