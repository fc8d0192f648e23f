/* runtime/algorithms/algo_cpu.c: whether reduce, scan and transpose take their CPU-device kernels
 * (kernels_cl/algorithms/reduce_cpu.cl, scan_cpu.cl, transpose_cpu.cl): on a CPU device
 * (props.is_emulated) unless AMP_ALGO_CPU_KERNELS=0, which keeps the GPU kernels there so that
 * tests can run them on a machine with no GPU (1 or unset: the default; another value is an error
 * naming it); and how those kernels split a view among their threads. */
#include "algorithms/algo.h"

amp_status amp__algo_cpu_kernels(const amp_accelerator_view *view, int *out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  int want = 1;
  *out = 0;
  AMP__TRY(amp__knob_int_in(AMP_KNOB_ALGO_CPU_KERNELS, 0, 1, 1, &want, fn));
  *out = want && view->acc->props.is_emulated;
fail:
  return status;
}

size_t amp__algo_cpu_chunk(const amp_accelerator_view *view, amp__algo_path path, size_t n,
                           size_t most_per, size_t step) {
  const amp__algo_shape *s = amp__algo_shape_of(view, path);
  size_t cu = view->acc->props.compute_units ? view->acc->props.compute_units : 1;
  size_t most = (size_t)s->most, per_cu = (size_t)s->per_cu, least = (size_t)s->per;
  size_t g = cu > most / per_cu ? most : cu * per_cu;
  if (g > n / least)
    g = n / least ? n / least : 1;
  if (g < n / most_per + 1)
    g = n / most_per + 1;
  return (n / g + (n % g != 0) + step - 1) / step * step; /* whole steps but the last */
}
