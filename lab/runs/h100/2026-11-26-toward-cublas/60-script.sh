#!/usr/bin/env bash
# run 60: cuBLAS's SGEMM runs 256 x 128 tiles with K tiles of 8 and 3 stages, warps 4 x 2, 254
# registers (run 59: 16 x 8 of C per thread). matmul_fast at those shapes (16 x 8 and 8 x 16 per
# thread, K tiles of 8 and 16, with and without warp tiles) beside its default (K 32), ptxas's
# registers and spills for each; whether Nsight Compute sees an OpenCL kernel at all
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
S1="-DTS_M=256 -DTS_N=128 -DWPT_M=16 -DWPT_N=8"
S2="-DTS_M=128 -DTS_N=256 -DWPT_M=8 -DWPT_N=16"
set -- "-DTS_K=32" "$S1 -DTS_K=8" "$S1 -DTS_K=16" "$S1 -DTS_K=8 -DWARP_TILE=1" "$S1 -DTS_K=16 -DWARP_TILE=1" \
       "$S2 -DTS_K=8" "$S2 -DTS_K=16" "$S2 -DTS_K=8 -DWARP_TILE=1" "$S1 -DTS_K=32" "-DTS_K=32"
/tmp/regs kernels_cl/matmul_fast.cl "$@" 2>&1 | grep -E "^==|Used|spill"
for o in "$@"; do
  echo "-- float [$o]"; timeout 60 $ab --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 5 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
echo "== ncu, no kernel filter, on amp-bench"
timeout 200 /usr/local/cuda/bin/ncu --target-processes all --launch-count 2 --section SchedulerStats \
  $ab --workload matmul --impl fast --types float --sizes 4096 --repeats 1 --fast-opts "-DTS_K=32" 2>&1 | grep -E "==|Issued|Eligible|matmul|Section" | head -20
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types float --repeats 5 2>&1 | grep -E "SGEMM"
