#!/usr/bin/env bash
# (throwaway -DEXP_ORDER switch, as 0 / 1 / 2 / 3 / 4 here; committed as -DFMA_ORDER: EXP_ORDER 3 is FMA_ORDER 1, EXP_ORDER 4 is FMA_ORDER 2)
# run 56: more orders of matmul_fast's multiply-adds (-DEXP_ORDER): 3 rows serpentine, 4 columns
# serpentine, beside 0 (as committed) and 2 (a column's B value against all its rows); cuBLAS in the same run
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=32 -DEXP_ORDER=3" "-DTS_K=32 -DEXP_ORDER=4" 2>&1 | grep -E "^==|Used|spill"
for o in 0 2 3 4 0 2 3 4; do
  echo "-- float K32 [EXP_ORDER=$o]"; timeout 60 $ab --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 5 --fast-opts "-DTS_K=32 -DEXP_ORDER=$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
for o in 0 2 3 4; do
  echo "-- float 64x128 K16 at 1000,1024 [EXP_ORDER=$o]"; timeout 60 $ab --workload matmul --impl fast --types float --sizes 1000,1024 --repeats 5 --fast-opts "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4 -DEXP_ORDER=$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
for o in 0 2 3 4; do
  echo "-- double [EXP_ORDER=$o]"; timeout 60 $ab --workload matmul --impl fast --types double --sizes 4096,8192 --repeats 3 --fast-opts "$D -DEXP_ORDER=$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
timeout 120 python3 bench/cuda_reference.py --only gemm --gemm-sizes 1000,1024,4096,8192 --gemm-types float --repeats 5 2>&1 | grep -E "SGEMM"
