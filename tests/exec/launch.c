/* launch: parallel_for_each over extents of rank 1, 2 and 3, and every kind of kernel argument.
 *
 * Proves: AMP's idx[0] is the slowest dimension (and OpenCL's dimension 0 is AMP's last);
 * rank-3 launches reach every index once; int, uint, float and double scalars arrive bit-exact;
 * a by-value struct (amp_arg_bytes) arrives with OpenCL's layout; a __local buffer from
 * amp_arg_local is shared by a tile; kernels load from a file (and a missing file is
 * AMP_ERROR_IO); every embedded builtin kernel file builds, and an unknown name is
 * AMP_ERROR_NOT_FOUND with the list of names; the default-view and immediate-mode forms and
 * launch futures work. Every result is checked against a host-computed reference. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <unistd.h>

#include "check.h"

static amp_accelerator_view *av;

static const char *src =
    "__kernel void order2(AMP_VIEW(int, v), AMP_VIEW(int, cl0)) {\n"
    "  AMP_INDEX2(idx);\n"
    "  amp_at(v, idx[0], idx[1]) = idx[0] * 1000 + idx[1];\n"
    "  amp_at(cl0, idx[0], idx[1]) = (int)get_global_id(0);\n"
    "}\n"
    "__kernel void order3(AMP_VIEW(int, v), AMP_VIEW(int, cl0)) {\n"
    "  AMP_INDEX3(idx);\n"
    "  amp_at(v, idx[0], idx[1], idx[2]) += idx[0] * 10000 + idx[1] * 100 + idx[2];\n"
    "  amp_at(cl0, idx[0], idx[1], idx[2]) = (int)get_global_id(0);\n"
    "}\n"
    "__kernel void scalars(AMP_VIEW(int, oi), AMP_VIEW(uint, ou), AMP_VIEW(float, of),\n"
    "                      int i, uint u, float f) {\n"
    "  amp_at(oi, 0) = i; amp_at(oi, 1) = i + 1;\n"
    "  amp_at(ou, 0) = u; amp_at(ou, 1) = u + 1u;\n"
    "  amp_at(of, 0) = f; amp_at(of, 1) = f * 2.0f;\n"
    "}\n"
    "#ifdef AMP_HAS_DOUBLE\n"
    "__kernel void scalar_double(AMP_VIEW(double, od), double d) {\n"
    "  amp_at(od, 0) = d; amp_at(od, 1) = d * 3.0;\n"
    "}\n"
    "#endif\n"
    "typedef struct { int n; float scale; float4 offset; } params;\n"
    "__kernel void by_value(AMP_VIEW(float, out), params p) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(out, i[0]) = p.scale * (float)i[0] + p.offset.z + (float)p.n;\n"
    "}\n"
    "__kernel void reverse_tiles(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out),\n"
    "                            __local int *scratch) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  scratch[idx.local_id[0]] = amp_at(in, idx.global_id[0]);\n"
    "  amp_barrier_wait();\n"
    "  amp_at(out, idx.global_id[0]) = scratch[idx.tile_extent[0] - 1 - idx.local_id[0]];\n"
    "}\n";

/* AMP's idx[0] varies slowest: row i, column j of a 2-D view gets i*1000+j. */
static void test_index_order(void) {
  enum { R = 5, C = 37 };
  static int v[R][C], cl0[R][C];
  amp_kernel *k = test_kernel(src, NULL, "order2");
  amp_array_view *vv, *vc;
  CHECK_OK(amp_array_view_create(amp_extent2(R, C), AMP_INT32, v, &vv));
  CHECK_OK(amp_array_view_create(amp_extent2(R, C), AMP_INT32, cl0, &vc));
  amp_arg a[] = {amp_arg_view(vv), amp_arg_view(vc)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent2(R, C), k, a, 2));
  CHECK_OK(amp_array_view_synchronize(vv));
  CHECK_OK(amp_array_view_synchronize(vc));
  int bad = 0, bad_cl = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      bad += v[i][j] != i * 1000 + j;
      bad_cl += cl0[i][j] != j; /* OpenCL dimension 0 is AMP's last: rows are contiguous */
    }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(bad_cl, 0);
  CHECK_EQ_INT(v[4][36], 4036);
  amp_array_view_release(vv);
  amp_array_view_release(vc);
  amp_kernel_release(k);
}

