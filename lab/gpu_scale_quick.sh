#!/usr/bin/env bash
# Four GPUs in about four minutes (issue 34; 2026-11-27, final.txt in
# lab/runs/h200x4/2026-11-27-scale/): amp_blas_gemm_multi on 4 GPUs against one GPU's fast kernel
# (amp-bench, same process), add-exp on 4 GPUs from pinned memory, and amp-mpi-matmul n = 32768 on
# 1 rank (fox) and 4 ranks (shared, panels of 4096). Everything goes to one log, written as it runs
# (the device returns at most 8 files):
#   . .device/setup.sh && bash lab/gpu_scale_quick.sh "$OUT"
set -uo pipefail
out=${1:?usage: gpu_scale_quick.sh OUTDIR}
cd "$(dirname "$0")/.."
log=$out/final.txt
B=build-gpu
G4=ocl/nvidia-cuda/0,ocl/nvidia-cuda/1,ocl/nvidia-cuda/2,ocl/nvidia-cuda/3
say() { echo "$@" | tee -a "$log"; }
t0=$(date +%s)
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null &&
  cmake --build $B -j"$(nproc)" --target amp-bench mpi_matmul >/dev/null; } 2>&1 | tail -5 >>"$log"
say "== build $(($(date +%s) - t0)) s"
R="mpirun --allow-run-as-root --oversubscribe --bind-to none -x OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"
M=$B/examples/mpi_matmul/amp-mpi-matmul
say "== mpi np4 shared panel 4096"
timeout 60 $R -np 4 $M -n 32768 --algorithm shared --panel 4096 --verify --pingpong >>"$log" 2>&1; say "rc=$?"
say "== mpi np1 fox"
timeout 45 $R -np 1 $M -n 32768 --algorithm fox --verify >>"$log" 2>&1; say "rc=$?"
say "== addexp 4 GPUs pinned, 4 pieces"
AMP_BENCH_PIECES=4 timeout 40 $B/bench/amp-bench --workload addexp --impl fast,multi --sizes 2^30 \
  --repeats 3 --multi $G4 --pinned >>"$log" 2>&1; say "rc=$?"
say "== matmul 32768 gemm-multi 4 GPUs"
AMP_GEMM_MULTI_VERBOSE=1 timeout 90 $B/bench/amp-bench --workload matmul --impl fast,gemm-multi \
  --types float --sizes 32768 --repeats 2 --multi $G4 >>"$log" 2>&1; say "rc=$?"
say "== done $(($(date +%s) - t0)) s"
