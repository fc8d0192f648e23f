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
# Until the change named below lands, this run is left out by name (a known failure on rusticl
# whose fix is in files owned elsewhere; docs/IMPLEMENTATIONS.md says what fails):
#   algo_sort.onesweep: the onesweep pass declares 36,676 bytes of tile_static memory, more than
#     llvmpipe's 32 KiB; the algorithms' tiles that adapt to the device.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
build=${AMP_BUILD_DIR:-build-ci}
pending='^(algo_sort\.onesweep)$'

echo "== the suite on a third OpenCL implementation: Mesa's rusticl on llvmpipe (.ci/rusticl.sh)"
bash .ci/rusticl.sh
start=$(date +%s)
(. .rusticl/env.sh && "$build"/examples/amp-info | grep -E "default|^ocl" &&
  AMP_TEST_SMALL=1 ctest --test-dir "$build" --output-on-failure -j"$jobs" \
    -LE "oclgrind|mpi_grids|knobs|harness" -E "$pending")
echo "rusticl pass: $(($(date +%s) - start)) s"
