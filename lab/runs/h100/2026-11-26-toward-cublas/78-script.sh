#!/usr/bin/env bash
# (kept as a record) the kernel change this run measured is 78-fetch-at-nc.diff; it was not kept in the tree
# run 78: two throwaway switches of matmul_fast: -DFETCH_AT=k issues the next K tile's global
# loads after k steps of the multiply-adds instead of before them (the 32 staging registers live
# for part of the loop, all loads still in one place); -DMF_NC=1 reads the interior tiles' A and
# B through the read-only path (ld.global.nc in inline PTX). Registers; against the unchanged
# kernel in the same run; cuBLAS in the same run
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
echo "== registers"
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=32" "-DTS_K=32 -DFETCH_AT=8" "-DTS_K=32 -DFETCH_AT=16" "-DTS_K=32 -DFETCH_AT=24" "-DTS_K=32 -DMF_NC=1" "-DTS_K=16 -DFETCH_AT=8" "-DT=double $D -DFETCH_AT=4" 2>&1 | grep -E "^==|Used|spill|rror"
m() { echo "-- $1 [$2]"; timeout 90 $ab --workload matmul --impl fast --types $1 --sizes $3 --repeats ${4:-5} --fast-opts "$2" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"; }
echo "== float"
m float "-DTS_K=32" 4096,8192
m float "-DTS_K=32 -DFETCH_AT=8" 4096,8192
m float "-DTS_K=32 -DFETCH_AT=16" 4096,8192
m float "-DTS_K=32 -DFETCH_AT=24" 4096,8192
m float "-DTS_K=32 -DMF_NC=1" 4096,8192
m float "-DTS_K=32 -DMF_NC=1 -DFETCH_AT=16" 4096,8192
m float "-DTS_K=16" 4096,8192
m float "-DTS_K=16 -DFETCH_AT=8" 4096,8192
m float "-DTS_K=32" 4096,8192
echo "== double"
m double "$D" 4096,8192 3
m double "$D -DFETCH_AT=4" 4096,8192 3
m double "$D" 4096,8192 3
echo "== cuBLAS"
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types float --repeats 5 2>&1 | grep -E "GEMM"
