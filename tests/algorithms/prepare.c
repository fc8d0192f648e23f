/* algo_prepare: amp_algorithms_prepare builds what the algorithms' calls use. After it prepared
 * every algorithm for int, the calls on real data (reduce with each operator, both scans, a
 * histogram, a sort, a transpose) build no further OpenCL program (amp_cl_objects_live's count
 * of programs stays put), and each result equals the host's. The same calls for uint, not
 * prepared, do build programs: the count can see a build. Bad requests (unknown bits, a struct
 * type, a histogram of floats) are refused naming the value, and build nothing. */
#include "algorithms/algo_check.h"

#include <stdint.h>

enum { N = 10007, SIDE = 37 };

static long long programs(void) {
  long long user = 0, life = 0;
  if (amp_cl_objects_live(AMP_CL_PROGRAM, &user, &life) != AMP_SUCCESS)
    return -1;
  return user + life;
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Every prepared algorithm once on 32-bit data of kind t, each result against the host's. */
static void run_all(amp_accelerator_view *av, amp_elem_type t) {
  static int32_t x[N], y[N], sorted[N], sq[SIDE * SIDE], sqt[SIDE * SIDE];
  static uint32_t bins[64];
  int64_t sum = 0;
  for (int i = 0; i < N; i++) {
    x[i] = (int32_t)((uint32_t)i * 2654435761u % 64u);
    sum += x[i];
  }
  for (int i = 0; i < SIDE * SIDE; i++)
    sq[i] = i;
  amp_array_view *vx = NULL, *vy = NULL, *vs = NULL, *vb = NULL, *vq = NULL, *vqt = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(N), t, x, &vx));
  CHECK_OK(amp_array_view_create(amp_extent1(N), t, y, &vy));
  CHECK_OK(amp_array_view_create(amp_extent1(64), AMP_UINT32, bins, &vb));
  CHECK_OK(amp_array_view_create(amp_extent2(SIDE, SIDE), t, sq, &vq));
  CHECK_OK(amp_array_view_create(amp_extent2(SIDE, SIDE), t, sqt, &vqt));
  if (!vx || !vy || !vb || !vq || !vqt)
    goto done;
  int32_t r = 0;
  CHECK_OK(amp_reduce(av, vx, AMP_REDUCE_SUM, &r));
  CHECK_EQ_INT(r, sum);
  CHECK_OK(amp_reduce(av, vx, AMP_REDUCE_MAX, &r));
  CHECK_EQ_INT(r, 63);
  CHECK_OK(amp_reduce(av, vx, AMP_REDUCE_MIN, &r));
  CHECK_EQ_INT(r, 0);
  CHECK_OK(amp_scan(av, vx, vy, AMP_SCAN_EXCLUSIVE));
  CHECK_OK(amp_array_view_synchronize(vy));
  CHECK_EQ_INT(y[N - 1], sum - x[N - 1]);
  CHECK_OK(amp_histogram(av, vx, vb));
  CHECK_OK(amp_array_view_synchronize(vb));
  int64_t counted = 0;
  for (int b = 0; b < 64; b++)
    counted += bins[b];
  CHECK_EQ_INT(counted, N);
  CHECK_OK(amp_transpose_view(av, vq, vqt));
  CHECK_OK(amp_array_view_synchronize(vqt));
  CHECK_EQ_INT(sqt[1], sq[SIDE]);
  memcpy(sorted, x, sizeof x);
  qsort(sorted, N, sizeof *sorted, cmp_i32);
  CHECK_OK(amp_sort(av, vx));
  CHECK_OK(amp_array_view_synchronize(vx));
  CHECK(memcmp(x, sorted, sizeof x) == 0);
done:;
  RELEASE_VIEWS(vx, vy, vs, vb, vq, vqt);
}

int main(void) {
  REQUIRE_VIEW(av);
  long long before = programs();
  CHECK(before >= 0);
  CHECK_OK(amp_algorithms_prepare(av, AMP_PREPARE_ALL, AMP_INT32));
  long long prepared = programs();
  CHECK(prepared > before); /* it built something */
  run_all(av, AMP_INT32);
  CHECK_EQ_INT(programs(), prepared); /* and the calls built nothing more */
  run_all(av, AMP_UINT32);            /* not prepared: these build */
  long long unprepared = programs();
  CHECK(unprepared > prepared);
  /* prepared again: nothing new to build */
  CHECK_OK(amp_algorithms_prepare(av, AMP_PREPARE_ALL, AMP_UINT32));
  CHECK_EQ_INT(programs(), unprepared);
  CHECK_OK(amp_algorithms_prepare(av, 0, AMP_FLOAT));

  CHECK_STATUS(amp_algorithms_prepare(av, 0x100u | AMP_PREPARE_SCAN, AMP_FLOAT),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("which is 0x102, with bits 0x100 that name no algorithm");
  CHECK_STATUS(amp_algorithms_prepare(av, AMP_PREPARE_HISTOGRAM, AMP_FLOAT),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_PREPARE_HISTOGRAM is asked for with type kind 3");
  CHECK_STATUS(amp_algorithms_prepare(av, AMP_PREPARE_SCAN, AMP_STRUCT(int32_t[3])),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("AMP_INT32, AMP_UINT32, AMP_FLOAT or AMP_DOUBLE");
  CHECK_STATUS(amp_algorithms_prepare(NULL, AMP_PREPARE_SCAN, AMP_FLOAT), AMP_ERROR_INVALID_HANDLE);
  CHECK_EQ_INT(programs(), unprepared);
  return check_done();
}
