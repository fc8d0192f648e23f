#!/usr/bin/env bash
# The suite on a third OpenCL implementation: Mesa's rusticl on llvmpipe (Debian 12's
# mesa-opencl-icd 22.3.6, unpacked into .rusticl/ by .ci/rusticl.sh; nothing installed). CI runs
# it after the README's test command (.ci/run), in that command's build (build-ci).
#
# The loader sees rusticl only, so every test's default device is llvmpipe; the two-device tests
# skip (one device), and so do the double-precision ones (llvmpipe reports no fp64 here). The
# exclusions are Intel's pass's, for the same reasons (.ci/tests.sh): oclgrind's runs, the MPI
# example's grid runs (mpi_grids), amp-bench's own wiring (harness) and the kernel paths forced
# through knobs (knobs) check logic that does not depend on the implementation, and run on POCL.
#
# Until the changes named below land, these runs are left out by name (each is a known failure
# on rusticl whose fix is in files owned elsewhere; docs/IMPLEMENTATIONS.md says what fails):
#   profiling, profiling.off, gemm_general, gemm_choice: rusticl's profiling timestamps are the
#     constants 0, 1, 2, 3 (lab/rusticl_timestamps.c), so device times are 1 ns; the change that
#     reports such times as n/a (runtime/core/queue.c) and its tests;
#   example.mpi_matmul.np2.double, bench.smoke-cpu: the MPI example and amp-bench's CPU table
#     report a double run on a device without double precision as a failure, not a skip;
#   algo_sort.onesweep: the onesweep pass declares 36,676 bytes of tile_static memory, more than
#     llvmpipe's 32 KiB; the algorithms' tiles that adapt to the device.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
build=${AMP_BUILD_DIR:-build-ci}
pending='^(profiling|profiling\.off|gemm_general|gemm_choice|example\.mpi_matmul\.np2\.double|bench\.smoke-cpu|algo_sort\.onesweep)$'

echo "== the suite on a third OpenCL implementation: Mesa's rusticl on llvmpipe (.ci/rusticl.sh)"
bash .ci/rusticl.sh
start=$(date +%s)
(. .rusticl/env.sh && "$build"/examples/amp-info | grep -E "default|^ocl" &&
  AMP_TEST_SMALL=1 ctest --test-dir "$build" --output-on-failure -j"$jobs" \
    -LE "oclgrind|mpi_grids|knobs|harness" -E "$pending")
echo "rusticl pass: $(($(date +%s) - start)) s"
