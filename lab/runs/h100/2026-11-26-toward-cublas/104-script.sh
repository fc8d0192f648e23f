#!/usr/bin/env bash
# (kept as a record) the kernel change this run measured is 104-fma-scalar.diff; it was not kept in the tree. Its first attempt (not kept) ran both the scalar and the vector multiply-adds, and the bench FAILED every cell at twice the right values
# run 104: ptx-probe's pinner_o2 (run 103: the inner loop with scalar accumulators, columns
# serpentine, 27.0-27.1 TFLOP/s, 747 of 1,024 DFMA with ptxas's reuse flag) against pinner (25.7,
# 642): the same order as matmul_fast's FMA_ORDER=2, written over vectors there. A throwaway
# -DFMA_SCALAR (1: `+=` on scalars, 2: fma() on scalars, columns serpentine) in matmul_fast: the
# double plans (ring and plain) and the float ring, with and without, twice, interleaved
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
DR="-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3"
DP="-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
FR="-DT=float -DTS_K=32 -DASYNC_STAGES=4"
for rep in 1 2; do
  for s in 0 1 2; do
    echo "-- double ring [FMA_SCALAR=$s]"; timeout 90 $ab --workload matmul --impl fast --types double --sizes 3000,4096,8192 --repeats 5 --fast-opts "$DR -DFMA_SCALAR=$s" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
  done
  for s in 0 1; do
    echo "-- double plain [FMA_SCALAR=$s]"; timeout 90 $ab --workload matmul --impl fast --types double --sizes 4096,8192 --repeats 5 --fast-opts "$DP -DFMA_SCALAR=$s" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
    echo "-- float ring [FMA_SCALAR=$s]"; timeout 90 $ab --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 5 --fast-opts "$FR -DFMA_SCALAR=$s" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
  done
done
