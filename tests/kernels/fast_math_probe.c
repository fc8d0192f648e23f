/* kernel_fast_math_probe: the per-device measurement that decides which fast_math_* functions are
 * native_* (runtime/exec/math_accuracy.c), and what it keeps on disk.
 *
 * The parent points XDG_CACHE_HOME at a fresh directory and runs itself as a child ("child"), with
 * AMP_DEBUG=1 so the child's stderr says where the answer came from. Each child builds a kernel
 * that uses fast_math_exp and fast_math_tan and checks them against the host's libm within
 * ampcl's bound (2^-16 relative for exp; absolute below 1 for tan). Proves:
 *   - the first child measures ("measured now") and leaves one file, a .txt in dir/ampcl/fast-math,
 *     holding the device's key (platform, device, driver, for a CPU device the host CPU) and one
 *     line per function (14), each "native" or "precise";
 *   - a second child reads it ("read from the cache") and measures nothing;
 *   - an answer edited to say "precise" for every function (same key) is what the next child uses
 *     (the debug line lists every function as precise), and the results still hold the bound;
 *   - an answer whose key is another driver's is not used: the next child measures again and the
 *     file gets this device's key back;
 *   - a program that does not use fast_math_* does not wait for the measurement (no debug line).
 */
#define _GNU_SOURCE /* mkdtemp, setenv */
#include "check.h"

#include <dirent.h>
#include <float.h>
#include <unistd.h>

enum { N = 1024 };

static const char *src =
    "__kernel void fm(AMP_CONST_VIEW(float, x), AMP_VIEW(float, e), AMP_VIEW(float, t)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(e, i[0]) = fast_math_exp(amp_at(x, i[0]));\n"
    "  amp_at(t, i[0]) = fast_math_tan(amp_at(x, i[0]) * 0.0171f);\n"
    "}\n";

static const char *plain_src = "__kernel void plain(AMP_VIEW(int, v)) {\n"
                               "  AMP_INDEX1(i);\n"
                               "  amp_at(v, i[0]) = i[0];\n"
                               "}\n";

/* The child: one launch of each program, checked against the host. */
static int child(int plain_only) {
  REQUIRE_VIEW(av);
  if (plain_only) {
    static int32_t v[N];
    amp_kernel *k = test_kernel(plain_src, NULL, "plain");
    amp_array_view *vv = NULL;
    CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, v, &vv));
    amp_arg a[] = {amp_arg_view(vv)};
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, a, AMP_NARGS(a)));
    CHECK_OK(amp_array_view_synchronize(vv));
    CHECK(v[N - 1] == N - 1);
    amp_array_view_release(vv);
    amp_kernel_release(k);
    return check_done();
  }
  static float x[N], e[N], t[N];
  for (int i = 0; i < N; i++)
    x[i] = -80.0f + 160.0f * (float)i / (float)(N - 1);
  amp_kernel *k = test_kernel(src, NULL, "fm");
  if (!k)
    return check_done();
  amp_array_view *vx = NULL, *ve = NULL, *vt = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, e, &ve));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, t, &vt));
  amp_arg a[] = {amp_arg_view(vx), amp_arg_view(ve), amp_arg_view(vt)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, a, AMP_NARGS(a)));
  CHECK_OK(amp_array_view_synchronize(ve));
  CHECK_OK(amp_array_view_synchronize(vt));
  int bad = 0;
  const double bound = ldexp(1.0, -16);
  for (int i = 0; i < N; i++) {
    double re = exp((double)x[i]), rt = tan((double)(x[i] * 0.0171f));
    if (re > FLT_MIN && re < FLT_MAX && fabs(e[i] - re) > bound * re)
      bad++;
    if (fabs(t[i] - rt) > (fabs(rt) < 1 ? bound : bound * fabs(rt)))
      bad++;
  }
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(vx);
  amp_array_view_release(ve);
  amp_array_view_release(vt);
  amp_kernel_release(k);
  return check_done();
}

