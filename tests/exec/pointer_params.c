/* pointer_params: unchanged OpenCL kernels (plain `__global T *` and `__constant T *` parameters,
 * typedefs and macros, get_global_id, get_local_id, __local buffers) run through ampcl with views
 * (arg_pointer.c), launched by AMP extents and in OpenCL's own terms
 * (amp_parallel_for_each_ndrange), every result checked against the host. Bad input is refused
 * before anything moves: a strided section, a section the device cannot start a buffer at, a
 * scalar or NULL where a pointer is expected, another element type, a read-only view for a
 * writable pointer, amp_arg_pointer for an AMP_VIEW, and OpenCL sizes that do not fit. */
#include "check.h"

enum { N = 1000, W = 256, H = 4, TILE = 8 };

static const char *src =
    "typedef float DATA_TYPE;\n"
    "#define SCALE 3\n"
    "__kernel void saxpy(__global const DATA_TYPE *x, __global DATA_TYPE *y, DATA_TYPE a, int n) "
    "{\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "__kernel void fill(__global float *m, int w) {\n"
    "  int c = get_global_id(0), r = get_global_id(1);\n"
    "  m[r * w + c] = r * 1000 + c * SCALE;\n"
    "}\n"
    "__kernel void group_sum(__global const float *x, __global float *out, __local float *s) {\n"
    "  int l = get_local_id(0);\n"
    "  s[l] = x[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) {\n"
    "    float t = 0;\n"
    "    for (int k = 0; k < (int)get_local_size(0); k++) t += s[k];\n"
    "    out[get_group_id(0)] = t;\n"
    "  }\n"
    "}\n"
    "__kernel void twice(__constant float *c, __global float *o) {\n"
    "  o[get_global_id(0)] = 2 * c[get_global_id(0)];\n"
    "}\n"
    "__kernel void as_view(AMP_VIEW(float, v)) { }\n";

static float x[N], y[N], yref[N], m[H * W], sums[N / TILE];

/* saxpy through amp_arg_view on plain pointers; x given read-write to a const pointer is not
 * written, so synchronizing it copies nothing back. */
static void run_saxpy(amp_accelerator_view *av, amp_kernel *k) {
  amp_array_view *vx = NULL, *vy = NULL;
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 17);
    y[i] = (float)(i % 5);
    yref[i] = 2.5f * x[i] + y[i];
  }
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, y, &vy));
  amp_arg args[] = {amp_arg_view(vx), amp_arg_pointer(vy), amp_arg_float(2.5f), amp_arg_int(N)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, AMP_NARGS(args)));
  CHECK_OK(amp_array_view_synchronize(vy));
  CHECK(memcmp(y, yref, sizeof y) == 0);
  CHECK_OK(amp_transfer_stats_reset());
  CHECK_OK(amp_array_view_synchronize(vx)); /* a const pointer: read, not written */
  CHECK_EQ_INT(test_transfers(), 0);
  amp_array_view_release(vx);
  amp_array_view_release(vy);
}

/* OpenCL's order: global {W, H} is AMP's extent (H, W); get_global_id(0) walks a row. A contiguous
 * section of whole rows (row 1 on) is passed as a pointer to its first element. */
static void run_fill(amp_accelerator_view *av, amp_kernel *k) {
  amp_array_view *vm = NULL, *rows = NULL;
  memset(m, 0, sizeof m);
  CHECK_OK(amp_array_view_create(amp_extent2(H, W), AMP_FLOAT, m, &vm));
  size_t global[2] = {W, H}, local[2] = {TILE, 2};
  amp_arg args[] = {amp_arg_view(vm), amp_arg_int(W)};
  CHECK_OK(amp_parallel_for_each_ndrange(av, k, 2, global, local, args, 2, NULL));
  CHECK_OK(amp_array_view_synchronize(vm));
  CHECK_EVERY2(r, H, c, W, m[r * W + c] == (float)(r * 1000 + c * 3));
  amp_index origin = {2, {1, 0}};
  CHECK_OK(amp_array_view_section(vm, origin, amp_extent2(H - 1, W), &rows));
  amp_arg sargs[] = {amp_arg_view(rows), amp_arg_int(W)};
  size_t sglobal[2] = {W, H - 1};
  CHECK_OK(amp_parallel_for_each_ndrange(av, k, 2, sglobal, NULL, sargs, 2, NULL));
  CHECK_OK(amp_array_view_synchronize(vm));
  int bad = 0;
  for (int r = 0; r < H; r++) /* row 0 kept; rows 1.. rewritten as rows 0.. of the section */
    for (int c = 0; c < W; c++)
      bad += m[r * W + c] != (float)((r ? r - 1 : 0) * 1000 + c * 3);
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(rows);
  amp_array_view_release(vm);
}

/* get_local_id and a __local buffer, tiled in OpenCL's terms; a __constant pointer. */
static void run_groups(amp_accelerator_view *av, amp_kernel *gs, amp_kernel *tw) {
  amp_array_view *vx = NULL, *vs = NULL, *vo = NULL;
  for (int i = 0; i < N; i++)
    x[i] = (float)(i % 13);
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1(N / TILE), AMP_FLOAT, sums, &vs));
  CHECK_OK(amp_array_view_discard_data(vs));
  size_t global = N, local = TILE;
  amp_arg args[] = {amp_arg_view(vx), amp_arg_view(vs), amp_arg_local(TILE * sizeof(float))};
  CHECK_OK(amp_parallel_for_each_ndrange(av, gs, 1, &global, &local, args, 3, NULL));
  CHECK_OK(amp_array_view_synchronize(vs));
  int bad = 0;
  for (int g = 0; g < N / TILE; g++) {
    float t = 0;
    for (int l = 0; l < TILE; l++)
      t += x[g * TILE + l];
    bad += sums[g] != t;
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, y, &vo));
  amp_arg targs[] = {amp_arg_view(vx), amp_arg_view(vo)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), tw, targs, 2));
  CHECK_OK(amp_array_view_synchronize(vo));
  CHECK_EVERY(i, N, y[i] == 2 * x[i]);
  amp_array_view_release(vx);
  amp_array_view_release(vs);
  amp_array_view_release(vo);
}

