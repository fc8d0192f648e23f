/* mv.cl: y = A x for an n x n row-major matrix, one work-item per row, as classic OpenCL suites
 * write a matrix-vector product. Plain OpenCL C, run unchanged by amp-bench --ports. */
typedef float DATA_TYPE;

__kernel void mv(__global const DATA_TYPE *a, __global const DATA_TYPE *x, __global DATA_TYPE *y,
                 int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  DATA_TYPE sum = 0;
  for (int j = 0; j < n; j++)
    sum += a[i * n + j] * x[j];
  y[i] = sum;
}
