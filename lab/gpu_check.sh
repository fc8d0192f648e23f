#!/usr/bin/env bash
# The restructuring's before/after check on the GPU machine: build, the whole ctest suite on the
# default accelerator (the GPU; sweeps at full size there), the tests labelled debug again with
# AMP_DEBUG=1, and amp-bench's cuBLAS comparison (SGEMM and DGEMM at 4096 and
# 8192: ampcl's fast kernel, amp_blas_gemm and CLBlast, beside cuBLAS through CuPy in the same run).
#   . .device/setup.sh && bash lab/gpu_check.sh "$OUT"
set -uo pipefail
out=${1:?usage: gpu_check.sh OUTDIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
B=build-gpu
export POCL_CACHE_DIR=$PWD/$B/pocl-cache
# (the GPU machine gets a copy of the working tree whose git metadata may be older: the run's
# README names the commit)
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
t0=$(date +%s)
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release && cmake --build $B -j"$(nproc)"; } >"$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
echo "build $(($(date +%s) - t0)) s"
t0=$(date +%s)
timeout 330 ctest --test-dir $B --output-on-failure -j8 --timeout 300 >"$out/ctest.txt" 2>&1
echo "ctest rc=$? $(($(date +%s) - t0)) s"; tail -25 "$out/ctest.txt"
# What debug mode changes, at full size: on a CPU device CI runs the sweeps' small cases only.
t0=$(date +%s)
AMP_DEBUG=1 timeout 300 ctest --test-dir $B --output-on-failure -j8 --timeout 280 -L debug \
  >"$out/ctest-debug.txt" 2>&1
echo "ctest (AMP_DEBUG=1, label debug) rc=$? $(($(date +%s) - t0)) s"; tail -8 "$out/ctest-debug.txt"
ab=$B/bench/amp-bench
for t in float double; do
  timeout 150 $ab --workload matmul --impl fast,gemm,clblast --types $t --sizes 4096,8192 --repeats 3 \
    --csv "$out/gemm_$t.csv" >"$out/gemm_$t.txt" 2>&1
  tail -12 "$out/gemm_$t.txt"
done
timeout 120 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --csv "$out/cublas.csv" \
  >"$out/cublas.txt" 2>&1
tail -12 "$out/cublas.txt"
