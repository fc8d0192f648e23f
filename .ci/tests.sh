#!/usr/bin/env bash
# Quick start, second command: install what is missing, then build and run the whole test suite
# through ctest: warnings as errors, then the tests that debug mode changes (AMP_DEBUG=1: every
# view access in a kernel checked; ctest label `debug`, tests/CMakeLists.txt says which and why),
# then under AddressSanitizer + UndefinedBehaviorSanitizer.
# Also checks the formatting of every C file against .clang-format. The kernels under the oclgrind
# simulator are .ci/oclgrind.sh, which CI runs after this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh
jobs=$(nproc)

echo "== format check"
git -c safe.directory="$PWD" ls-files '*.c' '*.h' | grep -v '^kernels_cl/' | xargs clang-format --dry-run --Werror

echo "== build (warnings are errors) and test"
cmake -S . -B build-ci -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_WERROR=ON
cmake --build build-ci -j"$jobs"
ctest --test-dir build-ci --output-on-failure -j"$jobs" -LE oclgrind

echo "== the tests debug mode changes, in debug mode (AMP_DEBUG=1, label debug)"
AMP_DEBUG=1 ctest --test-dir build-ci --output-on-failure -j"$jobs" -L debug

echo "== build with ASan + UBSan and test"
# The first build's POCL kernel cache: kernels POCL compiled there are not compiled again under
# the sanitizers (where the slow unwinder, needed for the LSan suppressions, makes that slow).
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DAMP_WERROR=ON -DAMP_SANITIZE=ON \
  -DAMP_POCL_CACHE_DIR="$PWD/build-ci/pocl-cache"
cmake --build build-asan -j"$jobs"
ctest --test-dir build-asan --output-on-failure -j"$jobs"
