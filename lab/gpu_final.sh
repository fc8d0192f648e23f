#!/usr/bin/env bash
# The session's last GPU check: build, the whole suite on the GPU, and the algorithms beside CuPy
# (the onesweep sort and the compactions after their look-back reads became atomic).
#   . .device/setup.sh && bash lab/gpu_final.sh "$OUT"
set -uo pipefail
out=${1:?usage: gpu_final.sh OUTDIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
B=build-gpu
export POCL_CACHE_DIR=$PWD/$B/pocl-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/gpu.txt" 2>&1
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release && cmake --build $B -j"$(nproc)"; } >"$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
t0=$(date +%s)
timeout 240 ctest --test-dir $B --output-on-failure -j8 --timeout 200 >"$out/ctest.txt" 2>&1
echo "ctest rc=$? $(($(date +%s) - t0)) s"; grep -E "tests passed|\(Failed\)|\(Timeout\)" "$out/ctest.txt"
timeout 150 $B/bench/amp-bench --algorithms --repeats 5 --csv "$out/ampcl_algorithms.csv" \
  >"$out/ampcl_algorithms.txt" 2>&1
grep -E "^(copy|sort|sort_pairs|stencil|stencil_2d|copy_if|unique) " "$out/ampcl_algorithms.txt"
timeout 150 python3 bench/cuda_reference.py --only algorithms --csv "$out/cupy_algorithms.csv" \
  >"$out/cupy_algorithms.txt" 2>&1
tail -14 "$out/cupy_algorithms.txt"
