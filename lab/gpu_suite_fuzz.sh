#!/usr/bin/env bash
# The whole suite on the GPU, debug mode, NVIDIA's math accuracy and the long fuzzing run, in one
# call of the GPU machine (issues 33, 36, 37; 2026-11-27, after the texture, security and
# algorithm branches merged: run folder lab/runs/h200x4/2026-11-27-suite-fuzz/). From the
# repository root:
#
#   . .device/setup.sh && FUZZ_PREBUILT=.fuzzbin bash lab/gpu_suite_fuzz.sh "$OUT" [FUZZ_WORKERS]
#
# - the long fuzzing run (lab/fuzz_long.sh: one CPU-hour per target over FUZZ_WORKERS cores,
#   default all but 16), in the background, with fuzz binaries built beforehand (FUZZ_PREBUILT);
# - meanwhile on the GPU: build, amp-info, the whole ctest suite on the default accelerator (the
#   GPU; sweeps at full size), the tests labelled debug again with AMP_DEBUG=1, and
#   `test_kernel_math_accuracy report` (NVIDIA's native_* accuracy for docs/KERNELS.md).
set -uo pipefail
out=${1:?usage: gpu_suite_fuzz.sh OUTDIR [FUZZ_WORKERS]}
cd "$(dirname "$0")/.."
mkdir -p "$out"
cores=$(nproc)
fw=${2:-$((cores > 24 ? cores - 16 : cores / 2))}
fuzz_pid=
if [ -n "${FUZZ_PREBUILT:-}" ]; then
  # fuzz_long.sh spreads over $(nproc): give it its share of the cores
  (taskset -c "0-$((fw - 1))" bash lab/fuzz_long.sh "$out/fuzz" 3600 >"$out/fuzz.txt" 2>&1) &
  fuzz_pid=$!
  gpu_cpus="$fw-$((cores - 1))"
else
  gpu_cpus="0-$((cores - 1))"
fi
B=build-gpu
export POCL_CACHE_DIR=$PWD/$B/pocl-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/gpu.txt" 2>&1
t0=$(date +%s)
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release &&
  taskset -c "$gpu_cpus" cmake --build $B -j16; } >"$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
echo "build $(($(date +%s) - t0)) s"
$B/examples/amp-info >"$out/amp-info.txt" 2>&1
head -40 "$out/amp-info.txt" | grep -E "^ocl|default|max tile|tile_static"
$B/tests/kernels/test_kernel_math_accuracy report >"$out/math_accuracy.txt" 2>&1
t0=$(date +%s)
taskset -c "$gpu_cpus" timeout 330 ctest --test-dir $B --output-on-failure -j8 --timeout 300 \
  >"$out/ctest.txt" 2>&1
echo "ctest rc=$? $(($(date +%s) - t0)) s"; grep -E "tests passed|\(Failed\)|\(Timeout\)|Not Run" "$out/ctest.txt"
t0=$(date +%s)
AMP_DEBUG=1 taskset -c "$gpu_cpus" timeout 120 ctest --test-dir $B --output-on-failure -j8 \
  --timeout 110 -L debug >"$out/ctest-debug.txt" 2>&1
echo "ctest (AMP_DEBUG=1, label debug) rc=$? $(($(date +%s) - t0)) s"
grep -E "tests passed|\(Failed\)|\(Timeout\)" "$out/ctest-debug.txt"
if [ -n "$fuzz_pid" ]; then
  wait "$fuzz_pid"
  echo "fuzz rc=$?"; cat "$out/fuzz/summary.txt" 2>/dev/null || tail -20 "$out/fuzz.txt"
fi
