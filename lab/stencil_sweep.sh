#!/usr/bin/env bash
# Issue 35, target 3: the stencil's kernels and shapes on the GPU machine in one call. Builds
# (Release, $BUILD, default build-stencil), runs `ctest -R stencil` on the GPU (the default
# accelerator) and the same under AMP_DEBUG=1, then lab/stencil_sweep.c over the knobs of
# runtime/algorithms/stencil.c: amp_gaussian_blur (7 x 7) and amp_stencil_2d (7 x 7) on a
# 16384^2 float image beside the device copy of the same bytes, each variant's median time and
# ratio to the copy (goal: blur >= 0.70). With BENCH=1 also amp-bench --algorithms (defaults).
#   bash lab/stencil_sweep.sh "$OUT"
set -uo pipefail
out=${1:?usage: stencil_sweep.sh OUTDIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
B=${BUILD:-build-stencil}
export POCL_CACHE_DIR=$PWD/$B/pocl-cache
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
git log -1 --format='%H %s' >"$out/commit.txt" 2>&1
t0=$(date +%s)
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release &&
  cmake --build $B -j"$(nproc)" --target stencil-sweep test_algo_stencil amp-bench; } >"$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
echo "build $(($(date +%s) - t0)) s"
timeout 200 ctest --test-dir $B -R stencil -E oclgrind --output-on-failure --timeout 180 >"$out/ctest.txt" 2>&1
echo "ctest -R stencil rc=$?"; grep -E "Test +#|tests passed" "$out/ctest.txt"
AMP_DEBUG=1 timeout 200 ctest --test-dir $B -R stencil -E oclgrind --output-on-failure --timeout 180 \
  >"$out/ctest-debug.txt" 2>&1
echo "ctest -R stencil (AMP_DEBUG=1) rc=$?"; grep -E "tests passed" "$out/ctest-debug.txt"
# The variants: today's tile_static kernels first, then the column kernels' shapes.
v=(
  AMP_STENCIL_COLUMNS=0
  default
  AMP_STENCIL_ROWS=8
  AMP_STENCIL_ROWS=16
  AMP_STENCIL_ROWS=64
  AMP_STENCIL_ROWS=128
  AMP_STENCIL_TX=32
  AMP_STENCIL_TX=128
  AMP_STENCIL_TX=256
  AMP_STENCIL_TX=32,AMP_STENCIL_TY=4
  AMP_STENCIL_TX=64,AMP_STENCIL_TY=4
  AMP_STENCIL_ROWS=64,AMP_STENCIL_TX=128
  AMP_STENCIL_ROWS=16,AMP_STENCIL_TX=128
  AMP_STENCIL_ROWS=64,AMP_STENCIL_TX=256
  AMP_STENCIL_RING=1
  AMP_STENCIL_RING=1,AMP_STENCIL_ROWS=64
  AMP_STENCIL_RING=1,AMP_STENCIL_ROWS=128,AMP_STENCIL_TX=128
  AMP_STENCIL_ALIGNED=0
  default
)
t0=$(date +%s)
timeout 420 $B/lab/stencil-sweep --side 16384 --repeats 9 --csv "$out/sweep.csv" "${v[@]}" \
  >"$out/sweep.txt" 2>"$out/sweep.err"
echo "stencil-sweep rc=$? $(($(date +%s) - t0)) s"; cat "$out/sweep.txt"; tail -5 "$out/sweep.err"
if [ "${BENCH:-0}" = 1 ]; then
  timeout 300 $B/bench/amp-bench --algorithms --repeats 5 --csv "$out/algorithms.csv" \
    >"$out/algorithms.txt" 2>"$out/algorithms.err"
  echo "amp-bench --algorithms rc=$?"; tail -14 "$out/algorithms.txt"
fi
