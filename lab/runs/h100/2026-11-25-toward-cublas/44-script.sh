#!/usr/bin/env bash
# throwaway: setmaxnreg (producers give registers to consumers), with K 16/3 stages and K 32/2 stages
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 2>&1 | grep -E "error|warning"
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
for o in "-DREG_SPLIT=1" "-DREG_SPLIT=1 -DBK=32 -DSTAGES=2"; do /tmp/regs kernels_cl/matmul_dmma_bulk.cl "$o"; done 2>&1 | grep -E "^==|Used|error|arning"
for o in "" "-DREG_SPLIT=1" "-DBK=32 -DSTAGES=2" "-DREG_SPLIT=1 -DBK=32 -DSTAGES=2" "-DREG_SPLIT=1 -DSTAGES=4"; do
  echo "== bulk [$o]"
  timeout 120 $B/bench/amp-bench --workload matmul --impl bulk --types double --sizes 2048,3000,4096,8192 --repeats 5 ${o:+--fast-opts "$o"} 2>&1 | grep -E "kernel|rror" | sed "s/, end to end.*ms,/,/"
done
