/* correlation.cl: the correlation matrix of m variables over n observations (data is n x m,
 * row-major), in the four kernels classic OpenCL suites use: column means, column standard
 * deviations, the data centred and scaled in place, then the symmetric m x m matrix. Plain OpenCL
 * C, run unchanged by amp-bench --ports. */
typedef float DATA_TYPE;
#define EPS 0.005f

__kernel void corr_mean(__global const DATA_TYPE *data, __global DATA_TYPE *mean, int m, int n) {
  int j = get_global_id(0);
  if (j >= m)
    return;
  DATA_TYPE s = 0;
  for (int i = 0; i < n; i++)
    s += data[i * m + j];
  mean[j] = s / (DATA_TYPE)n;
}

__kernel void corr_std(__global const DATA_TYPE *data, __global const DATA_TYPE *mean,
                       __global DATA_TYPE *stddev, int m, int n) {
  int j = get_global_id(0);
  if (j >= m)
    return;
  DATA_TYPE s = 0;
  for (int i = 0; i < n; i++) {
    DATA_TYPE d = data[i * m + j] - mean[j];
    s += d * d;
  }
  s = sqrt(s / (DATA_TYPE)n);
  stddev[j] = s <= EPS ? 1.0f : s;
}

__kernel void corr_center(__global DATA_TYPE *data, __global const DATA_TYPE *mean,
                          __global const DATA_TYPE *stddev, int m, int n) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if (i < n && j < m)
    data[i * m + j] = (data[i * m + j] - mean[j]) / (sqrt((DATA_TYPE)n) * stddev[j]);
}

__kernel void corr_matrix(__global const DATA_TYPE *data, __global DATA_TYPE *symmat, int m,
                          int n) {
  int j1 = get_global_id(0);
  if (j1 >= m)
    return;
  symmat[j1 * m + j1] = 1.0f;
  for (int j2 = j1 + 1; j2 < m; j2++) {
    DATA_TYPE s = 0;
    for (int i = 0; i < n; i++)
      s += data[i * m + j1] * data[i * m + j2];
    symmat[j1 * m + j2] = s;
    symmat[j2 * m + j1] = s;
  }
}
