#!/usr/bin/env bash
# The suite on a second OpenCL implementation: Intel's CPU runtime, unpacked from the Python
# package index into .intel-ocl/ by .ci/intel-cpu.sh (nothing installed). CI runs it after the
# README's test command (.ci/run), in that command's build (build-ci); it left that command when
# the command's run on the 2-core machine grew past its 8 minutes (README).
#
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
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
build=${AMP_BUILD_DIR:-build-ci}
echo "== the suite again on a second OpenCL implementation: Intel's CPU runtime (.ci/intel-cpu.sh)"
bash .ci/intel-cpu.sh
start=$(date +%s)
(. .intel-ocl/env.sh && "$build"/examples/amp-info | grep -E "default|^ocl" &&
  AMP_TEST_SMALL=1 ctest --test-dir "$build" --output-on-failure -j"$jobs" -LE "oclgrind|mpi_grids|knobs|harness")
echo "Intel pass: $(($(date +%s) - start)) s"
