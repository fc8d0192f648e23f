#!/usr/bin/env bash
# The kernel checker: every kernel of kernels_cl/ and of the examples under the oclgrind simulator
# (ctest label oclgrind, tests/oclgrind/; docs/CHECKING.md), which reports out-of-bounds accesses,
# data races and OpenCL API misuse. A simulator runs every work item on one host thread, so this
# is kept apart from the README's test command; CI (.ci/run) runs it after that command, in the
# same build (build-ci, made by .ci/tests.sh when it is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh
jobs=$(nproc)
if [ ! -f build-ci/CTestTestfile.cmake ]; then
  cmake -S . -B build-ci -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_WERROR=ON
  cmake --build build-ci -j"$jobs"
fi
echo "== every kernel under oclgrind (ctest -L oclgrind)"
ctest --test-dir build-ci --output-on-failure -j"$jobs" -L oclgrind
