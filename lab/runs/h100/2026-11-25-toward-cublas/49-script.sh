#!/usr/bin/env bash
# run 49: the suite's cublas part on HEAD (nbody_pairs in), one run for every row of the table
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 >/dev/null 2>&1
timeout 400 bash bench/run_suite.sh $OUT/suite cublas > $OUT/suite.log 2>&1; echo "suite rc=$?"
grep -E "== cublas|tests passed|failed|kernel .*ok|FAIL|rror|nbody   tiled|gemm  " $OUT/suite.log | head -80
