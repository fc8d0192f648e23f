#!/usr/bin/env bash
# Quick start, second command: install what is missing, then build and run the whole test suite
# through ctest on POCL: warnings as errors, then the tests that debug mode changes (AMP_DEBUG=1:
# every view access in a kernel checked; ctest label `debug` less `heavy`, tests/CMakeLists.txt
# says which and why). CI (.ci/run) then runs the suite again on Intel's CPU OpenCL runtime
# (.ci/intel-tests.sh) and on Mesa's rusticl (.ci/rusticl-tests.sh), on POCL seen as weaker
# devices, under AddressSanitizer + UndefinedBehaviorSanitizer (.ci/sanitizers.sh), every kernel
# under oclgrind, the fuzzers and the packages.
# Also checks the formatting of every C file against .clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh
jobs=$(nproc)

echo "== format check"
git -c safe.directory="$PWD" ls-files '*.c' '*.h' | grep -v '^kernels_cl/' | xargs clang-format --dry-run --Werror

echo "== no capability decided by a vendor's name in runtime/ (docs/IMPLEMENTATIONS.md)"
bash cmake/check_no_vendor_names.sh

echo "== build (warnings are errors) and test"
cmake -S . -B build-ci -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_WERROR=ON
cmake --build build-ci -j"$jobs"
# label knobs (other kernel paths forced through environment knobs) runs next in CI: .ci/knobs.sh;
# label long (the longest sweeps on a CPU device, POCL compiling a kernel per shape: the tile
# collectives, the matmul and n-body kernel sweeps, the stencils, the tried-tile run; 4 min of the
# 2 cores' time) runs beside it in CI: .ci/long.sh, which keeps this command within 8 minutes
ctest --test-dir build-ci --output-on-failure -j"$jobs" -LE "oclgrind|knobs|long"

echo "== the tests debug mode changes, in debug mode (AMP_DEBUG=1, label debug, not heavy)"
AMP_DEBUG=1 ctest --test-dir build-ci --output-on-failure -j"$jobs" -L debug -LE heavy
