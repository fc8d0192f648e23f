#!/usr/bin/env bash
# throwaway: matmul_tf32 shapes
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build $B -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
gcc -O1 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL || exit 1
sweep() { sizes=$1; shift; for o in "$@"; do
  echo "== tf32 [$o] at $sizes"; /tmp/regs kernels_cl/matmul_tf32.cl "$o" | grep -E 'Used|error'
  $B/bench/amp-bench --workload matmul --impl tf32 --types float --sizes $sizes --repeats 3 ${o:+--fast-opts "$o"} 2>&1 | grep -E 'kernel .*GFLOP|FAIL|rror'
done; }
sweep 4096,8192 "-DBK=32 -DSTAGES=4" "-DBK=32 -DSTAGES=3" "-DBK=32 -DSTAGES=5" \
  "-DBM=256 -DBN=128 -DBK=32 -DSTAGES=4" "-DWN=64 -DBK=32 -DSTAGES=4" \
  "-DBN=256 -DWN=64 -DBK=32 -DSTAGES=3" "-DBK=32 -DSTAGES=4 -DTF_ROUND=0" \
  "-DBM=128 -DBN=64 -DBK=32 -DSTAGES=4" "-DBM=256 -DBN=128 -DWN=64 -DBK=32 -DSTAGES=3" \
  "-DBM=256 -DBN=128 -DWM=128 -DBK=16 -DSTAGES=4"
sweep 1000,1024,2048,3000 "-DBK=32 -DSTAGES=4" "-DBM=128 -DBN=64 -DBK=32 -DSTAGES=4" "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DBK=32 -DSTAGES=4" "-DBM=64 -DBN=128 -DWM=32 -DWN=64 -DBK=32 -DSTAGES=4"
