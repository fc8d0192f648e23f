/* mm_ab.c: matmul_cpu variants beside bench/omp's GEMM, alternating launch by launch: R rounds,
 * each one call of every variant and of OpenMP (250 ms apart); best and median of each.
 *   mm_ab DEV float|double N R "ROWS,COLS,SWAP,OPTS" ... */
#include <ampcl/accelerator.h>
#include <ampcl/array.h>
#include <ampcl/array_view.h>
#include <ampcl/kernel.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
void omp_bench_sgemm(int n, const float *a, const float *b, float *c);
void omp_bench_dgemm(int n, const double *a, const double *b, double *c);
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
#define NV 12
int main(int argc, char **argv) {
  const char *dev = argv[1];
  int dbl = strcmp(argv[2], "double") == 0, n = atoi(argv[3]), R = atoi(argv[4]), nv = argc - 5;
  size_t es = dbl ? 8 : 4, bytes = (size_t)n * n * es;
  amp_accelerator *acc;
  amp_accelerator_view *av;
  if (amp_accelerator_find(dev, &acc) || amp_accelerator_default_view(acc, &av))
    return puts("noacc"), 1;
  void *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *ref = malloc(bytes);
  srand(1);
  for (size_t i = 0; i < (size_t)n * n; i++) {
    double x = rand() / (double)RAND_MAX - 0.5, y = rand() / (double)RAND_MAX - 0.5;
    if (dbl)
      ((double *)a)[i] = x, ((double *)b)[i] = y;
    else
      ((float *)a)[i] = (float)x, ((float *)b)[i] = (float)y;
  }
  amp_elem_type t = dbl ? AMP_DOUBLE : AMP_FLOAT;
  amp_array *aa, *ab, *ac;
  amp_array_view *va, *vb, *vc;
  if (amp_array_create_from(av, amp_extent2(n, n), t, a, &aa) || amp_array_view_of(aa, &va) ||
      amp_array_create_from(av, amp_extent2(n, n), t, b, &ab) || amp_array_view_of(ab, &vb) ||
      amp_array_create(av, amp_extent2(n, n), t, &ac) || amp_array_view_of(ac, &vc))
    return puts("arr"), 1;
  amp_kernel *k[NV];
  int rows[NV], cols[NV], swap[NV];
  char opts[NV][200];
  double tm[NV + 1][200];
  for (int v = 0; v < nv; v++) {
    if (sscanf(argv[5 + v], "%d,%d,%d,%199[^\n]", &rows[v], &cols[v], &swap[v], opts[v]) != 4)
      return printf("bad cfg %s\n", argv[5 + v]), 1;
    amp_program *p;
    amp_status st = strncmp(opts[v], "FILE=", 5) == 0
                        ? amp_program_create_from_file(strtok(opts[v] + 5, " "),
                                                       opts[v] + strlen(opts[v]) + 1, &p)
                        : amp_program_create_builtin("matmul_cpu", opts[v], &p);
    if (st || amp_kernel_create(p, "matmul_cpu", &k[v]))
      return printf("build %s failed\n", opts[v]), 1;
  }
  struct timespec s = {0, 250000000};
  if (!dbl)
    omp_bench_sgemm(n, a, b, c); /* wake libgomp */
  for (int r = -1; r < R; r++)
    for (int v = 0; v <= nv; v++) {
      nanosleep(&s, 0);
      double t0 = now();
      if (v == nv) {
        if (dbl)
          omp_bench_dgemm(n, a, b, ref);
        else
          omp_bench_sgemm(n, a, b, ref);
      } else {
        amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
        amp_launch l = {0};
        l.kernel = k[v];
        l.args = args;
        l.nargs = AMP_NARGS(args);
        int gc = (n + cols[v] - 1) / cols[v], gr = (n + rows[v] - 1) / rows[v];
        l.domain = swap[v] ? amp_extent2(gr, gc) : amp_extent2(gc, gr);
        l.tiled = 1;
        l.tile[0] = l.tile[1] = 1;
        if (amp_parallel_for_each_ex(av, &l, NULL) || amp_accelerator_view_wait(av))
          return printf("launch %d failed\n", v), 1;
      }
      if (r >= 0)
        tm[v][r] = now() - t0;
      if (r == 0 && v < nv) { /* check against OpenMP's (computed in round -1) */
        amp_copy_from_array(ac, c, bytes);
        double md = 0;
        for (size_t i = 0; i < (size_t)n * n; i++) {
          double d = dbl ? fabs(((double *)c)[i] - ((double *)ref)[i])
                         : fabs(((float *)c)[i] - ((float *)ref)[i]);
          md = d > md ? d : md;
        }
        if (md > (dbl ? 1e-9 : 1e-3) * n)
          printf("variant %d WRONG: max diff %g\n", v, md);
        memset(c, 0, bytes);
      }
    }
  double om[200];
  memcpy(om, tm[nv], sizeof(double) * R);
  qsort(om, R, sizeof(double), cmpd);
  for (int v = 0; v <= nv; v++) {
    qsort(tm[v], R, sizeof(double), cmpd);
    printf("%-5.5s %s %d best %7.2f med %7.2f  ratio(best) %.2f  [%s]\n", dev + 4, argv[2], n,
           tm[v][0], tm[v][R / 2], om[0] / tm[v][0], v == nv ? "openmp" : argv[5 + v]);
  }
  return 0;
}
