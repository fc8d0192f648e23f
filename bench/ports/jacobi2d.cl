/* jacobi2d.cl: one time step of a 2-D Jacobi relaxation on an n x n grid, in two kernels as
 * classic OpenCL suites write it: the five-point average of a into b on the interior, then b back
 * into a (borders fixed). Plain OpenCL C, run unchanged by amp-bench --ports (raw and ampcl). */
typedef float DATA_TYPE;

#define INTERIOR(i, j, n) ((i) > 0 && (i) < (n)-1 && (j) > 0 && (j) < (n)-1)

__kernel void jacobi_step(__global const DATA_TYPE *a, __global DATA_TYPE *b, int n) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if (INTERIOR(i, j, n))
    b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] +
                           a[(i - 1) * n + j] + a[(i + 1) * n + j]);
}

__kernel void jacobi_copy(__global DATA_TYPE *a, __global const DATA_TYPE *b, int n) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if (INTERIOR(i, j, n))
    a[i * n + j] = b[i * n + j];
}
