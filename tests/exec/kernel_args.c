/* kernel_args: kernel arguments are checked whatever the parameters' type names (any length,
 * structs, typedefs, address-space qualifiers; kernel.h). A by-value argument where the kernel
 * takes a view or pointer, a view where it takes a scalar, and a view whose element type differs
 * from the parameter's (structs by the size the compiler gives) fail with AMP_ERROR_KERNEL_ARGS
 * naming the argument's index (from 0) and both types, before anything is enqueued: nothing moves,
 * host data stay. */
#include "check.h"

enum { N = 32 };

#define LONG_STRUCT  "a_struct_whose_name_is_much_longer_than_sixty_four_characters_in_total_x"
#define LONG_TYPEDEF "a_typedef_of_float_whose_name_is_also_longer_than_sixty_four_characters_y"

static const char *src =
    "typedef float real;\n"
    "typedef real " LONG_TYPEDEF ";\n"
    "typedef unsigned int count_t;\n"
    "struct " LONG_STRUCT " { int a; int b; };\n"
    "typedef struct { int a; int b; } pair_t;\n"
    "__kernel void long_struct(AMP_VIEW(struct " LONG_STRUCT ", v)) { }\n"
    "__kernel void long_real(AMP_VIEW(" LONG_TYPEDEF ", v), real s, count_t n) { }\n"
    "__kernel void pairs(AMP_VIEW(pair_t, v), pair_t p) { }\n"
    "__kernel void vec4(AMP_VIEW(float4, v)) { }\n"
    "__kernel void scalar_then_view(int x, AMP_VIEW(int, v)) { }\n"
    "__kernel void raw_ptr(__global const float * restrict p, __local int *l) { }\n";

static int32_t h[N], orig[N];

typedef struct pair {
  int32_t a, b;
} pair;

