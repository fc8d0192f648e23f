/* tile_limit: a kernel's own limit on threads per tile, on every driver.
 *
 * AMP promises tiles of 1024 threads. Drivers report a per-kernel limit
 * (CL_KERNEL_WORK_GROUP_SIZE); NVIDIA's OpenCL reports 256 for every kernel, yet runs a light
 * kernel in tiles of 1024 and refuses at enqueue only a kernel whose registers do not fit
 * (docs/KERNELS.md, "Tiles of 1024 threads on NVIDIA"). Proves, on whatever the default
 * accelerator is:
 * - a light view kernel runs and verifies in tiles of 1024 (and (32,32) at rank 2);
 * - a register-heavy kernel either runs and verifies in tiles of 1024 (POCL), or is refused with
 *   AMP_ERROR_LIMIT_EXCEEDED naming registers, with the host data intact; a second launch of
 *   that size is then refused before any data moves (the transfer counters do not change), and
 *   the kernel runs and verifies in tiles of the size the driver reported. */
#include "check.h"

enum { N = 4096, DEPTH = 96 };

static const char *src =
    "__kernel void light(AMP_CONST_VIEW(float, a), AMP_VIEW(float, c)) {\n"
    "  AMP_TILED_INDEX1(t);\n"
    "  amp_at(c, t.global_id[0]) = 2.0f * amp_at(a, t.global_id[0]) + (float)t.local_id[0];\n"
    "}\n"
    "__kernel void light2(AMP_VIEW(int, c)) {\n"
    "  AMP_TILED_INDEX2(t);\n"
    "  amp_at(c, t.global_id[0], t.global_id[1]) = t.local_id[0] * 32 + t.local_id[1];\n"
    "}\n"
    /* about 100 live floats per thread: more registers than a tile of 1024 can have on a GPU */
    "#define DEPTH 96\n"
    "__kernel void heavy(AMP_CONST_VIEW(float, a), AMP_VIEW(float, c)) {\n"
    "  AMP_TILED_INDEX1(t);\n"
    "  const int i = t.global_id[0], n = amp_extent(a, 0);\n"
    "  float acc[DEPTH];\n"
    "  _Pragma(\"unroll\") for (int j = 0; j < DEPTH; j++)\n"
    "    acc[j] = amp_at(a, (i + j) % n) * (float)(j + 1);\n"
    "  for (int r = 0; r < 8; r++) {\n"
    "    _Pragma(\"unroll\") for (int j = 0; j < DEPTH; j++)\n"
    "      acc[j] = acc[j] * 0.5f + acc[(j + 1) % DEPTH] * 0.25f;\n"
    "  }\n"
    "  float s = 0.0f;\n"
    "  _Pragma(\"unroll\") for (int j = 0; j < DEPTH; j++) s += acc[j];\n"
    "  amp_at(c, i) = s;\n"
    "}\n";

static float heavy_ref(const float *a, int i) {
  float acc[DEPTH];
  for (int j = 0; j < DEPTH; j++)
    acc[j] = a[(i + j) % N] * (float)(j + 1);
  for (int r = 0; r < 8; r++)
    for (int j = 0; j < DEPTH; j++)
      acc[j] = acc[j] * 0.5f + acc[(j + 1) % DEPTH] * 0.25f;
  float s = 0.0f;
  for (int j = 0; j < DEPTH; j++)
    s += acc[j];
  return s;
}

static int heavy_ok(const float *a, const float *c) {
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float want = heavy_ref(a, i);
    if (fabsf(c[i] - want) > 1e-4f * fabsf(want) + 1e-4f && bad++ < 3)
      fprintf(stderr, "heavy: c[%d] = %g, want %g\n", i, c[i], want);
  }
  return bad == 0;
}

static uint64_t copies_in(void) {
  amp_transfer_stats s;
  if (amp_transfer_stats_get(NULL, &s) != AMP_SUCCESS)
    return UINT64_MAX;
  return s.to_device_count;
}

