/* sample_matmul: the C++ AMP book's matrix multiply (kernels_cl/samples/sample_matmul.cl), simple
 * and tiled, against the host's product at shapes from 1 x 1 x 1 to sizes no tile divides, in
 * float with small integers (every sum exact), tiled at 16, 8 and 4 (each where the device allows
 * it). The tiled kernel refuses a tile other than its build's, before anything moves. */
#include "check.h"

typedef struct {
  int m, w, n;
} shape;

static const shape shapes[] = {{1, 1, 1}, {16, 16, 16}, {33, 17, 45}, {64, 40, 64}, {5, 70, 3}};
enum { NSHAPES = sizeof shapes / sizeof shapes[0], MAXE = 70 * 70 };

static float a[MAXE], b[MAXE], c[MAXE], want[MAXE];

static void host_product(shape s) {
  for (int i = 0; i < s.m; i++)
    for (int j = 0; j < s.n; j++) {
      float acc = 0;
      for (int k = 0; k < s.w; k++)
        acc += a[i * s.w + k] * b[k * s.n + j];
      want[i * s.n + j] = acc;
    }
}

static amp_kernel *sample_kernel(const char *options, const char *name) {
  amp_program *p = NULL;
  amp_kernel *k = NULL;
  CHECK_OK(amp_program_create_builtin("sample_matmul", options, &p));
  if (p)
    CHECK_OK(amp_kernel_create(p, name, &k));
  amp_program_release(p);
  return k;
}

/* c = a * b by `kernel` (tiled at `tile`; 0: simple), the
 * launch's status, and in *bad the count of elements that differ from the host's. */
static amp_status run(amp_accelerator_view *av, amp_kernel *kernel, shape s, int tile, int *bad) {
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL;
  amp_status st = AMP_ERROR_INVALID_ARGUMENT;
  *bad = -1;
  CHECK_OK(amp_array_view_create_const(amp_extent2(s.m, s.w), AMP_FLOAT, a, &va));
  CHECK_OK(amp_array_view_create_const(amp_extent2(s.w, s.n), AMP_FLOAT, b, &vb));
  CHECK_OK(amp_array_view_create(amp_extent2(s.m, s.n), AMP_FLOAT, c, &vc));
  if (va && vb && vc) {
    amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
    amp_extent e = amp_extent2(s.m, s.n);
    st = tile ? amp_parallel_for_each_tiled(av, amp_tiled_extent_pad(amp_tile2(e, tile, tile)),
                                            kernel, args, AMP_NARGS(args))
              : amp_parallel_for_each(av, e, kernel, args, AMP_NARGS(args));
    if (st == AMP_SUCCESS && amp_array_view_synchronize(vc) == AMP_SUCCESS) {
      *bad = 0;
      for (int i = 0; i < s.m * s.n; i++)
        *bad += c[i] != want[i];
    }
  }
  amp_array_view_release(vc);
  amp_array_view_release(vb);
  amp_array_view_release(va);
  return st;
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_accelerator_properties props;
  if (test_props(av, &props) != AMP_SUCCESS)
    return 1;
  /* tiles of 16 x 16 and 8 x 8 where the device allows them (not on a device seen weaker), and
   * of 4 x 4 everywhere */
  static const int tiles[] = {16, 8, 4};
  amp_kernel *tiled[3] = {NULL, NULL, NULL};
  amp_kernel *simple = sample_kernel("", "matmul_simple");
  for (int t = 0; t < 3; t++)
    if ((size_t)(tiles[t] * tiles[t]) <= props.max_tile_size) {
      char options[32];
      snprintf(options, sizeof options, "-DTILE=%d", tiles[t]);
      if (!(tiled[t] = sample_kernel(options, "matmul_tiles")))
        return check_done();
    }
  if (!simple || !tiled[2])
    return check_done();
  for (int z = 0; z < NSHAPES; z++) {
    shape s = shapes[z];
    for (int i = 0; i < s.m * s.w; i++)
      a[i] = (float)((i * 7) % 11 - 5);
    for (int i = 0; i < s.w * s.n; i++)
      b[i] = (float)((i * 5) % 13 - 6);
    host_product(s);
    int bad;
    CHECK_OK(run(av, simple, s, 0, &bad));
    CHECK_EQ_INT(bad, 0);
    for (int t = 0; t < 3; t++)
      if (tiled[t]) {
        CHECK_OK(run(av, tiled[t], s, tiles[t], &bad));
        CHECK_EQ_INT(bad, 0);
      }
  }
  /* the tiled kernel at another tile: refused, c unchanged */
  shape s = shapes[2];
  for (int i = 0; i < s.m * s.n; i++)
    c[i] = want[i] = -3.0f;
  int bad;
  amp_transfer_stats_reset();
  CHECK(run(av, tiled[2], s, 2, &bad) != AMP_SUCCESS);
  CHECK_EQ_INT(test_transfers(), 0);
  int changed = 0;
  for (int i = 0; i < s.m * s.n; i++)
    changed += c[i] != -3.0f;
  CHECK_EQ_INT(changed, 0);
  for (int t = 0; t < 3; t++)
    amp_kernel_release(tiled[t]);
  amp_kernel_release(simple);
  return check_done();
}
