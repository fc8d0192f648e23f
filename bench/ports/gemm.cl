/* gemm.cl: C = alpha A B + beta C on n x n row-major matrices, one work-item per element of C,
 * written as classic OpenCL benchmark suites write it (a typedef'd element type, plain pointers,
 * get_global_id(0) the column). Plain OpenCL C: amp-bench --ports runs this file unchanged under
 * raw OpenCL and through ampcl. */
typedef float DATA_TYPE;

__kernel void gemm(__global const DATA_TYPE *a, __global const DATA_TYPE *b, __global DATA_TYPE *c,
                   DATA_TYPE alpha, DATA_TYPE beta, int n) {
  int col = get_global_id(0);
  int row = get_global_id(1);
  if (row >= n || col >= n)
    return;
  DATA_TYPE sum = 0;
  for (int k = 0; k < n; k++)
    sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = alpha * sum + beta * c[row * n + col];
}