int main(void) {
  amp_accelerator_view *av = test_view();
  if (!av)
    return 1;
  amp_accelerator *acc = NULL;
  amp_accelerator_properties props;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  REQUIRE_OK(amp_accelerator_get_properties(acc, &props));
  printf("accelerator %s: %zu threads per tile\n", props.device_path, props.max_tile_size);
  if (props.max_tile_size < 1024) {
    printf("this device runs tiles of at most %zu threads: nothing to test\n", props.max_tile_size);
    return SKIP;
  }

  static float a[N], c[N];
  for (int i = 0; i < N; i++)
    a[i] = (float)((i * 37) % 101) / 101.0f;
  amp_array_view *va = NULL, *vc = NULL;
  REQUIRE_OK(amp_array_view_create_const(amp_extent1(N), AMP_FLOAT, a, &va));
  REQUIRE_OK(amp_array_view_create(amp_extent1(N), AMP_FLOAT, c, &vc));
  amp_arg args[] = {amp_arg_view(va), amp_arg_view(vc)};

  /* a light kernel in tiles of 1024 */
  amp_kernel *light = test_kernel(src, NULL, "light");
  CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 1024), light, args, 2));
  CHECK_OK(amp_array_view_synchronize(vc));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += c[i] != 2.0f * a[i] + (float)(i % 1024);
  CHECK_EQ_INT(bad, 0);

  /* (32, 32) at rank 2 */
  static int m[64 * 64];
  amp_array_view *vm = NULL;
  REQUIRE_OK(amp_array_view_create(amp_extent2(64, 64), AMP_INT32, m, &vm));
  amp_arg margs[] = {amp_arg_view(vm)};
  amp_kernel *light2 = test_kernel(src, NULL, "light2");
  CHECK_OK(
      amp_parallel_for_each_tiled(av, amp_tile2(amp_extent2(64, 64), 32, 32), light2, margs, 1));
  CHECK_OK(amp_array_view_synchronize(vm));
  bad = 0;
  for (int i = 0; i < 64 * 64; i++)
    bad += m[i] != ((i / 64) % 32) * 32 + (i % 64) % 32;
  CHECK_EQ_INT(bad, 0);

  /* a register-heavy kernel in tiles of 1024 */
  amp_kernel *heavy = test_kernel(src, NULL, "heavy");
  for (int i = 0; i < N; i++)
    c[i] = -1.0f;
  CHECK_OK(amp_array_view_refresh(vc));
  amp_status st = amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 1024), heavy, args, 2);
  if (st == AMP_SUCCESS) {
    printf("heavy kernel ran in tiles of 1024\n");
    CHECK_OK(amp_array_view_synchronize(vc));
    CHECK(heavy_ok(a, c));
  } else {
    printf("heavy kernel in tiles of 1024 refused: %s\n", amp_last_error());
    CHECK_EQ_INT(st, AMP_ERROR_LIMIT_EXCEEDED);
    CHECK_MSG("registers");
    CHECK_OK(amp_array_view_synchronize(vc));
    bad = 0;
    for (int i = 0; i < N; i++)
      bad += c[i] != -1.0f;
    CHECK_EQ_INT(bad, 0); /* host data intact */
    /* refused again, now before anything moves */
    CHECK_OK(amp_array_view_discard_data(vc));
    uint64_t before = copies_in();
    CHECK_STATUS(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), 1024), heavy, args, 2),
                 AMP_ERROR_LIMIT_EXCEEDED);
    CHECK_MSG("refused");
    CHECK_EQ_INT(copies_in(), before);
    /* and it runs in tiles of the size the driver reported */
    int ok = 0;
    for (int tile = 512; tile >= 32 && !ok; tile /= 2) {
      st = amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), tile), heavy, args, 2);
      if (st == AMP_SUCCESS) {
        printf("heavy kernel ran in tiles of %d\n", tile);
        ok = 1;
      } else {
        CHECK_EQ_INT(st, AMP_ERROR_LIMIT_EXCEEDED);
      }
    }
    CHECK(ok);
    CHECK_OK(amp_array_view_synchronize(vc));
    CHECK(heavy_ok(a, c));
  }

  amp_kernel_release(light);
  amp_kernel_release(light2);
  amp_kernel_release(heavy);
  amp_array_view_release(va);
  amp_array_view_release(vc);
  amp_array_view_release(vm);
  return check_done();
}