int main(void) {
  REQUIRE_VIEW(av);
  for (int i = 0; i < N; i++)
    h[i] = orig[i] = 5 * i;
  amp_kernel *ls = test_kernel(src, NULL, "long_struct"), *lr = test_kernel(src, NULL, "long_real");
  amp_kernel *pk = test_kernel(src, NULL, "pairs"), *v4 = test_kernel(src, NULL, "vec4");
  amp_kernel *sv = test_kernel(src, NULL, "scalar_then_view");
  amp_kernel *rp = test_kernel(src, NULL, "raw_ptr");
  if (!ls || !lr || !pk || !v4 || !sv || !rp)
    return check_done();
  amp_array_view *vi = NULL, *vf = NULL, *vp = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, h, &vi));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, h, &vf));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N / 2), AMP_STRUCT(pair), h, &vp));
  const amp_extent e = amp_extent1(N);
  CHECK_OK(amp_transfer_stats_reset());

  /* long type names do not turn checking off: an int view for a struct parameter */
  amp_arg a_ls[] = {amp_arg_view(vi)};
  CHECK_STATUS(amp_parallel_for_each(av, e, ls, a_ls, 1), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of int");
  CHECK_MSG(LONG_STRUCT);
  /* typedefs are followed: float view, real and count_t scalars pass; int view and int fail */
  pair one = {1, 2};
  amp_arg a_lr_bad[] = {amp_arg_view(vi), amp_arg_float(1.0f), amp_arg_uint(3)};
  CHECK_STATUS(amp_parallel_for_each(av, e, lr, a_lr_bad, 3), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of int, but parameter 'v' is a view of float");
  amp_arg a_lr_bad2[] = {amp_arg_view(vf), amp_arg_int(1), amp_arg_uint(3)};
  CHECK_STATUS(amp_parallel_for_each(av, e, lr, a_lr_bad2, 3), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 1 is int (by value), but parameter 's' is real");
  amp_arg a_lr_bad3[] = {amp_arg_view(vf), amp_arg_float(1.0f), amp_arg_int(3)};
  CHECK_STATUS(amp_parallel_for_each(av, e, lr, a_lr_bad3, 3), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 2 is int (by value), but parameter 'n' is count_t");
  /* bytes where the kernel takes a view; a view where it takes a scalar */
  amp_arg a_bytes_for_view[] = {amp_arg_bytes(&one, sizeof one), amp_arg_bytes(&one, sizeof one)};
  CHECK_STATUS(amp_parallel_for_each(av, e, pk, a_bytes_for_view, 2), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is 8 bytes by value, but parameter 'v' is a view of pair_t");
  amp_arg a_view_for_scalar[] = {amp_arg_view(vi), amp_arg_view(vi)};
  CHECK_STATUS(amp_parallel_for_each(av, e, sv, a_view_for_scalar, 2), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of int, but parameter 'x' is int (by value)");
  amp_arg a_scalar_for_view[] = {amp_arg_int(1), amp_arg_int(2)};
  CHECK_STATUS(amp_parallel_for_each(av, e, sv, a_scalar_for_view, 2), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 1 is int (by value), but parameter 'v' is a view of int");
  /* struct views are compared by size where the parameter's size is known */
  amp_arg a_pairs_v4[] = {amp_arg_view(vp)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N / 2), v4, a_pairs_v4, 1),
               AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("8-byte structs, but parameter 'v' is a view of float4 (16 bytes)");
  amp_arg a_int_for_struct[] = {amp_arg_view(vi), amp_arg_bytes(&one, sizeof one)};
  CHECK_STATUS(amp_parallel_for_each(av, e, pk, a_int_for_struct, 2), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("pair_t");
  /* bytes of another size than a struct parameter: OpenCL's own size check, named */
  amp_arg a_short_bytes[] = {amp_arg_view(vp), amp_arg_bytes(&one, 4)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N / 2), pk, a_short_bytes, 2),
               AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 1 is 4 bytes by value, but parameter 'p' is pair_t (8 bytes)");
  /* struct views against struct parameters: the size the compiler gives for them */
  amp_array_view *v12 = NULL;
  amp_elem_type twelve = {AMP_ELEM_STRUCT, 12};
  REQUIRE_OK(amp_array_view_create(amp_extent1(N / 4), twelve, h, &v12));
  amp_arg a_v12[] = {amp_arg_view(v12), amp_arg_bytes(&one, sizeof one)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N / 4), pk, a_v12, 2), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is a view of 12-byte structs, but parameter 'v' is a view of pair_t (8 "
            "bytes)");
  amp_arg a_v12_long[] = {amp_arg_view(v12)};
  CHECK_STATUS(amp_parallel_for_each(av, amp_extent1(N / 4), ls, a_v12_long, 1),
               AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("(8 bytes)");
  CHECK_OK(amp_array_view_release(v12));
  /* qualified raw pointers and __local parameters take neither bytes nor scalars */
  amp_arg a_rp[] = {amp_arg_float(1.0f), amp_arg_local(64)};
  CHECK_STATUS(amp_parallel_for_each(av, e, rp, a_rp, 2), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("argument 0 is float (by value), but parameter 'p' is __global float*");
  amp_arg a_rp2[] = {amp_arg_view(vf), amp_arg_int(4)};
  CHECK_STATUS(amp_parallel_for_each(av, e, rp, a_rp2, 2), AMP_ERROR_KERNEL_ARGS);
  /* a view binds to the plain pointer (arg_pointer.c), in debug mode too: the int is refused */
  CHECK_MSG("argument 1 is int (by value), but parameter 'l' is __local int* (amp_arg_local)");
  amp_arg a_rp3[] = {amp_arg_int(1), amp_arg_int(4)};
  CHECK_STATUS(amp_parallel_for_each(av, e, rp, a_rp3, 2), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("2 arguments do not match the kernel's parameters: argument 0 is int (by value), but "
            "parameter 'p' is __global float* (a pointer: pass a view of float)");
  CHECK_UNMOVED(h, orig);

  /* the right arguments run */
  amp_arg ok_lr[] = {amp_arg_view(vf), amp_arg_float(1.0f), amp_arg_uint(3)};
  CHECK_OK(amp_parallel_for_each(av, e, lr, ok_lr, 3));
  amp_arg ok_pk[] = {amp_arg_view(vp), amp_arg_bytes(&one, sizeof one)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N / 2), pk, ok_pk, 2));
  amp_arg ok_sv[] = {amp_arg_int(1), amp_arg_view(vi)};
  CHECK_OK(amp_parallel_for_each(av, e, sv, ok_sv, 2));
  amp_arg ok_ls[] = {amp_arg_view(vp)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N / 2), ls, ok_ls, 1));

  amp_kernel *ks[] = {ls, lr, pk, v4, sv, rp};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
    amp_kernel_release(ks[i]);
  CHECK_OK(amp_array_view_release(vi));
  CHECK_OK(amp_array_view_release(vf));
  CHECK_OK(amp_array_view_release(vp));
  CHECK(memcmp(h, orig, sizeof h) == 0); /* the kernels wrote nothing */
  return check_done();
}
