/* gemm_threads: CLBlast GEMMs from two threads at once, one per accelerator (as
 * amp_blas_gemm_multi runs its transposed panels), each checked against a host loop. CLBlast
 * builds its tuning database at every call without a lock; two calls at once read memory the
 * other had freed, which the sanitizer build reports (a run of 20 rounds found it in most runs
 * before clblast_gemm.c serialised the calls). Run with POCL_DEVICES="pthread pthread"; skips with
 * one accelerator or without CLBlast. */
#include <pthread.h>
#include <stdint.h>

#include "check.h"

enum { M = 9, N = 7, K = 5, CALLS = 300, ROUNDS = 20 };

static amp_accelerator_view *av[2];
static int wrong[2], failed[2];
static amp_status first_error[2];

static void *calls(void *arg) {
  const int d = (int)(intptr_t)arg;
  float a[K * M], b[K * N], c[M * N];
  for (int i = 0; i < K * M; i++)
    a[i] = (float)(i % 3);
  for (int i = 0; i < K * N; i++)
    b[i] = (float)(i % 4) - 1.0f;
  for (int it = 0; it < CALLS; it++) {
    amp_array_view *va = NULL, *vb = NULL, *vc = NULL;
    amp_status st = amp_array_view_create_const(amp_extent2(K, M), AMP_FLOAT, a, &va);
    if (st == AMP_SUCCESS)
      st = amp_array_view_create_const(amp_extent2(K, N), AMP_FLOAT, b, &vb);
    if (st == AMP_SUCCESS)
      st = amp_array_view_create(amp_extent2(M, N), AMP_FLOAT, c, &vc);
    if (st == AMP_SUCCESS) /* A transposed: CLBlast with AMP_BLAS_GEMM=clblast */
      st = amp_blas_gemm(av[d], AMP_TRANS, AMP_NO_TRANS, 1.0, va, vb, 0.0, vc, NULL);
    if (st == AMP_SUCCESS)
      st = amp_array_view_synchronize(vc);
    if (st != AMP_SUCCESS && !failed[d]++)
      first_error[d] = st;
    for (int i = 0; st == AMP_SUCCESS && i < M; i++)
      for (int j = 0; j < N; j++) {
        float s = 0;
        for (int p = 0; p < K; p++)
          s += a[p * M + i] * b[p * N + j];
        wrong[d] += c[i * N + j] != s;
      }
    amp_array_view_release(va);
    amp_array_view_release(vb);
    amp_array_view_release(vc);
  }
  return NULL;
}

int main(void) {
  amp_accelerator *acc[2];
  if (test_devices(acc, 2) < 2) {
    printf("SKIP: two accelerators needed; POCL makes two with POCL_DEVICES=\"pthread pthread\"\n");
    return SKIP;
  }
  for (int d = 0; d < 2; d++)
    REQUIRE_OK(amp_accelerator_default_view(acc[d], &av[d]));
  for (int r = 0; r < ROUNDS; r++) {
    pthread_t t[2];
    int started[2];
    for (int d = 0; d < 2; d++)
      started[d] = pthread_create(&t[d], NULL, calls, (void *)(intptr_t)d) == 0;
    for (int d = 0; d < 2; d++) {
      CHECK(started[d]);
      if (started[d])
        pthread_join(t[d], NULL);
    }
  }
  if (first_error[0] == AMP_ERROR_UNSUPPORTED_FEATURE) {
    printf("SKIP: ampcl was built without CLBlast\n");
    return SKIP;
  }
  for (int d = 0; d < 2; d++) {
    if (failed[d])
      fprintf(stderr, "accelerator %d: %d calls failed, the first with %s\n", d, failed[d],
              amp_status_name(first_error[d]));
    CHECK_EQ_INT(failed[d], 0);
    CHECK_EQ_INT(wrong[d], 0);
  }
  return check_done();
}
