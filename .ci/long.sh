#!/usr/bin/env bash
# The runs labelled long, on POCL, in the README's test command's build (build-ci), which CI runs
# first (.ci/run): the longest sweeps on a CPU device, where POCL compiles a kernel again for every
# tile shape and option set (kernel_collectives, kernels_matmul, kernels_nbody, algo_stencil,
# tile_sizes.tried, algo_compact.warp_one_pass; about 4 minutes of the 2 cores' time). The test
# command leaves them out to stay within its 8 minutes (README); the Intel, rusticl, weaker-device
# and sanitizer passes run them.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
build=${AMP_BUILD_DIR:-build-ci}
echo "== the long sweeps on POCL (label long)"
ctest --test-dir "$build" --output-on-failure -j"$jobs" -L long -LE oclgrind