/* A rank-3 launch touches every index exactly once (the kernel adds, so twice would show). */
static void test_rank3(void) {
  enum { D0 = 3, D1 = 4, D2 = 19 };
  static int v[D0][D1][D2], cl0[D0][D1][D2];
  amp_kernel *k = test_kernel(src, NULL, "order3");
  amp_array_view *vv, *vc;
  CHECK_OK(amp_array_view_create(amp_extent3(D0, D1, D2), AMP_INT32, v, &vv));
  CHECK_OK(amp_array_view_create(amp_extent3(D0, D1, D2), AMP_INT32, cl0, &vc));
  amp_arg a[] = {amp_arg_view(vv), amp_arg_view(vc)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent3(D0, D1, D2), k, a, 2));
  CHECK_OK(amp_array_view_synchronize(vv));
  CHECK_OK(amp_array_view_synchronize(vc));
  int bad = 0, bad_cl = 0;
  for (int i = 0; i < D0; i++)
    for (int j = 0; j < D1; j++)
      for (int l = 0; l < D2; l++) {
        bad += v[i][j][l] != i * 10000 + j * 100 + l;
        bad_cl += cl0[i][j][l] != l;
      }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(bad_cl, 0);
  amp_array_view_release(vv);
  amp_array_view_release(vc);
  amp_kernel_release(k);
}

static void test_scalars(void) {
  int32_t oi[2] = {0, 0};
  uint32_t ou[2] = {0, 0};
  float of[2] = {0, 0};
  amp_kernel *k = test_kernel(src, NULL, "scalars");
  amp_array_view *vi, *vu, *vf;
  CHECK_OK(amp_array_view_create(amp_extent1(2), AMP_INT32, oi, &vi));
  CHECK_OK(amp_array_view_create(amp_extent1(2), AMP_UINT32, ou, &vu));
  CHECK_OK(amp_array_view_create(amp_extent1(2), AMP_FLOAT, of, &vf));
  amp_arg a[] = {amp_arg_view(vi),        amp_arg_view(vu),          amp_arg_view(vf),
                 amp_arg_int(-123456789), amp_arg_uint(0xFFFFFFF0u), amp_arg_float(1.5e-3f)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(1), k, a, AMP_NARGS(a)));
  CHECK_OK(amp_array_view_release(vi)); /* release writes the results back */
  CHECK_OK(amp_array_view_release(vu));
  CHECK_OK(amp_array_view_release(vf));
  CHECK_EQ_INT(oi[0], -123456789);
  CHECK_EQ_INT(oi[1], -123456788);
  CHECK_EQ_INT(ou[0], 0xFFFFFFF0u);
  CHECK_EQ_INT(ou[1], 0xFFFFFFF1u);
  CHECK(of[0] == 1.5e-3f);
  CHECK(of[1] == 3.0e-3f);
  amp_kernel_release(k);

  amp_accelerator *acc;
  amp_accelerator_properties props;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  CHECK_OK(amp_accelerator_get_properties(acc, &props));
  if (!props.supports_double_precision) {
    printf("note: no fp64 on the default accelerator; double scalar skipped\n");
    return;
  }
  double od[2] = {0, 0};
  const double d = 1.0 + 1e-12; /* would round to 1.0f in float */
  amp_array_view *vd;
  k = test_kernel(src, NULL, "scalar_double");
  CHECK_OK(amp_array_view_create(amp_extent1(2), AMP_DOUBLE, od, &vd));
  amp_arg ad[] = {amp_arg_view(vd), amp_arg_double(d)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(1), k, ad, 2));
  CHECK_OK(amp_array_view_synchronize(vd));
  CHECK(od[0] == d);
  CHECK(od[1] == d * 3.0);
  amp_array_view_release(vd);
  amp_kernel_release(k);
}