/* Every refusal names the argument and why, and moves nothing. */
static void run_refusals(amp_accelerator_view *av, amp_kernel *sx, amp_kernel *fill,
                         amp_kernel *asv) {
  static float h[H * W], orig[H * W];
  static int32_t hi[N];
  for (int i = 0; i < H * W; i++)
    h[i] = orig[i] = (float)i;
  amp_array_view *vm = NULL, *cols = NULL, *one = NULL, *flat = NULL, *vi = NULL, *ro = NULL;
  CHECK_OK(amp_array_view_create(amp_extent2(H, W), AMP_FLOAT, h, &vm));
  CHECK_OK(amp_array_view_create(amp_extent1(H * W), AMP_FLOAT, h, &flat));
  CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, hi, &vi));
  CHECK_OK(amp_array_view_create_const(amp_extent1(H * W), AMP_FLOAT, h, &ro));
  amp_index o2 = {2, {0, 0}}, o1 = {1, {1}};
  CHECK_OK(amp_array_view_section(vm, o2, amp_extent2(H, W / 2), &cols));
  CHECK_OK(amp_array_view_section(flat, o1, amp_extent1(W), &one));
  CHECK_OK(amp_transfer_stats_reset());
  amp_arg strided[] = {amp_arg_view(cols), amp_arg_int(W)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent2(H, W / 2), fill, strided, 2),
               AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a strided section (dimension 0: 256 elements between neighbours");
  CHECK_MSG("parameter 'm' is a plain pointer");
  amp_arg unaligned[] = {amp_arg_view(one), amp_arg_int(W)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(W), fill, unaligned, 2),
               AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a section starting 1 elements into its data");
  amp_arg scalar[] = {amp_arg_view(flat), amp_arg_float(1), amp_arg_float(2), amp_arg_int(N)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), sx, scalar, 4), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 1 is float (by value), but parameter 'y' is __global DATA_TYPE* (a pointer: "
            "pass a view of float)");
  amp_arg null[] = {amp_arg_view(flat), amp_arg_view(NULL), amp_arg_float(2), amp_arg_int(N)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), sx, null, 4), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("argument 1 (counting from 0) is not a live array view");
  amp_arg ints[] = {amp_arg_view(vi), amp_arg_view(flat), amp_arg_float(2), amp_arg_int(N)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), sx, ints, 4), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of int, but parameter 'x' is __global DATA_TYPE* (a pointer");
  amp_arg readonly[] = {amp_arg_view(flat), amp_arg_view(ro), amp_arg_float(2), amp_arg_int(N)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), sx, readonly, 4), AMP_ERROR_ACCESS_DENIED);
  CHECK_MSG("argument 1 is a read-only view, but parameter 'y' is writable");
  amp_arg ptr_for_view[] = {amp_arg_pointer(flat)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N), asv, ptr_for_view, 1),
               AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("amp_arg_pointer is for a plain pointer: pass amp_arg_view");
  size_t g2[2] = {W, H}, l_bad[2] = {3, 1}, g_zero[2] = {0, H};
  amp_arg fa[] = {amp_arg_view(vm), amp_arg_int(W)};
  CHECK_STATUS(amp_parallel_for_each_ndrange(av, fill, 0, g2, NULL, fa, 2, NULL),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("work_dim is 0");
  CHECK_STATUS(amp_parallel_for_each_ndrange(av, fill, 2, g2, l_bad, fa, 2, NULL),
               AMP_ERROR_INVALID_COMPUTE_DOMAIN);
  CHECK_MSG("local_size[0] is 3, which does not divide global_size[0] (256)");
  CHECK_STATUS(amp_parallel_for_each_ndrange(av, fill, 2, g_zero, NULL, fa, 2, NULL),
               AMP_ERROR_INVALID_COMPUTE_DOMAIN);
  CHECK_STATUS(amp_parallel_for_each_ndrange(av, fill, 2, NULL, NULL, fa, 2, NULL),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_UNMOVED(h, orig);
  amp_array_view *vs[] = {cols, one, ro, vi, flat, vm};
  for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
    CHECK_OK(amp_array_view_release(vs[i]));
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_kernel *sx = test_kernel(src, NULL, "saxpy"), *fill = test_kernel(src, NULL, "fill");
  amp_kernel *gs = test_kernel(src, NULL, "group_sum"), *tw = test_kernel(src, NULL, "twice");
  amp_kernel *asv = test_kernel(src, NULL, "as_view");
  if (!sx || !fill || !gs || !tw || !asv)
    return check_done();
  run_saxpy(av, sx);
  run_fill(av, fill);
  run_groups(av, gs, tw);
  run_refusals(av, sx, fill, asv);
  amp_kernel *ks[] = {sx, fill, gs, tw, asv};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
    amp_kernel_release(ks[i]);
  return check_done();
}
