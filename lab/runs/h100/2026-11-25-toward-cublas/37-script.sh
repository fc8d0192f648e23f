#!/usr/bin/env bash
B=build-suite
cmake --build $B -j16 2>&1 | grep -E "error|warning"
for o in "-DEXP_NO_FENCE" "-DEXP_NO_FENCE -DBK=32 -DSTAGES=3" "-DEXP_NO_FENCE -DSTAGES=2"; do
  echo "== bulk [$o]"
  timeout 120 $B/bench/amp-bench --workload matmul --impl bulk --types double --sizes 2048,4096 --repeats 3 ${o:+--fast-opts "$o"} 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
