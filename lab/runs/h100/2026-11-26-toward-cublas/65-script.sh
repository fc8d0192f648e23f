#!/usr/bin/env bash
# run 65: per-instruction stall samples (Nsight Compute's source page, SASS) of the float kernel,
# K 32 and K 16 (PTX from run 63, launched through CUDA as in run 61), and of cuBLAS's SGEMM, at
# 4096. Kept: our kernels' SASS with their samples (65-sgemm-k*-sass-stalls.csv, columns reduced)
# and 65-67-analysis.txt (65-analysis.py over all three; cuBLAS's own listing is not kept)
R=docs/perf/h100/2026-11-26
export PATH=$PATH:/usr/local/cuda/bin
cat > /tmp/sg.py <<'PY'
import cupy as cp
n = 4096; a = cp.random.rand(n, n, dtype=cp.float32); b = cp.random.rand(n, n, dtype=cp.float32)
c = a @ b; cp.cuda.Device().synchronize()
PY
for k in k32-h0 k16; do
  timeout 250 ncu --section SourceCounters --section WarpStateStats --kernel-name matmul_fast --launch-count 1 -o /tmp/$k python3 $R/61-cuda-launch.py exp/$k.ptx float 4096 128 128 16 16 2>&1 | tail -2
  ncu --import /tmp/$k.ncu-rep --page source --print-source sass --csv > $OUT/65-$k-source.csv 2>&1; wc -l $OUT/65-$k-source.csv
done
timeout 250 ncu --section SourceCounters --section WarpStateStats --kernel-name regex:gemm --launch-count 1 -o /tmp/cublas python3 /tmp/sg.py 2>&1 | tail -2
ncu --import /tmp/cublas.ncu-rep --page source --print-source sass --csv > $OUT/65-cublas-source.csv 2>&1; wc -l $OUT/65-cublas-source.csv
