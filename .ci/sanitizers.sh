#!/usr/bin/env bash
# The suite under AddressSanitizer + UndefinedBehaviorSanitizer (and LeakSanitizer, with the
# suppressions of tests/lsan.supp), on POCL, sweeps at their small sizes (label sweep). CI runs it
# after the README's test command (.ci/run), whose build it reuses for POCL's kernel cache.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh
jobs=$(nproc)
echo "== build with ASan + UBSan and test"
# The first build's POCL kernel cache: kernels POCL compiled there are not compiled again under
# the sanitizers (where the slow unwinder, needed for the LSan suppressions, makes that slow).
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DAMP_WERROR=ON -DAMP_SANITIZE=ON \
  -DAMP_POCL_CACHE_DIR="$PWD/build-ci/pocl-cache"
cmake --build build-asan -j"$jobs"
ctest --test-dir build-asan --output-on-failure -j"$jobs"
