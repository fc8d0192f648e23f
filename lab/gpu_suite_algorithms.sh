#!/usr/bin/env bash
# The whole suite on the GPU and the algorithms beside CuPy in one call: build, ctest, then
# amp-bench --algorithms and cuda_reference.py --only algorithms (first run 2026-11-27, after the
# onesweep sort's and the compactions' look-back reads became atomic: run folder
# lab/runs/h100/2026-11-27-atomic-lookback/).
#   . .device/setup.sh && bash lab/gpu_suite_algorithms.sh "$OUT"
# The files go straight into $OUT.
NAME=suite-algorithms ARCHIVE=0
. "$(dirname "$0")/gpu_common.sh"
gpu_build
t0=$(date +%s)
timeout 240 ctest --test-dir $B --output-on-failure -j8 --timeout 200 >"$out/ctest.txt" 2>&1
echo "ctest rc=$? $(($(date +%s) - t0)) s"; grep -E "tests passed|\(Failed\)|\(Timeout\)" "$out/ctest.txt"
timeout 150 $B/bench/amp-bench --algorithms --repeats 5 --csv "$out/ampcl_algorithms.csv" \
  >"$out/ampcl_algorithms.txt" 2>&1
grep -E "^(copy|sort|sort_pairs|stencil|stencil_2d|copy_if|unique) " "$out/ampcl_algorithms.txt"
timeout 150 python3 bench/cuda_reference.py --only algorithms --csv "$out/cupy_algorithms.csv" \
  >"$out/cupy_algorithms.txt" 2>&1
tail -14 "$out/cupy_algorithms.txt"
