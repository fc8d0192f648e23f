#!/usr/bin/env bash
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 2>&1 | grep -E "error|warning"
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
for o in "" "-DPRODUCERS=4" "-DPRODUCERS=4 -DBK=32 -DSTAGES=3"; do /tmp/regs kernels_cl/matmul_dmma_bulk.cl "$o"; done 2>&1 | grep -E "^==|Used|error"
timeout 200 $B/tests/test_kernels_tensor 2>&1 | tail -3
export EXP_TIME_FAILED=1
for o in "-DPRODUCERS=1" "" "-DPRODUCERS=4" "-DPRODUCERS=2 -DEXP_NO_MMA" "-DPRODUCERS=4 -DEXP_NO_MMA" "-DPRODUCERS=4 -DSTAGES=3" "-DPRODUCERS=4 -DSTAGES=6" "-DPRODUCERS=4 -DBK=32 -DSTAGES=3" "-DPRODUCERS=4 -DBK=8 -DSTAGES=8"; do
  echo "== bulk [$o]"
  timeout 120 $B/bench/amp-bench --workload matmul --impl bulk --types double --sizes 4096,8192 --repeats 3 ${o:+--fast-opts "$o"} 2>&1 | grep -E "kernel|rror|EXP" | sed "s/, end to end.*ms,/,/"
done
