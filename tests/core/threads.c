/* threads: launches from 4 threads at once (kernel.h: "programs, kernels and launches may be used
 * from any number of threads at once").
 *
 * Each thread owns its views and launches the *same* kernel object many times, all threads
 * reading one shared read-only view, synchronising now and then. Proves: every result is right
 * (clSetKernelArg on a shared cl_kernel would mix arguments up without ampcl's kernel pool), the
 * shared read-only data reach the device once however many threads use them, and
 * amp_last_error() is per thread. The harness counters are not thread-safe, so threads report
 * numbers and the main thread checks them. */
#include <pthread.h>

#include "check.h"

enum { THREADS = 4, LAUNCHES = 40, N = 4096 };

static const char *src = "__kernel void axpy(AMP_CONST_VIEW(int, x), AMP_VIEW(int, y), int a) {\n"
                         "  AMP_INDEX1(i);\n"
                         "  amp_at(y, i[0]) += a * amp_at(x, i[0]);\n"
                         "}\n";

static amp_accelerator_view *av;
static amp_kernel *kernel;
static amp_array_view *shared_x; /* read-only, used by every thread */
static int32_t x[N];

typedef struct {
  int id;
  int32_t y[N];
  int failed_calls; /* ampcl calls that did not succeed */
  int wrong_values; /* elements that differ from the host reference */
  int own_error;    /* this thread's amp_last_error() names this thread's mistake */
} worker;

static void *run(void *arg) {
  worker *w = arg;
  amp_array_view *vy = NULL;
  for (int i = 0; i < N; i++)
    w->y[i] = w->id * 100000 + i;
  if (amp_array_view_create(amp_extent1(N), AMP_INT32, w->y, &vy) != AMP_SUCCESS) {
    w->failed_calls++;
    return NULL;
  }
  long long sum_a = 0;
  for (int l = 0; l < LAUNCHES; l++) {
    int a = w->id + 1 + l % 3;
    amp_arg args[] = {amp_arg_view(shared_x), amp_arg_view(vy), amp_arg_int(a)};
    w->failed_calls += amp_parallel_for_each(av, amp_extent1(N), kernel, args, 3) != AMP_SUCCESS;
    sum_a += a;
    if (l % 10 == 9) { /* a synchronisation point now and then */
      w->failed_calls += amp_array_view_synchronize(vy) != AMP_SUCCESS;
      int wrong = 0;
      for (int i = 0; i < N; i++)
        wrong += w->y[i] != w->id * 100000 + i + (int32_t)(sum_a * x[i]);
      w->wrong_values += wrong;
    }
  }
  /* a mistake of this thread's own: its reason must be the one this thread sees (and its message
   * buffer is freed when the thread exits, which the sanitizer build checks) */
  char name[32];
  snprintf(name, sizeof name, "no_kernel_%d", w->id);
  amp_program *p = NULL;
  amp_kernel *k = NULL;
  w->failed_calls += amp_program_create(src, NULL, &p) != AMP_SUCCESS;
  w->failed_calls += amp_kernel_create(p, name, &k) != AMP_SUCCESS;
  amp_arg args[] = {amp_arg_view(shared_x), amp_arg_view(vy), amp_arg_int(0)};
  amp_status s = amp_parallel_for_each(av, amp_extent1(N), k, args, 3);
  w->own_error = s == AMP_CL_INVALID_KERNEL_NAME && strstr(amp_last_error(), name) != NULL;
  amp_kernel_release(k);
  amp_program_release(p);
  w->failed_calls += amp_array_view_release(vy) != AMP_SUCCESS;
  return NULL;
}

int main(void) {
  av = test_view();
  if (!av)
    return 1;
  for (int i = 0; i < N; i++)
    x[i] = i % 17 - 8;
  amp_program *p;
  REQUIRE_OK(amp_program_create(src, NULL, &p));
  REQUIRE_OK(amp_kernel_create(p, "axpy", &kernel));
  amp_program_release(p);
  REQUIRE_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT32, x, &shared_x));
  CHECK_OK(amp_transfer_stats_reset());

  static worker w[THREADS];
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; t++) {
    w[t].id = t;
    CHECK_EQ_INT(pthread_create(&th[t], NULL, run, &w[t]), 0);
  }
  for (int t = 0; t < THREADS; t++)
    pthread_join(th[t], NULL);

  for (int t = 0; t < THREADS; t++) {
    CHECK_EQ_INT(w[t].failed_calls, 0);
    CHECK_EQ_INT(w[t].wrong_values, 0);
    CHECK(w[t].own_error);
    /* the final values, after the release wrote them back */
    long long sum_a = 0;
    for (int l = 0; l < LAUNCHES; l++)
      sum_a += t + 1 + l % 3;
    int wrong = 0;
    for (int i = 0; i < N; i++)
      wrong += w[t].y[i] != t * 100000 + i + (int32_t)(sum_a * x[i]);
    CHECK_EQ_INT(wrong, 0);
  }
  amp_transfer_stats st;
  CHECK_OK(amp_transfer_stats_get(NULL, &st));
  /* x once, plus each thread's y once: y is synchronised with read access, so it stays valid */
  CHECK_EQ_INT(st.to_device_count, 1 + THREADS);
  CHECK_EQ_INT(st.to_host_count, THREADS * (LAUNCHES / 10));
  CHECK_OK(amp_array_view_release(shared_x));
  amp_kernel_release(kernel);
  return check_done();
}
