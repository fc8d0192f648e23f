#!/usr/bin/env bash
# throwaway: matmul_dmma_bulk first light
B=build-suite
git log -1 --format=%h 2>/dev/null
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build $B -j16 2>&1 | grep -E "error|warning" 
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
for o in "" "-DBK=32 -DSTAGES=3" "-DSTAGES=3" "-DSTAGES=6" "-DBK=8 -DSTAGES=8"; do /tmp/regs kernels_cl/matmul_dmma_bulk.cl "$o"; done 2>&1 | grep -v "^ptxas info    : Function properties\|bytes stack frame\|Compiling entry"
timeout 200 $B/tests/test_kernels_tensor 2>&1 | tail -15
for o in "" "-DSTAGES=3" "-DSTAGES=6" "-DBK=32 -DSTAGES=3" "-DBK=8 -DSTAGES=8"; do
  echo "== bulk [$o]"
  timeout 120 $B/bench/amp-bench --workload matmul --impl bulk --types double --sizes 2048,4096,8192 --repeats 3 ${o:+--fast-opts "$o"} 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
echo "== tensor, gemm"
timeout 200 $B/bench/amp-bench --workload matmul --impl tensor,gemm --types double --sizes 1000,2048,4096,8192 --repeats 3 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
