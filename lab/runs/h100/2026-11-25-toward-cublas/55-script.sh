#!/usr/bin/env bash
# (throwaway -DEXP_ORDER switch, as 0 / 1 / 2 / 3 / 4 here; committed as -DFMA_ORDER: EXP_ORDER 3 is FMA_ORDER 1, EXP_ORDER 4 is FMA_ORDER 2)
# run 55: the order of matmul_fast's multiply-adds (a throwaway -DEXP_ORDER switch): 0 as committed
# (per A vector and B vector, 4 rows of a float4), 1 (one A value against all of a row's columns),
# 2 (one B value against all of a column's rows); float (K 32) and the double shape; cuBLAS in the same run
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=32" "-DTS_K=32 -DEXP_ORDER=1" "-DTS_K=32 -DEXP_ORDER=2" 2>&1 | grep -E "^==|Used|spill"
for o in "-DTS_K=32" "-DTS_K=32 -DEXP_ORDER=1" "-DTS_K=32 -DEXP_ORDER=2" "-DTS_K=32" "-DTS_K=32 -DEXP_ORDER=1" "-DTS_K=32 -DEXP_ORDER=2"; do
  echo "-- float [$o]"; timeout 60 $ab --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 5 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
for o in "" "-DEXP_ORDER=1" "-DEXP_ORDER=2"; do
  echo "-- double [$D $o]"; timeout 60 $ab --workload matmul --impl fast --types double --sizes 4096,8192 --repeats 3 --fast-opts "$D $o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
timeout 120 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types float --repeats 5 2>&1 | grep -E "SGEMM"
