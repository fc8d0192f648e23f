#!/usr/bin/env bash
# throwaway: matmul_dmma_bulk shape sweep around the defaults
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 2>&1 | grep -E "error|warning"
for o in "" "-DSTAGES=2" "-DPRODUCERS=3" "-DGROUP_M=4" "-DGROUP_M=16" "-DWM=32 -DWN=64" "-DBK=32 -DSTAGES=2" "-DPRODUCERS=3 -DSTAGES=4"; do
  echo "== bulk [$o]"
  timeout 120 $B/bench/amp-bench --workload matmul --impl bulk --types double --sizes 3000,4096,8192 --repeats 5 ${o:+--fast-opts "$o"} 2>&1 | grep -E "kernel|rror" | sed "s/, end to end.*ms,/,/"
done
