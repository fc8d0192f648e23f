/* param_probe: a kernel's parameter sizes without a hidden rebuild at its launch (param_size.c).
 * Parameters whose types are typedefs or one-token macros of built-in types (`typedef float
 * DATA_TYPE;`, `#define REAL float`, `-DELEM=int`) need no probe at all; a struct parameter's size
 * is probed once, when the program is built (amp_program_build), and its launch adds none. What
 * the trace (AMP_TRACE=FILE, the test's argument) shows is counted after each step; the sizes are
 * proved by the checks they allow (a view of another size is refused, naming both sizes).
 *
 *   test_param_probe FILE */
#include "check.h"

static const char *typedefs =
    "/* a typedef'd element type; a comment is no typedef */\n"
    "typedef float DATA_TYPE;\n"
    "#define REAL float\n"
    "typedef REAL real_t;\n"
    "__kernel void scale(__global DATA_TYPE *a, real_t s, __global ELEM *n) {\n"
    "  int i = get_global_id(0);\n"
    "  a[i] *= s;\n"
    "  n[i] += 1;\n"
    "}\n";

static const char *structs = "typedef struct { float x, y, z; } point_t;\n"
                             "__kernel void move(__global point_t *p, point_t d) {\n"
                             "  int i = get_global_id(0);\n"
                             "  p[i].x += d.x; p[i].y += d.y; p[i].z += d.z;\n"
                             "}\n";

enum { N = 64 };

/* Occurrences of the probe's host span in the trace so far. */
static int probes(const char *file) {
  CHECK_OK(amp_trace_flush());
  FILE *f = fopen(file, "r");
  if (!f)
    return -1;
  int n = 0;
  char line[4096];
  while (fgets(line, sizeof line, f))
    n += strstr(line, "parameter-size probe (program build)") != NULL;
  fclose(f);
  return n;
}

typedef struct point {
  float x, y, z;
} point;

int main(int argc, char **argv) {
  if (argc < 2 || !amp_trace_enabled()) {
    fprintf(stderr, "usage: AMP_TRACE=FILE test_param_probe FILE\n");
    return 1;
  }
  REQUIRE_VIEW(av);
  static float a[N];
  static int32_t cnt[N];
  static point pts[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)i;
    cnt[i] = i;
    pts[i] = (point){(float)i, 1, 2};
  }
  amp_kernel *sc = test_kernel(typedefs, "-DELEM=int", "scale");
  if (!sc)
    return check_done();
  amp_array_view *va = NULL, *vn = NULL, *vp = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, a, &va));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, cnt, &vn));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_STRUCT(point), pts, &vp));

  /* typedefs and macros: sizes from the names, no probe at the first launch */
  amp_arg args[] = {amp_arg_view(va), amp_arg_float(0.5f), amp_arg_view(vn)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), sc, args, 3));
  CHECK_OK(amp_array_view_synchronize(va));
  CHECK_OK(amp_array_view_synchronize(vn));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += a[i] != 0.5f * (float)i || cnt[i] != i + 1;
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(probes(argv[1]), 0);
  amp_arg wrong[] = {amp_arg_view(vn), amp_arg_float(0.5f), amp_arg_view(va)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), sc, wrong, 3), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of int, but parameter 'a' is __global DATA_TYPE*");

  /* a struct: probed once, at amp_program_build; the launch adds none */
  amp_program *p = NULL;
  amp_accelerator *acc = test_acc_of(av);
  REQUIRE_OK(amp_program_create(structs, NULL, &p));
  CHECK_OK(amp_program_build(p, acc));
  CHECK_EQ_INT(probes(argv[1]), 1);
  amp_kernel *mv2 = NULL;
  REQUIRE_OK(amp_kernel_create(p, "move", &mv2));
  point d = {1, 2, 3};
  amp_arg margs[] = {amp_arg_view(vp), amp_arg_bytes(&d, sizeof d)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), mv2, margs, 2));
  CHECK_OK(amp_array_view_synchronize(vp));
  bad = 0;
  for (int i = 0; i < N; i++)
    bad += pts[i].x != (float)i + 1 || pts[i].y != 3 || pts[i].z != 5;
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(probes(argv[1]), 1);
  /* the probed size is what refuses a view of another size */
  amp_array_view *v8 = NULL;
  amp_elem_type eight = {AMP_ELEM_STRUCT, 8};
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), eight, pts, &v8));
  amp_arg small[] = {amp_arg_view(v8), amp_arg_bytes(&d, sizeof d)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), mv2, small, 2), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of 8-byte structs, but parameter 'p' is a view of point_t (12 "
            "bytes)");
  CHECK_EQ_INT(probes(argv[1]), 1);
  CHECK_OK(amp_array_view_release(v8));
  CHECK_OK(amp_program_release(p));
  amp_kernel_release(mv2);
  amp_kernel_release(sc);
  CHECK_OK(amp_array_view_release(va));
  CHECK_OK(amp_array_view_release(vn));
  CHECK_OK(amp_array_view_release(vp));
  return check_done();
}