/* A struct by value; the host mirror uses cl_ types so the layout (float4 at offset 16) agrees. */
typedef struct {
  cl_int n;
  cl_float scale;
  cl_float4 offset;
} params;

static void test_bytes(void) {
  enum { N = 64 };
  float out[N];
  params p = {7, 0.5f, {{1.0f, 2.0f, 3.0f, 4.0f}}};
  amp_kernel *k = test_kernel(src, NULL, "by_value");
  amp_array_view *v;
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, out, &v));
  CHECK_OK(amp_array_view_discard_data(v));
  amp_arg a[] = {amp_arg_view(v), amp_arg_bytes(&p, sizeof p)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, a, 2));
  CHECK_OK(amp_array_view_synchronize(v));
  CHECK_EVERY(i, N, out[i] == 0.5f * (float)i + 3.0f + 7.0f);
  amp_array_view_release(v);
  amp_kernel_release(k);
}

/* amp_arg_local: a __local buffer per tile; each tile reverses its slice through it (tiles of 64,
 * or of the most the device allows). */
static void test_local(void) {
  enum { N = 256 };
  amp_accelerator_properties props;
  CHECK_OK(amp_accelerator_get_properties(test_acc_of(av), &props));
  int T = 64;
  while (T > 1 && (size_t)T > props.max_tile_size)
    T /= 2; /* a power of two: whole tiles of N */
  int in[N], out[N];
  for (int i = 0; i < N; i++) {
    in[i] = i * 7 + 1;
    out[i] = 0;
  }
  amp_kernel *k = test_kernel(src, NULL, "reverse_tiles");
  amp_array_view *vi, *vo;
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, in, &vi));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, out, &vo));
  amp_arg a[] = {amp_arg_view(vi), amp_arg_view(vo), amp_arg_local(T * sizeof(int))};
  CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), T), k, a, 3));
  CHECK_OK(amp_array_view_synchronize(vo));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int origin = i / T * T, local = i % T;
    bad += out[i] != in[origin + T - 1 - local];
  }
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(vi);
  amp_array_view_release(vo);
  amp_kernel_release(k);
}

/* A kernel in its own .cl file, the way examples keep theirs. */
static void test_from_file(void) {
  char path[] = "/tmp/ampcl_launch_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0)
    return;
  const char *text = "/* squares */\n"
                     "__kernel void square(AMP_VIEW(int, v)) {\n"
                     "  AMP_INDEX1(i);\n"
                     "  amp_at(v, i[0]) = amp_at(v, i[0]) * amp_at(v, i[0]);\n"
                     "}\n";
  CHECK_EQ_INT(write(fd, text, strlen(text)), strlen(text));
  close(fd);
  amp_program *p = NULL;
  amp_kernel *k = NULL;
  CHECK_OK(amp_program_create_from_file(path, NULL, &p));
  unlink(path); /* read at creation: the file is no longer needed */
  CHECK_OK(amp_kernel_create(p, "square", &k));
  int v[40];
  for (int i = 0; i < 40; i++)
    v[i] = i - 20;
  amp_array_view *vv;
  CHECK_OK(amp_array_view_create(amp_extent1(40), AMP_INT32, v, &vv));
  amp_arg a[] = {amp_arg_view(vv)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(40), k, a, 1));
  CHECK_OK(amp_array_view_release(vv));
  CHECK_EVERY(i, 40, v[i] == (i - 20) * (i - 20));
  amp_kernel_release(k);
  amp_program_release(p);

  /* the file is gone now: AMP_ERROR_IO naming it */
  p = NULL;
  CHECK_STATUS(amp_program_create_from_file(path, NULL, &p), AMP_ERROR_IO);
  CHECK_MSG(path);
  CHECK(p == NULL);
}

