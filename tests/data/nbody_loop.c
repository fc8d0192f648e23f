/* nbody_loop: the headline counters (docs/MODEL.md, data movement rules 2, 3, 5 and
 * 7).
 *
 * Proves that
 *   - an n-body-style loop of 100 steps that swaps two views (each step reads the previous state
 *     through a const parameter and writes the next) transfers nothing between steps: after step 1
 *     the to_device and to_host counts stay unchanged until the final synchronize, which copies
 *     the result back once; the result equals a host reference computed the same way;
 *   - a read-only matrix used by 10 kernels is copied in once (and never back). */
#include "check.h"

static const char *src =
    "__kernel void nbody_step(AMP_CONST_VIEW(uint, prev), AMP_VIEW(uint, next)) {\n"
    "  AMP_INDEX1(i);\n"
    "  int n = amp_extent(prev, 0);\n"
    "  uint me = amp_at(prev, i[0]), pull = 0;\n"
    "  for (int j = 0; j < n; j++) /* every body pulls on every other */\n"
    "    pull += (amp_at(prev, j) ^ me) >> 6;\n"
    "  amp_at(next, i[0]) = (me * 3u + pull) & 0xFFFFFu;\n"
    "}\n"
    "__kernel void matvec(AMP_CONST_VIEW(float, m), AMP_CONST_VIEW(float, x),\n"
    "                     AMP_VIEW(float, y), float s) {\n"
    "  AMP_INDEX1(i);\n"
    "  float acc = 0.0f;\n"
    "  for (int k = 0; k < amp_extent(m, 1); k++)\n"
    "    acc += amp_at(m, i[0], k) * amp_at(x, k);\n"
    "  amp_at(y, i[0]) = s * acc;\n"
    "}\n";

enum { BODIES = 256, STEPS = 100, R = 64 };

static void host_step(const uint32_t *prev, uint32_t *next) {
  for (int i = 0; i < BODIES; i++) {
    uint32_t me = prev[i], pull = 0;
    for (int j = 0; j < BODIES; j++)
      pull += (prev[j] ^ me) >> 6;
    next[i] = (me * 3u + pull) & 0xFFFFFu;
  }
}

static void nbody(amp_accelerator_view *av) {
  static uint32_t a[BODIES], b[BODIES], ra[BODIES], rb[BODIES];
  for (int i = 0; i < BODIES; i++)
    a[i] = ra[i] = (uint32_t)(i * 2654435761u) & 0xFFFFFu;
  amp_kernel *k = test_kernel(src, NULL, "nbody_step");
  if (!k)
    return;
  amp_array_view *cur = NULL, *nxt = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(BODIES), AMP_UINT32, a, &cur));
  CHECK_OK(amp_array_view_create(amp_extent1(BODIES), AMP_UINT32, b, &nxt));
  CHECK_OK(amp_array_view_discard_data(nxt));
  CHECK_OK(amp_transfer_stats_reset());
  amp_status st = AMP_SUCCESS;
  for (int s = 0; s < STEPS && st == AMP_SUCCESS; s++) {
    st = TEST_RUN(av, amp_extent1(BODIES), k, amp_arg_view(cur), amp_arg_view(nxt));
    CHECK_OK(st);
    if (s == 0) {
      CHECK_COUNTS(NULL, 1, 0, 0); /* the initial state, once */
      CHECK_OK(amp_transfer_stats_reset());
    }
    amp_array_view *t = cur;
    cur = nxt;
    nxt = t;
  }
  /* Steps 2..100: nothing moved, in either direction. */
  CHECK_COUNTS(NULL, 0, 0, 0);
  CHECK_OK(amp_array_view_synchronize(cur));
  CHECK_COUNTS(NULL, 0, 1, 0);
  CHECK_EQ_INT(test_stats(NULL).to_host_bytes, sizeof a);
  uint32_t *p = ra, *q = rb;
  for (int s = 0; s < STEPS; s++) {
    host_step(p, q);
    uint32_t *t = p;
    p = q;
    q = t;
  }
  const uint32_t *got = STEPS % 2 ? b : a;
  int bad = 0;
  for (int i = 0; i < BODIES; i++)
    bad += got[i] != p[i];
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(cur));
  CHECK_OK(amp_array_view_release(nxt));
  amp_kernel_release(k);
}

static void read_only_matrix(amp_accelerator_view *av) {
  static float m[R * R], x[R], y[R];
  for (int i = 0; i < R * R; i++)
    m[i] = (float)(i % 5) - 2.0f;
  for (int i = 0; i < R; i++)
    x[i] = (float)(i % 3);
  amp_kernel *k = test_kernel(src, NULL, "matvec");
  if (!k)
    return;
  amp_array_view *vm = NULL, *vx = NULL, *vy = NULL;
  CHECK_OK(amp_array_view_create_const(amp_extent2(R, R), AMP_FLOAT, m, &vm));
  CHECK_OK(amp_array_view_create_const(amp_extent1(R), AMP_FLOAT, x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1(R), AMP_FLOAT, y, &vy));
  CHECK_OK(amp_array_view_discard_data(vy));
  CHECK_OK(amp_transfer_stats_reset());
  for (int r = 1; r <= 10; r++)
    CHECK_OK(TEST_RUN(av, amp_extent1(R), k, amp_arg_view(vm), amp_arg_view(vx), amp_arg_view(vy),
                      amp_arg_float((float)r)));
  CHECK_COUNTS(NULL, 2, 0, 0); /* the matrix and the vector, once each */
  CHECK_EQ_INT(test_stats(NULL).to_device_bytes, sizeof m + sizeof x);
  CHECK_OK(amp_array_view_release(vm));
  CHECK_OK(amp_array_view_release(vx));
  CHECK_OK(amp_array_view_synchronize(vy));
  CHECK_COUNTS(NULL, 2, 1, 0);
  int bad = 0;
  for (int i = 0; i < R; i++) {
    float acc = 0.0f;
    for (int kk = 0; kk < R; kk++)
      acc += m[i * R + kk] * x[kk];
    bad += fabsf(y[i] - 10.0f * acc) > 1e-3f * (1.0f + fabsf(10.0f * acc));
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_OK(amp_array_view_release(vy));
  amp_kernel_release(k);
}

int main(void) {
  REQUIRE_VIEW(av);
  nbody(av);
  read_only_matrix(av);
  return check_done();
}
