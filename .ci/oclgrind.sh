#!/usr/bin/env bash
# The kernel checker: every kernel of kernels_cl/ and of the examples under the oclgrind simulator
# (ctest label oclgrind, tests/oclgrind/; docs/CHECKING.md), which reports out-of-bounds accesses,
# data races, reads of uninitialised values and OpenCL API misuse. A simulator runs every work item on one host thread, so this
# is kept apart from the README's test command; CI (.ci/run) runs it after that command, in the
# same build (build-ci, made by .ci/tests.sh when it is missing).
#
# Every run has --check-api, --data-races and --uninitialized (tests/oclgrind/grind.sh). The
# last needs llvm-dis and llvm-as of the LLVM that oclgrind links (tests/oclgrind/whole_writes.c
# says why): installed here when missing (Debian: llvm-14 for oclgrind 21.10).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh
# (ls fails for the path that does not exist: not an error under pipefail here)
rt=$(ls /usr/lib/oclgrind/liboclgrind-rt.so /usr/lib/*/oclgrind/liboclgrind-rt.so 2>/dev/null | head -1 || true)
llvm=
[ -z "$rt" ] || llvm=$(ldd "$rt" | sed -n 's/.*libLLVM-\([0-9][0-9]*\).*/\1/p' | head -1)
if [ -n "$llvm" ] && ! command -v "llvm-dis-$llvm" >/dev/null; then
  echo "oclgrind: installing llvm-$llvm (llvm-dis, llvm-as)"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "llvm-$llvm"
fi
jobs=$(nproc)
if [ ! -f build-ci/CTestTestfile.cmake ]; then
  cmake -S . -B build-ci -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_WERROR=ON
else
  cmake build-ci >/dev/null # finds llvm-dis/llvm-as if they were installed just now
fi
cmake --build build-ci -j"$jobs"
echo "== every kernel under oclgrind (ctest -L oclgrind)"
ctest --test-dir build-ci --output-on-failure -j"$jobs" -L oclgrind