/* Builtins: an unknown name lists the names there are; each of those must build. */
static void test_builtins(void) {
  amp_program *p = NULL;
  CHECK_STATUS(amp_program_create_builtin("no_such_kernel_file", NULL, &p), AMP_ERROR_NOT_FOUND);
  CHECK_MSG("no_such_kernel_file");
  CHECK_MSG("there are");
  CHECK(p == NULL);
  /* the prelude is embedded too, but it is not a program of its own */
  CHECK_STATUS(amp_program_create_builtin("ampcl_prelude", NULL, &p), AMP_ERROR_NOT_FOUND);

  char list[1024];
  CHECK_STATUS(amp_program_create_builtin("no_such_kernel_file", NULL, &p), AMP_ERROR_NOT_FOUND);
  const char *at = strstr(amp_last_error(), "there are: ");
  snprintf(list, sizeof list, "%s", at ? at + strlen("there are: ") : "");
  char *paren = strrchr(list, ')');
  if (paren)
    *paren = '\0';
  amp_accelerator *acc;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  int built = 0;
  for (char *save = NULL, *name = strtok_r(list, ", ", &save); name;
       name = strtok_r(NULL, ", ", &save)) {
    CHECK_OK(amp_program_create_builtin(name, NULL, &p));
    amp_accelerator_properties props;
    CHECK_OK(amp_accelerator_get_properties(acc, &props));
    if ((strcmp(name, "matmul_dmma") == 0 || strcmp(name, "matmul_dmma_bulk") == 0) &&
        props.compute_capability < 90) {
      /* NVIDIA-only (inline PTX): elsewhere its build fails and says why */
      CHECK_STATUS(amp_program_build(p, acc), AMP_ERROR_BUILD_FAILED);
      CHECK_MSG("needs an NVIDIA GPU of compute capability 9.0");
    } else if (strcmp(name, "matmul_tf32") == 0 && props.compute_capability < 80) {
      CHECK_STATUS(amp_program_build(p, acc), AMP_ERROR_BUILD_FAILED);
      CHECK_MSG("needs an NVIDIA GPU of compute capability 8.0");
    } else {
      CHECK_OK(amp_program_build(p, acc));
    }
    amp_program_release(p);
    built++;
  }
  CHECK(built > 0); /* an empty list in the message would build nothing */
  printf("%d embedded kernel file(s) built\n", built);
}

/* The default-view form, an immediate-mode view, and a launch future. */
static void test_forms(void) {
  enum { N = 100 };
  int v[N];
  for (int i = 0; i < N; i++)
    v[i] = i;
  amp_kernel *k = test_kernel(src, NULL, "order3"); /* adds idx-coded values, rank 3 */
  amp_array_view *vv, *vc;
  int cl0[N];
  CHECK_OK(amp_array_view_create(amp_extent3(1, 1, N), AMP_INT32, v, &vv));
  CHECK_OK(amp_array_view_create(amp_extent3(1, 1, N), AMP_INT32, cl0, &vc));
  amp_arg a[] = {amp_arg_view(vv), amp_arg_view(vc)};
  CHECK_OK(amp_parallel_for_each_default(amp_extent3(1, 1, N), k, a, 2)); /* v = 2i */

  amp_accelerator *acc;
  amp_accelerator_view *imm = NULL;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  CHECK_OK(amp_accelerator_create_view(acc, AMP_QUEUING_MODE_IMMEDIATE, &imm));
  amp_launch l = {amp_extent3(1, 1, N), 0, {1, 1, 1}, k, a, 2};
  amp_future *done = NULL;
  CHECK_OK(amp_parallel_for_each_ex(imm, &l, &done)); /* v = 3i */
  CHECK_OK(amp_future_wait(done));
  test_check_elapsed(done, test_device_times(acc));
  CHECK_OK(amp_future_release(done));
  CHECK_OK(amp_array_view_synchronize(vv));
  CHECK_EVERY(i, N, v[i] == 3 * i);
  amp_array_view_release(vv);
  amp_array_view_release(vc);
  CHECK_OK(amp_accelerator_view_release(imm));
  amp_kernel_release(k);
}

int main(void) {
  av = test_view();
  if (!av)
    return 1;
  test_index_order();
  test_rank3();
  test_scalars();
  test_bytes();
  test_local();
  test_from_file();
  test_builtins();
  test_forms();
  return check_done();
}
