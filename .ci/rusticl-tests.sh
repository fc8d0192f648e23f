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
# No test is left out by name: a test that cannot run its subject on llvmpipe skips, saying which
# capability it asked ampcl for (docs/IMPLEMENTATIONS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
build=${AMP_BUILD_DIR:-build-ci}

echo "== the suite on a third OpenCL implementation: Mesa's rusticl on llvmpipe (.ci/rusticl.sh)"
bash .ci/rusticl.sh
start=$(date +%s)
(. .rusticl/env.sh && "$build"/examples/amp-info | grep -E "default|^ocl" &&
  AMP_TEST_SMALL=1 ctest --test-dir "$build" --output-on-failure -j"$jobs" \
    -LE "oclgrind|mpi_grids|knobs|harness")
echo "rusticl pass: $(($(date +%s) - start)) s"
