#!/usr/bin/env bash
# Quick start, second command: install what is missing, then build and run the whole test suite
# through ctest: warnings as errors, then the tests that debug mode changes (AMP_DEBUG=1: every
# view access in a kernel checked; ctest label `debug` less `heavy`, tests/CMakeLists.txt says
# which and why), then the whole suite again on Intel's CPU OpenCL runtime (a second
# implementation, unpacked from the Python package index into .intel-ocl/ by .ci/intel-cpu.sh).
# CI (.ci/run) then runs it under AddressSanitizer + UndefinedBehaviorSanitizer
# (.ci/sanitizers.sh), every kernel under oclgrind, the fuzzers and the packages.
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
# label knobs (other kernel paths forced through environment knobs) runs next in CI: .ci/knobs.sh
ctest --test-dir build-ci --output-on-failure -j"$jobs" -LE "oclgrind|knobs"

echo "== the tests debug mode changes, in debug mode (AMP_DEBUG=1, label debug, not heavy)"
AMP_DEBUG=1 ctest --test-dir build-ci --output-on-failure -j"$jobs" -L debug -LE heavy

echo "== the suite again on a second OpenCL implementation: Intel's CPU runtime (.ci/intel-cpu.sh)"
# The loader then sees Intel's driver only, so every test's default device is Intel's; the tests
# that need two devices skip (POCL makes two, Intel one). Sweeps at their small sizes, as in the
# sanitizer pass: this pass is about the implementation, not the sizes. The MPI example's runs
# labelled mpi_grids (3, 6 and 9 ranks, narrow panels, the failing product, the failed link copy,
# Cannon refused on 2 ranks, the second element type) run on POCL only: they check the grids'
# shapes and the example's error paths, which do not depend on the implementation, and the MPI
# tests run one at a time (nine ranks each starting Intel's runtime on two cores took two minutes
# of this pass's critical path; the others 76 s more, the failed link copy 8 s). Intel's pass
# keeps 1, 2 and 4 ranks and a rank that cannot open its accelerator. The runs labelled harness
# (bench/: amp-bench's own wiring and its checks catching a corrupted result, 17 s of this pass)
# run on POCL only too: their subject is the benchmark, and the kernels they run are tested on
# Intel by tests/. The runs labelled knobs (tests/algorithms/CMakeLists.txt: another path forced
# through an environment knob, the warp paths emulated) check kernel logic, which .ci/knobs.sh
# checks on POCL; on Intel's runtime they took 90 s of compiling.
bash .ci/intel-cpu.sh
(. .intel-ocl/env.sh && build-ci/examples/amp-info | grep -E "default|^ocl" &&
  AMP_TEST_SMALL=1 ctest --test-dir build-ci --output-on-failure -j"$jobs" -LE "oclgrind|mpi_grids|knobs|harness")
