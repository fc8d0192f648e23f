/* runtime/algorithms/algo_cpu.c: whether reduce, scan and transpose take their CPU-device kernels
 * (kernels_cl/algorithms/reduce_cpu.cl, scan_cpu.cl, transpose_cpu.cl): on a CPU device
 * (props.is_emulated) unless AMP_ALGO_CPU_KERNELS=0, which keeps the GPU kernels there so that
 * tests can run them on a machine with no GPU (1 or unset: the default; another value is an error
 * naming it). */
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
