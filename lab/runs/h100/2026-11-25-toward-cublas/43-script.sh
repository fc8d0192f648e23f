#!/usr/bin/env bash
# throwaway: matmul_dmma_bulk with the consumers releasing a buffer before its last slice's mma
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 2>&1 | grep -E "error|warning"
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
for o in "" "-DBK=32 -DSTAGES=2"; do /tmp/regs kernels_cl/matmul_dmma_bulk.cl "$o"; done 2>&1 | grep -E "^==|Used|error"
timeout 200 $B/tests/test_kernels_tensor 2>&1 | tail -2
for o in "" "-DSTAGES=2" "-DBK=32 -DSTAGES=2" "-DBK=32 -DSTAGES=3" "-DSTAGES=4"; do
  echo "== bulk [$o]"
  timeout 120 $B/bench/amp-bench --workload matmul --impl bulk --types double --sizes 2048,3000,4096,8192 --repeats 5 ${o:+--fast-opts "$o"} 2>&1 | grep -E "kernel|rror" | sed "s/, end to end.*ms,/,/"
done
echo "== tensor"
timeout 120 $B/bench/amp-bench --workload matmul --impl tensor --types double --sizes 2048,3000,4096,8192 --repeats 5 2>&1 | grep -E "kernel|rror" | sed "s/, end to end.*ms,/,/"
