#!/usr/bin/env bash
# run 90: the same command as run 86 on the final tree (step 13 with its copies kept inside A and B,
# run 89): every row of the toward-cuBLAS
# table from one run, the GPU tests first
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 >/dev/null 2>&1
timeout 560 bash bench/run_suite.sh $OUT/suite cublas > $OUT/suite.log 2>&1; echo "suite rc=$?"
grep -E "== cublas|tests passed|failed|kernel .*ok|FAIL|rror|nbody   tiled|gemm  " $OUT/suite.log | head -90
