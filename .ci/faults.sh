#!/usr/bin/env bash
# The suite on weaker devices: POCL seen through AMP_DEVICE_LIMITS (runtime/core/device_limits.h,
# docs/CHECKING.md "Weaker devices"), in the README's test command's build (build-ci), which CI
# runs first (.ci/run). A test whose subject needs what a run takes away (a fixed tile of 256
# threads, doubles, textures, device times) skips, saying which capability it asked ampcl for;
# every other test adapts and passes.
#
# What runs under each setting, to stay within CI's time (tests/README.md, "Weaker devices"):
#   - the weakest device, every item at once (tiles of 32, 16 KiB of tile_static memory, no fp64,
#     no images, no device times): the whole suite but oclgrind's runs (another device), the knobs
#     runs (kernel paths forced by other knobs, checked by .ci/knobs.sh) and the MPI example's
#     grid shapes (mpi_grids: the example's logic, the same on any device). The items are
#     independent capabilities, and each test asks ampcl for the ones it needs, so one run proves
#     them all; a test that needs one of them skips whichever others hold;
#   - tiles of 64 and of 128: the same tests again, each with one limit: a program that picks its
#     tile from the device's limit picks 64 or 128 there, not 32, and a 256-thread kernel must
#     still be refused;
#   - kernel_tile=64: the launch tests only (label tiles' subject, tests/exec), whose kernels are
#     then tried above their reported limit and refused at enqueue (the path drivers take for a
#     kernel whose registers do not fit, exec/launch.c), with data intact.
#
# Measured 2026-12-07 on two cores shared with other engineers' builds and tests: 9 min 0 s wall
# for the whole script (the weakest device 1 min, tiles of 64 4 min 21 s, of 128 3 min 33 s, the
# launch tests 7 s; 180 tests per setting, 20, 2 and 2 of them skipped), within CI's time, so
# every setting runs the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
build=${1:-build-ci}
skip="oclgrind|knobs|mpi_grids"
for limits in "tile=32,local=16384,fp64=0,images=0,profiling=0" "tile=64" "tile=128"; do
  echo "== the suite on POCL seen with AMP_DEVICE_LIMITS=$limits"
  AMP_DEVICE_LIMITS=$limits ctest --test-dir "$build" --output-on-failure -j"$jobs" -LE "$skip"
done
echo "== the launch tests on POCL seen with AMP_DEVICE_LIMITS=kernel_tile=64"
AMP_DEVICE_LIMITS=kernel_tile=64 ctest --test-dir "$build" --output-on-failure -j"$jobs" \
  -R '^(launch|launch_errors|tiles|tile_sizes|tile_sizes\.two|tile_refused|kernel_args)$'