/* Runs the child with AMP_DEBUG=1; its stderr and stdout into out. Returns its exit status. */
static int run_child(const char *self, const char *mode, char *out, size_t cap) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "AMP_DEBUG=1 '%s' %s 2>&1", self, mode);
  FILE *p = popen(cmd, "r");
  if (!p)
    return -1;
  size_t n = fread(out, 1, cap - 1, p);
  out[n] = '\0';
  int rc = pclose(p);
  return rc;
}

/* The one answer file in dir/ampcl/fast-math; 0 when there is not exactly one. */
static int answer_file(const char *dir, char *path, size_t cap) {
  char folder[200];
  snprintf(folder, sizeof folder, "%s/ampcl/fast-math", dir);
  DIR *d = opendir(folder);
  int found = 0;
  struct dirent *de;
  while (d && (de = readdir(d)))
    if (strstr(de->d_name, ".txt") && found++ == 0)
      snprintf(path, cap, "%s/%s", folder, de->d_name);
  if (d)
    closedir(d);
  return found == 1;
}

static int count_lines(const char *path, char *first, size_t cap) {
  FILE *f = fopen(path, "r");
  char line[2048];
  int n = 0;
  while (f && fgets(line, sizeof line, f))
    if (n++ == 0)
      snprintf(first, cap, "%s", line);
  if (f)
    fclose(f);
  return n;
}

/* Rewrites the answer: with precise_all every function says "precise"; with key, the first line
 * is replaced. */
static void rewrite(const char *path, int precise_all, const char *key) {
  FILE *f = fopen(path, "r");
  char text[8192] = "", line[2048];
  size_t used = 0;
  int n = 0;
  while (f && fgets(line, sizeof line, f)) {
    if (n++ == 0 && key)
      snprintf(line, sizeof line, "%s\n", key);
    char name[16], how[16], worst[32];
    if (n > 1 && precise_all && sscanf(line, "%15s %15s %31s", name, how, worst) == 3)
      snprintf(line, sizeof line, "%s precise %s\n", name, worst);
    used += (size_t)snprintf(text + used, sizeof text - used, "%s", line);
  }
  if (f)
    fclose(f);
  f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0)
    return child(0);
  if (argc > 1 && strcmp(argv[1], "plain") == 0)
    return child(1);
  char dir[] = "/tmp/ampcl-fast-math-XXXXXX";
  if (!mkdtemp(dir)) {
    fprintf(stderr, "mkdtemp failed\n");
    return 1;
  }
  setenv("XDG_CACHE_HOME", dir, 1);
  static char out[65536];
  char path[512] = "", first[2048] = "";

  CHECK_EQ_INT(run_child(argv[0], "plain", out, sizeof out), 0);
  CHECK(strstr(out, "fast_math on") == NULL);
  CHECK(!answer_file(dir, path, sizeof path));

  CHECK_EQ_INT(run_child(argv[0], "child", out, sizeof out), 0);
  CHECK(strstr(out, "(measured now)") != NULL);
  printf("%s", out);
  CHECK(answer_file(dir, path, sizeof path));
  CHECK_EQ_INT(count_lines(path, first, sizeof first), 15);
  CHECK(strncmp(first, "platform ", 9) == 0);

  CHECK_EQ_INT(run_child(argv[0], "child", out, sizeof out), 0);
  CHECK(strstr(out, "(read from the cache)") != NULL);

  rewrite(path, 1, NULL);
  CHECK_EQ_INT(run_child(argv[0], "child", out, sizeof out), 0);
  CHECK(strstr(out, "(read from the cache): native_* for none;") != NULL);

  rewrite(path, 0, "platform Another | device Another (driver 0) | driver 0 | OpenCL 1.2 | cpu");
  CHECK_EQ_INT(run_child(argv[0], "child", out, sizeof out), 0);
  CHECK(strstr(out, "(measured now)") != NULL);
  char again[2048] = "";
  CHECK_EQ_INT(count_lines(path, again, sizeof again), 15);
  CHECK(strcmp(again, first) == 0);

  char cmd[4300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
  return check_done();
}
