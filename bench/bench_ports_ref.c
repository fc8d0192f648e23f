/* bench/bench_ports_ref.c: the host references of the ports (ports.h), computed in double where
 * they accumulate, and the check of a result against one. */
#include <math.h>
#include <string.h>

#include "ports.h"

static void ref_gemm(port_io *io) {
  int n = io->n;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++)
        s += (double)io->a[i * n + k] * io->b[k * n + j];
      io->c[i * n + j] = (float)(1.5 * s + 1.2 * io->c[i * n + j]);
    }
}

static void ref_conv2d(port_io *io) {
  static const float w[3][3] = {
      {-0.10f, -0.15f, -0.10f}, {-0.15f, 2.00f, -0.15f}, {-0.10f, -0.15f, -0.10f}};
  int n = io->n;
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++) {
      double s = 0;
      for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++)
          s += (double)w[di + 1][dj + 1] * io->a[(i + di) * n + j + dj];
      io->b[i * n + j] = (float)s;
    }
}

static void ref_jacobi(port_io *io, float *tmp) {
  int n = io->n;
  for (int t = 0; t < io->steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        tmp[i * n + j] = 0.2f * (io->a[i * n + j] + io->a[i * n + j - 1] + io->a[i * n + j + 1] +
                                 io->a[(i - 1) * n + j] + io->a[(i + 1) * n + j]);
    for (int i = 1; i < n - 1; i++)
      memcpy(io->a + i * n + 1, tmp + i * n + 1, (size_t)(n - 2) * sizeof(float));
  }
}

static void ref_mv(port_io *io) {
  int n = io->n;
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      s += (double)io->a[i * n + j] * io->b[j];
    io->c[i] = (float)s;
  }
}

/* data is io->a (m x m, left as it was), the matrix io->c; tmp: room for m * m + 2 * m. */
static void ref_corr(port_io *io, double *tmp) {
  int m = io->n;
  double *mean = tmp, *sd = tmp + m, *d = tmp + 2 * m;
  for (int j = 0; j < m; j++) {
    double s = 0, v = 0;
    for (int i = 0; i < m; i++)
      s += io->a[i * m + j];
    mean[j] = s / m;
    for (int i = 0; i < m; i++)
      v += (io->a[i * m + j] - mean[j]) * (io->a[i * m + j] - mean[j]);
    sd[j] = sqrt(v / m) <= 0.005 ? 1.0 : sqrt(v / m);
  }
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++)
      d[i * m + j] = (io->a[i * m + j] - mean[j]) / (sqrt((double)m) * sd[j]);
  for (int j1 = 0; j1 < m; j1++) {
    io->c[j1 * m + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; j2++) {
      double s = 0;
      for (int i = 0; i < m; i++)
        s += d[i * m + j1] * d[i * m + j2];
      io->c[j1 * m + j2] = io->c[j2 * m + j1] = (float)s;
    }
  }
}

void port_reference(int p, port_io *io, void *scratch) {
  switch (p) {
  case PORT_GEMM:
    ref_gemm(io);
    break;
  case PORT_CONV2D:
    ref_conv2d(io);
    break;
  case PORT_JACOBI:
    ref_jacobi(io, scratch);
    break;
  case PORT_MV:
    ref_mv(io);
    break;
  default:
    ref_corr(io, scratch);
  }
}

double port_max_error(const float *got, const float *want, size_t n) {
  double worst = 0;
  for (size_t i = 0; i < n; i++) {
    double e = fabs((double)got[i] - want[i]) / (1e-3 * (1.0 + fabs((double)want[i])));
    if (!(e <= worst)) /* NaN counts as the worst */
      worst = isnan(e) ? INFINITY : e;
  }
  return worst;
}
