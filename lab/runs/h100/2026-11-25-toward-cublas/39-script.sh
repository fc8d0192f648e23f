#!/usr/bin/env bash
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 2>&1 | grep -E "error|warning"
export EXP_TIME_FAILED=1
for o in "" "-DEXP_NO_MMA" "-DEXP_NO_COPY" "-DWM=32 -DWN=64" "-DWM=32 -DWN=64 -DEXP_NO_COPY" "-DBK=32 -DSTAGES=3 -DEXP_NO_COPY" "-DBK=32 -DSTAGES=3 -DEXP_NO_MMA"; do
  echo "== bulk [$o]"
  timeout 120 $B/bench/amp-bench --workload matmul --impl bulk --types double --sizes 4096,8192 --repeats 3 ${o:+--fast-opts "$o"} 2>&1 | grep -E "kernel|rror|EXP" | sed "s/, end to end.*ms,/,/"
done
